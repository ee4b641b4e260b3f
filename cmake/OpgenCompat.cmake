# OpgenCompat.cmake: opgen_add_compat_test(), the backward-compatibility
# lint (`opgen compat`) as a CTest test, and a target that rewrites the
# baseline after an intended change.
#
#   opgen_add_compat_test(NAME <name>
#                         BASELINE <baseline>...
#                         SPECS <spec.op>...
#                         [STRICT]
#                         [FORMAT text|json|github]
#                         [WORKING_DIRECTORY <dir>])
#
# adds the test <name>, running
#   opgen compat [--strict] --format=<format> --baseline <baseline>... <specs>
# in <dir>, and, when the baseline is one dump (a file not named *.op), the
# target <name>_update_baseline (not built by default), running
#   opgen dump -o <baseline> <specs>
# in <dir>. Build it after a change that is meant to be compatible, and
# commit the new baseline with the change.
#
#   BASELINE    a JSON file written by `opgen dump`, or old .op files.
#   SPECS       the spec files of today.
#   STRICT      tightened `require` rules fail the test (REQUIRE_TIGHTENED
#               is an error, not a warning).
#   FORMAT      default: github when the environment variable
#               GITHUB_ACTIONS is "true" at configure time (the findings
#               become annotations on the pull request), else text.
#   WORKING_DIRECTORY  default ${CMAKE_CURRENT_SOURCE_DIR}. Relative
#               BASELINE and SPECS paths are relative to it and passed as
#               written: they are the paths the findings and the dump's
#               "file" fields name (make it the repository root for
#               GitHub annotations).
#
# The opgen executable is the target opgen::opgen (after
# find_package(opgen)) or, in opgen's own tree, opgen.

include_guard(GLOBAL)

function(_opgen_compat_exe out_var)
  foreach(name opgen::opgen opgen)
    if(TARGET ${name})
      get_target_property(aliased ${name} ALIASED_TARGET)
      if(aliased)
        set(${out_var} ${aliased} PARENT_SCOPE)
      else()
        set(${out_var} ${name} PARENT_SCOPE)
      endif()
      return()
    endif()
  endforeach()
  message(FATAL_ERROR
    "opgen_add_compat_test: no target 'opgen::opgen' is visible here; call "
    "find_package(opgen REQUIRED) first.")
endfunction()

function(opgen_add_compat_test)
  cmake_parse_arguments(PARSE_ARGV 0 arg "STRICT"
    "NAME;FORMAT;WORKING_DIRECTORY" "BASELINE;SPECS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR
      "opgen_add_compat_test: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  foreach(required NAME BASELINE SPECS)
    if(NOT arg_${required})
      message(FATAL_ERROR "opgen_add_compat_test: ${required} is required")
    endif()
  endforeach()
  if(NOT arg_FORMAT)
    if("$ENV{GITHUB_ACTIONS}" STREQUAL "true")
      set(arg_FORMAT github)
    else()
      set(arg_FORMAT text)
    endif()
  endif()
  if(NOT arg_FORMAT MATCHES "^(text|json|github)$")
    message(FATAL_ERROR
      "opgen_add_compat_test: FORMAT is text, json or github, not "
      "'${arg_FORMAT}'")
  endif()
  if(NOT arg_WORKING_DIRECTORY)
    set(arg_WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR})
  endif()
  _opgen_compat_exe(exe)

  set(baseline_args "")
  foreach(b IN LISTS arg_BASELINE)
    list(APPEND baseline_args --baseline ${b})
  endforeach()
  set(strict "")
  if(arg_STRICT)
    set(strict --strict)
  endif()
  add_test(NAME ${arg_NAME}
    COMMAND $<TARGET_FILE:${exe}> compat ${strict} --format=${arg_FORMAT}
            ${baseline_args} -- ${arg_SPECS}
    WORKING_DIRECTORY ${arg_WORKING_DIRECTORY})

  list(LENGTH arg_BASELINE nbaselines)
  if(nbaselines EQUAL 1 AND NOT arg_BASELINE MATCHES "\\.op$")
    add_custom_target(${arg_NAME}_update_baseline
      COMMAND $<TARGET_FILE:${exe}> dump -o ${arg_BASELINE} -- ${arg_SPECS}
      WORKING_DIRECTORY ${arg_WORKING_DIRECTORY}
      COMMENT "Rewriting the compat baseline ${arg_BASELINE}"
      VERBATIM)
  endif()
endfunction()

# OpgenGenerate.cmake: opgen_generate(), generating C from .op specs at
# build time and attaching the result to a target.
#
#   opgen_generate(TARGET <target>
#                  SPECS <spec.op>...
#                  [OUTPUT_DIR <dir>]
#                  [OUT_VAR <variable>])
#
# For each spec <stem>.op (stem: the file name without its last extension)
# one custom command runs `opgen gen -o <dir> <spec>`, producing
# <dir>/<stem>_ops.h, <dir>/<stem>_ops.c and <dir>/<stem>_kernels.h. A
# command depends on its spec and on the opgen executable only, so editing
# one spec regenerates (and recompiles) only what comes from it.
#
#   TARGET      the target the results go to (created in this directory,
#               not imported or an alias): the .c files become PRIVATE
#               sources, <dir> a PUBLIC include directory (build tree
#               only), and the target links opgen's runtime (PUBLIC, with
#               the keyword signature of target_link_libraries).
#   SPECS       the spec files; relative paths are relative to
#               CMAKE_CURRENT_SOURCE_DIR. A spec may be a file generated
#               earlier in the build (its GENERATED property set).
#   OUTPUT_DIR  where the files go; default ${CMAKE_CURRENT_BINARY_DIR}/opgen;
#               relative paths are relative to CMAKE_CURRENT_BINARY_DIR.
#   OUT_VAR     receives the list of every generated file (headers too).
#
# The opgen executable and the runtime are the targets opgen::opgen and
# opgen::opgenrt: imported ones after find_package(opgen), or, in opgen's
# own source tree (or one that add_subdirectory()s it), aliases of the
# targets opgen and opgenrt.

include_guard(GLOBAL)

# Sets <exe_var> and <rt_var> to the real (non-alias) names of the opgen
# executable target and of the runtime library target.
function(_opgen_resolve_targets exe_var rt_var)
  foreach(kind exe rt)
    if(kind STREQUAL "exe")
      set(candidates opgen::opgen opgen)
    else()
      set(candidates opgen::opgenrt opgenrt)
    endif()
    set(found "")
    foreach(name IN LISTS candidates)
      if(TARGET ${name})
        get_target_property(aliased ${name} ALIASED_TARGET)
        if(aliased)
          set(found ${aliased})
        else()
          set(found ${name})
        endif()
        break()
      endif()
    endforeach()
    if(NOT found)
      message(FATAL_ERROR
        "opgen_generate: no target '${candidates}' is visible here; call "
        "find_package(opgen REQUIRED) (or add opgen's source tree with "
        "add_subdirectory) before opgen_generate.")
    endif()
    set(${kind}_found ${found})
  endforeach()
  set(${exe_var} ${exe_found} PARENT_SCOPE)
  set(${rt_var} ${rt_found} PARENT_SCOPE)
endfunction()

function(_opgen_check_target tgt)
  if(NOT TARGET ${tgt})
    message(FATAL_ERROR
      "opgen_generate: TARGET '${tgt}' is not a target; create it with "
      "add_executable or add_library before calling opgen_generate.")
  endif()
  get_target_property(aliased ${tgt} ALIASED_TARGET)
  get_target_property(imported ${tgt} IMPORTED)
  get_target_property(type ${tgt} TYPE)
  get_target_property(dir ${tgt} SOURCE_DIR)
  if(aliased OR imported)
    message(FATAL_ERROR
      "opgen_generate: TARGET '${tgt}' is an alias or imported target; "
      "name a target built here.")
  endif()
  if(NOT type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY)$")
    message(FATAL_ERROR
      "opgen_generate: TARGET '${tgt}' is a ${type}; generated sources need "
      "an executable or a static, shared, module or object library.")
  endif()
  # A custom command's outputs reach only targets of its own directory.
  if(NOT dir STREQUAL CMAKE_CURRENT_SOURCE_DIR)
    message(FATAL_ERROR
      "opgen_generate: TARGET '${tgt}' was created in '${dir}'; call "
      "opgen_generate in that directory's CMakeLists.txt.")
  endif()
endfunction()

function(opgen_generate)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "TARGET;OUTPUT_DIR;OUT_VAR" "SPECS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR
      "opgen_generate: unknown arguments '${arg_UNPARSED_ARGUMENTS}' "
      "(expected TARGET, SPECS, OUTPUT_DIR, OUT_VAR).")
  endif()
  if(NOT arg_TARGET)
    message(FATAL_ERROR "opgen_generate: TARGET <target> is required.")
  endif()
  if(NOT arg_SPECS)
    message(FATAL_ERROR
      "opgen_generate: SPECS <file.op>... is required (target '${arg_TARGET}').")
  endif()
  _opgen_check_target(${arg_TARGET})
  _opgen_resolve_targets(opgen_exe opgen_rt)

  if(NOT arg_OUTPUT_DIR)
    set(arg_OUTPUT_DIR ${CMAKE_CURRENT_BINARY_DIR}/opgen)
  endif()
  cmake_path(ABSOLUTE_PATH arg_OUTPUT_DIR BASE_DIRECTORY
             ${CMAKE_CURRENT_BINARY_DIR} NORMALIZE)
  # "a/b/" normalizes to "a/b/"; the outputs are named "<dir>/<file>".
  string(REGEX REPLACE "(.)/+$" "\\1" arg_OUTPUT_DIR "${arg_OUTPUT_DIR}")

  set(all_outputs "")
  set(c_sources "")
  foreach(spec IN LISTS arg_SPECS)
    cmake_path(ABSOLUTE_PATH spec BASE_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
               NORMALIZE)
    get_source_file_property(spec_generated ${spec} GENERATED)
    if(NOT EXISTS ${spec} AND NOT spec_generated)
      message(FATAL_ERROR
        "opgen_generate: spec '${spec}' does not exist (target '${arg_TARGET}').")
    endif()
    if(IS_DIRECTORY ${spec})
      message(FATAL_ERROR
        "opgen_generate: spec '${spec}' is a directory, not a .op file.")
    endif()
    get_filename_component(spec_name ${spec} NAME)
    get_filename_component(stem ${spec} NAME_WLE)
    set(header ${arg_OUTPUT_DIR}/${stem}_ops.h)
    set(source ${arg_OUTPUT_DIR}/${stem}_ops.c)
    set(kernels ${arg_OUTPUT_DIR}/${stem}_kernels.h)

    # Two specs with one stem would write the same files.
    get_property(owner GLOBAL PROPERTY "_OPGEN_OUTPUT:${header}")
    if(owner STREQUAL spec)
      message(FATAL_ERROR "opgen_generate: spec '${spec}' is listed twice.")
    elseif(owner)
      message(FATAL_ERROR
        "opgen_generate: specs '${owner}' and '${spec}' would both generate "
        "${header}; rename one or give them different OUTPUT_DIRs.")
    endif()
    set_property(GLOBAL PROPERTY "_OPGEN_OUTPUT:${header}" ${spec})

    # A source file may be the MAIN_DEPENDENCY of one command per directory.
    set(main_key "_OPGEN_MAIN:${CMAKE_CURRENT_SOURCE_DIR}:${spec}")
    get_property(has_main GLOBAL PROPERTY "${main_key}")
    if(has_main)
      set(main_dependency "")
    else()
      set(main_dependency MAIN_DEPENDENCY ${spec})
      set_property(GLOBAL PROPERTY "${main_key}" TRUE)
    endif()

    # opgen leaves a file alone when its content does not change. Ninja
    # (restat) then rebuilds nothing further; other generators compare
    # times only, so there the outputs are touched, or the command would
    # run again at every build once the spec is newer than its outputs.
    if(CMAKE_GENERATOR MATCHES "Ninja")
      set(touch_outputs "")
    else()
      set(touch_outputs
        COMMAND ${CMAKE_COMMAND} -E touch ${header} ${source} ${kernels})
    endif()
    add_custom_command(
      OUTPUT ${header} ${source} ${kernels}
      COMMAND ${opgen_exe} gen -o ${arg_OUTPUT_DIR} ${spec}
      ${touch_outputs}
      ${main_dependency}
      DEPENDS ${spec} ${opgen_exe}
      COMMENT "opgen: generating C from ${spec_name}"
      VERBATIM)
    list(APPEND all_outputs ${header} ${source} ${kernels})
    list(APPEND c_sources ${source})
  endforeach()

  target_sources(${arg_TARGET} PRIVATE ${c_sources})
  target_include_directories(${arg_TARGET} PUBLIC
    $<BUILD_INTERFACE:${arg_OUTPUT_DIR}>)
  target_link_libraries(${arg_TARGET} PUBLIC ${opgen_rt})

  if(arg_OUT_VAR)
    set(${arg_OUT_VAR} ${all_outputs} PARENT_SCOPE)
  endif()
endfunction()

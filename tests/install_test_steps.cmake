# Shared by the script tests that install this build to a temporary
# prefix and build a project against it (test_oplib_installed,
# test_example_project): a fresh run directory `tmp` under WORK_DIR, and
# `step`, which runs a command and fails the test with its output. The
# directory goes whatever the outcome, unless OPGEN_KEEP_TEST_DIRS is set.
macro(opgen_test_begin test_name)
  set(opgen_test_name "${test_name}")
  if(NOT BUILD_TYPE)
    set(BUILD_TYPE RelWithDebInfo)
  endif()
  string(RANDOM LENGTH 8 run_id)
  set(tmp "${WORK_DIR}/run-${run_id}")
  file(REMOVE_RECURSE "${tmp}")
  file(MAKE_DIRECTORY "${tmp}")
endmacro()

function(step name)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc
    OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    if(NOT DEFINED ENV{OPGEN_KEEP_TEST_DIRS})
      file(REMOVE_RECURSE "${tmp}")
    endif()
    message(FATAL_ERROR "${opgen_test_name}: ${name} failed (${rc}):\n"
      "  ${ARGN}\n${out}")
  endif()
  message(STATUS "${name}: ok\n${out}")
endfunction()

macro(opgen_test_end)
  if(NOT DEFINED ENV{OPGEN_KEEP_TEST_DIRS})
    file(REMOVE_RECURSE "${tmp}")
  endif()
endmacro()

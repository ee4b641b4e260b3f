# test_compat_cmake: opgen_add_compat_test in a project of its own.
#
#   cmake -DOPGEN=<opgen executable> -DCOMPAT_CMAKE=<OpgenCompat.cmake>
#         -DWORK_DIR=<scratch> -DGENERATOR=<gen> [-DMAKE_PROGRAM=<prog>]
#         -P compat_cmake_test.cmake
#
# A project with one spec and a dump baseline (opgen as an imported
# executable, as find_package(opgen) gives it):
# 1. building <name>_update_baseline writes the baseline;
# 2. its CTest test passes, printing "compatible: 1 op checked against
#    ops.json";
# 3. an incompatible change (a default changed) fails it with the rule id;
# 4. a compatible change (a new op) passes; after the update target the
#    baseline holds the new op and the test passes still.

foreach(var OPGEN COMPAT_CMAKE WORK_DIR GENERATOR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "compat_cmake_test: -D${var}=... is required")
  endif()
endforeach()

string(RANDOM LENGTH 8 run_id)
set(tmp "${WORK_DIR}/run-${run_id}")
set(src "${tmp}/src")
set(bld "${tmp}/build")
file(REMOVE_RECURSE "${tmp}")
file(MAKE_DIRECTORY "${src}")

function(fail what)
  if(NOT DEFINED ENV{OPGEN_KEEP_TEST_DIRS})
    file(REMOVE_RECURSE "${tmp}")
  endif()
  message(FATAL_ERROR "compat_cmake_test: ${what}")
endfunction()

file(WRITE "${src}/CMakeLists.txt" "
cmake_minimum_required(VERSION 3.25)
project(compat_user NONE)
add_executable(opgen::opgen IMPORTED)
set_target_properties(opgen::opgen PROPERTIES IMPORTED_LOCATION \"${OPGEN}\")
include(\"${COMPAT_CMAKE}\")
enable_testing()
opgen_add_compat_test(NAME my_compat BASELINE ops.json SPECS my.op FORMAT text)
")
set(v1 "op MyOp {\n  attr a: int = 2;\n  input x: float;\n  output y: float;\n}\n")
file(WRITE "${src}/my.op" "${v1}")

set(make_args "")
if(MAKE_PROGRAM)
  set(make_args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S "${src}" -B "${bld}"
  -G "${GENERATOR}" ${make_args}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(rc)
  fail("configure failed:\n${out}")
endif()

function(update_baseline)
  execute_process(COMMAND ${CMAKE_COMMAND} --build "${bld}"
    --target my_compat_update_baseline
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(rc OR NOT EXISTS "${src}/ops.json")
    fail("my_compat_update_baseline failed:\n${out}")
  endif()
endfunction()

# Runs the test; `want` 0 (pass) or 1 (fail); its output must match `re`.
function(run_test want re)
  execute_process(COMMAND ${CMAKE_CTEST_COMMAND} --test-dir "${bld}"
    --output-on-failure -V
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if((want EQUAL 0 AND rc) OR (want EQUAL 1 AND NOT rc))
    fail("ctest exited ${rc}, expected ${want}:\n${out}")
  endif()
  if(NOT out MATCHES "${re}")
    fail("ctest output does not match '${re}':\n${out}")
  endif()
endfunction()

update_baseline()
run_test(0 "compatible: 1 op checked against ops\\.json")

file(WRITE "${src}/my.op"
  "op MyOp {\n  attr a: int = 3;\n  input x: float;\n  output y: float;\n}\n")
run_test(1 "my\\.op:2:8: error: \\[DEFAULT_CHANGED\\] op 'MyOp'")

file(WRITE "${src}/my.op" "${v1}op MyNewOp {}\n")
run_test(0 "compatible: 1 op checked against ops\\.json")
update_baseline()
file(READ "${src}/ops.json" dump)
if(NOT dump MATCHES "\"name\": \"MyNewOp\"")
  fail("the updated baseline lacks MyNewOp:\n${dump}")
endif()
run_test(0 "compatible: 2 ops checked against ops\\.json")

if(NOT DEFINED ENV{OPGEN_KEEP_TEST_DIRS})
  file(REMOVE_RECURSE "${tmp}")
endif()

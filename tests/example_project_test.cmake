# test_example_project: the user project under examples/ against the
# installed package, as a new user builds it.
#
#   cmake -DOPGEN_BUILD_DIR=<opgen build> -DEXAMPLE_DIR=<examples>
#         -DWORK_DIR=<scratch> -DGENERATOR=<gen> [-DMAKE_PROGRAM=<prog>]
#         [-DC_COMPILER=<cc>] [-DCXX_COMPILER=<c++>] [-DC_FLAGS=<flags>]
#         [-DBUILD_TYPE=<type>] -P example_project_test.cmake
#
# Installs the build to a temporary prefix, configures examples/ against
# it (warnings are errors), builds its op library (with a shape_fn, a C++
# kernel and, where the package has CUDA and nvcc is there, a CUDA one)
# and host program, and runs the project's own tests: the host, which
# loads the library and checks the ops' results, and the compat check
# against the committed baseline. The temporary directory goes whatever
# the outcome (unless OPGEN_KEEP_TEST_DIRS is set).
foreach(var OPGEN_BUILD_DIR EXAMPLE_DIR WORK_DIR GENERATOR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "example_project_test: -D${var}=... is required")
  endif()
endforeach()
if(NOT CXX_COMPILER)
  message("opgen-test-skipped: no C++ compiler (the example has a C++ kernel)")
  return()
endif()
include("${CMAKE_CURRENT_LIST_DIR}/install_test_steps.cmake")
opgen_test_begin(test_example_project)

step("install" ${CMAKE_COMMAND} --install "${OPGEN_BUILD_DIR}"
  --prefix "${tmp}/prefix" --config "${BUILD_TYPE}")
set(args -S "${EXAMPLE_DIR}" -B "${tmp}/build" -G "${GENERATOR}"
  "-DCMAKE_PREFIX_PATH=${tmp}/prefix" "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}"
  -DCMAKE_COMPILE_WARNING_AS_ERROR=ON
  "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}"
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
  -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF)
if(C_COMPILER)
  list(APPEND args "-DCMAKE_C_COMPILER=${C_COMPILER}")
endif()
if(C_FLAGS) # a sanitizer build's runtime needs its flags to link
  list(APPEND args "-DCMAKE_C_FLAGS=${C_FLAGS}" "-DCMAKE_CXX_FLAGS=${C_FLAGS}")
endif()
if(MAKE_PROGRAM)
  list(APPEND args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()
step("configure" ${CMAKE_COMMAND} ${args})
step("build" ${CMAKE_COMMAND} --build "${tmp}/build" --config "${BUILD_TYPE}")
get_filename_component(cmake_bin "${CMAKE_COMMAND}" DIRECTORY)
find_program(ctest_exe ctest HINTS "${cmake_bin}" NO_DEFAULT_PATH)
if(NOT ctest_exe)
  find_program(ctest_exe ctest REQUIRED)
endif()
step("test (host, compat)" ${ctest_exe} --test-dir "${tmp}/build"
  -C "${BUILD_TYPE}" --output-on-failure -V)
opgen_test_end()

# test_oplib_installed: opgen_add_op_library and opgen_enable_op_libraries
# from the installed package.
#
#   cmake -DOPGEN_BUILD_DIR=<opgen build> -DOPLIB_DIR=<tests/oplib>
#         -DZERO_OUT_DIR=<kernels/demo>
#         -DWORK_DIR=<scratch> -DGENERATOR=<gen> [-DMAKE_PROGRAM=<prog>]
#         [-DC_COMPILER=<cc>] [-DC_FLAGS=<flags>] [-DBUILD_TYPE=<type>]
#         -P installed_test.cmake
#
# Installs the build to a temporary prefix, configures tests/oplib/consumer
# against it, builds the op libraries (zero_out_lib, and shape_fn_lib with
# a shape_fn in its SOURCES) and the host program, and runs the host twice
# (it registers its typed wrappers' ops before, then after loading
# zero_out_lib, runs that op through its wrapper and by name, and runs
# shape_fn_lib's op). The temporary directory
# goes whatever the outcome (unless OPGEN_KEEP_TEST_DIRS is set).
foreach(var OPGEN_BUILD_DIR OPLIB_DIR ZERO_OUT_DIR WORK_DIR GENERATOR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "installed_test: -D${var}=... is required")
  endif()
endforeach()
include("${CMAKE_CURRENT_LIST_DIR}/../install_test_steps.cmake")
opgen_test_begin(test_oplib_installed)

step("install" ${CMAKE_COMMAND} --install "${OPGEN_BUILD_DIR}"
  --prefix "${tmp}/prefix" --config "${BUILD_TYPE}")
set(args -S "${OPLIB_DIR}/consumer" -B "${tmp}/build" -G "${GENERATOR}"
  "-DCMAKE_PREFIX_PATH=${tmp}/prefix" "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}"
  "-DOPLIB_DIR=${ZERO_OUT_DIR}" "-DSHAPE_FN_DIR=${OPLIB_DIR}"
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
  -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF)
if(C_COMPILER)
  list(APPEND args "-DCMAKE_C_COMPILER=${C_COMPILER}")
endif()
if(C_FLAGS) # a sanitizer build's runtime needs its flags to link
  list(APPEND args "-DCMAKE_C_FLAGS=${C_FLAGS}")
endif()
if(MAKE_PROGRAM)
  list(APPEND args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()
step("configure" ${CMAKE_COMMAND} ${args})
step("build" ${CMAKE_COMMAND} --build "${tmp}/build" --config "${BUILD_TYPE}")
set(host "${tmp}/build/host")
if(NOT EXISTS "${host}")
  set(host "${tmp}/build/${BUILD_TYPE}/host")
endif()
# Registering the host's typed-wrapper tables before and after the load.
step("run the host, registering before the load" "${host}" before)
step("run the host, registering after the load" "${host}" after)
opgen_test_end()

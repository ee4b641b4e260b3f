# test_cmake_package: opgen as an installed CMake package.
#
#   cmake -DOPGEN_BUILD_DIR=<opgen build> -DCONSUMER_SOURCE_DIR=<tests/consumer>
#         -DWORK_DIR=<scratch> -DGENERATOR=<gen> [-DMAKE_PROGRAM=<prog>]
#         [-DC_COMPILER=<cc>] [-DC_FLAGS=<flags>] [-DEXE_LINKER_FLAGS=<flags>]
#         [-DBUILD_TYPE=<type>] -P cmake_package_test.cmake
#
# The consumer is built with the opgen build's compiler, generator and
# flags (so that, say, a sanitizer build's runtime links).
#
# 1. installs the opgen build to a temporary prefix and checks the files a
#    user needs are there;
# 2. configures a copy of tests/consumer against that prefix alone
#    (find_package(opgen) + opgen_generate of two specs), builds it, runs it;
# 3. a second build does nothing (no spec is regenerated);
# 4. after touching one spec, a build runs opgen on that spec alone (the
#    build log names only it; the other spec's files keep their
#    timestamps), and the build after that runs opgen no more;
# 5. after editing that spec's doc, a build regenerates its files (new
#    timestamps on the two that hold the doc, the new doc in the header)
#    and recompiles its .c, leaving the other spec's files and object
#    alone; the program still runs.
# Temporary directories are removed whatever the outcome (set the
# environment variable OPGEN_KEEP_TEST_DIRS to keep them). Prints
# "opgen-test-skipped:" (the test's SKIP_REGULAR_EXPRESSION) when a tool
# the build used has disappeared.

foreach(var OPGEN_BUILD_DIR CONSUMER_SOURCE_DIR WORK_DIR GENERATOR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "cmake_package_test: -D${var}=... is required")
  endif()
endforeach()
if(NOT BUILD_TYPE)
  set(BUILD_TYPE RelWithDebInfo)
endif()

foreach(tool C_COMPILER MAKE_PROGRAM)
  if(${tool} AND NOT EXISTS "${${tool}}")
    message("opgen-test-skipped: ${tool} '${${tool}}' is not there")
    return()
  endif()
endforeach()

string(RANDOM LENGTH 8 run_id)
set(tmp "${WORK_DIR}/run-${run_id}")
set(prefix "${tmp}/prefix")
set(src "${tmp}/src")
set(bld "${tmp}/build")
file(REMOVE_RECURSE "${tmp}")
file(MAKE_DIRECTORY "${tmp}")

function(cleanup)
  if(NOT DEFINED ENV{OPGEN_KEEP_TEST_DIRS})
    file(REMOVE_RECURSE "${tmp}")
    # WORK_DIR itself goes too once no other run uses it.
    file(GLOB left "${WORK_DIR}/*")
    if(NOT left)
      file(REMOVE_RECURSE "${WORK_DIR}")
    endif()
  endif()
endfunction()

function(fail)
  cleanup()
  string(JOIN "" msg ${ARGN})
  message(FATAL_ERROR "test_cmake_package: ${msg}")
endfunction()

# run(<step> <out_var> COMMAND...): runs the command; fails the test with
# its output unless it exits 0; stores stdout+stderr in <out_var>.
function(run step out_var)
  execute_process(COMMAND ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    fail("${step} failed (${rc}):\n  ${ARGN}\n${out}")
  endif()
  message(STATUS "${step}: ok")
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

# mtimes(<out_var> FILES...): "file=mtime;..." with microseconds.
function(mtimes out_var)
  set(result "")
  foreach(f ${ARGN})
    if(NOT EXISTS "${f}")
      fail("${f} was not generated")
    endif()
    file(TIMESTAMP "${f}" t "%s.%f" UTC)
    list(APPEND result "${f}=${t}")
  endforeach()
  set(${out_var} "${result}" PARENT_SCOPE)
endfunction()

# ---- 1. install -----------------------------------------------------------
run("install" log ${CMAKE_COMMAND} --install "${OPGEN_BUILD_DIR}"
    --prefix "${prefix}" --config "${BUILD_TYPE}")
foreach(pattern bin/opgen include/opr/opr.h include/opr/dtypes.def
        "lib*/libopgenrt.a" "lib*/cmake/opgen/opgenConfig.cmake"
        "lib*/cmake/opgen/opgenConfigVersion.cmake"
        "lib*/cmake/opgen/opgenTargets.cmake"
        "lib*/cmake/opgen/OpgenGenerate.cmake")
  file(GLOB_RECURSE found "${prefix}/${pattern}")
  if(NOT found)
    fail("the install has no ${pattern}:\n${log}")
  endif()
endforeach()

# ---- 2. configure, build and run the consumer -----------------------------
file(COPY "${CONSUMER_SOURCE_DIR}/" DESTINATION "${src}")
set(configure_args -S "${src}" -B "${bld}" -G "${GENERATOR}"
    "-DCMAKE_PREFIX_PATH=${prefix}" "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}"
    # Only the prefix may provide opgen, never a registry or a build tree.
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
    -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF
    # A CPU-only consumer needs no CUDA, even from a CUDA build of opgen:
    # the toolkit stays hidden (find_package(CUDAToolkit) fails).
    -DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=ON)
if(C_COMPILER)
  list(APPEND configure_args "-DCMAKE_C_COMPILER=${C_COMPILER}")
endif()
if(C_FLAGS)
  list(APPEND configure_args "-DCMAKE_C_FLAGS=${C_FLAGS}")
endif()
if(EXE_LINKER_FLAGS)
  list(APPEND configure_args "-DCMAKE_EXE_LINKER_FLAGS=${EXE_LINKER_FLAGS}")
endif()
if(MAKE_PROGRAM)
  list(APPEND configure_args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()
run("configure the consumer" log ${CMAKE_COMMAND} ${configure_args})
file(STRINGS "${bld}/CMakeCache.txt" opgen_dir REGEX "^opgen_DIR:")
string(FIND "${opgen_dir}" "${prefix}/" at)
if(NOT at GREATER -1)
  fail("opgen was found outside the test prefix: ${opgen_dir}")
endif()

set(build_cmd ${CMAKE_COMMAND} --build "${bld}" --config "${BUILD_TYPE}")
run("build the consumer" log ${build_cmd})
set(exe "${bld}/consumer")
if(NOT EXISTS "${exe}")
  set(exe "${bld}/${BUILD_TYPE}/consumer")  # multi-config generators
endif()
run("run the consumer" out "${exe}")
message("${out}")

set(gen "${bld}/opgen")
set(zero_files "${gen}/zero_ops.h" "${gen}/zero_ops.c" "${gen}/zero_kernels.h")
set(scale_files "${gen}/scale_ops.h" "${gen}/scale_ops.c"
    "${gen}/scale_kernels.h")

# ---- 3. a second build regenerates nothing --------------------------------
mtimes(zero_before ${zero_files})
mtimes(scale_before ${scale_files})
run("rebuild without changes" log ${build_cmd})
if(log MATCHES "opgen: generating")
  fail("a build without changes ran opgen again:\n${log}")
endif()
mtimes(zero_after ${zero_files})
mtimes(scale_after ${scale_files})
if(NOT zero_after STREQUAL zero_before OR NOT scale_after STREQUAL scale_before)
  fail("a build without changes rewrote generated files")
endif()

# ---- 4. touching zero.op reruns opgen on zero.op only --------------------
# Past the resolution of coarse file systems.
execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 1.1)
file(TOUCH "${src}/specs/zero.op")
run("rebuild after touching zero.op" log ${build_cmd})
if(NOT log MATCHES "opgen: generating C from zero\\.op")
  fail("touching zero.op did not regenerate it:\n${log}")
endif()
if(log MATCHES "opgen: generating C from scale\\.op")
  fail("touching zero.op regenerated scale.op too:\n${log}")
endif()
mtimes(scale_after ${scale_files})
if(NOT scale_after STREQUAL scale_before)
  fail("touching zero.op changed scale's files:\n  before ${scale_before}\n"
       "  after  ${scale_after}")
endif()
# ... once: the outputs are now up to date with the touched spec.
run("rebuild after that" log ${build_cmd})
if(log MATCHES "opgen: generating")
  fail("opgen ran again on the build after the one that regenerated:\n${log}")
endif()

# ---- 5. editing zero.op regenerates and recompiles zero's files only ------
execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 1.1)
file(READ "${src}/specs/zero.op" spec)
string(REPLACE "/// Zeroes all elements of a tensor but one."
       "/// Zeroes all elements of a tensor but one (edited)." spec "${spec}")
file(WRITE "${src}/specs/zero.op" "${spec}")
run("rebuild after editing zero.op" log ${build_cmd})
if(NOT log MATCHES "opgen: generating C from zero\\.op"
   OR NOT log MATCHES "zero_ops\\.c\\.o")
  fail("editing zero.op did not regenerate and recompile it:\n${log}")
endif()
if(log MATCHES "opgen: generating C from scale\\.op"
   OR log MATCHES "scale_ops\\.c\\.o")
  fail("editing zero.op regenerated or recompiled scale.op's code:\n${log}")
endif()
mtimes(zero_after ${zero_files})
mtimes(scale_after ${scale_files})
if(NOT scale_after STREQUAL scale_before)
  fail("editing zero.op changed scale's files:\n  before ${scale_before}\n"
       "  after  ${scale_after}")
endif()
# zero_ops.h and zero_ops.c carry the summary (zero_kernels.h does not,
# and opgen leaves a file whose content is the same alone).
foreach(before after IN ZIP_LISTS zero_before zero_after)
  if(before STREQUAL after AND NOT after MATCHES "_kernels\\.h=")
    fail("editing zero.op left ${after} as it was")
  endif()
endforeach()
file(READ "${gen}/zero_ops.h" header)
if(NOT header MATCHES "one \\(edited\\)")
  fail("zero_ops.h does not have the edited doc:\n${header}")
endif()
run("run the consumer again" out "${exe}")

cleanup()

# The whole TensorFlow corpus through opgen: import-tf, gen, then compile
# the generated source and kernel header with -std=c11 -Wall -Wextra
# -Werror -pedantic. Skipped (SKIP_REGULAR_EXPRESSION) without the corpus.
#
# -D OPGEN=<opgen> -D CORPUS=<tf-ops.pbtxt> -D RUNTIME_INCLUDE=<dir>
# -D C_COMPILER=<cc> -D WORK_DIR=<dir>
if(NOT EXISTS "${CORPUS}")
  message("opgen-test-skipped: no corpus at ${CORPUS}")
  return()
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}")
  endif()
endfunction()

run("${OPGEN}" import-tf "${CORPUS}" -o "${WORK_DIR}/specs")
run("${OPGEN}" gen -o "${WORK_DIR}/gen" "${WORK_DIR}/specs/tf_ops.op")
file(WRITE "${WORK_DIR}/kernels.c" "#include \"tf_ops_kernels.h\"\n")
set(flags -std=c11 -Wall -Wextra -Werror -pedantic -fsyntax-only
    -I${RUNTIME_INCLUDE} -I${WORK_DIR}/gen)
run("${C_COMPILER}" ${flags} "${WORK_DIR}/gen/tf_ops_ops.c")
run("${C_COMPILER}" ${flags} "${WORK_DIR}/kernels.c")
file(REMOVE_RECURSE "${WORK_DIR}")
message("the whole corpus generates C that compiles cleanly")

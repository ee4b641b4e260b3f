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
include("${CMAKE_CURRENT_LIST_DIR}/corpus_steps.cmake")
opgen_corpus_generate()
file(WRITE "${WORK_DIR}/kernels.c" "#include \"tf_ops_kernels.h\"\n")
set(flags -std=c11 -Wall -Wextra -Werror -pedantic -fsyntax-only
    -I${RUNTIME_INCLUDE} -I${WORK_DIR}/gen)
run("${C_COMPILER}" ${flags} "${WORK_DIR}/gen/tf_ops_ops.c")
run("${C_COMPILER}" ${flags} "${WORK_DIR}/kernels.c")
file(REMOVE_RECURSE "${WORK_DIR}")
message("the whole corpus generates C that compiles cleanly")

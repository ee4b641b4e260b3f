# Shared by the corpus script tests (test_corpus_gen, test_corpus_cxx):
# `run` runs a command and fails the test with its output, and
# opgen_corpus_generate() imports the TensorFlow corpus with OPGEN into
# WORK_DIR/specs and generates its C into WORK_DIR/gen (the files
# tf_ops_ops.h, tf_ops_ops.c and tf_ops_kernels.h).
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}")
  endif()
endfunction()

function(opgen_corpus_generate)
  file(REMOVE_RECURSE "${WORK_DIR}")
  file(MAKE_DIRECTORY "${WORK_DIR}")
  run("${OPGEN}" import-tf "${CORPUS}" -o "${WORK_DIR}/specs")
  run("${OPGEN}" gen -o "${WORK_DIR}/gen" "${WORK_DIR}/specs/tf_ops.op")
endfunction()

# The whole TensorFlow corpus through opgen (import-tf, gen), and its
# generated headers included from one C++ file, every <OP>_ATTRS_DEFAULT
# expanded, compiled as C++17 and C++20 with each of g++ and clang++ that
# is installed, at -Wall -Wextra -Werror -pedantic. Skipped
# (SKIP_REGULAR_EXPRESSION) without the corpus or without a C++ compiler.
#
# -D OPGEN=<opgen> -D CORPUS=<tf-ops.pbtxt> -D RUNTIME_INCLUDE=<dir>
# -D WORK_DIR=<dir>
if(NOT EXISTS "${CORPUS}")
  message("opgen-test-skipped: no corpus at ${CORPUS}")
  return()
endif()
set(compilers "")
foreach(name g++ clang++)
  find_program(cxx_${name} ${name})
  if(cxx_${name})
    list(APPEND compilers "${cxx_${name}}")
  endif()
endforeach()
if(NOT compilers)
  message("opgen-test-skipped: neither g++ nor clang++ is installed")
  return()
endif()
include("${CMAKE_CURRENT_LIST_DIR}/corpus_steps.cmake")
opgen_corpus_generate()

# One variable per defaults macro, typed by the attrs struct that the
# header declares just before it ("} <type>;").
set(text "#include \"tf_ops_ops.h\"\n#include \"tf_ops_kernels.h\"\n")
# (Matched in the whole text: as a list of lines, a macro line's final
# '\' would escape the ';' between items.)
file(READ "${WORK_DIR}/gen/tf_ops_ops.h" header)
string(REGEX MATCHALL "\n(} [A-Za-z0-9_]+|#define [A-Za-z0-9_]+_ATTRS_DEFAULT)"
       lines "${header}")
set(type "")
set(ndefaults 0)
foreach(line IN LISTS lines)
  if(line MATCHES "^\n} ([A-Za-z0-9_]+)")
    set(type "${CMAKE_MATCH_1}")
  elseif(line MATCHES "^\n#define ([A-Za-z0-9_]+_ATTRS_DEFAULT)")
    string(APPEND text "${type} ${CMAKE_MATCH_1}_value = ${CMAKE_MATCH_1};\n")
    math(EXPR ndefaults "${ndefaults} + 1")
  endif()
endforeach()
if(ndefaults LESS 100)
  message(FATAL_ERROR "only ${ndefaults} <OP>_ATTRS_DEFAULT macros found")
endif()
string(APPEND text "int main() { return 0; }\n")
file(WRITE "${WORK_DIR}/all.cpp" "${text}")

foreach(cxx IN LISTS compilers)
  foreach(std c++17 c++20)
    run("${cxx}" -std=${std} -Wall -Wextra -Werror -pedantic -fsyntax-only
        -I${RUNTIME_INCLUDE} -I${WORK_DIR}/gen "${WORK_DIR}/all.cpp")
  endforeach()
endforeach()
file(REMOVE_RECURSE "${WORK_DIR}")
message("the whole corpus's generated headers compile as C++ "
        "(${ndefaults} defaults macros; ${compilers})")

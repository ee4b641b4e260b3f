# OpgenLibrary.cmake: op libraries, shared objects of generated op code and
# kernels that a program loads at run time with opr_load_library (the way
# TensorFlow loads a custom op .so with tf.load_op_library).
#
#   opgen_add_op_library(<name>
#                        SPECS <spec.op>...
#                        SOURCES <source>...
#                        [REGISTER_KERNELS <function>]
#                        [OUTPUT_DIR <dir>])
#
# builds the MODULE library <name> (file <name>.so) from the specs'
# generated code (opgen_generate) and SOURCES, the kernels. SOURCES define
# `opr_status <function>(void)` (default <name>_register_kernels), which
# registers the kernels with the generated <package>_<op>_register_kernel
# functions; <dir>/opgen_library.h declares it (and includes the specs'
# kernel headers), so that its definition has a prototype under
# -Wmissing-prototypes. The function generates the library's one exported
# symbol, opr_library_entry, returning {ABI version, name, op definition hash,
# register_ops, register_kernels} (opr/library.h).
#
# The hash (opr_op_defs_hash of the library's ops) is computed at build
# time: a small program, <name>_opgen_defhash, built from the same
# generated code, the runtime and stand-ins for the specs' hand-written
# shape functions (`shape_fn`; not SOURCES), runs the ops' registration, hashes the
# ops and writes <dir>/<name>_defhash.h, which the entry includes. The
# loader recomputes it from the tables it finds and refuses a library
# whose hash differs. (The program runs on the build machine: no cross
# compiling.) Each spec's C prefix is read from its `package NAME;` line
# (at the start of a line), else derived from its file name as opgen does.
#
# The library does not link the runtime: its opr_* calls resolve to the
# program that loads it, so that there is one registry. That program must
# export the runtime's symbols:
#
#   opgen_enable_op_libraries(<target>)
#
# does that for an executable <target>: ENABLE_EXPORTS (-rdynamic) and the
# whole runtime archive linked in (--whole-archive), since a library may
# call runtime functions the program itself never does.

include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/OpgenGenerate.cmake)
set(_OPGEN_LIBRARY_DIR ${CMAKE_CURRENT_LIST_DIR})

# The C prefix of a spec's generated names (opgen's rule): its
# `c_prefix NAME;` line, else its `package NAME;` line, else its file name.
function(_opgen_spec_package spec out_var)
  file(STRINGS ${spec} lines REGEX
       "^[ \t]*c_prefix[ \t]+[A-Za-z_][A-Za-z0-9_]*([ \t]+strip)?[ \t]*;")
  if(NOT lines)
    file(STRINGS ${spec} lines
         REGEX "^[ \t]*package[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*;")
  endif()
  if(lines)
    list(GET lines 0 line)
    string(REGEX REPLACE
           "^[ \t]*(c_prefix|package)[ \t]+([A-Za-z_][A-Za-z0-9_]*).*$"
           "\\2" package "${line}")
  else()
    get_filename_component(package ${spec} NAME)
    string(REGEX REPLACE "\\..*$" "" package "${package}")
    string(TOLOWER "${package}" package)
    string(REGEX REPLACE "[^a-z0-9]" "_" package "${package}")
    if(package STREQUAL "" OR package MATCHES "^[0-9]")
      set(package "op_${package}")
    endif()
  endif()
  # A changed package line must reach the generated entry.
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${spec})
  set(${out_var} ${package} PARENT_SCOPE)
endfunction()

# Sets OPGEN_LIB_INCLUDES and OPGEN_LIB_REGISTER_CALLS (for the templates)
# in the caller from the specs.
function(_opgen_library_register_code specs)
  set(includes "")
  set(calls "")
  foreach(spec IN LISTS specs)
    cmake_path(ABSOLUTE_PATH spec BASE_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
               NORMALIZE)
    get_filename_component(stem ${spec} NAME_WLE)
    _opgen_spec_package(${spec} package)
    string(APPEND includes "#include \"${stem}_ops.h\"\n")
    string(APPEND calls "  if (!s) s = ${package}_register_ops();\n")
  endforeach()
  set(OPGEN_LIB_INCLUDES "${includes}" PARENT_SCOPE)
  set(OPGEN_LIB_REGISTER_CALLS "${calls}" PARENT_SCOPE)
endfunction()

function(opgen_add_op_library name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "REGISTER_KERNELS;OUTPUT_DIR"
                        "SPECS;SOURCES")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "opgen_add_op_library(${name}): unknown arguments "
      "'${arg_UNPARSED_ARGUMENTS}' (expected SPECS, SOURCES, "
      "REGISTER_KERNELS, OUTPUT_DIR).")
  endif()
  if(NOT arg_SPECS OR NOT arg_SOURCES)
    message(FATAL_ERROR "opgen_add_op_library(${name}): SPECS <file.op>... "
      "and SOURCES <kernels.c>... are required.")
  endif()
  if(NOT arg_REGISTER_KERNELS)
    set(arg_REGISTER_KERNELS ${name}_register_kernels)
  endif()
  if(NOT arg_REGISTER_KERNELS MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "opgen_add_op_library(${name}): the kernel "
      "registration function '${arg_REGISTER_KERNELS}' is no C identifier; "
      "name it with REGISTER_KERNELS.")
  endif()
  if(NOT arg_OUTPUT_DIR)
    set(arg_OUTPUT_DIR ${CMAKE_CURRENT_BINARY_DIR}/${name}_opgen)
  endif()
  cmake_path(ABSOLUTE_PATH arg_OUTPUT_DIR BASE_DIRECTORY
             ${CMAKE_CURRENT_BINARY_DIR} NORMALIZE)
  string(REGEX REPLACE "(.)/+$" "\\1" dir "${arg_OUTPUT_DIR}")
  _opgen_resolve_targets(opgen_exe opgen_rt)

  # The generated op code, compiled once for the library and the hash
  # program. Linking the runtime here only brings its headers: an object
  # library links nothing.
  set(ops ${name}_opgen_ops)
  add_library(${ops} OBJECT)
  set_target_properties(${ops} PROPERTIES POSITION_INDEPENDENT_CODE ON
    C_VISIBILITY_PRESET hidden)
  opgen_generate(TARGET ${ops} SPECS ${arg_SPECS} OUTPUT_DIR ${dir}
                 OUT_VAR generated)
  list(FILTER generated INCLUDE REGEX "_ops\\.h$")

  set(OPGEN_LIB_NAME ${name})
  set(OPGEN_LIB_REGISTER_KERNELS ${arg_REGISTER_KERNELS})
  _opgen_library_register_code("${arg_SPECS}")
  string(REPLACE "_ops.h\"" "_kernels.h\"" OPGEN_LIB_KERNEL_INCLUDES
         "${OPGEN_LIB_INCLUDES}")
  configure_file(${CMAKE_CURRENT_FUNCTION_LIST_DIR}/OpgenLibraryHeader.h.in
                 ${dir}/opgen_library.h @ONLY)
  configure_file(${CMAKE_CURRENT_FUNCTION_LIST_DIR}/OpgenLibraryEntry.c.in
                 ${dir}/${name}_entry.c @ONLY)
  configure_file(${CMAKE_CURRENT_FUNCTION_LIST_DIR}/OpgenLibraryHash.c.in
                 ${dir}/${name}_defhash_main.c @ONLY)

  # The hash, at build time. The program links stand-ins for the shape
  # functions (shape_fn) instead of SOURCES, which may be C++ or CUDA and
  # need libraries of their own. As in opgen_generate, the script leaves
  # an unchanged file alone, which only Ninja (restat) takes as "nothing
  # to do": other generators get a touch.
  set(stubs ${dir}/${name}_shape_stubs.c)
  set(touch_stubs "")
  if(NOT CMAKE_GENERATOR MATCHES "Ninja")
    set(touch_stubs COMMAND ${CMAKE_COMMAND} -E touch ${stubs})
  endif()
  add_custom_command(OUTPUT ${stubs}
    COMMAND ${CMAKE_COMMAND} -DOUT=${stubs} "-DHEADERS=${generated}"
      -P ${_OPGEN_LIBRARY_DIR}/OpgenShapeStubs.cmake
    ${touch_stubs}
    DEPENDS ${generated} ${_OPGEN_LIBRARY_DIR}/OpgenShapeStubs.cmake
    COMMENT "opgen: shape function stand-ins for hashing op library ${name}"
    VERBATIM)
  set(hasher ${name}_opgen_defhash)
  add_executable(${hasher} ${dir}/${name}_defhash_main.c ${stubs}
                 $<TARGET_OBJECTS:${ops}>)
  target_include_directories(${hasher} PRIVATE ${dir})
  target_link_libraries(${hasher} PRIVATE ${opgen_rt})
  add_custom_command(OUTPUT ${dir}/${name}_defhash.h
    COMMAND ${hasher} ${dir}/${name}_defhash.h
    DEPENDS ${hasher}
    COMMENT "opgen: hashing the op definitions of op library ${name}"
    VERBATIM)

  # The library: hidden symbols but the entry, no runtime of its own.
  add_library(${name} MODULE ${arg_SOURCES} ${dir}/${name}_entry.c
              ${dir}/${name}_defhash.h $<TARGET_OBJECTS:${ops}>)
  set_target_properties(${name} PROPERTIES PREFIX ""
    POSITION_INDEPENDENT_CODE ON C_VISIBILITY_PRESET hidden)
  target_include_directories(${name} PRIVATE ${dir}
    $<TARGET_PROPERTY:${opgen_rt},INTERFACE_INCLUDE_DIRECTORIES>)
endfunction()

# Lets executable <target> load op libraries: exports its symbols and
# links the whole runtime, so that every opr_* function a library may call
# is there to resolve to.
function(opgen_enable_op_libraries target)
  _opgen_resolve_targets(opgen_exe opgen_rt)
  get_target_property(type ${target} TYPE)
  if(NOT type STREQUAL "EXECUTABLE")
    message(FATAL_ERROR "opgen_enable_op_libraries: '${target}' is a "
      "${type}; it takes the executable that loads op libraries.")
  endif()
  set_target_properties(${target} PROPERTIES ENABLE_EXPORTS ON)
  set(archive "$<TARGET_FILE:${opgen_rt}>")
  target_link_options(${target} PRIVATE
    "SHELL:-Wl,--whole-archive ${archive} -Wl,--no-whole-archive")
  target_link_libraries(${target} PRIVATE ${opgen_rt})
endfunction()

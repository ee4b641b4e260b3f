# opgen.pc, installed into <libdir>/pkgconfig for Make users (see
# docs/libraries.md, "pkg-config"). Relocatable: the prefix is found from
# the .pc file's own directory. Included by the top-level CMakeLists.txt
# after GNUInstallDirs.
file(RELATIVE_PATH opgen_pc_up "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
string(REGEX REPLACE "/$" "" opgen_pc_up "${opgen_pc_up}")
set(OPGEN_PC_PREFIX "\${pcfiledir}/${opgen_pc_up}")
foreach(dir LIBDIR INCLUDEDIR BINDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(OPGEN_PC_${dir} "${CMAKE_INSTALL_${dir}}")
  else()
    set(OPGEN_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
set(OPGEN_PC_DL "")
foreach(lib IN LISTS CMAKE_DL_LIBS)
  string(APPEND OPGEN_PC_DL " -l${lib}")
endforeach()
string(STRIP "${OPGEN_PC_DL}" OPGEN_PC_DL)
configure_file(${CMAKE_CURRENT_LIST_DIR}/opgen.pc.in
  ${PROJECT_BINARY_DIR}/opgen.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/opgen.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# `cmake --install` as a CMake package (docs/embedding.md): headers (with
# the tablegen'd .inc files and the .td sources), the static libraries of
# lib/ (linking the shared libMLIR.so, as MLIR's own components do), the
# tools, the plugin and PerfDojoConfig.cmake exporting PerfDojo:: targets.

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# add_mlir_library installs every library into the MLIRTargets export set
# of this project; exported here as PerfDojo::<name without PerfDojo>.
get_property(perfdojo_mlir_libraries GLOBAL PROPERTY MLIR_EXPORTS)
set(perfdojo_exported ${perfdojo_mlir_libraries} PerfDojoGpuRuntime)
install(TARGETS PerfDojoGpuRuntime EXPORT MLIRTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
foreach(library ${perfdojo_exported})
  string(REGEX REPLACE "^PerfDojo" "" export_name ${library})
  if(export_name STREQUAL "DojoIR")
    set(export_name Dialect)
  endif()
  set_target_properties(${library} PROPERTIES EXPORT_NAME ${export_name})
  target_include_directories(${library} INTERFACE
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endforeach()

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/perfdojo
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/perfdojo
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.inc" PATTERN "*.h"
  PATTERN "CMakeFiles" EXCLUDE)
# Generated headers under lib/ (the move catalogue) that installed headers
# include.
install(TARGETS PerfDojoPlugin LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})

set(config_dir ${CMAKE_INSTALL_LIBDIR}/cmake/perfdojo)
install(EXPORT MLIRTargets NAMESPACE PerfDojo:: FILE PerfDojoTargets.cmake
  DESTINATION ${config_dir})
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/PerfDojoConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/PerfDojoConfig.cmake
  INSTALL_DESTINATION ${config_dir}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_BINDIR CMAKE_INSTALL_LIBDIR)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/PerfDojoConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/PerfDojoConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/PerfDojoConfigVersion.cmake
  DESTINATION ${config_dir})

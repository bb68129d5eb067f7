# Installs accelmath for use from other projects (docs/install.md): the public headers, the
# library, the CLI, a CMake package (find_package(accelmath CONFIG) -> accelmath::accelmath) and a
# pkg-config file. Included at the end of the top-level CMakeLists.txt.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

get_target_property(ACCELMATH_LIB_TYPE accelmath_lib TYPE)
if(ACCELMATH_LIB_TYPE STREQUAL "STATIC_LIBRARY")
  set(ACCELMATH_STATIC TRUE)
else()
  set(ACCELMATH_STATIC FALSE)
endif()

set(ACCELMATH_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/accelmath)

# The public headers, with the registry rows they expand (ops.def, ops/*.def). None includes a
# Highway header, so Highway stays a private dependency of the library.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/accelmath DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.def")

# INCLUDES DESTINATION gives the exported target its installed include directory.
install(TARGETS accelmath_lib EXPORT accelmathTargets INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The GPU backend, where it was built (ACCELMATH_CUDA): accelmath::accelmath_cuda, linking CUDA's
# runtime (CUDA::cudart, which the config file looks for).
if(TARGET accelmath_cuda)
  install(TARGETS accelmath_cuda EXPORT accelmathTargets INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  set(ACCELMATH_HAS_CUDA TRUE)
else()
  set(ACCELMATH_HAS_CUDA FALSE)
endif()

# The CLI finds the shared library next to it (bin/../lib) wherever the prefix is.
file(RELATIVE_PATH ACCELMATH_BIN_TO_LIB ${CMAKE_INSTALL_FULL_BINDIR} ${CMAKE_INSTALL_FULL_LIBDIR})
set_target_properties(accelmath PROPERTIES INSTALL_RPATH "$ORIGIN/${ACCELMATH_BIN_TO_LIB}")
install(TARGETS accelmath)

# The CMake package. A static library leaves Highway's symbols to its consumer, so then the
# config file finds Highway itself (accelmathConfig.cmake.in).
install(EXPORT accelmathTargets NAMESPACE accelmath:: DESTINATION ${ACCELMATH_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/accelmathConfig.cmake.in
  ${PROJECT_BINARY_DIR}/accelmathConfig.cmake INSTALL_DESTINATION ${ACCELMATH_CMAKE_DIR})
# 0.x: a minor release may break the ABI (the SONAME carries major.minor), so only the same
# major.minor satisfies a request.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/accelmathConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/accelmathConfig.cmake ${PROJECT_BINARY_DIR}/accelmathConfigVersion.cmake
  DESTINATION ${ACCELMATH_CMAKE_DIR})

# The pkg-config file. Its paths are relative to its own directory (${pcfiledir}), so that it stays
# right for any `cmake --install --prefix`. Static: the consumer links Highway and, from C, the
# C++ runtime and libm itself (`pkg-config --static --libs accelmath`).
file(RELATIVE_PATH ACCELMATH_PC_TO_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" ACCELMATH_PC_TO_PREFIX "${ACCELMATH_PC_TO_PREFIX}")  # "../../" -> "../.."
if(ACCELMATH_STATIC)
  set(ACCELMATH_PC_PRIVATE "Requires.private: libhwy\nLibs.private: -lstdc++ -lm")
else()
  set(ACCELMATH_PC_PRIVATE "")
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/accelmath.pc.in ${PROJECT_BINARY_DIR}/accelmath.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/accelmath.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

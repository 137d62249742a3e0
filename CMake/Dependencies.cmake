# Every dependency is a Debian package (Make/install-deps installs them).
#
# The robot binary is one static executable (Util/Deploy/README.md: the NAO's own OS has an older glibc than the
# build machine), so the libraries it links come as their static archives: Boost.Serialization, zlib, TinyXML (all
# programs take the same ones). Debian's toml++ has no archive: NaoToml (Src/Tools/Streams) compiles it from its
# headers. urdfdom has none either: the URDF is read with TinyXML (Src/Tools/Kinematics/UrdfDocument.h).
# Sanitizer and fuzzing builds cannot link statically; their robot binary is dynamic.
if(NAO_SANITIZE OR NAO_FUZZ)
  set(naoStaticDefault OFF)
else()
  set(naoStaticDefault ON)
endif()
option(NAO_STATIC_ROBOT_BINARY "Link the robot binary (nao) statically: it runs on any glibc" ${naoStaticDefault})
set(Boost_USE_STATIC_LIBS ON)
set(ZLIB_USE_STATIC_LIBS ON)
# A build folder configured before the static link caches the shared zlib: find it again.
foreach(cached IN ITEMS ZLIB_LIBRARY ZLIB_LIBRARY_RELEASE ZLIB_LIBRARY_DEBUG)
  if("${${cached}}" MATCHES "\\.so")
    unset(${cached} CACHE)
  endif()
endforeach()
find_package(Threads REQUIRED)
find_package(ZLIB REQUIRED)           # CRC-32 of log chunks and debug frames
find_package(Eigen3 3.4 REQUIRED NO_MODULE)
find_package(Boost 1.74 REQUIRED COMPONENTS serialization)
find_package(tomlplusplus REQUIRED)   # its headers only: see NaoToml
find_path(TINYXML_INCLUDE_DIR tinyxml.h REQUIRED)
find_library(TINYXML_STATIC_LIBRARY NAMES libtinyxml.a REQUIRED)
add_library(TinyXML::TinyXML STATIC IMPORTED)
set_target_properties(TinyXML::TinyXML PROPERTIES IMPORTED_LOCATION "${TINYXML_STATIC_LIBRARY}"
                                                  INTERFACE_INCLUDE_DIRECTORIES "${TINYXML_INCLUDE_DIR}")
find_package(CLI11 REQUIRED)
find_package(nlohmann_json 3.11 REQUIRED) # TaskTool's JSON input and output (header only)
find_package(GTest REQUIRED)
find_package(benchmark REQUIRED)

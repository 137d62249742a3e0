# Precompiled headers. The outside headers nearly every translation unit parses (the standard library, Eigen,
# Boost.Serialization, toml++; GoogleTest for tests; Qt for the debug GUI) take about half of a typical file's compile
# time. Each set is compiled once, by a carrier library of its own (a target can reuse another target's precompiled
# header, not share a list), and every library and program reuses one of them:
#   NaoPchCommon     PrecompiledHeaders/Common.h     the rest
#   NaoPchTesting    PrecompiledHeaders/Testing.h    targets that link GoogleTest themselves (tests, TESTING libraries)
#   NaoPchQt         PrecompiledHeaders/Qt.h         targets that link Qt or NaoDebugGui (Util/DebugGui)
#   NaoPchQtTesting  PrecompiledHeaders/QtTesting.h  targets that link both
# nao_use_precompiled_headers() chooses after every folder is read, so a new target needs nothing. A compiler uses a
# precompiled header only where the macros it reads are defined alike and the position-independent-code setting
# matches (Qt's targets are PIC; the others are not): so those macros are defined for every target (below); clang
# stops with an error, GCC warns (-Winvalid-pch) where it would not use one. With them and clang++ (Make/build's
# compiler) a fresh clone builds in half the time of g++ without them. GCC's are ~190 MB files read whole by every
# translation unit: they save 7 % and bring -Warray-bounds false alarms, so a GCC build goes without them.
# NAO_PRECOMPILED_HEADERS=OFF builds without them, which checks that every file includes what it uses.
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  set(naoPchDefault ON)
else()
  set(naoPchDefault OFF)
endif()
option(NAO_PRECOMPILED_HEADERS "Reuse precompiled outside headers in every target (default: with clang)" ${naoPchDefault})

# The macros the precompiled headers read, alike for every target whether or not it links the library that asks for
# them: toml++ compiled once into NaoToml (Src/Tools/Streams), Boost's auto-linking off (as Boost's package defines).
add_compile_definitions(TOML_HEADER_ONLY=0 TOML_SHARED_LIB=0 BOOST_ALL_NO_LIB)

set(naoPchDirectory "${CMAKE_CURRENT_LIST_DIR}/PrecompiledHeaders")

# nao_add_precompiled_header_carrier(<name> <header> LIBS <targets...>): the library whose precompiled header
# others reuse; LIBS give it the include paths, macros and PIC setting of its users. Qt's packages are found in
# Util/DebugGui, so the Qt carriers are made there.
function(nao_add_precompiled_header_carrier name header)
  cmake_parse_arguments(ARG "" "" "LIBS" ${ARGN})
  if(NOT NAO_PRECOMPILED_HEADERS)
    return()
  endif()
  add_library(${name} STATIC "${naoPchDirectory}/Carrier.cpp")
  target_link_libraries(${name} PRIVATE Eigen3::Eigen Boost::headers ${ARG_LIBS})
  target_precompile_headers(${name} PRIVATE "${naoPchDirectory}/${header}")
endfunction()

nao_add_precompiled_header_carrier(NaoPchCommon Common.h)
nao_add_precompiled_header_carrier(NaoPchTesting Testing.h LIBS GTest::gtest GTest::gmock)

# nao_use_precompiled_headers(<folder>): every compiled target of <folder> and the folders below reuses its carrier.
function(nao_use_precompiled_headers folder)
  if(NOT NAO_PRECOMPILED_HEADERS)
    return()
  endif()
  get_directory_property(targets DIRECTORY "${folder}" BUILDSYSTEM_TARGETS)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    get_target_property(reused ${target} PRECOMPILE_HEADERS_REUSE_FROM)
    get_target_property(own ${target} PRECOMPILE_HEADERS)
    if(NOT type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|OBJECT_LIBRARY)$" OR reused OR own)
      continue()
    endif()
    get_target_property(libraries ${target} LINK_LIBRARIES)
    set(carrier NaoPch)
    if(libraries MATCHES "(^|;)(Qt6::[A-Za-z]+|NaoDebugGui)(;|$)")
      string(APPEND carrier Qt)
    endif()
    if(libraries MATCHES "(^|;)GTest::gtest(;|$)")
      string(APPEND carrier Testing)
    elseif(carrier STREQUAL "NaoPch")
      string(APPEND carrier Common)
    endif()
    set_property(TARGET ${target} PROPERTY PRECOMPILE_HEADERS_REUSE_FROM ${carrier})
  endforeach()
  get_directory_property(subfolders DIRECTORY "${folder}" SUBDIRECTORIES)
  foreach(subfolder IN LISTS subfolders)
    nao_use_precompiled_headers("${subfolder}")
  endforeach()
endfunction()

# nao_add_subdirectories(): adds every direct subfolder that has a CMakeLists.txt, so a new
# library, module or tool needs no edit of its parent's CMakeLists.txt.
function(nao_add_subdirectories)
  file(GLOB children LIST_DIRECTORIES true CONFIGURE_DEPENDS RELATIVE "${CMAKE_CURRENT_SOURCE_DIR}" "${CMAKE_CURRENT_SOURCE_DIR}/*")
  list(SORT children)
  foreach(child IN LISTS children)
    if(IS_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}/${child}" AND EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/${child}/CMakeLists.txt")
      add_subdirectory("${child}")
    endif()
  endforeach()
endfunction()

# nao_add_test(<name> SOURCES <files...> LIBS <targets...> [LABELS <labels...>] [TIMEOUT <s>] [SHARDS <n>])
# A GoogleTest executable registered with CTest as one test (gtest_discover_tests would add a
# process start per case; one process per executable keeps Make/test fast on two cores).
function(nao_add_test name)
  cmake_parse_arguments(ARG "" "TIMEOUT;SHARDS" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gtest_main GTest::gmock)
  target_compile_definitions(${name} PRIVATE NAO_CONFIG_DIR="${NAO_CONFIG_DIR}"
                                             NAO_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  # A test's own files at -O1 in Release: they call the libraries (built -O2, where the work is) and compile about a
  # fifth faster, which is most of a fresh clone's build. What they test is the libraries' optimised code.
  target_compile_options(${name} PRIVATE $<$<CONFIG:Release>:-O1>)
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 600)
  endif()
  if(NOT ARG_SHARDS)
    add_test(NAME ${name} COMMAND ${name})
    set_tests_properties(${name} PROPERTIES TIMEOUT ${ARG_TIMEOUT} LABELS "${ARG_LABELS}")
    return()
  endif()
  # SHARDS n: n CTest tests <name>.0 ... <name>.<n-1>, each running every n-th test case (GoogleTest's sharding),
  # so that `ctest -j` runs a long test program's cases side by side; `ctest -R <name>` runs them all.
  math(EXPR last "${ARG_SHARDS} - 1")
  foreach(shard RANGE ${last})
    add_test(NAME ${name}.${shard} COMMAND ${name})
    set_tests_properties(${name}.${shard} PROPERTIES TIMEOUT ${ARG_TIMEOUT} LABELS "${ARG_LABELS}"
                         ENVIRONMENT "GTEST_TOTAL_SHARDS=${ARG_SHARDS};GTEST_SHARD_INDEX=${shard}")
  endforeach()
endfunction()

# nao_add_benchmark(<name> SOURCES <files...> LIBS <targets...>): a Google Benchmark executable.
# Benchmarks report figures and never fail on time; CTest runs each once, briefly, as a smoke test.
function(nao_add_benchmark name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} benchmark::benchmark)
  target_compile_definitions(${name} PRIVATE NAO_CONFIG_DIR="${NAO_CONFIG_DIR}"
                                             NAO_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  add_test(NAME ${name}.smoke COMMAND ${name} --benchmark_min_time=0.001)
  # A check that fails inside a benchmark (state.SkipWithError) leaves the exit status 0; its message fails the
  # smoke run instead (CMake/Tests proves that it does).
  set_tests_properties(${name}.smoke PROPERTIES LABELS benchmark TIMEOUT 300 FAIL_REGULAR_EXPRESSION "ERROR OCCURRED")
endfunction()

# nao_add_library(<name> [OBJECT] [TESTING] [SOURCES <files...>] [LIBS <targets...>] [PRIVATE_LIBS <targets...>])
# The one way to define a library. It is made of the files of the folder it is called in (or its subfolders) and
# never filled from another folder, so that a folder's CMakeLists.txt shows all of its targets. STATIC with SOURCES,
# header-only (INTERFACE) without; OBJECT when every definition must reach the executable even if nothing refers
# to it (self-registering modules, an interposed malloc). LIBS belong to its interface, PRIVATE_LIBS only to its
# build. Its users include its headers by their path below Src/ ("Tools/Network/Client.h"); a library under Util/
# also by its path from the repository root ("Util/Simulator/Lola/LolaServer.h"), which code under Src/ never does.
# TESTING marks support code that only tests link (robots, fixtures, the allocation counter): it links GoogleTest
# and sees NAO_CONFIG_DIR and NAO_SOURCE_DIR as the tests do.
function(nao_add_library name)
  cmake_parse_arguments(ARG "OBJECT;TESTING" "" "SOURCES;LIBS;PRIVATE_LIBS" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "nao_add_library(${name}): unexpected arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(ARG_OBJECT)
    add_library(${name} OBJECT ${ARG_SOURCES})
    set(scope PUBLIC)
  elseif(ARG_SOURCES)
    add_library(${name} STATIC ${ARG_SOURCES})
    set(scope PUBLIC)
  else()
    if(ARG_PRIVATE_LIBS)
      message(FATAL_ERROR "nao_add_library(${name}): a header-only library has no PRIVATE_LIBS")
    endif()
    add_library(${name} INTERFACE)
    set(scope INTERFACE)
  endif()
  target_include_directories(${name} ${scope} "${PROJECT_SOURCE_DIR}/Src")
  cmake_path(APPEND PROJECT_SOURCE_DIR "Util" OUTPUT_VARIABLE utilRoot)
  cmake_path(IS_PREFIX utilRoot "${CMAKE_CURRENT_SOURCE_DIR}" NORMALIZE inUtil)
  if(inUtil)
    target_include_directories(${name} ${scope} "${PROJECT_SOURCE_DIR}")
  endif()
  if(ARG_LIBS)
    target_link_libraries(${name} ${scope} ${ARG_LIBS})
  endif()
  if(ARG_PRIVATE_LIBS)
    target_link_libraries(${name} PRIVATE ${ARG_PRIVATE_LIBS})
  endif()
  if(ARG_TESTING)
    target_link_libraries(${name} ${scope} GTest::gtest)
    if(NOT scope STREQUAL "INTERFACE")
      target_compile_definitions(${name} PRIVATE NAO_CONFIG_DIR="${NAO_CONFIG_DIR}" NAO_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
    endif()
  endif()
endfunction()

# nao_add_module(SOURCES <files...> [LIBS <targets...>]): the module of this folder (Src/Modules/<Area>/<Name>/) as
# the OBJECT library NaoModule<Name>, so that its self-registration is never dropped by the linker. NaoModules
# (Src/Modules/CMakeLists.txt) collects the modules in the order of this property.
function(nao_add_module)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  cmake_path(GET CMAKE_CURRENT_SOURCE_DIR FILENAME moduleName)
  nao_add_library(NaoModule${moduleName} OBJECT SOURCES ${ARG_SOURCES} LIBS NaoFramework NaoRepresentations ${ARG_LIBS})
  set_property(GLOBAL APPEND PROPERTY NAO_MODULE_LIBRARIES NaoModule${moduleName})
endfunction()

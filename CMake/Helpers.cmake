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

# nao_add_test(<name> SOURCES <files...> LIBS <targets...> [LABELS <labels...>] [TIMEOUT <s>])
# A GoogleTest executable registered with CTest as one test (gtest_discover_tests would add a
# process start per case; one process per executable keeps Make/test fast on two cores).
function(nao_add_test name)
  cmake_parse_arguments(ARG "" "TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gtest_main GTest::gmock)
  target_compile_definitions(${name} PRIVATE NAO_CONFIG_DIR="${NAO_CONFIG_DIR}"
                                             NAO_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  add_test(NAME ${name} COMMAND ${name})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 600)
  endif()
  set_tests_properties(${name} PROPERTIES TIMEOUT ${ARG_TIMEOUT} LABELS "${ARG_LABELS}")
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
  set_tests_properties(${name}.smoke PROPERTIES LABELS benchmark TIMEOUT 300)
endfunction()

# nao_add_module(SOURCES <files...> [LIBS <targets...>]): adds a module's sources to NaoModules.
function(nao_add_module)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  foreach(source IN LISTS ARG_SOURCES)
    target_sources(NaoModules PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/${source}")
  endforeach()
  if(ARG_LIBS)
    target_link_libraries(NaoModules PUBLIC ${ARG_LIBS})
  endif()
endfunction()

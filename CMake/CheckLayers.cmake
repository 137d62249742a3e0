# cmake -DSOURCE_DIR=<repository>/Src -P CheckLayers.cmake: fails when an #include crosses a layer of Src/ the wrong
# way (README, "Layout"). Tools and Representations must stay usable without the framework, and nothing the robot
# runs may depend on the host programs in Util/.
if(NOT SOURCE_DIR)
  message(FATAL_ERROR "CheckLayers.cmake: pass -DSOURCE_DIR=<repository>/Src")
endif()

set(violations "")

# check(<folder below Src> <forbidden include prefixes, as one regex alternative> [PRODUCTION] [EXCEPT <folders...>])
# PRODUCTION skips Tests/ and Benchmarks/ folders, which may reach further down (e.g. a framework test runs the
# stand-in body of Platform/).
function(check folder forbidden)
  cmake_parse_arguments(ARG "PRODUCTION" "" "EXCEPT" ${ARGN})
  file(GLOB_RECURSE files "${SOURCE_DIR}/${folder}/*.h" "${SOURCE_DIR}/${folder}/*.cpp")
  foreach(file IN LISTS files)
    file(RELATIVE_PATH relative "${SOURCE_DIR}" "${file}")
    if(ARG_PRODUCTION AND relative MATCHES "/(Tests|Benchmarks)/")
      continue()
    endif()
    set(excepted FALSE)
    foreach(exception IN LISTS ARG_EXCEPT)
      if(relative MATCHES "^${exception}/")
        set(excepted TRUE)
      endif()
    endforeach()
    if(excepted)
      continue()
    endif()
    file(STRINGS "${file}" includes REGEX "^#include \"(${forbidden})/")
    foreach(line IN LISTS includes)
      list(APPEND violations "Src/${relative}: ${line}")
    endforeach()
  endforeach()
  set(violations "${violations}" PARENT_SCOPE)
endfunction()

check(. "Util")
check(Representations "Framework|Modules|Platform|Apps")
# DebugClient and LogReading are the framework's client side (its messages, its representation table).
check(Tools "Representations|Framework|Modules|Platform|Apps" EXCEPT Tools/DebugClient Tools/LogReading)
check(Tools "Representations|Modules|Platform|Apps")
check(Framework "Modules|Platform|Apps" PRODUCTION)
check(Platform "Modules|Apps")
check(Modules "Platform|Apps" PRODUCTION)

if(violations)
  list(REMOVE_DUPLICATES violations)
  list(JOIN violations "\n  " text)
  message(FATAL_ERROR "includes across layers:\n  ${text}")
endif()
message(STATUS "no include crosses a layer of Src/")

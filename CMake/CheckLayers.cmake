# cmake -DROOT_DIR=<repository> -P CheckLayers.cmake: fails when an #include of Src/ or Util/ crosses a layer the wrong
# way (README, "Layout"). Every rule holds for every file; there are no exceptions.
#
# Src/, from the bottom: Tools, Representations, Platform, Framework, Modules, Apps. A folder includes its own layer
# and those below it, never one above:
#   Tools            pure libraries: none of the other layers
#   Representations  Tools
#   Platform         Tools, Representations (a body fills representations: Platform/Body.h)
#   Framework        Tools, Representations, Platform (the motion loop drives a Body; Framework/Client is the
#                    framework's client side: debug channel and log reading)
#   Modules          Tools, Representations, Framework; a body (Platform) only in Tests/ (a module runs on any body).
#                    Outside Tests/, a module's files include of Modules/ only their own folder and the shared
#                    libraries of Modules/<Area>/Common/; what two modules share lives there or in Tools/.
#   Apps             all of Src/
# Nothing in Src/ includes Util/: nothing the robot runs depends on the host programs. Outside Tests/, nothing in Util/
# includes a module's folder either (a host program reaches a module through the framework, or shares a library).
#
# Util/: a shared library folder (utilLibraries below) includes Src/ and the other library folders; a program folder
# includes Src/, the library folders and itself, never another program's folder.
cmake_minimum_required(VERSION 3.25)
if(NOT ROOT_DIR)
  message(FATAL_ERROR "CheckLayers.cmake: pass -DROOT_DIR=<repository>")
endif()

# Folders of Util/ that are libraries for the programs there, not programs themselves.
set(utilLibraries MujocoModel)

set(violations "")

# check(<folder below the repository> <forbidden include prefixes, as one regex alternative> [PRODUCTION])
# PRODUCTION skips Tests/ folders, which may reach further (a module's test runs it on the stand-in body of Platform/).
function(check folder forbidden)
  cmake_parse_arguments(ARG "PRODUCTION" "" "" ${ARGN})
  file(GLOB_RECURSE files "${ROOT_DIR}/${folder}/*.h" "${ROOT_DIR}/${folder}/*.cpp")
  foreach(file IN LISTS files)
    file(RELATIVE_PATH relative "${ROOT_DIR}" "${file}")
    if(ARG_PRODUCTION AND relative MATCHES "/Tests/")
      continue()
    endif()
    file(STRINGS "${file}" includes REGEX "^#include \"(${forbidden})/")
    foreach(line IN LISTS includes)
      list(APPEND violations "${relative}: ${line}")
    endforeach()
  endforeach()
  set(violations "${violations}" PARENT_SCOPE)
endfunction()

check(Src "Util")
check(Src/Tools "Representations|Platform|Framework|Modules|Apps")
check(Src/Representations "Platform|Framework|Modules|Apps")
check(Src/Platform "Framework|Modules|Apps")
check(Src/Framework "Modules|Apps")
check(Src/Modules "Apps")
check(Src/Modules "Platform" PRODUCTION)

# A module's folder is its own: no production file elsewhere includes it (Modules/<Area>/Common/ is shared).
file(GLOB_RECURSE files "${ROOT_DIR}/Src/*.h" "${ROOT_DIR}/Src/*.cpp" "${ROOT_DIR}/Util/*.h" "${ROOT_DIR}/Util/*.cpp")
foreach(file IN LISTS files)
  file(RELATIVE_PATH relative "${ROOT_DIR}" "${file}")
  if(relative MATCHES "/Tests/")
    continue()
  endif()
  file(STRINGS "${file}" includes REGEX "^#include \"Modules/[^/]+/[^/]+/")
  foreach(line IN LISTS includes)
    string(REGEX MATCH "Modules/[^/]+/[^/]+/" folder "${line}")
    if(NOT folder MATCHES "/Common/$" AND NOT relative MATCHES "^Src/${folder}")
      list(APPEND violations "${relative}: ${line} (another module's folder)")
    endif()
  endforeach()
endforeach()

file(GLOB utilEntries LIST_DIRECTORIES true RELATIVE "${ROOT_DIR}/Util" "${ROOT_DIR}/Util/*")
set(utilPrograms "")
foreach(entry IN LISTS utilEntries)
  if(IS_DIRECTORY "${ROOT_DIR}/Util/${entry}" AND NOT entry IN_LIST utilLibraries)
    list(APPEND utilPrograms "${entry}")
  endif()
endforeach()
foreach(library IN LISTS utilLibraries)
  if(NOT IS_DIRECTORY "${ROOT_DIR}/Util/${library}")
    message(FATAL_ERROR "CheckLayers.cmake: the Util library folder ${library} does not exist")
  endif()
  if(utilPrograms)
    list(JOIN utilPrograms "|" programs)
    check(Util/${library} "Util/(${programs})")
  endif()
endforeach()
foreach(program IN LISTS utilPrograms)
  set(others ${utilPrograms})
  list(REMOVE_ITEM others "${program}")
  if(others)
    list(JOIN others "|" otherPrograms)
    check(Util/${program} "Util/(${otherPrograms})")
  endif()
endforeach()

if(violations)
  list(REMOVE_DUPLICATES violations)
  list(JOIN violations "\n  " text)
  message(FATAL_ERROR "includes across layers:\n  ${text}")
endif()
list(JOIN utilPrograms ", " programText)
message(STATUS "no include crosses a layer of Src/ or Util/ (programs: ${programText}; libraries: ${utilLibraries})")

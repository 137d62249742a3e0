# One place for language level and warnings.
set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
set(CMAKE_POSITION_INDEPENDENT_CODE OFF) # Debian's asmjit is a non-PIC static library
if(NOT CMAKE_BUILD_TYPE)
  set(CMAKE_BUILD_TYPE Release)
endif()
add_compile_options(-Wall -Wextra -Wno-psabi)
# Release targets the machine generation of the NAO V6 (Atom E3845: SSE4.2, no AVX) so that Release
# binaries run on the robot; wider instruction sets are used only by the JIT, chosen at run time.
set(CMAKE_CXX_FLAGS_RELEASE "-O2 -DNDEBUG -march=silvermont -mtune=generic")
set(CMAKE_CXX_FLAGS_RELWITHDEBINFO "-O2 -g -DNDEBUG -march=silvermont -mtune=generic")
# LLVM's linker where the machine has it (Debian's lld, beside clang): it links the ~120 executables of a build with about
# half the CPU of GNU ld (76 s against 42 s for Build/Release's links, measured on 2 cores); GNU ld otherwise.
include(CheckLinkerFlag)
check_linker_flag(CXX "-fuse-ld=lld" NAO_HAVE_LLD)
if(NAO_HAVE_LLD)
  add_link_options(-fuse-ld=lld)
endif()

# Sanitizer and fuzzing builds (Make/sanitize, Make/fuzz; Docs/Reliability.md). NAO_SANITIZE is the list given to
# -fsanitize= for every target ("address,undefined" or "thread"); any report ends the process with an error.
set(NAO_SANITIZE "" CACHE STRING "-fsanitize= checks for every target, e.g. address,undefined or thread")
if(NAO_SANITIZE)
  add_compile_options(-fsanitize=${NAO_SANITIZE} -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${NAO_SANITIZE})
endif()
# NAO_FUZZ (clang only) adds the libFuzzer targets of Fuzz/ and libFuzzer's coverage instrumentation to every target,
# except the libraries' functions Fuzz/CoverageIgnorelist.txt names (why: there).
option(NAO_FUZZ "Build the libFuzzer targets of Fuzz/ (clang)" OFF)
if(NAO_FUZZ)
  add_compile_options(-fsanitize=fuzzer-no-link
                      -fsanitize-coverage-ignorelist=${CMAKE_SOURCE_DIR}/Fuzz/CoverageIgnorelist.txt)
endif()

# __FILE__ (module registrations name their source file) and debug info use paths relative to the checkout, so no
# binary names the tree it was built in (InstallTests checks the installed files) and builds are reproducible.
add_compile_options(-ffile-prefix-map=${CMAKE_SOURCE_DIR}/=)

// The translation unit of a precompiled-header carrier (CMake/PrecompiledHeaders.cmake): its precompiled header is
// the one its users reuse; it defines nothing.

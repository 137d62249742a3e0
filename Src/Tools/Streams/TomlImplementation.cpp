// toml++'s implementation, compiled once for every program (CMake target NaoToml).
#define TOML_IMPLEMENTATION
#include <toml++/toml.h>

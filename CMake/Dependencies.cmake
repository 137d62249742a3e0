# Every dependency is a Debian package (Make/install-deps installs them).
find_package(Threads REQUIRED)
find_package(ZLIB REQUIRED)           # CRC-32 of log chunks and debug frames
find_package(Eigen3 3.4 REQUIRED NO_MODULE)
find_package(Boost 1.74 REQUIRED COMPONENTS serialization)
find_package(tomlplusplus REQUIRED)
find_package(CLI11 REQUIRED)
find_package(GTest REQUIRED)
find_package(benchmark REQUIRED)

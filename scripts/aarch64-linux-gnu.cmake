# CMake toolchain for an aarch64 (arm64) build on a Debian amd64 machine, used
# by scripts/cross-test aarch64: Debian's cross compiler (gcc-aarch64-linux-gnu)
# and the arm64 Lua from multiarch (liblua5.4-dev:arm64 in /usr/lib/aarch64-linux-gnu).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
# Libraries are searched in the multiarch directories (/usr/lib/aarch64-linux-gnu).
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# Programs (lua5.4, luac5.4, busted) are the build machine's; libraries and
# headers are the target's: the cross compiler's own tree, then multiarch /usr.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu /)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
# Debian's luaconf.h includes "lua5.4-deb-multiarch.h" from
# /usr/include/aarch64-linux-gnu, a directory the cross compiler does not
# search: it goes last, after the cross compiler's own libc headers.
set(CMAKE_C_FLAGS_INIT "-idirafter /usr/include/aarch64-linux-gnu")
# add_test commands naming a target run under qemu (user mode, no binfmt_misc needed).
find_program(BS_QEMU_AARCH64 NAMES qemu-aarch64 qemu-aarch64-static)
if(BS_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${BS_QEMU_AARCH64};-L;/usr/aarch64-linux-gnu")
endif()

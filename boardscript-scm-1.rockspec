-- Build and install from a checkout:
--   luarocks --lua-version 5.4 make --deps-mode none --tree DIR boardscript-scm-1.rockspec
-- (Debian's lua-argparse satisfies the argparse dependency; `luarocks path`
-- prints the LUA_PATH, LUA_CPATH and PATH settings for DIR.)
rockspec_format = "3.0"
package = "boardscript"
version = "scm-1"
source = {
  -- `luarocks make` builds the working tree it is run in and never fetches this.
  url = ".",
}
description = {
  summary = "A scriptable engine for grid board games",
  detailed = [[
A C core (boards as bitset planes, captures, dots-and-boxes edges, search and
solvers) exposed to Lua 5.4 as boardscript.core, Lua modules for game flows,
variants and AI policies (require "boardscript"), and the boardscript host that
plays five console editions and runs Lua scripts.]],
}
dependencies = {
  "lua >= 5.4, < 5.5",
  "argparse",
  "dkjson",
  "luafilesystem", -- directories and files without a shell (workers, testing, match --records); the sandbox
                   -- checks that a restricted file reads through no symbolic link
}
build = {
  type = "cmake",
  variables = {
    CMAKE_BUILD_TYPE = "Release",
    BUILD_TESTING = "OFF",
    BOARDSCRIPT_NATIVE = "OFF",
    LUA_INCLUDE_DIR = "$(LUA_INCDIR)",
    BOARDSCRIPT_INSTALL_LUADIR = "$(LUADIR)",
    BOARDSCRIPT_INSTALL_CMOD = "$(LIBDIR)",
    BOARDSCRIPT_INSTALL_BINDIR = "$(BINDIR)",
  },
}

#!/usr/bin/env bash
# Installs into a scratch prefix and checks that the installed host runs and that
# stock lua5.4 finds both the module and the Lua files there.
set -euo pipefail
unset LUA_PATH_5_4 LUA_CPATH_5_4
build=$1
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
test -x "$prefix/bin/boardscript"
test -f "$prefix/lib/lua/5.4/boardscript/core.so"
test -f "$prefix/share/lua/5.4/boardscript/cli.lua"
"$prefix/bin/boardscript" --version | grep -q '^boardscript '
# The installed host must use the installed Lua files, not the source tree's.
printf 'return 0\n' >"$prefix/share/lua/5.4/boardscript/marker_installed.lua"
cat >"$prefix/probe.lua" <<'LUA'
assert(require "boardscript.marker_installed" == 0)
print(require("boardscript").version)
LUA
"$prefix/bin/boardscript" run "$prefix/probe.lua" | grep -q '^[0-9]'
# The host knows its own path (to start itself as a subprocess).
printf 'print(require("boardscript.host").executable)\n' >"$prefix/exe.lua"
test "$("$prefix/bin/boardscript" run "$prefix/exe.lua")" = "$(realpath "$prefix/bin/boardscript")"
# `run` finds modules next to the script, wherever it is run from.
mkdir "$prefix/script"
printf 'return { answer = 42 }\n' >"$prefix/script/helper.lua"
printf 'print(require("helper").answer)\n' >"$prefix/script/main.lua"
test "$(cd / && "$prefix/bin/boardscript" run "$prefix/script/main.lua")" = 42
out=$(printf '0\n' | "$prefix/bin/boardscript" play blocks --size 4 --black random --white random --seed 1)
grep -q 'Game over:' <<<"$out"
LUA_PATH="$prefix/share/lua/5.4/?.lua;$prefix/share/lua/5.4/?/init.lua;;" \
LUA_CPATH="$prefix/lib/lua/5.4/?.so;;" \
  lua5.4 -e 'local bs = require "boardscript"; assert(bs.core.board(8):size() == 8); print("installed ok")'

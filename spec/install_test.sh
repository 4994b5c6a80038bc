#!/usr/bin/env bash
# Installs into a scratch prefix and checks that the installed host runs and that
# stock lua5.4 finds both the module and the Lua files there.
set -euo pipefail
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
out=$(printf '0\n' | "$prefix/bin/boardscript" play blocks --size 4 --black random --white random --seed 1)
grep -q 'Game over:' <<<"$out"
LUA_PATH="$prefix/share/lua/5.4/?.lua;$prefix/share/lua/5.4/?/init.lua;;" \
LUA_CPATH="$prefix/lib/lua/5.4/?.so;;" \
  lua5.4 -e 'local bs = require "boardscript"; assert(bs.core.board(8):size() == 8); print("installed ok")'

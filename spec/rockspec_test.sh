#!/usr/bin/env bash
# Builds and installs boardscript-scm-1.rockspec with `luarocks make` into a
# scratch tree, from a scratch copy of the sources (LuaRocks builds in
# ./build.luarocks), then checks that with `luarocks path` stock lua5.4 finds the
# library and that the tree's boardscript host runs without the sources.
set -euo pipefail
source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset LUA_PATH_5_4 LUA_CPATH_5_4 LUAROCKS_CONFIG
export HOME=$tmp/home # no user config or cache of luarocks' own
mkdir -p "$tmp/src" "$HOME"

# The working tree as git sees it (tracked and new files, not ignored build
# dirs); a plain copy without build dirs when this is not a git checkout.
if git -C "$source_dir" rev-parse --show-toplevel >/dev/null 2>&1; then
  (cd "$source_dir" && git ls-files -z --cached --others --exclude-standard |
    tar --null --ignore-failed-read -T - -cf - 2>/dev/null) | tar -xf - -C "$tmp/src"
else
  tar -C "$source_dir" --exclude=./.git --exclude=./build --exclude='./build-*' \
    --exclude=./build.luarocks -cf - . | tar -xf - -C "$tmp/src"
fi

tree=$tmp/tree
if ! (cd "$tmp/src" && luarocks --lua-version 5.4 make --deps-mode none --tree "$tree" \
        boardscript-scm-1.rockspec) >"$tmp/luarocks.log" 2>&1; then
  cat "$tmp/luarocks.log" >&2
  exit 1
fi
rm -rf "$tmp/src" # the installed host must not lean on the sources it was built from
test -f "$tree/lib/lua/5.4/boardscript/core.so"
test -f "$tree/share/lua/5.4/boardscript/init.lua"
bin=$tree/bin/boardscript
test -x "$bin"

eval "$(luarocks --lua-version 5.4 --tree "$tree" path)"
cd "$tmp"
lua5.4 -e 'local bs = require "boardscript"; assert(bs.core.board(8):size() == 8)'
"$bin" --version | grep -q '^boardscript '
out=$(printf '0\n' | "$bin" play blocks --size 4 --black random --white random --seed 1)
grep -q 'Game over:' <<<"$out"
echo "rockspec ok"

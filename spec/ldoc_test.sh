#!/usr/bin/env bash
# The API reference builds: scripts/doc (ldoc --fatalwarnings: an unknown tag,
# a @param that is no argument or a broken reference fails) writes every
# module's page and the guide, and docs/core.ld.lua documents every function
# and method the C binding registers (src/lua/*.c).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "ldoc_test: $*" >&2; exit 1; }

errors=$("$root/scripts/doc" "$out/doc" 2>&1 >/dev/null) || fail "scripts/doc failed: $errors"
# The one remark allowed on stderr: markdown.lua is missing (plain text pages).
errors=$(grep -v 'markdown.lua not found' <<<"$errors" || true)
[ -z "$errors" ] || fail "scripts/doc wrote to stderr: $errors"

for module in boardscript boardscript.game boardscript.rules boardscript.families.board \
  boardscript.families.dots boardscript.players boardscript.perft boardscript.record \
  boardscript.console boardscript.play boardscript.core; do
  [ -s "$out/doc/modules/$module.html" ] || fail "no page for $module"
done
[ -s "$out/doc/topics/guide.md.html" ] || fail "no page for the guide"
[ -s "$out/doc/examples/anti.lua.html" ] || fail "no page for the examples"

core="$out/doc/modules/boardscript.core.html"
# Methods: every name in a luaL_Reg table but the metamethods.
for method in $(grep -ho '{"[a-z_]*", *[a-z_]*}' "$root"/src/lua/*.c | sed 's/{"\([a-z_]*\)".*/\1/' | grep -v '^__' | sort -u); do
  grep -q "name = \"[a-z_]*:$method\"" "$core" || fail "docs/core.ld.lua does not document the method $method"
done
# Module functions: each lua_pushcfunction followed by lua_setfield.
for function in $(grep -h -A1 'lua_pushcfunction' "$root"/src/lua/*.c | grep -o 'setfield(L, -2, "[a-z_]*")' \
  | sed 's/.*"\([a-z_]*\)")/\1/' | sort -u); do
  grep -q "name = \"$function\"" "$core" || fail "docs/core.ld.lua does not document core.$function"
done
echo "ldoc_test: ok"

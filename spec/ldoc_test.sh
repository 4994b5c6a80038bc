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

# The Lua modules of config.ld's file list (docs/core.ld.lua is checked
# below): every `function T.name(...)` / `function T:name(...)` with
# parameters has a `---` doc comment with a @tparam or @param for each of
# them (a helper that is no API says `@local`), and every documented
# function has its entry on the module's page (LDoc drops an item without a
# word when it takes its first line for a `--- decoration --` line).
# shellcheck disable=SC2016 # the awk program's $ are awk's
untagged='
  /^--/ { block = block $0 "\n"; next }
  /^function [A-Za-z_][A-Za-z0-9_]*[.:][A-Za-z_][A-Za-z0-9_]*[ ]*\(/ {
    head = substr($0, 10)
    name = head; sub(/[ ]*\(.*/, "", name)
    if (head !~ /\)/) { print "PROBLEM " FILENAME ":" FNR ": " name ": parameters not on one line"; block = ""; next }
    args = head; sub(/^[^(]*\(/, "", args); sub(/\).*/, "", args); gsub(/[ \t]/, "", args)
    if (block ~ /(^|\n)--+ @local/) { block = ""; next }
    member = name; sub(/^.*[.:]/, "", member)
    if (block !~ /^---/) {
      if (args != "") print "PROBLEM " FILENAME ":" FNR ": " name "(" args ") has no --- doc comment"
      block = ""; next
    }
    print "DOC " member " " name
    if (args == "") { block = ""; next }
    for (key in tagged) delete tagged[key]
    lines = split(block, line, "\n")
    for (i = 1; i <= lines; i++) {
      split(line[i], word, " ")
      if (word[2] ~ /^@tparam(\[.*\])?$/) tagged[word[4]] = 1
      else if (word[2] ~ /^@param(\[.*\])?$/) tagged[word[3]] = 1
    }
    count = split(args, arg, ",")
    for (i = 1; i <= count; i++) {
      if (!(arg[i] in tagged)) print "PROBLEM " FILENAME ":" FNR ": " name ": no @tparam or @param for " arg[i]
    }
    block = ""; next
  }
  { block = "" }'
lua_files=$(sed -n '/^file = {/,/^}/p' "$root/config.ld" | grep -o '"[^"]*\.lua"' | tr -d '"' \
  | grep -vx 'docs/core\.ld\.lua' || true)
[ -n "$lua_files" ] || fail "no Lua modules in config.ld's file list"
for file in $lua_files; do
  [ -f "$root/$file" ] || fail "config.ld lists $file, which does not exist"
  module=$(sed 's|^lua/||; s|/init\.lua$||; s|\.lua$||; s|/|.|g' <<<"$file")
  page="$out/doc/modules/$module.html"
  [ -s "$page" ] || fail "no page for $module ($file)"
  report=$(cd "$root" && awk "$untagged" "$file")
  problems=$(grep '^PROBLEM ' <<<"$report" | sed 's/^PROBLEM //' || true)
  [ -z "$problems" ] || fail "functions without @tparam/@param tags:"$'\n'"$problems"
  while read -r _ member name; do
    grep -qF -e "<a name = \"$member\"></a>" -e "<a name = \"$name\"></a>" "$page" \
      || fail "$file: $name is documented but not on the page of $module (LDoc dropped its doc comment)"
  done < <(grep '^DOC ' <<<"$report" || true)
done
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

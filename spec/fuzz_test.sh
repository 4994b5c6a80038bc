#!/usr/bin/env bash
# ctest entry: builds every libFuzzer target (scripts/fuzz) in BUILD_DIR/fuzz
# and runs each for a few seconds from its seed corpus. Any crash, sanitizer
# report or failed invariant fails the test, with the reproducer's path.
# Usage: fuzz_test.sh SOURCE_DIR BUILD_DIR [SECONDS]
set -euo pipefail
source_dir=$1
build_dir=$2
seconds=${3:-3}
export BOARDSCRIPT_FUZZ_DIR=$build_dir/fuzz
targets=$("$source_dir/scripts/fuzz" --list)
[ -n "$targets" ] || { echo "fuzz_test: no targets" >&2; exit 1; }
status=0
for t in $targets; do
  [ -d "$source_dir/spec/fuzz/corpus/$t" ] || { echo "fuzz_test: $t has no seed corpus" >&2; status=1; }
  "$source_dir/scripts/fuzz" "$t" "$seconds" || status=1
done
exit $status

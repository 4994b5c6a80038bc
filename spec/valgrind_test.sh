#!/usr/bin/env bash
# The host under valgrind (memcheck): start-up and one whole game of every
# edition (golden transcripts, so the output is checked too) must show no
# invalid access, no uninitialised value and no leak of our memory, and
# exit as the transcript says (a signal, SIGILL included, is a failure).
# Usage: valgrind_test.sh BOARDSCRIPT_BINARY SOURCE_DIR
set -euo pipefail
bin=$1
src=$2
cd "$src/spec/transcripts"
run() { # run ARGS INPUT EXPECTED_OUTPUT(or "") EXPECTED_STATUS
  local args=$1 input=$2 expected=$3 want=$4
  local out status=0
  out=$(mktemp)
  # shellcheck disable=SC2086 # the .args file is a plain word list
  valgrind --quiet --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect \
    --errors-for-leak-kinds=definite,indirect --track-origins=yes \
    "$bin" $args <"$input" >"$out" 2>"$out.err" || status=$?
  if [ "$status" -ne "$want" ]; then
    if [ "$status" -eq 99 ]; then
      echo "FAIL valgrind found errors: boardscript $args" >&2
    elif [ "$status" -gt 128 ]; then
      echo "FAIL killed by signal $((status - 128)) under valgrind: boardscript $args" >&2
    else
      echo "FAIL exit status $status, expected $want: boardscript $args" >&2
    fi
    cat "$out.err" >&2
    rm -f "$out" "$out.err"
    exit 1
  fi
  if [ -n "$expected" ] && ! cmp -s "$out" "$expected"; then
    echo "FAIL output differs from $expected: boardscript $args" >&2
    diff "$expected" "$out" | head -20 >&2 || true
    rm -f "$out" "$out.err"
    exit 1
  fi
  echo "ok   boardscript $args"
  rm -f "$out" "$out.err"
}
run "--version" /dev/null "" 0
for t in blocks/seed-run2 dots/full-game-3x3 flipflop/computers othello/computers-strict reversi/computers \
         board/random-reversi; do
  want=0
  [ -f "$t.status" ] && want=$(cat "$t.status")
  run "$(cat "$t.args")" "$t.in" "$t.out" "$want"
done

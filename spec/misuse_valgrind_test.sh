#!/usr/bin/env bash
# The misuse matrix (spec/misuse_matrix_spec.lua) under valgrind (memcheck):
# every bad argument, closed object and misbehaving callback must show no
# invalid access, no uninitialised value and no definite or indirect leak.
# BOARDSCRIPT_MISUSE_REDUCED (default 0: the whole matrix; 1: one bad value
# of each group) is passed on.
# Usage: misuse_valgrind_test.sh LUA BUSTED (from the source directory, with
# LUA_PATH and LUA_CPATH set as for the specs)
set -euo pipefail
lua=$1
busted=$2
export BOARDSCRIPT_MISUSE_REDUCED=${BOARDSCRIPT_MISUSE_REDUCED:-0}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
valgrind --quiet --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect \
  --errors-for-leak-kinds=definite,indirect --track-origins=yes --log-file="$log" \
  "$lua" "$busted" --no-auto-insulate -o TAP spec/misuse_matrix_spec.lua || status=$?
if [ -s "$log" ] || [ "$status" -ne 0 ]; then
  if [ "$status" -gt 128 ]; then
    echo "FAIL misuse matrix under valgrind: killed by signal $((status - 128))" >&2
  else
    echo "FAIL misuse matrix under valgrind (status $status)" >&2
  fi
  cat "$log" >&2
  exit 1
fi
echo "ok   misuse matrix under valgrind (reduced=$BOARDSCRIPT_MISUSE_REDUCED)"

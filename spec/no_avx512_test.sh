#!/usr/bin/env bash
# What valgrind runs must hold no AVX-512 code: valgrind 3.19 stops with
# SIGILL on the first EVEX-encoded instruction, which -march=native emits on a
# CPU with AVX-512 (vmovdqu8 %zmm0, vpternlogd, mask registers).
# Usage: no_avx512_test.sh FILE...   (x86-64 executables or shared objects)
# An instruction is AVX-512 when its first opcode byte (after address-size or
# segment prefixes) is 0x62, the EVEX prefix in 64-bit mode, or when it names a
# zmm register, a mask register or xmm/ymm 16-31. The checker is first tried on
# instructions assembled here: VEX (AVX2) ones must pass, EVEX ones fail.
set -euo pipefail

# evex_lines FILE: the disassembly lines of AVX-512 instructions in FILE.
evex_lines() {
  objdump -d --insn-width=15 "$1" | awk -F'\t' '
    NF >= 3 && $1 ~ /^ *[0-9a-f]+:$/ {
      n = split($2, b, " ")
      i = 1
      while (i <= n && b[i] ~ /^(67|26|2e|36|3e|64|65)$/) i++
      if ((i <= n && b[i] == "62") ||
          $3 ~ /%zmm|%k[0-7]|%[xy]mm(1[6-9]|2[0-9]|3[01])\>/) print
    }'
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
selfcheck() { # selfcheck EXPECT(found|clean) ASSEMBLY
  printf '\t.text\n%s\n' "$2" >"$work/t.s"
  as --64 -o "$work/t.o" "$work/t.s"
  local found
  found=$(evex_lines "$work/t.o" | wc -l)
  if { [ "$1" = found ] && [ "$found" -eq 0 ]; } || { [ "$1" = clean ] && [ "$found" -ne 0 ]; }; then
    echo "FAIL the checker is wrong: expected $1 for: $2" >&2
    exit 1
  fi
}
selfcheck clean 'vpand %ymm1, %ymm2, %ymm3
vpshufb %ymm15, %ymm14, %ymm13
vpbroadcastq %xmm0, %ymm1
pdep %rax, %rbx, %rcx
vmovdqu (%rdi), %ymm0'
selfcheck found 'vmovdqu8 %zmm0, (%rax)'
selfcheck found 'vpternlogd $0x96, %ymm1, %ymm2, %ymm3'
selfcheck found 'vpaddd %ymm16, %ymm1, %ymm2'
selfcheck found 'vpcmpeqd %ymm1, %ymm2, %k1'
selfcheck found '{evex} vpaddd %xmm1, %xmm2, %xmm3'
selfcheck found 'addr32 vpternlogq $0xff, (%eax), %xmm1, %xmm2'

status=0
for f in "$@"; do
  found=$(evex_lines "$f")
  if [ -n "$found" ]; then
    echo "FAIL $f holds $(wc -l <<<"$found") AVX-512 instructions; the first:" >&2
    sed -n 1,5p <<<"$found" >&2
    status=1
  else
    echo "ok   no AVX-512 instruction in $f"
  fi
done
exit $status

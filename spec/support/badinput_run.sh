#!/bin/bash
# Runs a command on an input held open until the command has read all of it,
# then ends the input, and reports how the command took it (for
# spec/badinput_matrix_spec.lua):
#
#   bash badinput_run.sh INPUT OUT ERR LIMIT COMMAND [ARGS...]
#
# OUT and ERR receive the command's stdout and stderr (ERR may be the same
# path as OUT: then both go to one file, in the order written). LIMIT is the
# hang guard: the command is killed when it has used LIMIT seconds of CPU
# after the end of input (6 x LIMIT before it, while it reads its input), or
# 6 x LIMIT seconds of wall clock after it (30 x LIMIT before). One line is
# printed:
#
#   status=S timeout=0|1 blocked=0|1 hwm_kib=K cpu_ms=C post_eof_cpu_ms=P
#
# blocked=1 when the command was seen waiting in read(2) on its standard
# input once everything was written (then the input was ended; otherwise it
# exited before wanting more); hwm_kib is the largest VmHWM (peak resident
# set) sampled from /proc while it ran, the last sample taken at most 10 ms
# before it exited; cpu_ms is its whole user+system CPU time (from the shell's
# `times`, less cat's) and post_eof_cpu_ms the part spent after the end of
# input (its /proc ticks, 10 ms each, when the input was ended subtracted).
# Only bash builtins run while the command runs, so `times` counts nothing else.
set -u
input=$1 out=$2 err=$3 limit=$4
shift 4
trap '' PIPE
timing=$(mktemp)

dir=$(mktemp -d)
mkfifo "$dir/in" "$dir/tick"
exec 4<>"$dir/tick" # never written: `read -t` on it is a builtin sleep
if [ "$err" = "$out" ]; then
  "$@" <"$dir/in" >"$out" 2>&1 &
else
  "$@" <"$dir/in" >"$out" 2>"$err" &
fi
pid=$!
exec 3>"$dir/in"
rm -rf "$dir"

# Writes the input (cat stops at EPIPE if the command exits first). cat is
# reaped here, so the children's CPU time counted so far is cat's.
cat "$input" >&3 2>/dev/null

to_ms() { # "0m1.230s" -> ms=1230
  local t=$1 m s whole frac
  m=${t%%m*}; s=${t#*m}; s=${s%s}
  whole=${s%.*}; frac=${s#*.}
  ms=$(( (10#$m * 60 + 10#$whole) * 1000 + 10#$frac ))
}
children_ms() { # user+system CPU of the reaped children (`times`, second line)
  local user sys u
  times >"$timing"
  { read -r _ _; read -r user sys; } <"$timing"
  to_ms "$user"; u=$ms
  to_ms "$sys"
  ms=$((u + ms))
}
children_ms
before=$ms # cat's
ticks=0
read_ticks() { # utime + stime of $pid in clock ticks (/proc/PID/stat)
  local stat
  { read -r stat <"/proc/$pid/stat"; } 2>/dev/null || return 1
  set -- ${stat##*) }
  ticks=$(( ${12} + ${13} ))
}
hwm=0
sample() { # VmHWM of $pid, kept when larger; fails once it has exited
  # The file is read to its end: bash's `read` keeps what it read ahead of a
  # line it could not seek back over, and a later `read` would get it.
  local key value unit found=1
  { exec 5<"/proc/$pid/status"; } 2>/dev/null || return 1
  while { read -r -u 5 key value unit; } 2>/dev/null; do
    if [ "$key" = "VmHWM:" ]; then
      [ "$value" -gt "$hwm" ] && hwm=$value
      found=0
    fi
  done
  exec 5<&-
  return $found
}

timeout=0 blocked=0
now_us() { local t=${EPOCHREALTIME/./}; us=$((10#$t)); }
# The guards count the command's CPU time (a loop) and, much more loosely,
# the wall clock (a command stuck waiting): a busy machine slows the wall
# clock, not the CPU time a command needs.
now_us
wall_deadline=$((us + 30 * limit * 1000000))
cpu_deadline=$((6 * limit * 100)) # ticks
while sample; do
  call= fd=
  { read -r call fd _ <"/proc/$pid/syscall"; } 2>/dev/null
  if [ "$call" = 0 ] && [ "$fd" = 0x0 ]; then
    blocked=1
    break
  fi
  now_us
  read_ticks
  if [ $us -ge $wall_deadline ] || [ $ticks -ge $cpu_deadline ]; then timeout=1; break; fi
  read -r -t 0.01 -u 4 _
done
read_ticks
pre=$ticks
exec 3>&-

now_us
wall_deadline=$((us + 6 * limit * 1000000))
cpu_deadline=$((pre + limit * 100))
while [ $timeout = 0 ] && sample; do
  now_us
  read_ticks
  if [ $us -ge $wall_deadline ] || [ $ticks -ge $cpu_deadline ]; then timeout=1; break; fi
  read -r -t 0.01 -u 4 _
done
if [ $timeout = 1 ]; then kill -9 "$pid" 2>/dev/null; fi
wait "$pid" 2>/dev/null
status=$?
children_ms
rm -f "$timing"
cpu=$((ms - before))
post=$((cpu - pre * 10))
[ $post -lt 0 ] && post=0
[ $blocked = 0 ] && post=0
echo "status=$status timeout=$timeout blocked=$blocked hwm_kib=$hwm cpu_ms=$cpu post_eof_cpu_ms=$post"

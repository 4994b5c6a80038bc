#!/usr/bin/python3
"""spec/vs_engine_test.py: scripts/vs-engine, the referee, with no outside engine.

Both sides are boardscript itself (`boardscript nboard` at depth 1 or 2, so
a game takes well under a second), plus a fake engine of a few lines that
answers `go` too late. Checks that a run at fixed depth, a run by time a
move (--time) and a run on a game clock (--clock) finish with their total
line and the line of average times a move (numbers in it, never which); that
an engine slower than its clock loses on time (0-64, counted in the total);
that --opening-moves plays the lines given and rejects an illegal move or a
malformed line (status 2, with a message). The binary is $BOARDSCRIPT_BIN
(CTest passes it), else build/boardscript.

Exit status 0: passed; 1: failed (each failure is printed).
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BIN = os.environ.get("BOARDSCRIPT_BIN") or os.path.join(ROOT, "build", "boardscript")
VS = os.path.join(ROOT, "scripts", "vs-engine")
PY = sys.executable or "python3"
AVERAGES = re.compile(r"^average a move: ours (\d+\.\d+) s wall, (\d+\.\d+) s CPU \((\d+) moves?\); "
                      r"theirs (\d+\.\d+) s wall, (\d+\.\d+) s CPU \((\d+) moves?\)$", re.M)
TOTAL = re.compile(r"^total: \S+ vs \S+, (.*?): (\d+) wins, (\d+) draws, (\d+) losses of (\d+); score [\d.]+%; "
                   r"discs (\d+) - (\d+); \d+ s \(thinking: ours [\d.]+ s, theirs [\d.]+ s\)(.*)$", re.M)
# answers pings at once and `go` after 1.5 s (with a move that may be illegal: it loses on time first)
SLOW = r"""
import sys, time
for line in sys.stdin:
    words = line.split()
    if words[:1] == ["ping"]:
        print("pong " + words[1], flush=True)
    elif words[:1] == ["go"]:
        time.sleep(1.5)
        print("=== A1", flush=True)
    elif words[:1] == ["quit"]:
        break
"""
failures = []


def engine(policy):
    return "%s nboard --policy %s" % (BIN, policy)


def run(*args, env=None):
    proc = subprocess.run([PY, VS] + list(args), capture_output=True, text=True, timeout=240,
                          env=dict(os.environ, **(env or {})))
    return proc.returncode, proc.stdout, proc.stderr


def check(what, ok, out="", err=""):
    if not ok:
        failures.append(what)
        print("FAIL: %s\n--- stdout:\n%s--- stderr:\n%s" % (what, out, err))
    else:
        print("ok: %s" % what)


def finished(what, status, out, err, games, mode):
    """A run that played `games` games: status 0, its total (in `mode`) and averages lines."""
    check("%s: status 0" % what, status == 0, out, err)
    total = TOTAL.search(out)
    check("%s: a total line in %r" % (what, mode), bool(total) and total.group(1) == mode, out, err)
    if total:
        counted = sum(int(total.group(i)) for i in (2, 3, 4))
        check("%s: %d games counted" % (what, games), counted == games == int(total.group(5)), out, err)
        check("%s: the averages line follows the total" % what,
              out.split("\n").index(total.group(0)) + 1 == out.split("\n").index(AVERAGES.search(out).group(0))
              if AVERAGES.search(out) else False, out, err)
    averages = AVERAGES.search(out)
    check("%s: average wall and CPU times a move, with moves" % what,
          bool(averages) and int(averages.group(3)) > 0 and int(averages.group(6)) > 0, out, err)
    return total


def main():
    if not os.access(BIN, os.X_OK):
        print("no %s: build first" % BIN)
        return 1
    d1, d2 = engine("alphabeta:depth=1"), engine("alphabeta:depth=2")

    # fixed depth: the behaviour before --time and --clock, plus the averages line
    status, out, err = run("--ours", d1, "--theirs", d1, "--games", "2", "--depth", "1")
    total = finished("--depth 1", status, out, err, 2, "depth 1")
    check("--depth 1: no losses on time counted at fixed depth", total and total.group(8) == "", out, err)
    check("--depth 1: the header as before", out.split("\n")[2] == "depth 1, 2 games", out, err)

    # by time: the default --ours gets time=S among its policy's options, and no set depth
    status, out, err = run("--policy", "alphabeta:depth=2", "--theirs", d1, "--games", "2", "--time", "0.05",
                           env={"BOARDSCRIPT_BUILD_DIR": os.path.dirname(os.path.abspath(BIN))})
    finished("--time 0.05", status, out, err, 2, "0.05 s a move")
    check("--time 0.05: our policy gets time=0.05", "--policy alphabeta:depth=2,time=0.05" in out, out, err)
    check("--time 0.05: no set depth to either", "set depth: ours none, theirs none" in out, out, err)

    # on a clock: both clock forms (ours gets the moves form, theirs the left one by default)
    with tempfile.TemporaryDirectory() as tmp:
        record = os.path.join(tmp, "games.ggf")
        status, out, err = run("--ours", d2, "--theirs", d1, "--games", "2", "--clock", "2+0.1", "--ggf", record)
        total = finished("--clock 2+0.1", status, out, err, 2, "clock 2+0.1")
        check("--clock 2+0.1: losses on time counted in the total",
              bool(total) and re.fullmatch(r"; losses on time: ours \d+, theirs \d+", total.group(8)), out, err)
        with open(record) as f:
            games = f.read().splitlines()
        check("--clock 2+0.1: the GGF record has the clock and the move times",
              len(games) == 2 and all("TI[2/0.1]" in g and re.search(r"\]W\[[A-H][1-8]//\d+\.\d{3}\]", g)
                                      for g in games), "\n".join(games) + "\n")
        status, out, err = run("--ours", d1, "--theirs", d1, "--games", "1", "--clock", "3",
                               "--theirs-clock-form", "moves")
        finished("--clock 3 --theirs-clock-form moves", status, out, err, 1, "clock 3+0")

        # an engine that answers after 1.5 s on a clock of 1 s loses on time
        slow = os.path.join(tmp, "slow.py")
        with open(slow, "w") as f:
            f.write(SLOW)
        status, out, err = run("--ours", d1, "--theirs", "%s %s" % (PY, slow), "--games", "1", "--clock", "1+0")
        check("a slow engine: status 0", status == 0, out, err)
        check("a slow engine: loses on time, 64-0 for ours",
              re.search(r"ours 64 -  0 theirs  win .*loss on time: theirs \(White\) at ply 10: took", out), out, err)
        check("a slow engine: counted in the total", "; losses on time: ours 0, theirs 1\n" in out, out, err)

    # openings given as moves: played as given, each with both colours
    status, out, err = run("--ours", d1, "--theirs", d1, "--depth", "1",
                           "--opening-moves", "F5D6C3D3C4, f5 d6 c5 f4 e3")
    finished("--opening-moves", status, out, err, 4, "depth 1")
    check("--opening-moves: both lines, both colours",
          re.search(r"^ 1  1 f5d6c3d3c4 +ours Black.*\n 2  1 f5d6c3d3c4 +ours White.*\n"
                    r" 3  2 f5d6c5f4e3 +ours Black.*\n 4  2 f5d6c5f4e3 +ours White", out, re.M), out, err)
    status, out, err = run("--list-openings", "--opening-moves", "c4c3")
    check("--list-openings --opening-moves: the line given", status == 0 and "c4 c3" in out, out, err)
    for bad, why in (("F5D6C3D3C4,F5D6A1", "move 3, A1, is illegal for Black"),
                     ("F5D6,F5Z9", "not moves"), ("F5D6,,C4C3", "line 2 is empty")):
        status, out, err = run("--ours", d1, "--theirs", d1, "--opening-moves", bad)
        check("--opening-moves %s: status 2, saying %r" % (bad, why),
              status == 2 and "--opening-moves" in err and why in err and not out, out, err)

    # usage errors of the new options
    for args, why in ((["--time", "1", "--clock", "60"], "do not go together"), (["--clock", "1+x"], "BASE[+INC]"),
                      (["--clock", "0"], "BASE[+INC]"), (["--time", "0"], "positive")):
        status, out, err = run("--ours", d1, "--theirs", d1, *args)
        check("%s: status 2" % " ".join(args), status == 2 and why in err, out, err)
    # Ntest (found by its program's name) thinks whole seconds a move: no engine is started
    status, out, err = run("--theirs", "./ntest x", "--time", "0.5")
    check("--time 0.5 against Ntest: status 2", status == 2 and "whole seconds" in err, out, err)

    print("%d failure(s)" % len(failures) if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env bash
# The whole suite under load (issue 8, "5 runs out of 5 while another run loads it, under 15 minutes"):
#   bench/suite_under_load.sh [RUNS] [WORK]
# Plays RUNS full suites (default 6), two at a time, each in a clean clone of this checkout's HEAD under WORK
# (default /tmp/forumbot-load), and prints one line per run: exit status, seconds, pytest's last line.
# Slot A runs exactly .ci/run (pip install, PostgreSQL when it is up, live boards required, ports as given);
# slot B starts 90 s later and runs the README's `python3 -m pytest` with FORUMBOT_REQUIRE_LIVE=1, its ports moved
# by 10000 and its own venv, so slot A's `pip install -e` never swaps the package under one of B's games (no PG
# URL, the two runs would share one database: under FORUMBOT_REQUIRE_LIVE its PostgreSQL tests fail, so slot B is a
# load, not a verdict; slot A's line is the run's). When a run ends the next of its slot
# starts, so every run has a whole other suite beside it for nearly all of its length.
# Needs ../shared/boards (or FORUMBOT_BOARDS) and the Debian packages the live boards use; takes about
# 12 minutes a pair on a 2-core machine (six runs: about 40).
set -u
RUNS=${1:-6}
WORK=${2:-/tmp/forumbot-load}
SRC=$(cd "$(dirname "$0")/.." && pwd)
BOARDS=${FORUMBOT_BOARDS:-$(cd "$SRC/.." && pwd)/shared/boards}
mkdir -p "$WORK"
LOG="$WORK/results.txt"
echo "commit $(git -C "$SRC" rev-parse --short HEAD), $RUNS runs, started $(date -u +%FT%TZ)" | tee "$LOG"
[ -x "$WORK/venv/bin/python" ] || python3 -m venv "$WORK/venv"

run_one() {
  local i=$1 dir="$WORK/run$1" out="$WORK/run$1.out" t0 rc
  rm -rf "$dir" "$WORK/tmp$i"
  git clone -q "$SRC" "$dir"
  t0=$(date +%s)
  if (( i % 2 == 1 )); then
    (cd "$dir" && FORUMBOT_BOARDS="$BOARDS" PYTEST_ADDOPTS="--basetemp=$WORK/tmp$i" .ci/run) > "$out" 2>&1
  else
    "$WORK/venv/bin/pip" install -q -e "$dir[test]" > /dev/null 2>&1
    (cd "$dir" && env PATH="$WORK/venv/bin:$PATH" FORUMBOT_REQUIRE_LIVE=1 FORUMBOT_BOARDS="$BOARDS" \
      FORUMBOT_BOARD_PORT_OFFSET=10000 "$WORK/venv/bin/python" -m pytest --basetemp="$WORK/tmp$i") > "$out" 2>&1
  fi
  rc=$?
  echo "run$i ($([ $((i % 2)) = 1 ] && echo .ci/run || echo pytest)) rc=$rc $(( $(date +%s) - t0 ))s :: $(tail -n 1 "$out")" \
    | tee -a "$LOG"
}

( for ((i = 1; i <= RUNS; i += 2)); do run_one "$i"; done ) &
sleep 90
( for ((i = 2; i <= RUNS; i += 2)); do run_one "$i"; done ) &
wait
echo "ended $(date -u +%FT%TZ)" | tee -a "$LOG"

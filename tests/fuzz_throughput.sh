#!/usr/bin/env bash
# Executions per second of every fuzz target in two builds, measured interleaved so that both
# see the same machine: for each round and each target, the BEFORE build's target and then the
# AFTER build's, each for SECONDS from the same seeds into a fresh corpus, with the same flags
# and the same libFuzzer -seed (the round's number: runs of one target diverge as soon as their
# coverage does, so the rounds vary the path and the rates are compared round by round), one process at a time at nice 19, TMPDIR=/dev/shm (where a harness
# that writes its input to a scratch file, as the one before commit 7a3d776 did, puts it, as
# docs/FUZZING.md's long run did). A build is a directory holding its fuzz_<target> binaries,
# and the libseen.so they load if they load one (targets built before 1a10001; later ones
# link seen statically). Prints one line per target and round: target, round, exec/s before,
# exec/s after, their ratio, peak RSS MB before and after.
# TARGETS (space-separated, e.g. TARGETS=window) measures only those targets, every round.
#
# usage: tests/fuzz_throughput.sh BEFORE_DIR AFTER_DIR SECONDS ROUNDS SEED_DIR... (bench/results/fuzzing.md)
set -euo pipefail
[ $# -ge 5 ] || { sed -n '/^# usage/s/^# //p' "$0" >&2; exit 2; }
before=$1 after=$2 seconds=$3 rounds=$4
shift 4
seeds=("$@")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# run DIR TARGET ROUND: prints "exec/s peak_rss_mb" of one timed run, or "failed -" after keeping
# its log and any input it saved in ./fuzz-throughput-failed/.
run() {
  rm -rf "$scratch/corpus" "$scratch/log" && mkdir "$scratch/corpus"
  TMPDIR=/dev/shm LD_LIBRARY_PATH=$1 nice -n 19 "$1/fuzz_$2" -seed="$3" -max_total_time="$seconds" -max_len=70000 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$scratch/" "$scratch/corpus" "${seeds[@]}" \
    > "$scratch/log" 2>&1 || true
  if grep -q stat::average_exec_per_sec "$scratch/log" && ! grep -q "Test unit written" "$scratch/log"; then
    awk '/stat::average_exec_per_sec/ {e = $2} /stat::peak_rss_mb/ {r = $2} END {print e, r}' "$scratch/log"
  else
    mkdir -p fuzz-throughput-failed
    cp "$scratch/log" "fuzz-throughput-failed/$2-$(basename "$1").log"
    cp "$scratch"/*-* fuzz-throughput-failed/ 2>/dev/null || true
    echo failed -
  fi
}

printf '%-14s %5s %10s %10s %6s %9s %9s\n' target round before after ratio rss_before rss_after
for round in $(seq "$rounds"); do
  for target in ${TARGETS:-bloom counting scalable window store simhash_index minhash_index}; do
    read -r b_rate b_rss < <(run "$before" "$target" "$round")
    read -r a_rate a_rss < <(run "$after" "$target" "$round")
    printf '%-14s %5s %10s %10s %6s %9s %9s\n' "$target" "$round" "$b_rate" "$a_rate" \
      "$(awk -v a="$a_rate" -v b="$b_rate" 'BEGIN {if (a + 0 > 0 && b + 0 > 0) printf "%.1f", a / b; else print "-"}')" \
      "$b_rss" "$a_rss"
  done
done

#!/usr/bin/env bash
# Speed table of the scenarios users write: every shipped scenario
# (scenarios/*.toml and scenarios/cases/*.toml) as a whole `keyheat run`
# (writing every output), median of N runs of its wall time and of its CPU
# time (user + system, all threads), each as a ratio to bench-big.toml's
# median timed in the same run (interleaved, so a busy machine slows both
# alike; the CPU ratio is the one a loaded machine disturbs least). Prints a
# Markdown table, slowest first.
# Usage: bash benches/scenarios.sh [path/to/keyheat] [runs]
set -euo pipefail
bin=${1:-target/release/keyheat}
runs=${2:-3}
[ -x "$bin" ] || cargo build --release -q
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# "wall cpu" seconds of one quiet run of $1.
measure() {
  local TIMEFORMAT='%R %U %S' t
  t=$( { time "$bin" run "$1" --out "$tmp/out" --quiet >/dev/null 2>&1 || true; } 2>&1 )
  echo "$t" | awk '{printf "%s %.3f\n", $1, $2 + $3}'
}

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

declare -A walls cpus
files=(scenarios/*.toml scenarios/cases/*.toml)
for r in $(seq 1 "$runs"); do
  for f in "${files[@]}"; do
    read -r w c < <(measure "$f")
    walls[$f]="${walls[$f]:-} $w"
    cpus[$f]="${cpus[$f]:-} $c"
  done
done
big=scenarios/bench-big.toml
big_wall=$(printf '%s\n' ${walls[$big]} | median)
big_cpu=$(printf '%s\n' ${cpus[$big]} | median)
echo "| scenario | wall, median of $runs (s) | × bench-big | CPU (s) | × bench-big |"
echo "|---|---:|---:|---:|---:|"
for f in "${files[@]}"; do
  w=$(printf '%s\n' ${walls[$f]} | median)
  c=$(printf '%s\n' ${cpus[$f]} | median)
  printf '%s %s %s\n' "$w" "$c" "$f"
done | sort -gr | while read -r w c f; do
  printf '| %s | %.2f | %.2f | %.2f | %.2f |\n' "${f#scenarios/}" "$w" \
    "$(echo "$w / $big_wall" | bc -l)" "$c" "$(echo "$c / $big_cpu" | bc -l)"
done
echo
echo "bench-big.toml medians: wall ${big_wall} s, CPU ${big_cpu} s"

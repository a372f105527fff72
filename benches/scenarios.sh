#!/usr/bin/env bash
# Speed table of the scenarios users write: every shipped scenario
# (scenarios/*.toml and scenarios/cases/*.toml) as a whole `keyheat run`
# (writing every output), median of 3 wall times, and its ratio to
# bench-big.toml's median timed in the same run (interleaved, so a busy
# machine slows both alike). Prints a Markdown table, slowest first.
# Usage: bash benches/scenarios.sh [path/to/keyheat] [runs]
set -euo pipefail
bin=${1:-target/release/keyheat}
runs=${2:-3}
[ -x "$bin" ] || cargo build --release -q
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Wall seconds of one quiet run of $1.
wall() {
  local start end
  start=$(date +%s.%N)
  "$bin" run "$1" --out "$tmp/out" --quiet >/dev/null 2>&1 || true
  end=$(date +%s.%N)
  echo "$end - $start" | bc -l
}

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

declare -A times
big=()
files=(scenarios/*.toml scenarios/cases/*.toml)
for r in $(seq 1 "$runs"); do
  for f in "${files[@]}"; do
    t=$(wall "$f")
    times[$f]="${times[$f]:-} $t"
    # bench-big between scenarios: its median is taken over as many runs.
    if [ "$f" = "scenarios/bench-big.toml" ]; then big+=("$t"); fi
  done
done
big_med=$(printf '%s\n' "${big[@]}" | median)
echo "| scenario | median of $runs (s) | × bench-big |"
echo "|---|---:|---:|"
for f in "${files[@]}"; do
  m=$(printf '%s\n' ${times[$f]} | median)
  printf '%s %s\n' "$m" "$f"
done | sort -gr | while read -r m f; do
  printf '| %s | %.2f | %.2f |\n' "${f#scenarios/}" "$m" "$(echo "$m / $big_med" | bc -l)"
done
echo
echo "bench-big.toml median: ${big_med} s"

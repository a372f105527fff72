#!/usr/bin/env bash
# Scaling table: wall time and peak memory of `keyheat run` as each input
# grows 10x from a base scenario (Zipf 0.99, aggregated method). Prints a
# Markdown table. Usage: bash benches/scaling.sh [path/to/keyheat]
set -euo pipefail
bin=${1:-target/release/keyheat}
[ -x "$bin" ] || cargo build --release -q
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

scenario() { # keys partitions rate duration trials
  cat <<TOML
schema_version = 1
name = "scale"
[store]
kind = "generic"
partitions = $2
partition_write_limit = 1000
partition_read_limit = 3000
[simulation]
seed = 1
trials = $5
duration = "$4"
[[entity]]
name = "user"
count = $1
popularity = { distribution = "zipf", exponent = 0.99 }
[[table]]
name = "t"
partition_key = "U#{user}"
sort_key = "{time}"
item_size = "500B"
[[access_pattern]]
name = "read"
table = "t"
operation = "get"
rate = $(( $3 * 3 / 4 ))
by = "user"
[[access_pattern]]
name = "write"
table = "t"
operation = "put"
rate = $(( $3 / 4 ))
by = "user"
TOML
}

measure() { # label threads keys partitions rate duration trials
  scenario "$3" "$4" "$5" "$6" "$7" > "$tmp/s.toml"
  local times=() mem=0
  for _ in 1 2 3; do
    /usr/bin/time -f "%e %M" -o "$tmp/t" "$bin" run "$tmp/s.toml" --threads "$2" --out "$tmp/o" -q > /dev/null
    read -r t m < "$tmp/t"
    times+=("$t"); mem=$(( m > mem ? m : mem ))
  done
  med=$(printf '%s\n' "${times[@]}" | sort -g | sed -n 2p)
  printf '| %s | %s | %s | %s | %s | %s | %s | %s s | %s MiB |\n' "$1" "$3" "$4" "$5" "$6" "$7" "$2" "$med" "$(( mem / 1024 ))"
}

echo "| run | keys | partitions | requests/s | duration (1 s windows) | trials | threads | wall (median of 3) | peak RSS |"
echo "|---|---|---|---|---|---|---|---|---|"
measure base          2 1000000   1000 20000  3600s 50
measure "rate ×10"    2 1000000   1000 200000 3600s 50
measure "rate ×100"   2 1000000   1000 2000000 3600s 50
measure "keys ×10"    2 10000000  1000 20000  3600s 50
measure "keys ×100"   2 100000000 1000 20000  3600s 50
measure "keys ×1000"  2 1000000000 1000 20000 3600s 50
measure "partitions ×10" 2 1000000 10000 20000 3600s 50
measure "windows ×10" 2 1000000   1000 20000  36000s 50
measure "trials ×10"  2 1000000   1000 20000  3600s 500
measure "threads ÷2"  1 1000000   1000 20000  3600s 50

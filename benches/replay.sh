#!/usr/bin/env bash
# Replay throughput against DuckDB on the same CSV log, in the same run.
#
# Writes a 5·10⁶-row log (≈ 158 MB: time,key,op,size; Zipf 1.0 over 10⁵
# keys, 1,000 requests/s, seed 1), then times
#   DuckDB:  SELECT key, count(*) FROM read_csv(log) GROUP BY key
#   keyheat replay (1 and 20 placements), keyheat fit,
# and the warehouse path: DuckDB's GROUP BY into the aggregated table
# (key, window_start, op, count, bytes) replayed to the raw log's bytes.
# Prints wall and CPU seconds, rows/s and peak memory.
#
# Installs DuckDB's Python package (pip --user) when it is missing.
# Usage: bash benches/replay.sh [path/to/keyheat] [rows]
set -euo pipefail
bin=$(realpath "${1:-target/release/keyheat}")
rows=${2:-5000000}
[ -x "$bin" ] || cargo build --release -q
python3 -c 'import duckdb' 2>/dev/null ||
  pip install --user -q duckdb 2>/dev/null ||
  pip install --user -q --break-system-packages duckdb
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

python3 - "$rows" <<'PY'
import random, sys
n = int(sys.argv[1]); rng = random.Random(1)
K = 100_000; acc = 0.0; cum = []
for r in range(1, K + 1):
    acc += r ** -1.0; cum.append(acc)
keys = rng.choices(range(1, K + 1), cum_weights=cum, k=n)
t = 1_700_000_000.0
with open("log.csv", "w") as f:
    f.write("time,key,op,size\n")
    buf = []
    for k in keys:
        t += rng.expovariate(1000.0)
        buf.append(f"{t:.3f},user{k},{'get' if rng.random() < 0.7 else 'put'},{rng.randint(100, 5000)}\n")
        if len(buf) >= 100_000:
            f.write("".join(buf)); buf = []
    f.write("".join(buf))
PY
cat >users.toml <<'TOML'
schema_version = 1
name = "users"
[store]
kind = "dynamodb"
read_capacity = 3000
write_capacity = 1000
[simulation]
trials = 20
[[entity]]
name = "user"
count = 100000
[[table]]
name = "users"
partition_key = "USER#{user}"
item_size = "2KB"
[[access_pattern]]
name = "read"
table = "users"
operation = "get"
rate = 700
[[access_pattern]]
name = "write"
table = "users"
operation = "put"
rate = 300
TOML
size=$(du -m log.csv | cut -f1)
echo "log: $rows rows, $size MB; $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| what | wall s | CPU s | rows/s (wall) | peak RSS MB |"
echo "|---|---:|---:|---:|---:|"
row() { # label, then the command
  local label=$1; shift
  /usr/bin/time -f '%e %U %S %M' -o t.txt "$@" >/dev/null 2>err.txt || { cat err.txt; exit 1; }
  read -r wall user sys rss <t.txt
  awk -v l="$label" -v w="$wall" -v u="$user" -v s="$sys" -v m="$rss" -v n="$rows" \
    'BEGIN { printf "| %s | %.2f | %.2f | %.0f | %.0f |\n", l, w, u + s, n / w, m / 1024 }'
}
row "DuckDB GROUP BY key" python3 -c "import duckdb; duckdb.sql(\"SELECT key, count(*) FROM read_csv('log.csv') GROUP BY key\").fetchall()"
row "keyheat replay, 1 placement" "$bin" replay users.toml log.csv --out r1 --trials 1 -q
row "keyheat replay, 20 placements" "$bin" replay users.toml log.csv --out r20 -q
row "keyheat fit" "$bin" fit log.csv -q
python3 -c "import duckdb; duckdb.sql(\"COPY (SELECT key, floor(time)::BIGINT AS window_start, op, count(*) AS count, sum(size) AS bytes FROM read_csv('log.csv') GROUP BY ALL ORDER BY window_start) TO 'agg.csv' (HEADER)\")" 2>/dev/null
agg_rows=$(($(wc -l <agg.csv) - 1))
row "keyheat replay of DuckDB's aggregated table ($agg_rows rows), 20 placements" "$bin" replay users.toml agg.csv --out ragg -q
for f in partitions.csv keys.csv timeseries.csv growth.csv; do
  cmp -s "r20/$f" "ragg/$f" || { echo "aggregated replay differs from raw in $f"; exit 1; }
done
echo
echo "raw and aggregated replays: partitions.csv, keys.csv, timeseries.csv, growth.csv identical"

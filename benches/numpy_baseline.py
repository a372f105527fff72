#!/usr/bin/env python3
"""The per-request baseline a planner would write with numpy, timed on this
machine so keyheat's ratio comes from one run.

Each request: draw a uniform, `searchsorted` it on the Zipf(0.99) CDF over
10^6 keys (the key), hash the key (splitmix-style multiply/xor), map it to one
of 1,000 partitions, and count with `bincount`. Prints the median ns/request
over 3 runs of 10^7 requests, and the requests per second.

    pip install numpy && python3 benches/numpy_baseline.py
"""
import time

import numpy as np

KEYS = 1_000_000
PARTITIONS = 1_000
REQUESTS = 10_000_000
THETA = 0.99


def main() -> None:
    ranks = np.arange(1, KEYS + 1, dtype=np.float64)
    weights = ranks ** -THETA
    cdf = np.cumsum(weights)
    cdf /= cdf[-1]
    rng = np.random.default_rng(1)
    times = []
    for _ in range(3):
        t0 = time.perf_counter()
        u = rng.random(REQUESTS)
        keys = np.searchsorted(cdf, u).astype(np.uint64)
        h = keys * np.uint64(0x9E3779B97F4A7C15)
        h ^= h >> np.uint64(31)
        part = (h % np.uint64(PARTITIONS)).astype(np.int64)
        counts = np.bincount(part, minlength=PARTITIONS)
        assert counts.sum() == REQUESTS
        times.append(time.perf_counter() - t0)
    med = sorted(times)[1]
    print(f"numpy per-request baseline: {med / REQUESTS * 1e9:.1f} ns/request, "
          f"{REQUESTS / med / 1e6:.2f} M requests/s (median of 3, {REQUESTS:,} requests, {KEYS:,} keys)")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The mutation campaign: thousands of mutated shipped scenarios run through
the `keyheat` binary, each under a time and a memory limit, so that panics,
aborts and hangs are counted as the user would meet them.

    cargo build --release
    python3 fuzz/campaign.py                 # 3,500 mutants, 10 s each
    python3 fuzz/campaign.py -n 500 -j 2 --seed 7 --keep /tmp/kh-campaign

The mutants come from `tests/mutation.rs` (`write_campaign_mutants`, the same
mutator as the test suite's), so a failing mutant can be reproduced by file.
Each run is `keyheat run MUTANT --out DIR --quiet` and is classed as:

  located    exit 2 with `error: FILE:LINE:COL:` (LINE >= 1)
  file:0:0   exit 2 located at line 0
  usage      exit 2 without a file position (a command-line-level refusal)
  completed  exit 0 or 3 (a breach), outputs checked for NaN / inf
  nan/inf    completed, but report.md, report.html or a CSV writes NaN or inf
             (not checked when the mutant writes the string "inf" or "nan"
             itself, as a name or key), or summary.json has a null mean /
             p50 / p95
  panic      a Rust panic (exit 101)
  abort      killed by a signal (allocation failure, out of memory)
  timeout    still running after the time limit
  error      exit 1 (the environment: a write failed…)

Prints the counts and one example of every class but `located` and
`completed`; `--keep DIR` keeps the mutants and a `results.tsv`.
"""

import argparse
import concurrent.futures
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NON_FINITE = re.compile(r"(?<![A-Za-z0-9_])-?(NaN|inf)(?![A-Za-z0-9_])")
NULL_STAT = re.compile(r'"(mean|p50|p95)": null')
LOCATED = re.compile(r"^error: (.+?):(\d+):(\d+): ")


def generate(folder, n, seed):
    env = dict(os.environ, KEYHEAT_MUTANTS_DIR=folder, KEYHEAT_MUTANTS=str(n))
    if seed is not None:
        env["KEYHEAT_MUTANTS_SEED"] = str(seed)
    subprocess.run(
        ["cargo", "test", "--release", "--test", "tests", "--",
         "--ignored", "--exact", "mutation::write_campaign_mutants"],
        cwd=ROOT, env=env, check=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    index = {}
    with open(os.path.join(folder, "mutants.tsv"), encoding="utf-8") as f:
        for line in f:
            name, base, what = line.rstrip("\n").split("\t", 2)
            index[name] = (base, what)
    return index


def limit_memory(bytes_):
    def apply():
        resource.setrlimit(resource.RLIMIT_AS, (bytes_, bytes_))
    return apply


def scan_outputs(out, texts):
    """The first NaN / inf written in the outputs, or None. With `texts`
    False (the mutant itself writes the string "inf" or "nan", e.g. as a
    name or a key) only summary.json is checked."""
    if not os.path.isdir(out):
        return None
    for name in sorted(os.listdir(out)):
        path = os.path.join(out, name)
        if name.endswith((".csv", ".md", ".html")) and texts:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            if name.endswith(".html"):
                # Chart SVGs are embedded: only the text outside <svg> counts.
                text = re.sub(r"<svg.*?</svg>", "", text, flags=re.S)
            m = NON_FINITE.search(text)
            if m:
                return f"{name}: …{text[max(0, m.start() - 40):m.end() + 10]}…"
        elif name == "summary.json":
            with open(path, encoding="utf-8") as f:
                text = f.read()
            m = NULL_STAT.search(text)
            if m:
                return f"{name}: …{text[max(0, m.start() - 80):m.end()]}…"
    return None


def run_one(binary, mutant, work, timeout, memory):
    out = os.path.join(work, os.path.basename(mutant) + ".out")
    started = time.monotonic()
    try:
        p = subprocess.run(
            [binary, "run", mutant, "--out", out, "--quiet"],
            capture_output=True, text=True, errors="replace",
            timeout=timeout, preexec_fn=limit_memory(memory),
        )
    except subprocess.TimeoutExpired:
        shutil.rmtree(out, ignore_errors=True)
        return "timeout", f"> {timeout} s"
    elapsed = time.monotonic() - started
    err = p.stderr.strip()
    first = err.splitlines()[0] if err else ""
    try:
        if "panicked at" in err:
            return "panic", err[:400]
        if p.returncode < 0 or "memory allocation of" in err:
            return "abort", f"signal {-p.returncode}: {err[:300]}"
        if p.returncode == 2:
            m = LOCATED.match(first)
            if not m:
                return "usage", first[:300]
            if int(m.group(2)) < 1 or int(m.group(3)) < 1:
                return "file:0:0", first[:300]
            return "located", ""
        if p.returncode in (0, 3):
            with open(mutant, encoding="utf-8", errors="replace") as f:
                own = re.search(r'"-?(inf|nan|NaN)"', f.read(), flags=re.I)
            bad = scan_outputs(out, texts=not own)
            if bad:
                return "nan/inf", bad
            return "completed", f"{elapsed:.1f} s"
        return "error", f"exit {p.returncode}: {err[:300]}"
    finally:
        shutil.rmtree(out, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=3500, help="mutants (default 3500)")
    ap.add_argument("-j", type=int, default=1, help="parallel runs (default 1)")
    ap.add_argument("--seed", type=int, default=None, help="mutator seed (default: the campaign's fixed seed)")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per run (default 10)")
    ap.add_argument("--memory", type=float, default=4.0, help="GiB of address space per run (default 4)")
    ap.add_argument("--binary", default=os.path.join(ROOT, "target", "release", "keyheat"))
    ap.add_argument("--keep", help="keep the mutants and results.tsv in this folder")
    args = ap.parse_args()

    folder = args.keep or tempfile.mkdtemp(prefix="keyheat-campaign-")
    os.makedirs(folder, exist_ok=True)
    index = generate(folder, args.n, args.seed)
    work = tempfile.mkdtemp(prefix="keyheat-campaign-out-")
    memory = int(args.memory * 2**30)
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.j) as pool:
        jobs = {
            pool.submit(run_one, args.binary, os.path.join(folder, name), work, args.timeout, memory): name
            for name in sorted(index)
        }
        progress = open(os.path.join(folder, "progress.tsv"), "w", encoding="utf-8")
        for done, job in enumerate(concurrent.futures.as_completed(jobs), 1):
            results[jobs[job]] = job.result()
            cls, detail = results[jobs[job]]
            progress.write(f"{jobs[job]}\t{cls}\t{detail[:200].replace(chr(10), ' | ')}\n")
            progress.flush()
            if done % 250 == 0:
                print(f"{done}/{len(jobs)}", file=sys.stderr, flush=True)
        progress.close()
    shutil.rmtree(work, ignore_errors=True)

    classes = ["located", "completed", "usage", "error", "panic", "abort", "timeout", "file:0:0", "nan/inf"]
    counts = {c: 0 for c in classes}
    for cls, _ in results.values():
        counts[cls] = counts.get(cls, 0) + 1
    print(f"{len(results)} mutants of {len(set(b for b, _ in index.values()))} shipped scenarios")
    for c in classes:
        print(f"  {c:<10} {counts[c]}")
    for c in classes[2:]:
        shown = 0
        for name in sorted(results):
            cls, detail = results[name]
            if cls == c and shown < 5:
                base, what = index[name]
                print(f"\n[{c}] {name} ({base}: {what})\n  {detail}")
                shown += 1
    with open(os.path.join(folder, "results.tsv"), "w", encoding="utf-8") as f:
        for name in sorted(results):
            cls, detail = results[name]
            base, what = index[name]
            f.write(f"{name}\t{cls}\t{base}\t{what}\t{detail.replace(chr(10), ' | ').replace(chr(9), ' ')}\n")
    if not args.keep:
        shutil.rmtree(folder, ignore_errors=True)
    bad = sum(counts[c] for c in ["panic", "abort", "timeout", "file:0:0", "nan/inf"])
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

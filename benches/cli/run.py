"""Throughput and peak memory of the `toolargs` command on large JSON Lines
corpora, against the parse-and-write floor (run by hand; see BENCHMARKS.md,
"Command-line tool").

    cargo build --release --bin toolargs --example cli_floor
    python3 benches/cli/run.py [--sizes-mb 10 100 1000] [--jobs 1 2] [--dir /tmp]

For each size it writes a deterministic corpus of tool-call arguments (half
clean, half damaged: stringified arrays and objects, doubly escaped text) to
a temporary file under --dir (deleted afterwards), reads it once to warm the
page cache, then runs, with stdout discarded:

* the floor, `cli_floor FILE` (benches/cli/floor.rs): each line parsed with
  `serde_json::from_str::<Value>` and written back with `to_writer`;
* `toolargs normalize --schema benches/cli/schema.json --jobs N FILE` for
  each N in --jobs.

Each run's wall time comes from this script and its peak resident memory
from `/usr/bin/time -v`. The table gives MB/s, peak RSS, the command's
throughput as a share of the floor's (both on one core with --jobs 1) and
the speed-up of each --jobs N over --jobs 1.
"""

import argparse
import json
import os
import random
import re
import subprocess
import tempfile
import time

WORDS = ["rust", "schema", "tool", "model", "argument", "Ember", "Oak", "json", "serde", "agent",
         "call", "repair", "validate", "policy", "AT&T", "café", "naïve", "résumé", "data", "vector"]


def call(r, damaged):
    docs = [{
        "title": " ".join(r.choice(WORDS) for _ in range(4)),
        "body": " ".join(r.choice(WORDS) for _ in range(r.randint(5, 60))),
        "labels": [r.choice(WORDS) for _ in range(3)],
    } for _ in range(r.randint(0, 6))]
    args = {
        "query": " ".join(r.choice(WORDS) for _ in range(5)),
        "tags": [r.choice(WORDS) for _ in range(3)],
        "limit": 10,
        "filter": {"since": "2026-01-01", "authors": ["Ana", "Bo"]} if r.random() < 0.5 else None,
        "documents": docs,
    }
    if damaged:
        args["query"] = (args["query"] + " & co").replace("&", "&amp;").replace("&", "&amp;")
        args["tags"] = json.dumps(args["tags"])
        if args["filter"] is not None:
            args["filter"] = json.dumps(args["filter"])
        for d in docs:
            d["labels"] = json.dumps(d["labels"])
    return json.dumps(args, ensure_ascii=False)


def write_corpus(path, megabytes, seed=1):
    r = random.Random(seed)
    target = megabytes * 1_000_000
    written = lines = 0
    with open(path, "w", encoding="utf-8") as f:
        while written < target:
            line = call(r, lines % 2 == 1) + "\n"
            f.write(line)
            written += len(line.encode())
            lines += 1
    return lines, written


def measure(command):
    """Runs `command` with stdout discarded; returns (seconds, peak RSS in
    MB, exit status)."""
    with tempfile.NamedTemporaryFile(mode="r", suffix=".time") as report, open(os.devnull, "wb") as null:
        start = time.perf_counter()
        code = subprocess.run(["/usr/bin/time", "-v", "-o", report.name] + command,
                              stdout=null, check=False).returncode
        elapsed = time.perf_counter() - start
        peak_kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", report.read()).group(1))
    return elapsed, peak_kb / 1024, code


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(here, "..", "..", "target"))
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes-mb", type=int, nargs="+", default=[10, 100])
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--bin", default=os.path.join(target, "release", "toolargs"))
    ap.add_argument("--floor", default=os.path.join(target, "release", "examples", "cli_floor"))
    ap.add_argument("--dir", default=None, help="where the corpora are written (default: the system's temporary directory)")
    args = ap.parse_args()
    schema = os.path.join(here, "schema.json")
    print(f"{'corpus':>8} {'calls':>9} {'run':<22} {'seconds':>8} {'MB/s':>8} {'peak RSS':>10} {'vs floor':>9} {'speed-up':>9}")
    for mb in args.sizes_mb:
        with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
            path = os.path.join(tmp, "corpus.jsonl")
            lines, size = write_corpus(path, mb)
            with open(path, "rb") as f:
                while f.read(1 << 24):
                    pass
            runs = [("floor (parse + write)", [args.floor, path])]
            runs += [(f"toolargs --jobs {n}", [args.bin, "normalize", "--schema", schema, "--jobs", str(n), path])
                     for n in args.jobs]
            floor_seconds = one_job = None
            for name, command in runs:
                seconds, peak, code = measure(command)
                if name.startswith("floor"):
                    floor_seconds = seconds
                if name == "toolargs --jobs 1":
                    one_job = seconds
                share = f"{floor_seconds / seconds * 100:>8.0f}%" if not name.startswith("floor") else f"{'':>9}"
                speedup = f"{one_job / seconds:>8.2f}x" if one_job and not name.startswith("floor") else f"{'':>9}"
                print(f"{mb:>6}MB {lines:>9} {name:<22} {seconds:>8.2f} {size / 1e6 / seconds:>8.1f} {peak:>8.1f}MB {share} {speedup}"
                      + ("" if code == 0 else f"  (exit {code})"), flush=True)


if __name__ == "__main__":
    main()

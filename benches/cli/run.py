"""Throughput and peak memory of the command-line normalizer on large JSON
Lines corpora (run by hand; see BENCHMARKS.md).

    cargo build --release --example normalize
    python3 benches/cli/run.py [--sizes-mb 10 100] [--bin PATH]

For each size it writes a deterministic corpus of tool-call arguments (half
clean, half damaged: stringified arrays and objects, doubly escaped text) to
a temporary file, runs `normalize --schema benches/cli/schema.json FILE`
with stdout discarded, and reports calls per second, MB per second and the
child's peak resident memory. Flat memory across sizes shows streaming.
"""

import argparse
import json
import os
import random
import resource
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


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(here, "..", "..", "target"))
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes-mb", type=int, nargs="+", default=[10, 100])
    ap.add_argument("--bin", default=os.path.join(target, "release", "examples", "normalize"))
    args = ap.parse_args()
    schema = os.path.join(here, "schema.json")
    print(f"{'corpus':>8} {'calls':>9} {'seconds':>8} {'calls/s':>10} {'MB/s':>7} {'peak RSS':>10}")
    for mb in args.sizes_mb:
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "corpus.jsonl")
            lines, size = write_corpus(path, mb)
            pid = os.fork()
            if pid == 0:
                # A fresh child per run, so RUSAGE_CHILDREN is this run's peak.
                start = time.perf_counter()
                with open(os.devnull, "wb") as null:
                    code = subprocess.run([args.bin, "--schema", schema, path], stdout=null, check=False).returncode
                elapsed = time.perf_counter() - start
                peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
                print(f"{mb:>6}MB {lines:>9} {elapsed:>8.2f} {lines / elapsed:>10.0f} {size / 1e6 / elapsed:>7.1f} {peak_kb / 1024:>8.1f}MB"
                      + ("" if code == 0 else f"  (exit {code})"), flush=True)
                os._exit(0)
            os.waitpid(pid, 0)


if __name__ == "__main__":
    main()

"""`toolargs normalize` as the map step of Apache Spark (local mode), checked
byte for byte against the single-process run. Not part of CI: it needs a
Java runtime and the `pyspark` package (see README, "Beyond one machine").

    cargo build --release --features cli --bin toolargs
    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install pyspark
    /tmp/venv/bin/python scripts/cli-spark.py [--lines 200000] [--partitions 8] [--cores 2]

It writes a deterministic corpus of tool-call arguments (the generator of
benches/cli/run.py: half clean, half damaged calls), runs

    toolargs normalize --schema benches/cli/schema.json CORPUS

once, then runs the same command under `RDD.pipe` on every partition of
`sc.textFile(CORPUS)` and joins the partitions in order. The two outputs must
be equal byte for byte; the script says so, with the sizes and times, and
exits 1 if they are not.

The map is stateless and writes one line per line it reads, so any engine
that streams a partition's lines through a process (Spark's `pipe`, Hadoop
streaming's mapper, Beam's or Dask's per-partition callables) reproduces the
single-process output once partitions are concatenated in their order.
One exception: an error line names its line number, which under a map is the
number within the partition; the corpus here has no error lines.
"""

import argparse
import os
import random
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "benches", "cli"))
from run import call  # noqa: E402  (the benchmark's own call generator)


def write_corpus(path, lines, seed=7):
    r = random.Random(seed)
    with open(path, "w", encoding="utf-8") as f:
        for i in range(lines):
            f.write(call(r, i % 2 == 1) + "\n")


def main():
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(target, "release", "toolargs"))
    ap.add_argument("--lines", type=int, default=200_000)
    ap.add_argument("--partitions", type=int, default=8)
    ap.add_argument("--cores", type=int, default=2)
    args = ap.parse_args()
    binary = os.path.abspath(args.bin)
    schema = os.path.join(ROOT, "benches", "cli", "schema.json")
    command = [binary, "normalize", "--schema", schema]

    from pyspark import SparkConf, SparkContext

    tmp = tempfile.mkdtemp(prefix="toolargs-spark-")
    try:
        corpus = os.path.join(tmp, "corpus.jsonl")
        write_corpus(corpus, args.lines)
        size = os.path.getsize(corpus)

        start = time.perf_counter()
        single = subprocess.run(command + [corpus], capture_output=True, check=False)
        single_seconds = time.perf_counter() - start
        if single.returncode != 0:
            sys.exit(f"single-process run failed ({single.returncode}): {single.stderr[:500]!r}")

        conf = (SparkConf().setMaster(f"local[{args.cores}]").setAppName("toolargs-map")
                .set("spark.ui.enabled", "false").set("spark.ui.showConsoleProgress", "false"))
        sc = SparkContext(conf=conf)
        sc.setLogLevel("ERROR")
        try:
            start = time.perf_counter()
            lines = sc.textFile(corpus, minPartitions=args.partitions)
            partitions = lines.getNumPartitions()
            # A failing task (exit status other than 0) fails the job.
            mapped = lines.pipe(shlex.join(command), checkCode=True)
            out_dir = os.path.join(tmp, "normalized")
            mapped.saveAsTextFile(out_dir)
            spark_seconds = time.perf_counter() - start
        finally:
            sc.stop()
        parts = sorted(p for p in os.listdir(out_dir) if p.startswith("part-"))
        distributed = b"".join(open(os.path.join(out_dir, p), "rb").read() for p in parts)

        same = distributed == single.stdout
        print(f"corpus: {args.lines} lines, {size / 1e6:.1f} MB; {partitions} partitions on local[{args.cores}]")
        print(f"single process: {len(single.stdout)} bytes out in {single_seconds:.2f} s (exit {single.returncode})")
        print(f"spark RDD.pipe: {len(distributed)} bytes out in {spark_seconds:.2f} s ({len(parts)} part files)")
        print("byte-identical: " + ("yes" if same else "NO"))
        if not same:
            a, b = single.stdout, distributed
            at = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
            print(f"first difference at byte {at}: {a[at:at + 80]!r} vs {b[at:at + 80]!r}")
            sys.exit(1)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()

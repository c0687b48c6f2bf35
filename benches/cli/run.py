"""Throughput and peak memory of the `toolargs` command on large JSON Lines
corpora, against the parse-and-write floor (run by hand; see BENCHMARKS.md,
"Command-line tool").

    cargo build --release --features cli --bin toolargs --example cli_floor
    python3 benches/cli/run.py [--sizes-mb 10 100 1000] [--jobs 1 2] [--dir /tmp]

For each size it writes a deterministic corpus of tool-call arguments (half
clean, half damaged: stringified arrays and objects, doubly escaped text) to
a temporary file under --dir (deleted afterwards), reads it once to warm the
page cache, then runs, with stdout discarded:

* the floor, `cli_floor FILE` (benches/cli/floor.rs): each line parsed with
  `serde_json::from_str::<Value>` and written back with `to_writer`;
* `toolargs normalize --schema benches/cli/schema.json --jobs N FILE` for
  each N in --jobs.

With --pipe, each command reads the corpus from a pipe on its standard
input instead of the file (a pipe is where the command flushes whenever its
input has nothing more buffered, so that a co-process gets its answers).
With --baseline BIN, each `toolargs` run is paired with the same run of BIN
(another build of the command), interleaved round by round, so the two are
compared in one run on the same machine load.

Each command runs --repeat times (default 3); the table keeps the fastest
wall time (measured here), the fastest CPU time (user + system, from
`/usr/bin/time -v`) and the largest peak resident memory (same source). It
gives MB per CPU-second, peak RSS, the throughput per core as a share of the
floor's (the floor's CPU time over the command's: steadier than wall time on
a machine other work shares) and the wall-clock speed-up of each --jobs N
over --jobs 1.
"""

import argparse
import json
import os
import random
import re
import shutil
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


def measure(command, pipe_from=None):
    """Runs `command` with stdout discarded (and, with `pipe_from`, that
    file written to its standard input through a pipe); returns (wall
    seconds, CPU seconds (user + system) of the command alone, peak RSS in
    MB, exit status)."""
    with tempfile.NamedTemporaryFile(mode="r", suffix=".time") as report, open(os.devnull, "wb") as null:
        start = time.perf_counter()
        if pipe_from is None:
            code = subprocess.run(["/usr/bin/time", "-v", "-o", report.name] + command,
                                  stdout=null, check=False).returncode
        else:
            child = subprocess.Popen(["/usr/bin/time", "-v", "-o", report.name] + command,
                                     stdin=subprocess.PIPE, stdout=null)
            with open(pipe_from, "rb") as source:
                shutil.copyfileobj(source, child.stdin, 1 << 16)
            child.stdin.close()
            code = child.wait()
        elapsed = time.perf_counter() - start
        text = report.read()
    field = lambda name: re.search(re.escape(name) + r": ([0-9.]+)", text).group(1)
    cpu = float(field("User time (seconds)")) + float(field("System time (seconds)"))
    peak_kb = int(field("Maximum resident set size (kbytes)"))
    return elapsed, cpu, peak_kb / 1024, code


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(here, "..", "..", "target"))
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes-mb", type=int, nargs="+", default=[10, 100])
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--bin", default=os.path.join(target, "release", "toolargs"))
    ap.add_argument("--floor", default=os.path.join(target, "release", "examples", "cli_floor"))
    ap.add_argument("--repeat", type=int, default=3, help="runs of each command; the fastest wall and CPU times are kept")
    ap.add_argument("--dir", default=None, help="where the corpora are written (default: the system's temporary directory)")
    ap.add_argument("--pipe", action="store_true", help="feed each command its corpus through a pipe on standard input")
    ap.add_argument("--baseline", default=None, help="another build of the command, run beside each toolargs run")
    args = ap.parse_args()
    schema = os.path.join(here, "schema.json")
    print(f"{'corpus':>8} {'calls':>9} {'run':<20} {'wall s':>7} {'CPU s':>7} {'MB/CPU-s':>9} {'peak RSS':>10} {'vs floor':>9} {'speed-up':>9}")
    for mb in args.sizes_mb:
        with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
            path = os.path.join(tmp, "corpus.jsonl")
            lines, size = write_corpus(path, mb)
            with open(path, "rb") as f:
                while f.read(1 << 24):
                    pass
            source = [] if args.pipe else [path]
            runs = [("floor (parse+write)", [args.floor, path])]
            for n in args.jobs:
                runs.append((f"toolargs --jobs {n}", [args.bin, "normalize", "--schema", schema, "--jobs", str(n)] + source))
                if args.baseline:
                    runs.append((f"baseline --jobs {n}", [args.baseline, "normalize", "--schema", schema, "--jobs", str(n)] + source))
            floor_cpu = None
            one_job = {}
            # Round by round, so that a change of load touches every run alike.
            trials = {name: [] for name, _ in runs}
            for _ in range(args.repeat):
                for name, command in runs:
                    pipe_from = path if args.pipe and not name.startswith("floor") else None
                    trials[name].append(measure(command, pipe_from))
            for name, command in runs:
                seconds = min(t[0] for t in trials[name])
                cpu = min(t[1] for t in trials[name])
                peak = max(t[2] for t in trials[name])
                code = max(t[3] for t in trials[name])
                floor = name.startswith("floor")
                if floor:
                    floor_cpu = cpu
                program = name.split(" --jobs")[0]
                if name.endswith(" --jobs 1"):
                    one_job[program] = seconds
                # Throughput per core: the floor's CPU time over the command's.
                share = f"{'':>9}" if floor else f"{floor_cpu / cpu * 100:>8.0f}%"
                # Parallel speed-up: wall time of --jobs 1 over --jobs N.
                speedup = f"{one_job[program] / seconds:>8.2f}x" if program in one_job and not floor else f"{'':>9}"
                print(f"{mb:>6}MB {lines:>9} {name:<20} {seconds:>7.2f} {cpu:>7.2f} {size / 1e6 / cpu:>9.1f} {peak:>8.1f}MB {share} {speedup}"
                      + ("" if code == 0 else f"  (exit {code})"), flush=True)


if __name__ == "__main__":
    main()

"""Prints criterion's median estimates (from target/criterion) as a table,
and the ratios the performance targets are stated in. Run after
`cargo bench`; every ratio is computed from figures of the same run.

    python3 benches/report.py [--target-dir DIR]
"""

import argparse
import glob
import json
import os


def medians(root):
    out = {}
    for path in glob.glob(os.path.join(root, "criterion", "**", "new", "estimates.json"), recursive=True):
        bench_id = os.path.relpath(os.path.dirname(os.path.dirname(path)), os.path.join(root, "criterion"))
        with open(path) as f:
            out[bench_id] = json.load(f)["median"]["point_estimate"]
    return out


def fmt(ns):
    return f"{ns / 1000:.2f} µs" if ns >= 1000 else f"{ns:.0f} ns"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    default = os.environ.get("CARGO_TARGET_DIR", os.path.join(here, "..", "target"))
    ap = argparse.ArgumentParser()
    ap.add_argument("--target-dir", default=default)
    m = medians(ap.parse_args().target_dir)
    for k in sorted(m):
        print(f"{k:60} {fmt(m[k]):>12}")
    print()
    # criterion writes a group named `a/b` as the directory `a_b`.
    ratios = []
    for size in ("small", "medium", "large"):
        def get(k):
            return m.get(k)
        pairs = [
            (f"inspect / parse_value (clean {size}, the text path's scan)", f"typed_clean_{size}/inspect", f"typed_clean_{size}/parse_value", "<= 0.05"),
            (f"normalize_derived / parse_value (clean {size})", f"typed_clean_{size}/normalize_derived", f"typed_clean_{size}/parse_value", "<= 0.05"),
            (f"normalize_dynamic / parse_value (clean {size})", f"typed_clean_{size}/normalize_dynamic", f"typed_clean_{size}/parse_value", "<= 0.05"),
            (f"from_model / from_str_typed (clean {size})", f"typed_clean_{size}/from_model", f"typed_clean_{size}/from_str_typed", "<= 2"),
            (f"dynamic / derived normalize (clean {size})", f"typed_clean_{size}/normalize_dynamic", f"typed_clean_{size}/normalize_derived", ">= 2"),
            (f"dynamic / derived normalize (damaged {size})", f"typed_damaged_{size}/normalize_dynamic", f"typed_damaged_{size}/normalize_derived", ">= 2"),
            (f"normalize / parse_value (clean {size}, normalize bench)", f"clean_{size}/normalize", f"clean_{size}/parse_value", "<= 0.05"),
        ]
        for name, a, b, target in pairs:
            if get(a) and get(b):
                ratios.append((name, get(a) / get(b), target))
    # The pre-filter's own effect, same run: htmlize alone against our
    # decoder (htmlize behind the `&` pre-filter) on each decoder text.
    for text in ("plain", "prose", "sparse", "dense"):
        a, b = m.get(f"decode_{text}/htmlize"), m.get(f"decode_{text}/toolargs")
        if a and b:
            ratios.append((f"htmlize / toolargs decode ({text})", a / b, "reference"))
    for name, ratio, target in ratios:
        print(f"{name:55} {ratio:8.3f}   target {target}")


if __name__ == "__main__":
    main()

"""Differential run: random RT-TOOL-8 cases through the command-line
normalizer (`examples/normalize.rs --cases`) and through reference.py, an
independent implementation of the same semantics; prints every disagreement.

    cargo build --release --features cli --example normalize
    python3 tests/differential/run.py [--cases N] [--seed S] [--bin PATH]

Exit status 1 when any case disagrees. Standard library only.
"""

import argparse
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import reference  # noqa: E402

STRINGS = [
    "", "plain", "AT&T", "&amp;", "&amp;amp;lt;", "Tom &amp;amp; Jerry", "[1,2]",
    " [\"a\", \"&amp;b\"] ", "[&quot;a&quot;]", "{\"k\":\"&lt;v&gt;\"}", "{\"k\":\"[1]\"}",
    "[\"[2]\", \"{}\"]", "[1,", "null", "\"[1]\"", "?a=1&region=us&copy=2", "&#x26;#x26;lt;",
    "&NotEqualTilde;", "{&quot;k&quot;:1}", "{\"kind\":\"a\",\"tags\":\"[1]\"}",
    "{\"kind\":\"b\",\"tags\":\"[1]\"}", "&#128;&#x9F;&#0;&#xD800;&#1114112;", "&notit;&notin;&not",
    "&amp&lt&gt", "&ampx=1", "&#38;amp;", "[{\"x-a\": \"[3]\"}]", "\t[ ]\n", "[1] x", "{}", "[]",
]
KEYS = ["a", "b", "tags", "kind", "x-a", "a&amp;b", "n"]
TYPES = ["array", "object", "string", "integer", "null", "boolean", "number"]


def rand_value(r, depth=0):
    roll = r.random()
    if depth >= 4 or roll < 0.45:
        return r.choice([None, True, False, r.randint(-5, 5), 1.5, r.choice(STRINGS), r.choice(STRINGS)])
    if roll < 0.7:
        return [rand_value(r, depth + 1) for _ in range(r.randint(0, 3))]
    return {r.choice(KEYS): rand_value(r, depth + 1) for _ in range(r.randint(0, 4))}


def rand_schema(r, depth=0):
    if depth >= 3 or r.random() < 0.3:
        return r.choice([
            True, False, {}, {"type": r.choice(TYPES)},
            {"type": r.sample(TYPES, r.randint(1, 3))}, {"$ref": "#"}, {"$ref": "#/$defs/A"},
            {"enum": [1, "x", None]}, {"const": [1]}, {"const": "a"},
        ])
    sub = lambda: rand_schema(r, depth + 1)  # noqa: E731
    choice = r.randrange(9)
    if choice == 0:
        return {"type": "object", "properties": {r.choice(KEYS): sub() for _ in range(r.randint(0, 3))}}
    if choice == 1:
        return {"patternProperties": {"^x-": sub()}, "additionalProperties": sub()}
    if choice == 2:
        return {"type": "array", "items": sub()}
    if choice == 3:
        return {"prefixItems": [sub()], "items": sub()}
    if choice == 4:
        return {"items": [sub(), sub()], "additionalItems": sub()}
    if choice in (5, 6):
        return {r.choice(["anyOf", "oneOf", "allOf"]): [sub() for _ in range(r.randint(1, 3))]}
    if choice == 7:
        return {"oneOf": [
            {"type": "object", "properties": {"kind": {"const": "a"}, "tags": sub()}},
            {"type": "object", "properties": {"kind": {"enum": ["b"]}, "tags": sub()}},
        ]}
    return {"type": r.choice(TYPES), "anyOf": [sub(), {"type": "null"}], "properties": {"tags": sub()}}


def rand_case(r, i):
    schema = rand_schema(r)
    defs = r.choice([
        {"type": "array", "items": {"type": "string"}},
        {"type": "object", "properties": {"tags": {"$ref": "#/$defs/A"}}},
        {"anyOf": [{"$ref": "#"}, {"type": "null"}]},
    ])
    schema = dict(schema, **{"$defs": {"A": defs}}) if isinstance(schema, dict) else {"allOf": [schema], "$defs": {"A": defs}}
    args = rand_value(r) if r.random() < 0.2 else {r.choice(KEYS): rand_value(r, 1) for _ in range(r.randint(0, 4))}
    if r.random() < 0.1:
        args = json.dumps(args)
    case = {"id": f"random-{i}", "schema": schema, "arguments": args}
    if r.random() < 0.3:
        case["options"] = {"entities": r.choice(["attribute", "text"]), "max_passes": r.randint(0, 4)}
    return case


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    here = os.path.dirname(os.path.abspath(__file__))
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(here, "..", "..", "target"))
    ap.add_argument("--bin", default=os.path.join(target, "release", "examples", "normalize"))
    args = ap.parse_args()
    r = random.Random(args.seed)
    cases = [rand_case(r, i) for i in range(args.cases)]
    conformance = os.path.join(here, "..", "data", "rt-tool-8.jsonl")
    with open(conformance) as f:
        cases += [json.loads(line) for line in f if line.strip()]
    text = "".join(json.dumps(c) + "\n" for c in cases)
    out = subprocess.run([args.bin, "--cases"], input=text.encode(), capture_output=True, check=False)
    lines = out.stdout.decode().splitlines()
    assert len(lines) == len(cases), (len(lines), len(cases), out.stderr.decode()[-2000:])
    disagreements = 0
    for case, line in zip(cases, lines):
        got = json.loads(line)
        want = reference.normalize_case(case)
        if "error" in got or not reference.json_eq(got["arguments"], want) or json.dumps(got["arguments"]) != json.dumps(want):
            disagreements += 1
            if disagreements <= 10:
                print(json.dumps({"case": case, "rust": got, "reference": want}))
    print(f"{len(cases)} cases, {disagreements} disagreements")
    sys.exit(1 if disagreements else 0)


if __name__ == "__main__":
    main()

"""An independent reference implementation of RT-TOOL-8 normalization, as
DESIGN.md ("Normalization semantics") states it, for differential runs
against the command-line normalizer (see run.py). Standard library only.

It shares no code with the Rust implementation: the character-reference
decoder follows the HTML Standard's tokenizer over Python's own table
(html.entities.html5), and the schema semantics are re-derived from the text.
"""

import html
import html.entities
import json
import re

NAMES = html.entities.html5
LONGEST = max(len(k) for k in NAMES)
ALL = frozenset(["null", "boolean", "object", "array", "number", "string"])


def numeric(num):
    if num == 0 or num > 0x10FFFF or 0xD800 <= num <= 0xDFFF:
        return "\ufffd"
    if 0x80 <= num <= 0x9F:
        return html._invalid_charrefs.get(num, chr(num))
    return chr(num)


def decode_once(s, mode):
    out, i, n = [], 0, len(s)
    while True:
        j = s.find("&", i)
        if j < 0:
            out.append(s[i:])
            return "".join(out)
        out.append(s[i:j])
        k = j + 1
        if k < n and s[k] == "#":
            p = k + 1
            hexa = p < n and s[p] in "xX"
            if hexa:
                p += 1
            start = p
            allowed = "0123456789abcdefABCDEF" if hexa else "0123456789"
            while p < n and s[p] in allowed:
                p += 1
            if p == start:
                out.append("&")
                i = k
                continue
            num = int(s[start:p], 16 if hexa else 10)
            if p < n and s[p] == ";":
                p += 1
            out.append(numeric(num))
            i = p
            continue
        best = None
        for length in range(min(LONGEST, n - k), 0, -1):
            if s[k:k + length] in NAMES:
                best = s[k:k + length]
                break
        if best is None:
            out.append("&")
            i = k
            continue
        end = k + len(best)
        if mode == "attribute" and not best.endswith(";") and end < n:
            nxt = s[end]
            if nxt == "=" or (nxt.isascii() and nxt.isalnum()):
                out.append("&")
                i = k
                continue
        out.append(NAMES[best])
        i = end


def decode_until_stable(s, mode, max_passes):
    passes = 0
    while passes < max_passes:
        nxt = decode_once(s, mode)
        if nxt == s:
            break
        s = nxt
        passes += 1
    return s


class Ref:
    """Resolves local $refs in one document."""

    def __init__(self, root):
        self.root = root

    def resolve(self, ref):
        assert ref.startswith("#")
        node = self.root
        frag = ref[1:]
        if not frag:
            return node
        for tok in frag.split("/")[1:]:
            tok = tok.replace("~1", "/").replace("~0", "~")
            node = node[int(tok)] if isinstance(node, list) else node[tok]
        return node


def shape(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, dict):
        return "object"
    if isinstance(v, list):
        return "array"
    if isinstance(v, (int, float)):
        return "number"
    return "string"


def json_eq(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_eq(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_eq(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


# A location is a schema, or ("all", [loc...]) / ("any", [loc...]).

def declared(loc, doc, seen=()):
    if isinstance(loc, tuple):
        kind, parts = loc
        sets = [declared(p, doc, seen) for p in parts]
        if kind == "all":
            out = set(ALL)
            for s in sets:
                out &= s
            return out
        out = set()
        for s in sets:
            out |= s
        return out
    if loc is True:
        return set(ALL)
    if loc is False:
        return set()
    if id(loc) in seen:
        return set(ALL)
    seen = seen + (id(loc),)
    out = set(ALL)
    if "type" in loc:
        t = loc["type"]
        names = [t] if isinstance(t, str) else t
        out &= {"number" if x == "integer" else x for x in names}
    if "enum" in loc:
        out &= {shape(v) for v in loc["enum"]}
    if "const" in loc:
        out &= {shape(loc["const"])}
    if "$ref" in loc:
        out &= declared(doc.resolve(loc["$ref"]), doc, seen)
    for b in loc.get("allOf", []):
        out &= declared(b, doc, seen)
    for kw in ("anyOf", "oneOf"):
        if kw in loc:
            u = set()
            for b in loc[kw]:
                u |= declared(b, doc, seen)
            out &= u
    return out


def allowed_values(schema, doc, hops=32):
    while hops and isinstance(schema, dict):
        if "enum" in schema or "const" in schema:
            vals = list(schema["enum"]) if "enum" in schema else None
            if "const" in schema:
                c = schema["const"]
                vals = [c] if vals is None or any(json_eq(v, c) for v in vals) else []
            return vals
        targets = ([doc.resolve(schema["$ref"])] if "$ref" in schema else []) + schema.get("allOf", [])
        if len(targets) != 1:
            return None
        schema = targets[0]
        hops -= 1
    return None


def tags_agree(loc, obj, doc, seen=()):
    if isinstance(loc, tuple):
        kind, parts = loc
        f = all if kind == "all" else any
        return f(tags_agree(p, obj, doc, seen) for p in parts)
    if not isinstance(loc, dict) or id(loc) in seen:
        return True
    seen = seen + (id(loc),)
    props = loc.get("properties", {})
    if isinstance(props, dict) and len(props) == 1 and loc.get("required") == list(props):
        # An externally tagged variant: named by its one member.
        if next(iter(props)) not in obj:
            return False
    for name, sub in loc.get("properties", {}).items():
        if name in obj:
            vals = allowed_values(sub, doc)
            if vals is not None and not any(json_eq(v, obj[name]) for v in vals):
                return False
    subs = ([doc.resolve(loc["$ref"])] if "$ref" in loc else []) + loc.get("allOf", [])
    return all(tags_agree(s, obj, doc, seen) for s in subs)


def applies(loc, value, doc):
    if shape(value) not in declared(loc, doc):
        return False
    return not isinstance(value, dict) or tags_agree(loc, value, doc)


def member_schemas(loc, value, doc, own, seen=()):
    """The member location under `loc` for `value`, where own(schema) gives a
    single schema's own member rule (or True)."""
    if isinstance(loc, tuple):
        kind, parts = loc
        if kind == "any":
            parts = [p for p in parts if applies(p, value, doc)]
            return ("any", [member_schemas(p, value, doc, own, seen) for p in parts])
        return ("all", [member_schemas(p, value, doc, own, seen) for p in parts])
    if loc is True:
        return True
    if loc is False:
        return False
    if id(loc) in seen:
        return True
    seen = seen + (id(loc),)
    if (loc.get("unevaluatedProperties") is False and isinstance(value, dict)
            and getattr(own, "name", None) is not None):
        # Closed where used: a member no part evaluates is forbidden.
        found = evaluated(loc, value, doc, own.name)
        if found is False:
            return False
    parts = [own(loc)]
    if "$ref" in loc:
        parts.append(member_schemas(doc.resolve(loc["$ref"]), value, doc, own, seen))
    for b in loc.get("allOf", []):
        parts.append(member_schemas(b, value, doc, own, seen))
    for kw in ("anyOf", "oneOf"):
        if kw in loc:
            branches = [b for b in loc[kw] if applies(b, value, doc)]
            parts.append(("any", [member_schemas(b, value, doc, own, seen) for b in branches]))
    return ("all", parts)


def property_rule(name):
    def own(schema):
        if "properties" in schema and name in schema["properties"]:
            return schema["properties"][name]
        matched = [s for p, s in schema.get("patternProperties", {}).items() if re.search(p, name)]
        if matched:
            return ("all", matched)
        return schema.get("additionalProperties", True)
    own.name = name
    return own


OBJECT_RULES = ("properties", "patternProperties", "additionalProperties")


def evaluated(loc, value, doc, name, seen=()):
    """Whether some part of `loc` that applies to the object `value`
    evaluates member `name`: True, False, or None when no part has object
    rules at all (then nothing can be said, and the object is not closed)."""
    if not isinstance(loc, dict) or id(loc) in seen:
        return None
    seen = seen + (id(loc),)
    result = None
    if any(k in loc for k in OBJECT_RULES):
        mentioned = ("additionalProperties" in loc
                     or name in loc.get("properties", {})
                     or any(re.search(p, name) for p in loc.get("patternProperties", {})))
        result = bool(mentioned)
    subs = ([doc.resolve(loc["$ref"])] if "$ref" in loc else []) + loc.get("allOf", [])
    for kw in ("anyOf", "oneOf"):
        subs += [b for b in loc.get(kw, []) if applies(b, value, doc)]
    for sub in subs:
        found = evaluated(sub, value, doc, name, seen)
        if found is True:
            return True
        if found is False:
            result = False
    return result


def item_rule(index):
    def own(schema):
        prefix = schema.get("prefixItems")
        items = schema.get("items")
        if isinstance(items, list):
            if prefix is None:
                prefix = items
            rest = schema.get("additionalItems", True)
        else:
            rest = True if items is None else items
        prefix = prefix or []
        return prefix[index] if index < len(prefix) else rest
    return own


def try_json(s, types):
    if not (("array" in types or "object" in types) and "string" not in types):
        return None
    t = s.lstrip(" \t\n\r")
    if not t or t[0] not in "[{":
        return None
    try:
        v = json.loads(s, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
    except (ValueError, RecursionError):
        return None
    if isinstance(v, list) and "array" in types:
        return v
    if isinstance(v, dict) and "object" in types:
        return v
    return None


def normalize(value, loc, doc, mode, max_passes):
    if isinstance(value, str):
        decoded = try_json(value, declared(loc, doc))
        if decoded is None:
            return decode_until_stable(value, mode, max_passes)
        value = decoded
    if isinstance(value, list):
        return [normalize(v, member_schemas(loc, value, doc, item_rule(i)), doc, mode, max_passes)
                for i, v in enumerate(value)]
    if isinstance(value, dict):
        return {k: normalize(v, member_schemas(loc, value, doc, property_rule(k)), doc, mode, max_passes)
                for k, v in value.items()}
    return value


def normalize_case(case):
    opts = case.get("options") or {}
    doc = Ref(case["schema"])
    return normalize(case["arguments"], case["schema"], doc,
                     opts.get("entities", "attribute"), opts.get("max_passes", 8))

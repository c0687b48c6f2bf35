#!/usr/bin/env python3
"""Writes `tests/generated_contract.rs`: random Rust types and random calls.

The contract is checked against types nobody chose: this script draws type
definitions (structs and enums in all four serde representations, renames,
aliases, defaults, flattened structs, enums, `Option`s and maps, generics,
same-named types in two modules, nested types that derive only `JsonSchema`)
and, for each root type, calls: values written as serde writes them (under
their aliases now and then), then damaged (a member dropped, an unknown
member, a leaf of another type, an integer written `2.0`, a field sent under
two of its names). The test (`tests/generated_contract.rs`) asks serde for
the verdict: what serde reads, and writes back with every member sent, must
be accepted as exactly that reading; everything else must be rejected.

The script models serde only to draw plausible calls; serde decides. Shapes
the README lists as out of reach are not drawn (`EXCLUDED` below says which).

    python3 scripts/gen-contract-types.py --seed 7 > tests/generated_contract.rs
    rustfmt --edition 2024 tests/generated_contract.rs

The other committed seeds live in `tests/generated/` (one test target each,
named in `Cargo.toml`: one file per seed compiles far faster than one file
holding several):

    python3 scripts/gen-contract-types.py --seed 11 \
        --check-path ../support/generated_check.rs > tests/generated/seed_11.rs

`--learned` draws aliases in types that derive only `JsonSchema` too, where
the README says they are learned (`Learnable`); `tests/generated/learned_wide_1.rs`
is one such seed (with `--wide`):

    python3 scripts/gen-contract-types.py --seed 1 --wide --learned \
        --check-path ../support/generated_check.rs > tests/generated/learned_wide_1.rs

`--wide` draws more shapes and damages (`WIDE_LEAVES`, `Generator.wide_type`,
`EDGES`); `tests/generated/wide_2.rs` is one such seed:

    python3 scripts/gen-contract-types.py --seed 2 --wide \
        --check-path ../support/generated_check.rs > tests/generated/wide_2.rs

Run with another seed (and `--types`, `--calls`, `--wide`) to explore; CI runs the
files as committed.
"""

import argparse
import json
import random
import sys

# Shapes the README lists as out of reach (still lossy, or refused although
# serde reads them losslessly), never drawn:
EXCLUDED = """\
- flattened `Option`s inside a type that derives only `JsonSchema`, or in a
  type reached only as a type argument;
- a flattened `Option` inside a variant of an untagged enum;
- two flattened externally tagged enums in one object;
- a variant of a flattened enum that takes any member (a map, or a struct
  variant flattening one): the object stays open and the map's value schema
  applies to the struct's own fields; a flattened newtype around an `Option`;
- map keys other than strings; `#[tool_args(open)]` (a chosen loss);
- aliases in types that derive only `JsonSchema`, except under `--learned`,
  which draws them where the README says they are learned (`Learnable`);
- field names shared by two types flattened into one object (every field
  name is drawn once);
- (`--wide`) a flattened map of `serde_json::Value`: before a flattened
  `Option`, still lossy.
"""

LEAVES = ["u32", "i64", "bool", "String", "f64"]
# `--wide` draws these too, and the shapes `Generator.wide_type` lists; the
# committed seeds are drawn without it (and stay byte for byte).
WIDE_LEAVES = ["u8", "i8", "u16", "u64", "usize", "f32", "char", "serde_json::Value"]
SET_LEAVES = ["u32", "i64", "String", "char", "u8"]
# Numbers and strings a leaf is damaged with under `--wide` ("edge"): the
# ends of the integer types, past them, and floats every float type holds
# exactly or none does (a decimal such as 0.1 only approximates an `f32`).
EDGES = [255, 256, -1, -128, -129, 127, 128, 65535, 65536, 4294967296,
         18446744073709551615, 18446744073709551616, -9223372036854775809,
         1e40, -1e40, 1e300, 1.5, -0.0, 2.0, "ab", "\u00e9", "\U0001f600", ""]
ALIAS = "__a"


class Namer:
    def __init__(self):
        self.n = 0

    def field(self):
        self.n += 1
        return "f%d" % self.n

    def key(self):
        self.n += 1
        return "k%d" % self.n


def camel(name):
    head, *rest = name.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


def kebab(name):
    return name.replace("_", "-")


def case_variant(name, rule):
    """A variant's name under an enum's `rename_all`, as serde renames it."""
    if rule == "lowercase":
        return name.lower()
    if rule == "UPPERCASE":
        return name.upper()
    out = ""
    for i, ch in enumerate(name):
        if i > 0 and ch.isupper():
            out += "_"
        out += ch.lower()
    return out


class Field:
    def __init__(self, rust, ty):
        self.rust = rust
        self.wire = rust
        self.ty = ty
        self.aliases = []
        self.rename = None
        self.default = False
        self.flatten = False
        self.skip = False


class Variant:
    def __init__(self, rust, kind, ty=None, fields=None):
        self.rust = rust
        self.wire = rust
        self.kind = kind  # unit | newtype | struct | tuple (--wide)
        self.ty = ty
        self.fields = fields or []
        self.aliases = []


class Def:
    """A named type: a struct or an enum."""

    def __init__(self, kind, name, module):
        self.kind = kind  # struct | enum | newtype | tuple | unit (the last three: --wide)
        self.name = name
        self.module = module
        self.toolargs = True
        self.fields = []
        self.rename_all = None
        self.deny = False
        self.repr = None
        self.tag = None
        self.content = None
        self.variants = []
        self.generic = False  # struct G<T> { ..., the field of type T }
        self.items = []  # the types of a newtype or tuple struct
        self.variant_case = None  # enum `rename_all` (--wide)

    def path(self):
        return "crate::%s::%s" % (self.module, self.name) if self.module else "crate::" + self.name


# Types are tuples: ("leaf", name) | ("opt", t) | ("vec", t) | ("map", t)
# | ("box", t) | ("named", Def) | ("inst", Def, t) (a generic with its argument)
# and, with `--wide`: ("set", leaf) | ("arr", t) (`[T; 2]`) | ("tup", a, b).


def rust_type(t):
    kind = t[0]
    if kind == "leaf":
        return t[1]
    if kind == "opt":
        return "Option<%s>" % rust_type(t[1])
    if kind == "vec":
        return "Vec<%s>" % rust_type(t[1])
    if kind == "map":
        return "BTreeMap<String, %s>" % rust_type(t[1])
    if kind == "box":
        return "Box<%s>" % rust_type(t[1])
    if kind == "named":
        return t[1].path()
    if kind == "inst":
        return "%s<%s>" % (t[1].path(), rust_type(t[2]))
    if kind == "set":
        return "BTreeSet<%s>" % rust_type(t[1])
    if kind == "arr":
        return "[%s; 2]" % rust_type(t[1])
    if kind == "tup":
        return "(%s, %s)" % (rust_type(t[1]), rust_type(t[2]))
    raise ValueError(t)


def has_flat_option(d, seen=None):
    """Whether the definition flattens an `Option` anywhere it is read as
    part of its object (its own fields, its variants', what it flattens)."""
    seen = seen or set()
    if id(d) in seen:
        return False
    seen.add(id(d))
    fields = list(d.fields)
    for v in d.variants:
        fields += v.fields
    for f in fields:
        if f.flatten and f.ty[0] == "opt":
            return True
        if f.flatten and f.ty[0] == "named" and has_flat_option(f.ty[1], seen):
            return True
    return False


def optional(f):
    """Whether serde reads the struct without `f` (no `missing_field`)."""
    return f.default or f.ty[0] == "opt"


class Learnable:
    """Where the aliases of a type that derives only `JsonSchema` are learned
    (`--learned`), after the README: the fields of a struct that flattens
    nothing, and of an externally tagged enum's struct variants, where every
    place the type is reached serde reads it from the reader it is handed
    (not from its own buffer: a flattened type, an internally tagged or
    untagged variant, an adjacently tagged variant other than a newtype's
    content), a value of the field's type can be made up (no
    `serde_json::Value`, internally tagged, untagged or adjacently tagged
    enum it needs, nothing flattened), and the items of a tuple before the
    place can be too."""

    def __init__(self):
        self.handed = {}  # id(def) -> {instance argument's type: argument}
        self.buffered = set()  # id(def) reached from serde's buffer
        self.seen = set()

    def makeable(self, t, arg=None, seen=()):
        kind = t[0]
        if kind == "leaf":
            return t[1] != "serde_json::Value"
        if kind == "param":
            return arg is not None and self.makeable(arg, None, seen)
        if kind in ("opt", "vec", "map", "set"):
            return True
        if kind in ("box", "arr"):
            return self.makeable(t[1], arg, seen)
        if kind == "tup":
            return self.makeable(t[1], arg, seen) and self.makeable(t[2], arg, seen)
        d = t[1]
        inner = t[2] if kind == "inst" else None
        key = (id(d), rust_type(inner) if inner else None)
        if key in seen:
            return False
        seen = seen + (key,)
        if d.kind == "struct":
            return self.fields_makeable(d.fields, inner, seen)
        if d.kind in ("newtype", "tuple"):
            return all(self.makeable(i, inner, seen) for i in d.items)
        if d.kind == "unit":
            return True
        if d.repr != "external":
            return False
        for v in d.variants:
            if v.kind == "unit":
                return True
            if v.kind == "newtype" and self.makeable(v.ty, None, seen):
                return True
            if v.kind == "tuple" and all(self.makeable(i, None, seen) for i in v.items):
                return True
            if v.kind == "struct" and self.fields_makeable(v.fields, None, seen):
                return True
        return False

    def fields_makeable(self, fields, arg, seen):
        return not any(f.flatten for f in fields) and all(
            self.makeable(f.ty, arg, seen) for f in fields if not f.skip and not optional(f))

    def walk(self, t, arg, handed):
        kind = t[0]
        if kind == "leaf":
            return
        if kind == "param":
            if arg is not None:
                self.walk(arg, None, handed)
            return
        if kind in ("opt", "vec", "map", "set", "box", "arr"):
            self.walk(t[1], arg, handed)
            return
        if kind == "tup":
            self.walk(t[1], arg, handed)
            self.walk(t[2], arg, handed and self.makeable(t[1], arg))
            return
        d = t[1]
        inner = t[2] if kind == "inst" else None
        key = (id(d), rust_type(inner) if inner else None, handed)
        if key in self.seen:
            return
        self.seen.add(key)
        if handed:
            self.handed.setdefault(id(d), {})[key[1]] = inner
        else:
            self.buffered.add(id(d))
        if d.kind == "struct":
            self.walk_fields(d.fields, inner, handed, reads_map_ok=True)
        elif d.kind in ("newtype", "tuple"):
            self.walk_items(d.items, inner, handed)
        elif d.kind == "enum":
            for v in d.variants:
                here = handed and (d.repr == "external"
                                   or (d.repr == "adjacent" and v.kind == "newtype"))
                if v.kind == "newtype":
                    self.walk(v.ty, None, here)
                elif v.kind == "tuple":
                    self.walk_items(v.items, None, here)
                elif v.kind == "struct":
                    self.walk_fields(v.fields, None, here, reads_map_ok=False)

    def walk_items(self, items, arg, handed):
        # A tuple's items are read in order: one after an item that cannot
        # be made up is never reached.
        before = True
        for item in items:
            self.walk(item, arg, handed and before)
            before = before and self.makeable(item, arg)

    def walk_fields(self, fields, arg, handed, reads_map_ok):
        # A struct that flattens is read from a map, under the names its
        # schema gives (its own fields' among them); a struct variant that
        # flattens is not drawn with learned aliases below it.
        flattens = any(f.flatten for f in fields)
        for f in fields:
            if f.skip:
                continue
            here = handed and not f.flatten and (reads_map_ok or not flattens)
            self.walk(f.ty, arg, here)

    def eligible(self, d):
        """Whether `d`'s aliases are learned (every place it is reached)."""
        return not d.toolargs and id(d) in self.handed and id(d) not in self.buffered

    def fields_of(self, d):
        """The fields of `d` whose aliases are learned, with the instance
        arguments their type is read with."""
        args = list(self.handed[id(d)].values())
        if d.kind == "struct" and not any(f.flatten for f in d.fields):
            groups = [d.fields]
        elif d.kind == "enum" and d.repr == "external":
            groups = [v.fields for v in d.variants
                      if v.kind == "struct" and not any(f.flatten for f in v.fields)]
        else:
            groups = []
        for fields in groups:
            for f in fields:
                if f.skip or f.aliases:
                    continue
                if all(self.makeable(f.ty, arg) for arg in args):
                    yield f


def draw_learned_aliases(gen, roots, rng):
    """`--learned`: aliases on the fields `Learnable` says are learned, drawn
    with `rng` (the main generator's draws stay as they were)."""
    learnable = Learnable()
    for root in roots:
        learnable.walk(("named", root), None, True)
    for d in gen.defs:
        if not learnable.eligible(d):
            continue
        for f in learnable.fields_of(d):
            if rng.random() < 0.35:
                f.aliases = ["%s%s%d" % (f.wire, ALIAS, i + 1) for i in range(rng.randint(1, 2))]


def draw_denials(gen, rng):
    """`--deny`: `deny_unknown_fields` on more types, drawn with `rng` (the
    main generator's draws stay as they were): on enums of every
    representation (serde applies it to their struct variants), and on more
    structs (a newtype variant's content among them). Never on a type with a
    flattened field, which serde does not support with it."""
    for d in gen.defs:
        if d.deny or d.kind not in ("struct", "enum"):
            continue
        fields = d.fields if d.kind == "struct" else [f for v in d.variants for f in v.fields]
        if any(f.flatten for f in fields):
            continue
        if rng.random() < (0.4 if d.kind == "enum" else 0.25):
            d.deny = True


class Generator:
    def __init__(self, rng, wide=False):
        self.rng = rng
        self.wide = wide
        # Names of `#[serde(skip)]` fields (--wide): sent as damage.
        self.skipped = []
        self.names = Namer()
        self.defs = []
        self.type_names = {}

    def type_name(self, base, module=None):
        key = (module, base)
        n = self.type_names.get(key, 0) + 1
        self.type_names[key] = n
        return base if n == 1 else "%s%d" % (base, n)

    # ---- drawing types ----

    def leaf(self):
        return ("leaf", self.rng.choice(LEAVES + WIDE_LEAVES if self.wide else LEAVES))

    def value_type(self, depth, toolargs_context):
        """A field's type (not flattened)."""
        if self.wide and depth < 3 and self.rng.random() < 0.2:
            return self.wide_type(depth, toolargs_context)
        r = self.rng.random()
        if depth >= 3 or r < 0.35:
            return self.leaf()
        if r < 0.45:
            return ("opt", self.value_type(depth + 1, toolargs_context))
        if r < 0.55:
            return ("vec", self.value_type(depth + 1, toolargs_context))
        if r < 0.62:
            return ("map", self.value_type(depth + 1, toolargs_context))
        if r < 0.66:
            return ("box", ("named", self.named(depth + 1, toolargs_context)))
        if r < 0.72 and toolargs_context:
            return ("inst", self.generic_def(), self.value_type(depth + 1, False))
        return ("named", self.named(depth + 1, toolargs_context))

    def wide_type(self, depth, toolargs_context):
        """The shapes only `--wide` draws: sets, arrays, tuples, and newtype,
        tuple and unit structs."""
        kind = self.rng.choice(["set", "arr", "tup", "newtype", "tuple", "unit"])
        if kind == "set":
            return ("set", ("leaf", self.rng.choice(SET_LEAVES)))
        if kind == "arr":
            return ("arr", self.value_type(depth + 1, toolargs_context))
        if kind == "tup":
            return ("tup", self.value_type(depth + 1, toolargs_context),
                    self.value_type(depth + 1, toolargs_context))
        module = self.rng.choice([None, "m1"])
        d = Def(kind, self.type_name({"newtype": "Id", "tuple": "Pair", "unit": "Nothing"}[kind],
                                     module), module)
        d.toolargs = toolargs_context and self.rng.random() < 0.75
        self.defs.append(d)
        if kind == "newtype":
            d.items = [self.value_type(depth + 1, d.toolargs)]
        elif kind == "tuple":
            d.items = [self.value_type(depth + 1, d.toolargs) for _ in range(2)]
        return ("named", d)

    def generic_def(self):
        for d in self.defs:
            if d.generic and self.rng.random() < 0.5:
                return d
        d = Def("struct", self.type_name("Page"), None)
        d.generic = True
        d.toolargs = self.rng.random() < 0.7
        d.fields = [Field(self.names.field(), ("param",)), Field(self.names.field(), ("leaf", "u32"))]
        if d.toolargs and self.rng.random() < 0.5:
            self.decorate(d.fields[1], d.toolargs)
        self.rename_fields(d.fields, None)
        self.defs.append(d)
        return d

    def named(self, depth, toolargs_context, kind=None, object_only=False, no_map=False):
        kind = kind or self.rng.choice(["struct", "struct", "enum"])
        module = self.rng.choice([None, None, "m1", "m2"])
        base = self.rng.choice(["Item", "Spec", "Filter", "Target", "Part"])
        d = Def(kind, self.type_name(base, module), module)
        # A nested type derives only `JsonSchema` now and then.
        d.toolargs = toolargs_context and self.rng.random() < 0.75
        self.defs.append(d)
        if kind == "struct":
            self.fill_struct(d, depth, no_map)
        else:
            self.fill_enum(d, depth, object_only, no_map or object_only)
        return d

    def fill_struct(self, d, depth, no_map=False):
        count = self.rng.randint(1, 4)
        d.fields = [self.field(depth, d.toolargs) for _ in range(count)]
        if depth < 3 and self.rng.random() < 0.45:
            for _ in range(self.rng.randint(1, 2)):
                f = self.flattened(depth, d.toolargs, d.fields, no_map)
                if f:
                    d.fields.append(f)
        if self.rng.random() < 0.25:
            d.rename_all = self.rng.choice(["camelCase", "kebab-case"])
        if not any(f.flatten for f in d.fields) and self.rng.random() < 0.2:
            d.deny = True
        if self.wide and self.rng.random() < 0.15:
            f = Field(self.names.field() + "_skipped", ("leaf", self.rng.choice(["u32", "String"])))
            f.skip = True
            d.fields.insert(self.rng.randint(0, len(d.fields)), f)
        self.rename_fields(d.fields, d.rename_all)
        self.skipped += [f.wire for f in d.fields if f.skip]

    def rename_fields(self, fields, rename_all):
        for f in fields:
            if f.rename:
                f.wire = f.rename
            elif rename_all == "camelCase":
                f.wire = camel(f.rust)
            elif rename_all == "kebab-case":
                f.wire = kebab(f.rust)
            f.aliases = ["%s%s%d" % (f.wire, ALIAS, i + 1) for i in range(len(f.aliases))]

    def field(self, depth, toolargs):
        f = Field(self.names.field() + self.rng.choice(["", "_x"]), self.value_type(depth, toolargs))
        self.decorate(f, toolargs)
        return f

    def decorate(self, f, toolargs):
        if self.rng.random() < 0.15:
            f.rename = f.rust + "R"
        if toolargs and self.rng.random() < 0.25:
            f.aliases = [None] * self.rng.randint(1, 2)
        if f.ty[0] == "leaf" and self.rng.random() < 0.2:
            f.default = True

    def flattened(self, depth, toolargs, siblings, no_map=False):
        r = self.rng.random()
        optional = r < 0.45 and toolargs
        if r < 0.15 and not no_map and not any(s.flatten and s.ty[0] == "map" for s in siblings):
            leaf = self.leaf()
            while leaf[1] == "serde_json::Value":
                leaf = self.leaf()
            f = Field(self.names.field(), ("map", leaf))
            f.flatten = True
            return f
        kind = self.rng.choice(["struct", "struct", "enum"])
        if kind == "enum" and any(
            s.flatten and s.ty[0] in ("named", "opt") and self.def_of(s.ty).kind == "enum"
            and self.def_of(s.ty).repr == "external"
            for s in siblings
        ):
            kind = "struct"
        inner = self.named(depth + 1, toolargs, kind=kind, object_only=True, no_map=no_map)
        if not toolargs and has_flat_option(inner):
            return None
        if optional and inner.kind == "enum" and inner.repr == "untagged" and any(
            f.flatten and f.ty[0] == "opt" for v in inner.variants for f in v.fields
        ):
            optional = False
        f = Field(self.names.field(), ("opt", ("named", inner)) if optional else ("named", inner))
        f.flatten = True
        return f

    @staticmethod
    def def_of(t):
        while t[0] in ("opt", "box"):
            t = t[1]
        return t[1] if t[0] in ("named", "inst") else None

    def fill_enum(self, d, depth, object_only, no_map=False):
        d.repr = self.rng.choice(["external", "internal", "adjacent", "untagged"])
        if d.repr == "internal":
            d.tag = "t%s" % self.names.key()
        if d.repr == "adjacent":
            d.tag = "t%s" % self.names.key()
            d.content = "c%s" % self.names.key()
        count = self.rng.randint(1, 3)
        for _ in range(count):
            name = "V%s" % self.names.key().upper()
            kinds = ["unit", "newtype", "struct", "struct"]
            if self.wide and d.repr != "internal":
                kinds.append("tuple")
            if object_only and d.repr == "untagged":
                kinds = ["struct"]
            kind = self.rng.choice(kinds)
            if kind == "unit":
                v = Variant(name, "unit")
            elif kind == "tuple":
                v = Variant(name, "tuple")
                v.items = [self.value_type(depth + 1, d.toolargs) for _ in range(2)]
            elif kind == "newtype":
                if d.repr == "internal" or (no_map and self.rng.random() < 0.5):
                    ty = ("named", self.named(depth + 1, d.toolargs, kind="struct", no_map=no_map))
                elif no_map:
                    ty = self.leaf()
                else:
                    ty = self.value_type(depth + 1, d.toolargs)
                v = Variant(name, "newtype", ty=ty)
            else:
                fields = [self.field(depth + 1, d.toolargs) for _ in range(self.rng.randint(1, 3))]
                if depth < 3 and self.rng.random() < 0.3:
                    f = self.flattened(depth + 1, d.toolargs, fields, no_map)
                    if f and not (d.repr == "untagged" and f.ty[0] == "opt"):
                        fields.append(f)
                self.rename_fields(fields, None)
                v = Variant(name, "struct", fields=fields)
            if d.repr != "untagged" and d.toolargs and self.rng.random() < 0.2:
                v.aliases = ["%s%s1" % (name, ALIAS)]
            if self.rng.random() < 0.15:
                v.wire = name.lower()
            v.aliases = ["%s%s1" % (v.wire, ALIAS)] if v.aliases else []
            d.variants.append(v)
        if self.wide and d.repr != "untagged" and self.rng.random() < 0.25:
            d.variant_case = self.rng.choice(["lowercase", "UPPERCASE", "snake_case"])
            for v in d.variants:
                if v.wire == v.rust:
                    v.wire = case_variant(v.rust, d.variant_case)
                    v.aliases = ["%s%s1" % (v.wire, ALIAS)] if v.aliases else []

    # ---- roots ----

    def root(self, i):
        d = Def("struct", "Root%d" % i, None)
        d.toolargs = True
        self.defs.append(d)
        self.fill_struct(d, 0)
        return d

    # ---- writing Rust ----

    def write_def(self, d, out):
        derives = "Debug, PartialEq, Serialize, Deserialize, JsonSchema"
        if d.toolargs:
            derives += ", ToolArgs"
        out.append("#[derive(%s)]" % derives)
        attrs = []
        if d.rename_all:
            attrs.append('rename_all = "%s"' % d.rename_all)
        if d.deny:
            attrs.append("deny_unknown_fields")
        if d.repr == "internal":
            attrs.append('tag = "%s"' % d.tag)
        if d.repr == "adjacent":
            attrs.append('tag = "%s", content = "%s"' % (d.tag, d.content))
        if d.repr == "untagged":
            attrs.append("untagged")
        if d.variant_case:
            attrs.append('rename_all = "%s"' % d.variant_case)
        if attrs:
            out.append("#[serde(%s)]" % ", ".join(attrs))
        generic = "<T>" if d.generic else ""
        if d.kind in ("newtype", "tuple"):
            out.append("pub struct %s(%s);" % (d.name, ", ".join("pub " + rust_type(t) for t in d.items)))
        elif d.kind == "unit":
            out.append("pub struct %s;" % d.name)
        elif d.kind == "struct":
            out.append("pub struct %s%s {" % (d.name, generic))
            for f in d.fields:
                self.write_field(f, out, "    ")
            out.append("}")
        else:
            out.append("pub enum %s {" % d.name)
            for v in d.variants:
                vattrs = []
                if v.wire != v.rust:
                    vattrs.append('rename = "%s"' % v.wire)
                vattrs += ['alias = "%s"' % a for a in v.aliases]
                if vattrs:
                    out.append("    #[serde(%s)]" % ", ".join(vattrs))
                if v.kind == "unit":
                    out.append("    %s," % v.rust)
                elif v.kind == "newtype":
                    out.append("    %s(%s)," % (v.rust, rust_type(v.ty)))
                elif v.kind == "tuple":
                    out.append("    %s(%s)," % (v.rust, ", ".join(rust_type(t) for t in v.items)))
                else:
                    out.append("    %s {" % v.rust)
                    for f in v.fields:
                        self.write_field(f, out, "        ", public=False)
                    out.append("    },")
            out.append("}")

    def write_field(self, f, out, indent, public=True):
        attrs = []
        if f.rename:
            attrs.append('rename = "%s"' % f.wire)
        attrs += ['alias = "%s"' % a for a in f.aliases]
        if f.default:
            attrs.append("default")
        if f.flatten:
            attrs.append("flatten")
        if f.skip:
            attrs.append("skip")
        if attrs:
            out.append("%s#[serde(%s)]" % (indent, ", ".join(attrs)))
        ty = "T" if f.ty[0] == "param" else rust_type(f.ty)
        out.append("%s%s%s: %s," % (indent, "pub " if public else "", f.rust, ty))

    # ---- drawing calls (serde's JSON form) ----

    def string(self):
        return self.rng.choice(["a", "bc", "x y", "Zed", "", "long text 42"])

    def value(self, t, alias=0.0):
        kind = t[0]
        if kind == "leaf":
            name = t[1]
            if name == "u32":
                return self.rng.randint(0, 900)
            if name == "i64":
                return self.rng.randint(-900, 900)
            if name == "bool":
                return self.rng.random() < 0.5
            if name in ("f64", "f32"):
                return self.rng.choice([0.5, -2.25, 3.0, 10.75])
            if name == "u8":
                return self.rng.choice([0, 1, 200, 255])
            if name == "i8":
                return self.rng.choice([-128, -5, 0, 127])
            if name == "u16":
                return self.rng.choice([0, 300, 65535])
            if name == "u64":
                return self.rng.choice([0, 7, 2**53 + 1, 2**64 - 1])
            if name == "usize":
                return self.rng.randint(0, 900)
            if name == "char":
                return self.rng.choice(["a", "Z", "\u00e9", " ", "\U0001f600"])
            if name == "serde_json::Value":
                return self.rng.choice([None, 1, -2.5, "v", True, [1, "a"], {"k": [None]}, {}])
            return self.string()
        if kind == "set":
            return sorted({self.value(t[1], alias) for _ in range(self.rng.randint(0, 3))})
        if kind == "arr":
            return [self.value(t[1], alias) for _ in range(2)]
        if kind == "tup":
            return [self.value(t[1], alias), self.value(t[2], alias)]
        if kind == "opt":
            return None if self.rng.random() < 0.3 else self.value(t[1], alias)
        if kind == "vec":
            return [self.value(t[1], alias) for _ in range(self.rng.randint(0, 2))]
        if kind == "map":
            return {self.names.key(): self.value(t[1], alias) for _ in range(self.rng.randint(0, 2))}
        if kind == "box":
            return self.value(t[1], alias)
        if kind == "named":
            return self.def_value(t[1], None, alias)
        if kind == "inst":
            return self.def_value(t[1], t[2], alias)
        raise ValueError(t)

    def name_of(self, wire, aliases, alias):
        if aliases and self.rng.random() < alias:
            return self.rng.choice(aliases)
        return wire

    def fields_value(self, fields, arg, alias):
        out = {}
        for f in fields:
            ty = arg if f.ty[0] == "param" else f.ty
            if f.flatten:
                if ty[0] == "opt":
                    if self.rng.random() < 0.3:
                        continue
                    ty = ty[1]
                if ty[0] == "map":
                    for _ in range(self.rng.randint(0, 2)):
                        out[self.names.key()] = self.value(ty[1], alias)
                    continue
                part = self.value(ty, alias)
                if isinstance(part, str):
                    # An externally tagged unit variant, flattened.
                    part = {part: None}
                if isinstance(part, dict):
                    out.update(part)
                continue
            if f.skip:
                continue
            if f.default and self.rng.random() < 0.3:
                continue
            out[self.name_of(f.wire, f.aliases, alias)] = self.value(ty, alias)
        return out

    def def_value(self, d, arg, alias):
        if d.kind == "struct":
            return self.fields_value(d.fields, arg, alias)
        if d.kind == "newtype":
            return self.value(d.items[0], alias)
        if d.kind == "tuple":
            return [self.value(t, alias) for t in d.items]
        if d.kind == "unit":
            return None
        v = self.rng.choice(d.variants)
        name = self.name_of(v.wire, v.aliases, alias)
        if v.kind == "unit":
            content = None
        elif v.kind == "newtype":
            content = self.value(v.ty, alias)
        elif v.kind == "tuple":
            content = [self.value(t, alias) for t in v.items]
        else:
            content = self.fields_value(v.fields, None, alias)
        if d.repr == "external":
            return name if v.kind == "unit" else {name: content}
        if d.repr == "internal":
            out = {d.tag: name}
            if isinstance(content, dict):
                out.update(content)
            return out
        if d.repr == "adjacent":
            out = {d.tag: name}
            if v.kind != "unit":
                out[d.content] = content
            return out
        return content

    # ---- damage ----

    def objects(self, value, out):
        if isinstance(value, dict):
            out.append(value)
            for v in value.values():
                self.objects(v, out)
        elif isinstance(value, list):
            for v in value:
                self.objects(v, out)
        return out

    def arrays(self, value, out):
        if isinstance(value, list):
            out.append(value)
            for v in value:
                self.arrays(v, out)
        elif isinstance(value, dict):
            for v in value.values():
                self.arrays(v, out)
        return out

    def leaves(self, value, out, holder=None, key=None):
        if isinstance(value, dict):
            for k, v in value.items():
                self.leaves(v, out, value, k)
        elif isinstance(value, list):
            for i, v in enumerate(value):
                self.leaves(v, out, value, i)
        elif holder is not None:
            out.append((holder, key))
        return out

    def damage(self, value, how):
        objects = self.objects(value, [])
        if how == "drop":
            candidates = [o for o in objects if o]
            if not candidates:
                return False
            o = self.rng.choice(candidates)
            del o[self.rng.choice(list(o))]
            return True
        if how == "unknown":
            if not objects:
                return False
            self.rng.choice(objects)["zz_%s" % self.names.key()] = 1
            return True
        if how == "skipped":
            if not objects or not self.skipped:
                return False
            self.rng.choice(objects)[self.rng.choice(self.skipped)] = 1
            return True
        if how == "dup":
            arrays = [a for a in self.arrays(value, []) if a]
            if not arrays:
                return False
            a = self.rng.choice(arrays)
            a.append(json.loads(json.dumps(self.rng.choice(a))))
            return True
        if how == "twice":
            candidates = [(o, k) for o in objects for k in o if k.endswith(ALIAS + "1")]
            if not candidates:
                return False
            o, k = self.rng.choice(candidates)
            o[k[: -len(ALIAS + "1")]] = o[k]
            return True
        leaves = self.leaves(value, [])
        if not leaves:
            return False
        holder, key = self.rng.choice(leaves)
        old = holder[key]
        if how == "float":
            if isinstance(old, bool) or not isinstance(old, int):
                return False
            holder[key] = float(old)
            return True
        if how == "edge":
            holder[key] = self.rng.choice([c for c in EDGES if c != old or type(c) is not type(old)])
            return True
        choices = ["7", 7, -3, 2.5, True, None, [], {}]
        holder[key] = self.rng.choice([c for c in choices if c != old or type(c) is not type(old)])
        return True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--types", type=int, default=48)
    parser.add_argument("--calls", type=int, default=24)
    parser.add_argument("--check-path", default="support/generated_check.rs",
                        help="the judge, relative to the file written")
    parser.add_argument("--wide", action="store_true",
                        help="draw the shapes WIDE_LEAVES and Generator.wide_type list too")
    parser.add_argument("--learned", action="store_true",
                        help="draw aliases in types that derive only JsonSchema where "
                        "they are learned (Learnable)")
    parser.add_argument("--deny", action="store_true",
                        help="draw deny_unknown_fields on enums and on more structs")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    gen = Generator(rng, args.wide)
    roots = [gen.root(i) for i in range(args.types)]
    if args.learned:
        draw_learned_aliases(gen, roots, random.Random(args.seed * 7919 + 1))
    if args.deny:
        draw_denials(gen, random.Random(args.seed * 7919 + 2))
    calls = []
    for root in roots:
        seen = set()
        for n in range(args.calls * 4):
            if len([c for c in calls if c[0] == root.name]) >= args.calls:
                break
            alias = rng.choice([0.0, 0.0, 0.5])
            value = gen.def_value(root, None, alias)
            hows = ["none", "none", "drop", "unknown", "type", "float", "twice"]
            if args.wide:
                hows += ["edge", "edge", "dup", "skipped"]
            how = rng.choice(hows)
            if how != "none" and not gen.damage(value, how):
                continue
            text = json.dumps(value, separators=(",", ":"))
            if text in seen:
                continue
            seen.add(text)
            calls.append((root.name, how, text))

    out = []
    out.append("//! Generated by `scripts/gen-contract-types.py --seed %d --types %d --calls %d%s%s%s`:"
               % (args.seed, args.types, args.calls, " --wide" if args.wide else "",
                  " --learned" if args.learned else "", " --deny" if args.deny else ""))
    out.append("//! do not edit. Random types and calls, serde the judge (see the script).")
    out.append("#![allow(dead_code, non_camel_case_types, clippy::all)]")
    out.append("")
    out.append("#[path = %s]" % json.dumps(args.check_path))
    out.append("mod generated_check;")
    out.append("")
    out.append("use schemars::JsonSchema;")
    out.append("use serde::{Deserialize, Serialize};")
    out.append("use std::collections::{BTreeMap, BTreeSet};" if args.wide else "use std::collections::BTreeMap;")
    out.append("use toolargs::ToolArgs;")
    out.append("")
    by_module = {}
    for d in gen.defs:
        by_module.setdefault(d.module, []).append(d)
    for module in [None, "m1", "m2"]:
        defs = by_module.get(module, [])
        if module:
            out.append("mod %s {" % module)
            out.append("    use super::*;")
        lines = []
        for d in defs:
            gen.write_def(d, lines)
            lines.append("")
        indent = "    " if module else ""
        out.extend((indent + line) if line else "" for line in lines)
        if module:
            out.append("}")
            out.append("")
    out.append("/// (root type, damage, call)")
    out.append("const CALLS: &[(&str, &str, &str)] = &[")
    for name, how, text in calls:
        out.append("    (%s, %s, %s)," % (json.dumps(name), json.dumps(how), json.dumps(text)))
    out.append("];")
    out.append("")
    out.append("fn check(root: &str, call: &str) -> Result<generated_check::Verdict, String> {")
    out.append("    match root {")
    for root in roots:
        out.append("        %s => generated_check::check::<%s>(call)," % (json.dumps(root.name), root.name))
    out.append('        other => Err(format!("no type {other}")),')
    out.append("    }")
    out.append("}")
    out.append("")
    out.append("#[test]")
    out.append("fn generated_types_read_as_serde_reads_them() {")
    out.append("    generated_check::run(CALLS, check);")
    out.append("}")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()

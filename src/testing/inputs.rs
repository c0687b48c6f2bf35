//! The inputs both normalizers of a derived type are compared on, and the
//! comparison itself: compiled into `toolargs::testing` (private there,
//! behind `assert_normalizer_matches_schema`)
//! and into the project's dev-only `toolargs-testkit`, which exposes them to
//! the project's own property tests. One source, two crates: the names it
//! needs come from the module that includes it.

use super::{EntityMode, Map, Mismatch, Options, Path, Repairer, Report};
use super::{SchemaPlan, ToolArgs, Value};

/// The option sets every input is normalized with: the defaults, the text
/// entity rule, one decoding pass, and a small depth limit (so that
/// `TooDeep` is compared too).
pub fn option_sets() -> [Options; 4] {
    [
        Options::default(),
        Options::default().entities(EntityMode::Text),
        Options::default().max_passes(1),
        Options::default().max_depth(3),
    ]
}

/// Normalizes `input` with `T`'s generated normalizer and with `plan` (the
/// dynamic normalizer's plan, compiled from the schema `T` is validated
/// against, `T::validator().schema()`), under
/// every set of [`option_sets`], and compares values, reports and errors.
///
/// # Errors
///
/// The first [`Mismatch`].
pub fn check_with<T: ToolArgs>(plan: &SchemaPlan, input: &Value) -> Result<(), Box<Mismatch>> {
    for options in option_sets() {
        let mut generated_value = input.clone();
        let generated = T::normalize(&mut generated_value, &options).map(|r| (generated_value, r));
        let mut dynamic_value = input.clone();
        let mut report = Report::default();
        let dynamic = Repairer::new(&options, &mut report)
            .walk(plan, &plan.root(), &mut dynamic_value, &Path::ROOT, 0)
            .map(|()| (dynamic_value, report));
        if generated != dynamic {
            return Err(Box::new(Mismatch {
                input: input.clone(),
                options,
                generated,
                dynamic,
            }));
        }
    }
    Ok(())
}

/// The dynamic normalizer's plan for `T`.
///
/// # Panics
///
/// If `T::validator().schema()` does not compile into a plan (a derived type's
/// always does: the derive compiled it already).
pub fn plan_of<T: ToolArgs>() -> SchemaPlan {
    SchemaPlan::compile(T::validator().schema()).expect("a derived schema compiles")
}

/// `count` inputs shaped like `schema` and damaged the ways models damage
/// arguments: arrays and objects sent as JSON strings (once or twice),
/// strings escaped once to three times, wrong shapes, unknown keys
/// (including keys that hold character references). Deterministic for a
/// given `seed`.
pub fn damaged_inputs(schema: &Value, seed: u64, count: usize) -> impl Iterator<Item = Value> + '_ {
    let mut generator = Generator {
        root: schema,
        names: property_names(schema),
        state: seed,
    };
    (0..count).map(move |_| generator.value(schema, 0))
}

const STRINGS: &[&str] = &[
    "plain",
    "",
    "Tom &amp; Jerry",
    "&amp;amp;lt;b&amp;amp;gt;",
    "caf&eacute; &#x27;x&#39;",
    "?a=1&region=us&copy=2",
    "&notit; &not",
    "[\"a\", \"b &amp; c\"]",
    "{\"tags\": \"[1]\"}",
    " [1, 2] ",
    "{\"a\": 1} trailing",
    "null",
    "&#0;&#xD800;&#x80;",
];
const KEYS: &[&str] = &["extra", "a&amp;b", "x/y~z", "&lt;k&gt;", "", "type", "0"];
const MAX_DEPTH: usize = 5;

struct Generator<'s> {
    root: &'s Value,
    names: Vec<&'s String>,
    state: u64,
}

impl<'s> Generator<'s> {
    /// SplitMix64.
    fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn resolve(&self, mut schema: &'s Value) -> &'s Value {
        for _ in 0..8 {
            match schema
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix('#'))
                .and_then(|p| self.root.pointer(p))
            {
                Some(target) => schema = target,
                None => break,
            }
        }
        schema
    }

    fn value(&mut self, schema: &'s Value, depth: usize) -> Value {
        let shaped = self.shaped(schema, depth);
        self.damage(shaped, depth)
    }

    fn shaped(&mut self, schema: &'s Value, depth: usize) -> Value {
        let schema = self.resolve(schema);
        if depth >= MAX_DEPTH || self.chance(8) {
            return self.anything(depth);
        }
        for keyword in ["anyOf", "oneOf", "allOf"] {
            if let Some(Value::Array(branches)) = schema.get(keyword)
                && !branches.is_empty()
                && self.chance(80)
            {
                let i = self.below(branches.len());
                let mut value = self.shaped(&branches[i], depth);
                // A tagged variant: merge the sibling properties too.
                if let (Value::Object(into), Some(Value::Object(props))) =
                    (&mut value, schema.get("properties"))
                {
                    for (name, sub) in props {
                        if self.chance(70) {
                            let member = self.value(sub, depth + 1);
                            into.insert(name.clone(), member);
                        }
                    }
                }
                return value;
            }
        }
        if let Some(value) = schema.get("const") {
            return value.clone();
        }
        if let Some(Value::Array(values)) = schema.get("enum")
            && !values.is_empty()
        {
            return values[self.below(values.len())].clone();
        }
        let ty = match schema.get("type") {
            Some(Value::String(ty)) => Some(ty.as_str()),
            Some(Value::Array(types)) if !types.is_empty() => {
                types[self.below(types.len())].as_str()
            }
            _ => None,
        };
        let ty = ty.or_else(|| {
            if schema.get("properties").is_some() {
                Some("object")
            } else if schema.get("items").is_some() || schema.get("prefixItems").is_some() {
                Some("array")
            } else {
                None
            }
        });
        match ty {
            Some("object") => self.object(schema, depth),
            Some("array") => self.array(schema, depth),
            Some("string") => Value::String(STRINGS[self.below(STRINGS.len())].to_owned()),
            Some("integer") => Value::from(self.below(100)),
            Some("number") => Value::from(self.below(100) as f64 / 4.0),
            Some("boolean") => Value::Bool(self.chance(50)),
            Some("null") => Value::Null,
            _ => self.anything(depth),
        }
    }

    fn object(&mut self, schema: &'s Value, depth: usize) -> Value {
        let mut map = Map::new();
        if let Some(Value::Object(props)) = schema.get("properties") {
            for (name, sub) in props {
                if self.chance(75) {
                    let member = self.value(sub, depth + 1);
                    map.insert(name.clone(), member);
                }
            }
        }
        let additional = schema.get("additionalProperties");
        let extra = match additional {
            Some(Value::Object(_)) => self.below(3),
            _ => usize::from(self.chance(25)),
        };
        for _ in 0..extra {
            let key = KEYS[self.below(KEYS.len())].to_owned();
            let member = match additional {
                Some(sub @ Value::Object(_)) => self.value(sub, depth + 1),
                _ => self.anything(depth + 1),
            };
            map.insert(key, member);
        }
        Value::Object(map)
    }

    fn array(&mut self, schema: &'s Value, depth: usize) -> Value {
        let prefix = match schema.get("prefixItems") {
            Some(Value::Array(prefix)) => prefix.as_slice(),
            _ => &[],
        };
        let len = prefix.len() + self.below(3);
        let items = (0..len)
            .map(|i| match (prefix.get(i), schema.get("items")) {
                (Some(sub), _) => self.value(sub, depth + 1),
                (None, Some(sub @ Value::Object(_))) => self.value(sub, depth + 1),
                _ => self.anything(depth + 1),
            })
            .collect();
        Value::Array(items)
    }

    /// A value of any shape, with keys drawn from the schema's own
    /// property names and from [`KEYS`].
    fn anything(&mut self, depth: usize) -> Value {
        let pick = if depth >= MAX_DEPTH {
            self.below(4)
        } else {
            self.below(6)
        };
        match pick {
            0 => Value::Null,
            1 => Value::Bool(self.chance(50)),
            2 => Value::from(self.below(1000)),
            3 => Value::String(STRINGS[self.below(STRINGS.len())].to_owned()),
            4 => Value::Array(
                (0..self.below(3))
                    .map(|_| self.anything(depth + 1))
                    .collect(),
            ),
            _ => {
                let mut map = Map::new();
                for _ in 0..self.below(3) {
                    let key = self.key();
                    let member = self.anything(depth + 1);
                    map.insert(key, member);
                }
                Value::Object(map)
            }
        }
    }

    fn key(&mut self) -> String {
        if !self.names.is_empty() && self.chance(60) {
            let i = self.below(self.names.len());
            return self.names[i].clone();
        }
        KEYS[self.below(KEYS.len())].to_owned()
    }

    fn damage(&mut self, value: Value, depth: usize) -> Value {
        match self.below(10) {
            // Containers sent as JSON text, once or twice, maybe padded.
            0..=2 if value.is_array() || value.is_object() => {
                let mut text = Value::String(value.to_string());
                if self.chance(25) {
                    text = Value::String(text.to_string());
                }
                if self.chance(20)
                    && let Value::String(s) = &mut text
                {
                    *s = format!(" \n{s}\t");
                }
                text
            }
            // Strings escaped one to three times.
            3 | 4 if value.is_string() => {
                let mut text = value.as_str().unwrap_or_default().to_owned();
                for _ in 0..=self.below(3) {
                    text = text
                        .replace('&', "&amp;")
                        .replace('<', "&lt;")
                        .replace('"', "&quot;");
                }
                Value::String(text)
            }
            // The wrong shape.
            5 => self.anything(depth),
            _ => value,
        }
    }
}

/// Every property name declared anywhere in `schema`.
fn property_names(schema: &Value) -> Vec<&String> {
    fn walk<'v>(value: &'v Value, out: &mut Vec<&'v String>) {
        match value {
            Value::Object(map) => {
                if let Some(Value::Object(props)) = map.get("properties") {
                    out.extend(props.keys());
                }
                map.values().for_each(|v| walk(v, out));
            }
            Value::Array(items) => items.iter().for_each(|v| walk(v, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(schema, &mut out);
    out
}

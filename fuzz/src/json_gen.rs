//! JSON values, JSON Schemas and normalization options built from fuzz
//! bytes, with a bounded size so every input runs in microseconds.
//!
//! Plain `arbitrary` bytes rarely spell a schema keyword or a character
//! reference, so strings and keys are drawn half of the time from
//! vocabularies of the words that steer the code under test, and schemas are
//! built from the shapes the schema plan understands (with a fully arbitrary
//! value as one of the shapes, to reach the error paths).

use arbitrary::{Result, Unstructured};
use serde_json::{Map, Number, Value};
use toolargs::{entities::EntityMode, normalizer::Options, normalizer::PassBound};

/// Object keys: schema keywords and property names, including ones a JSON
/// pointer must escape.
const KEYS: &[&str] = &[
    "type",
    "properties",
    "items",
    "prefixItems",
    "additionalProperties",
    "patternProperties",
    "anyOf",
    "oneOf",
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "$ref",
    "$defs",
    "definitions",
    "$id",
    "$anchor",
    "$dynamicRef",
    "enum",
    "const",
    "required",
    "additionalItems",
    "unevaluatedProperties",
    "a",
    "b",
    "tags",
    "kind",
    "x-1",
    "0",
    "1",
    "a~b",
    "a/b",
    "a&amp;b",
    "",
];

/// String values: type names, references, patterns, character references
/// and JSON texts.
const STRINGS: &[&str] = &[
    "array",
    "object",
    "string",
    "integer",
    "null",
    "boolean",
    "number",
    "#",
    "#/$defs/A",
    "#/$defs/B",
    "#/definitions/A",
    "#/properties/a",
    "#/$defs/A/items",
    "#/$defs/a~1b",
    "#a",
    "other.json",
    "^x-",
    "[",
    "(",
    "",
    "plain",
    "AT&T",
    "&amp;",
    "&amp;amp;lt;",
    "Tom &amp;amp; Jerry",
    "&lt;",
    "&#38;",
    "&#x26;#x26;lt;",
    "&#0;",
    "&#x110000;",
    "&#128;",
    "&nGt;",
    "&NotEqualTilde;",
    "?a=1&region=us&copy=2",
    "&copy",
    "[1,2]",
    " [\"a\", \"&amp;b\"] ",
    "[&quot;a&quot;]",
    "{\"k\":\"&lt;v&gt;\"}",
    "{\"k\":\"[1]\"}",
    "[\"[2]\", \"{}\"]",
    "[1,",
    "\"[1]\"",
    "{&quot;k&quot;:1}",
];

/// The JSON Schema type names.
const TYPES: &[&str] = &[
    "array", "object", "string", "integer", "null", "boolean", "number",
];

/// The largest depth bound the options use (see [`Gen::options`]).
pub const LARGE_DEPTH: usize = 1000;

/// Builds values from fuzz bytes with a budget on the number of nodes.
pub struct Gen<'u, 'a> {
    u: &'u mut Unstructured<'a>,
    budget: usize,
}

impl<'u, 'a> Gen<'u, 'a> {
    /// A builder that makes at most `budget` containers and members.
    pub fn new(u: &'u mut Unstructured<'a>, budget: usize) -> Self {
        Gen { u, budget }
    }

    /// The bytes the values are built from.
    pub fn bytes(&mut self) -> &mut Unstructured<'a> {
        self.u
    }

    fn spend(&mut self) -> bool {
        if self.budget == 0 {
            return false;
        }
        self.budget -= 1;
        true
    }

    fn count(&mut self, max: usize) -> Result<usize> {
        self.u.int_in_range(0..=max)
    }

    /// An object key.
    pub fn key(&mut self) -> Result<String> {
        if self.u.arbitrary()? {
            Ok((*self.u.choose(KEYS)?).to_owned())
        } else {
            self.u.arbitrary()
        }
    }

    /// A string value.
    pub fn string(&mut self) -> Result<String> {
        if self.u.arbitrary()? {
            Ok((*self.u.choose(STRINGS)?).to_owned())
        } else {
            self.u.arbitrary()
        }
    }

    fn number(&mut self) -> Result<Value> {
        Ok(match self.u.int_in_range(0..=2u8)? {
            0 => Value::from(self.u.arbitrary::<i64>()?),
            1 => Value::from(self.u.arbitrary::<u64>()?),
            _ => Number::from_f64(self.u.arbitrary()?).map_or(Value::Null, Value::Number),
        })
    }

    /// Any JSON value, nesting at most `depth` containers. One shape is a
    /// string holding the JSON text of another value (stringified, as models
    /// send arrays), optionally with its quotes and ampersands escaped as
    /// character references.
    pub fn value(&mut self, depth: usize) -> Result<Value> {
        let containers = depth > 0 && self.spend();
        let shapes = if containers { 8 } else { 5 };
        Ok(match self.u.int_in_range(0..=shapes - 1)? {
            0 => Value::Null,
            1 => Value::Bool(self.u.arbitrary()?),
            2 => self.number()?,
            3 | 4 => Value::String(self.string()?),
            5 => {
                let n = self.count(4)?;
                let mut items = Vec::with_capacity(n);
                for _ in 0..n {
                    items.push(self.value(depth - 1)?);
                }
                Value::Array(items)
            }
            6 => {
                let n = self.count(4)?;
                let mut members = Map::new();
                for _ in 0..n {
                    let key = self.key()?;
                    members.insert(key, self.value(depth - 1)?);
                }
                Value::Object(members)
            }
            _ => {
                let inner = self.value(depth - 1)?;
                let text = if self.u.arbitrary()? {
                    serde_json::to_string_pretty(&inner)
                } else {
                    serde_json::to_string(&inner)
                }
                .expect("a Value always serializes");
                Value::String(match self.u.int_in_range(0..=2u8)? {
                    0 => text,
                    1 => text.replace('&', "&amp;").replace('"', "&quot;"),
                    _ => text.replace('&', "&amp;"),
                })
            }
        })
    }

    fn type_name(&mut self) -> Result<Value> {
        Ok(Value::from(*self.u.choose(TYPES)?))
    }

    fn schemas(&mut self, depth: usize) -> Result<Vec<Value>> {
        let n = self.u.int_in_range(1..=3)?;
        (0..n).map(|_| self.schema(depth)).collect()
    }

    /// A JSON Schema built from the keywords the plan understands, nesting
    /// at most `depth` subschemas; one shape in the mix is any value at all.
    pub fn schema(&mut self, depth: usize) -> Result<Value> {
        let nested = depth > 0 && self.spend();
        let shapes = if nested { 16 } else { 7 };
        let d = depth.saturating_sub(1);
        Ok(match self.u.int_in_range(0..=shapes - 1)? {
            0 => Value::Object(Map::new()),
            1 => Value::Bool(self.u.arbitrary()?),
            2 => serde_json::json!({ "type": self.type_name()? }),
            3 => {
                let types = (0..self.u.int_in_range(1..=3)?)
                    .map(|_| self.type_name())
                    .collect::<Result<Vec<_>>>()?;
                serde_json::json!({ "type": types })
            }
            4 => serde_json::json!({ "$ref": self.string()? }),
            5 => serde_json::json!({ "enum": [self.value(1)?, self.value(1)?] }),
            6 => serde_json::json!({ "const": self.value(1)? }),
            7 => {
                let mut props = Map::new();
                for _ in 0..self.count(4)? {
                    let key = self.key()?;
                    props.insert(key, self.schema(d)?);
                }
                let mut schema = serde_json::json!({"type": "object", "properties": props});
                if self.u.arbitrary()? {
                    schema["additionalProperties"] = self.schema(d)?;
                }
                schema
            }
            8 => serde_json::json!({
                "patternProperties": { self.string()?: self.schema(d)? },
                "additionalProperties": self.schema(d)?,
            }),
            9 => serde_json::json!({"type": "array", "items": self.schema(d)?}),
            10 => serde_json::json!({"prefixItems": self.schemas(d)?, "items": self.schema(d)?}),
            11 => serde_json::json!({ "anyOf": self.schemas(d)? }),
            12 => serde_json::json!({ "oneOf": self.schemas(d)? }),
            13 => serde_json::json!({ "allOf": self.schemas(d)? }),
            14 => serde_json::json!({
                "oneOf": [
                    {"type": "object", "properties": {"kind": {"const": "a"}, "tags": self.schema(d)?}},
                    {"type": "object", "properties": {"kind": {"enum": ["b"]}, "tags": self.schema(d)?}}
                ]
            }),
            _ => self.value(d)?,
        })
    }

    /// A root schema: [`Gen::schema`], sometimes with definitions for the
    /// `$ref`s in the vocabulary to find.
    pub fn root_schema(&mut self, depth: usize) -> Result<Value> {
        let mut root = self.schema(depth)?;
        if self.u.arbitrary()? {
            let defs = serde_json::json!({"A": self.schema(depth)?, "B": self.schema(depth)?});
            let key = if self.u.arbitrary()? {
                "$defs"
            } else {
                "definitions"
            };
            match &mut root {
                Value::Object(map) => {
                    map.insert(key.to_owned(), defs);
                }
                _ => root = serde_json::json!({"allOf": [root], key: defs}),
            }
        }
        Ok(root)
    }

    /// Normalization options: either mode, pass bounds from none to
    /// unbounded, depth bounds from none to [`LARGE_DEPTH`], either meaning of
    /// reaching the pass bound. Input bytes that run out give the defaults.
    pub fn options(&mut self) -> Result<Options> {
        let mode = if self.u.arbitrary()? {
            EntityMode::Text
        } else {
            EntityMode::Attribute
        };
        let passes = match self.u.int_in_range(0..=4u8)? {
            0 => toolargs::normalizer::DEFAULT_MAX_PASSES,
            1 => 0,
            2 => 1,
            3 => u32::MAX,
            _ => u32::from(self.u.arbitrary::<u8>()?),
        };
        let depth = match self.u.int_in_range(0..=3u8)? {
            0 => toolargs::normalizer::DEFAULT_MAX_DEPTH,
            1 => usize::from(self.u.int_in_range(0..=8u8)?),
            // Large, but within what the fuzzer's 8 MiB main-thread stack
            // takes: the walk and the parser recurse once per level, and the
            // library leaves sizing the stack for `max_depth` to its caller.
            2 => LARGE_DEPTH,
            _ => usize::from(self.u.arbitrary::<u8>()?),
        };
        let pass_bound = if self.u.arbitrary()? {
            PassBound::Reject
        } else {
            PassBound::Record
        };
        Ok(Options::default()
            .entities(mode)
            .max_passes(passes)
            .max_depth(depth)
            .pass_bound(pass_bound))
    }
}

//! The contract suite's types: 72 derived types covering every serde shape
//! (scalars, collections, maps, names, defaults and skips, flatten, the four
//! enum representations, generics, recursion, name clashes, transparent and
//! tuple structs, remote types), each with its generator. Shared by
//! `contract_serde.rs` (the canonical contract) and `contract_strict.rs`
//! (the same property through the OpenAI strict toolbox).
#![allow(dead_code)]

use super::{Gen, MAX_DEPTH, Rng};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use toolargs::ToolArgs;

/// The generator of a type, from its field names (the types are inferred).
macro_rules! generator {
    ($name:ident { $($f:ident),* $(,)? }) => {
        impl Gen for $name {
            fn generate(_rng: &mut Rng, _depth: u32) -> Self {
                $name { $($f: Gen::generate(_rng, _depth + 1)),* }
            }
        }
    };
    ($name:ident ( $($f:ident),* )) => {
        impl Gen for $name {
            fn generate(rng: &mut Rng, depth: u32) -> Self {
                $(let $f = Gen::generate(rng, depth + 1);)*
                $name($($f),*)
            }
        }
    };
    ($name:ident { $($v:ident $(( $($vt:ident),* ))? $({ $($vf:ident),* })?),* $(,)? } enum) => {
        impl Gen for $name {
            #[allow(unused_assignments, unused_variables)]
            fn generate(rng: &mut Rng, depth: u32) -> Self {
                let count = [$(stringify!($v)),*].len();
                // Deep down, the first variant (never a recursive one).
                let pick = if depth >= MAX_DEPTH { 0 } else { rng.below(count) };
                let mut index = 0;
                $(
                    if pick == index {
                        $($(let $vt = Gen::generate(rng, depth + 1);)*)?
                        return $name::$v $(( $($vt),* ))? $({ $($vf: Gen::generate(rng, depth + 1)),* })?;
                    }
                    index += 1;
                )*
                unreachable!()
            }
        }
    };
}
#[allow(unused_imports)]
pub(crate) use generator;

// ---- building blocks ----

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct Leaf {
    pub name: String,
    pub n: Option<u32>,
}
generator!(Leaf { name, n });

/// A filter (derives `ToolArgs`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct Filter {
    pub since: Option<String>,
    #[serde(default)]
    pub tags: Vec<String>,
}
generator!(Filter { since, tags });

/// Derives only serde and schemars.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Bare {
    pub label: String,
    pub count: u32,
}
generator!(Bare { label, count });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Target {
    pub host: String,
    pub port: u16,
}
generator!(Target { host, port });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Shard {
    pub name: String,
    pub replicas: Vec<Target>,
}
generator!(Shard { name, replicas });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct SearchArgs {
    pub query: String,
    pub limit: Option<u32>,
}
generator!(SearchArgs { query, limit });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct EmailOpts {
    pub address: String,
    pub cc: Vec<String>,
}
generator!(EmailOpts { address, cc });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PushArgs {
    pub device: String,
}
generator!(PushArgs { device });

/// Aliases are declared for types that derive `ToolArgs` (schemars does not
/// see serde's aliases): a nested or flattened type with aliases derives it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct AliasedPart {
    #[serde(alias = "q")]
    pub query: String,
    #[serde(alias = "labels", default)]
    pub tags: Vec<String>,
}
generator!(AliasedPart { query, tags });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PartA {
    pub a1: String,
    pub a2: Option<Bare>,
}
generator!(PartA { a1, a2 });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PartB {
    pub b1: Vec<u32>,
}
generator!(PartB { b1 });

// ---- 1. scalars, options, collections ----

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct Scalars {
    pub s: String,
    pub n: u32,
    pub i: i64,
    pub b: bool,
    pub c: char,
    pub small: u8,
    pub big: u64,
    pub signed: i32,
    pub short: u16,
    pub unit: (),
}
generator!(Scalars {
    s,
    n,
    i,
    b,
    c,
    small,
    big,
    signed,
    short,
    unit
});

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct Optionals {
    pub s: Option<String>,
    pub n: Option<u32>,
    pub leaf: Option<Leaf>,
    pub bare: Option<Bare>,
    pub list: Option<Vec<String>>,
}
generator!(Optionals {
    s,
    n,
    leaf,
    bare,
    list
});

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct Lists {
    pub v: Vec<String>,
    pub d: VecDeque<u32>,
    pub nested: Vec<Vec<u32>>,
    pub leaves: Vec<Leaf>,
    pub bares: Vec<Bare>,
}
generator!(Lists {
    v,
    d,
    nested,
    leaves,
    bares
});

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct Arrays {
    pub pair: [String; 2],
    pub triple: [u32; 3],
    pub leaves: [Leaf; 2],
    pub grid: [[bool; 2]; 2],
}
generator!(Arrays {
    pair,
    triple,
    leaves,
    grid
});

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct BoxedSlices {
    pub targets: Box<[Target]>,
    pub words: Box<[String]>,
    pub leaves: Box<[Leaf]>,
}
generator!(BoxedSlices {
    targets,
    words,
    leaves
});

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct Tuples {
    pub pair: (String, u32),
    pub triple: (Leaf, bool, Vec<String>),
    pub bare_pair: (Bare, Option<Target>),
}
generator!(Tuples {
    pair,
    triple,
    bare_pair
});

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct Sets {
    pub tags: BTreeSet<String>,
    pub ids: BTreeSet<u32>,
    pub chars: BTreeSet<char>,
}
generator!(Sets { tags, ids, chars });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct Maps {
    pub by_name: BTreeMap<String, u32>,
    pub lists: HashMap<String, Vec<String>>,
    pub structs: BTreeMap<String, Leaf>,
    pub bares: HashMap<String, Bare>,
}
generator!(Maps {
    by_name,
    lists,
    structs,
    bares
});

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct Shards {
    pub shards: BTreeMap<u32, Shard>,
}
generator!(Shards { shards });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct NumberKeys {
    pub by_id: BTreeMap<u32, Vec<String>>,
    pub by_signed: BTreeMap<i64, Leaf>,
}
generator!(NumberKeys { by_id, by_signed });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct MapOfLists {
    pub groups: HashMap<String, Vec<Leaf>>,
    pub nested: BTreeMap<String, BTreeMap<String, Target>>,
}
generator!(MapOfLists { groups, nested });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct Boxes {
    pub b: Box<Leaf>,
    pub ob: Option<Box<Bare>>,
    #[allow(clippy::box_collection)]
    pub bl: Box<Vec<String>>,
}
generator!(Boxes { b, ob, bl });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct NoArgs {}
generator!(NoArgs {});

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct OptNested {
    pub filter: Option<Filter>,
    pub list: Option<Vec<Leaf>>,
    pub map: Option<BTreeMap<String, Bare>>,
    pub pair: Option<(Target, String)>,
}
generator!(OptNested {
    filter,
    list,
    map,
    pair
});

// ---- 2. names: rename, rename_all, alias ----

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
#[serde(rename_all = "camelCase")]
pub struct Renamed {
    pub page_size: u32,
    #[serde(rename = "q")]
    pub query_text: String,
    pub sort_keys: Vec<String>,
    pub inner_leaf: Option<Leaf>,
}
generator!(Renamed {
    page_size,
    query_text,
    sort_keys,
    inner_leaf
});

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub struct Shouting {
    pub max_count: u32,
    pub display_name: String,
}
generator!(Shouting {
    max_count,
    display_name
});

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
#[serde(rename_all = "kebab-case")]
pub struct Kebab {
    pub first_field: String,
    pub nested_part: Shouting,
    #[serde(rename = "x-y")]
    pub renamed_field: Vec<u32>,
}
generator!(Kebab {
    first_field,
    nested_part,
    renamed_field
});

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct Aliased {
    #[serde(alias = "q")]
    pub query: String,
    #[serde(alias = "labels", alias = "tag_list", default)]
    pub tags: Vec<String>,
    #[serde(alias = "f")]
    pub filter: Option<Filter>,
}
generator!(Aliased {
    query,
    tags,
    filter
});

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct AliasRequired {
    #[serde(alias = "who")]
    pub customer: Bare,
    #[serde(alias = "items")]
    pub lines: Vec<Target>,
}
generator!(AliasRequired { customer, lines });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct AliasedNested {
    pub part: AliasedPart,
    pub parts: Vec<AliasedPart>,
}
generator!(AliasedNested { part, parts });

// ---- 3. defaults and skips ----

fn default_limit() -> u32 {
    10
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct Defaults {
    #[serde(default)]
    pub list: Vec<String>,
    #[serde(default)]
    pub n: u32,
    #[serde(default = "default_limit")]
    pub limit: u32,
    #[serde(default)]
    pub leaf: Option<Leaf>,
}
generator!(Defaults {
    list,
    n,
    limit,
    leaf
});

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct Skipped {
    pub keep: String,
    #[serde(skip)]
    pub cache: Vec<String>,
    #[serde(skip)]
    pub hits: u32,
}
generator!(Skipped { keep, cache, hits });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct SkipDeserializing {
    pub keep: Vec<u32>,
    // Not part of the input: a model that sends them sends undeclared
    // fields (rejected, see the regressions). Serialized only when set.
    #[serde(skip_deserializing, skip_serializing_if = "is_zero")]
    pub seen: u32,
    #[serde(skip_deserializing, default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}
generator!(SkipDeserializing { keep, seen, note });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs, Default)]
#[serde(default)]
pub struct StructDefault {
    pub a: String,
    pub b: Vec<u32>,
    pub c: Option<Bare>,
}
generator!(StructDefault { a, b, c });

// ---- 4. flatten ----

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct Flattened {
    pub id: String,
    #[serde(flatten)]
    pub leaf: Leaf,
}
generator!(Flattened { id, leaf });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct FlattenAliased {
    pub id: u32,
    #[serde(flatten)]
    pub part: AliasedPart,
}
generator!(FlattenAliased { id, part });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct FlattenTwo {
    #[serde(flatten)]
    pub a: PartA,
    #[serde(flatten)]
    pub b: PartB,
    pub own: bool,
}
generator!(FlattenTwo { a, b, own });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct FlattenMap {
    pub id: String,
    #[serde(flatten)]
    pub extra: BTreeMap<String, u32>,
}
generator!(FlattenMap { id, extra });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct FlattenMapOfStructs {
    pub building: String,
    #[serde(flatten)]
    pub rooms: BTreeMap<String, Target>,
}
generator!(FlattenMapOfStructs { building, rooms });

/// A flattened `Option`: serde tries the type on the members its struct
/// does not claim and takes `None` when that fails, dropping whatever of it
/// was sent (a window without `hi`, a mistyped `Asc`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct Window {
    pub lo: u32,
    #[serde(alias = "high")]
    pub hi: u32,
    pub note: Option<String>,
}
generator!(Window { lo, hi, note });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub enum Order {
    Asc(u32),
    Desc(Vec<String>),
}
generator!(Order { Asc(f0), Desc(f0) } enum);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct FlattenOptional {
    pub q: String,
    #[serde(flatten)]
    pub window: Option<Window>,
    #[serde(flatten)]
    pub order: Option<Order>,
}
generator!(FlattenOptional { q, window, order });

/// A newtype around a struct, flattened as an `Option` beside an enum:
/// schemars writes it as a reference that applies `Window` as it stands
/// (its members required); serde reads it as `Window`, whole or not at all.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Extent(pub Window);
generator!(Extent(f0));

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct FlattenNewtype {
    pub q: String,
    #[serde(flatten)]
    pub extent: Option<Extent>,
    #[serde(flatten)]
    pub order: Option<Order>,
}
generator!(FlattenNewtype { q, extent, order });

/// Flattens a map: it reads every member its struct does not. Flattened as
/// an `Option` beside `title`, a member sent without `id` makes no `Tail`,
/// and serde drops it with the `None` it takes; only the type says so (the
/// schema takes any member there).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Tail {
    pub id: u32,
    #[serde(flatten)]
    pub rest: BTreeMap<String, u32>,
}
generator!(Tail { id, rest });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct FlattenOptionalMap {
    pub title: String,
    #[serde(flatten)]
    pub tail: Option<Tail>,
}
generator!(FlattenOptionalMap { title, tail });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
#[serde(tag = "by")]
pub enum Scope {
    Team { team: String },
    Person { name: String, since: u32 },
}
generator!(Scope { Team { team }, Person { name, since } } enum);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct FlattenOptionalTagged {
    pub id: u32,
    #[serde(flatten)]
    pub scope: Option<Scope>,
    pub tags: Vec<String>,
}
generator!(FlattenOptionalTagged { id, scope, tags });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
#[serde(tag = "channel")]
pub enum Via {
    Email {
        opts: EmailOpts,
    },
    Sms {
        number: String,
        #[serde(alias = "copy_to")]
        copy: Option<String>,
    },
    Push(PushArgs),
}
generator!(Via { Email { opts }, Sms { number, copy }, Push(f0) } enum);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct Notify {
    pub to: String,
    #[serde(flatten)]
    pub via: Via,
}
generator!(Notify { to, via });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum ViaExternal {
    Email { opts: EmailOpts },
    Sms { number: String },
}
generator!(ViaExternal { Email { opts }, Sms { number } } enum);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct NotifyExternal {
    pub to: String,
    #[serde(flatten)]
    pub via: ViaExternal,
}
generator!(NotifyExternal { to, via });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
#[serde(tag = "kind")]
pub enum Shape {
    Circle {
        radius: u32,
        center: Target,
    },
    Poly {
        points: Vec<(u32, u32)>,
        fill: Option<Bare>,
    },
    Named(Leaf),
}
generator!(Shape { Circle { radius, center }, Poly { points, fill }, Named(f0) } enum);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct Drawing {
    pub title: String,
    pub layers: Vec<u32>,
    #[serde(flatten)]
    pub shape: Shape,
}
generator!(Drawing {
    title,
    layers,
    shape
});

// ---- 5. enums: the four representations ----

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub enum External {
    Unit,
    New(Leaf),
    List(Vec<u32>),
    Pair(String, u32),
    Fields { tags: Vec<String>, inner: Leaf },
    Empty {},
}
generator!(External { Unit, New(f0), List(f0), Pair(f0, f1), Fields { tags, inner }, Empty {} } enum);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
#[serde(tag = "type")]
pub enum Internal {
    Stop,
    Search(SearchArgs),
    Fetch { url: String, opts: Option<Bare> },
    Plain(Bare),
}
generator!(Internal { Stop, Search(f0), Fetch { url, opts }, Plain(f0) } enum);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
#[serde(tag = "type")]
pub enum Cmd {
    Search(SearchArgs),
}
generator!(Cmd { Search(f0) } enum);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
#[serde(tag = "t", content = "c")]
pub enum Adjacent {
    Off,
    Tags(Vec<String>),
    Range(u32, String),
    Rooms { m: BTreeMap<String, Leaf> },
    One(Bare),
}
generator!(Adjacent { Off, Tags(f0), Range(f0, f1), Rooms { m }, One(f0) } enum);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
#[serde(untagged)]
pub enum Untagged {
    Num(u32),
    Flag(bool),
    Text(String),
    List(Vec<String>),
    Tuple(u32, String),
    Obj { x: u32, y: Vec<String> },
    Named { name: String },
    Nothing,
}
generator!(Untagged { Num(f0), Flag(f0), Text(f0), List(f0), Tuple(f0, f1), Obj { x, y }, Named { name }, Nothing } enum);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
#[serde(rename_all = "snake_case", rename_all_fields = "camelCase")]
pub enum Job {
    BuildAll { target_dir: String, max_jobs: u32 },
    CleanUp { dry_run: bool },
    Idle,
}
generator!(Job { BuildAll { target_dir, max_jobs }, CleanUp { dry_run }, Idle } enum);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    SendEmail {
        to: String,
        #[serde(alias = "labels")]
        tags: Vec<String>,
    },
    #[serde(rename = "ping", alias = "poke")]
    Ping,
    #[serde(alias = "store")]
    Archive(Vec<u32>),
}
generator!(Action { SendEmail { to, tags }, Ping, Archive(f0) } enum);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
#[serde(tag = "op", rename_all_fields = "camelCase")]
pub enum InternalAliased {
    Move {
        #[serde(alias = "to")]
        new_place: String,
        by_user: Option<String>,
    },
    #[serde(alias = "remove")]
    Delete { hard_delete: bool },
}
generator!(InternalAliased { Move { new_place, by_user }, Delete { hard_delete } } enum);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
#[serde(tag = "kind", content = "data", rename_all = "lowercase")]
pub enum AdjacentRenamed {
    Text(String),
    Many { items: Vec<Target> },
    Nothing,
}
generator!(AdjacentRenamed { Text(f0), Many { items }, Nothing } enum);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PlainEnum {
    Off,
    Tags(Vec<String>),
    Range { from: u32, to: Vec<u32> },
}
generator!(PlainEnum { Off, Tags(f0), Range { from, to } } enum);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct EnumFields {
    pub e: External,
    pub oe: Option<Internal>,
    pub le: Vec<Adjacent>,
    pub u: Untagged,
    pub p: PlainEnum,
    pub mp: BTreeMap<String, PlainEnum>,
}
generator!(EnumFields {
    e,
    oe,
    le,
    u,
    p,
    mp
});

/// A unit-only enum: a string `enum` in the schema.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Speed {
    Fast,
    Slow,
}
generator!(Speed { Fast, Slow } enum);

/// A struct with a member a string `enum` constrains (a tag, to a union).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct WithSpeed {
    pub speed: Speed,
    pub leaf: Leaf,
    pub tags: Vec<String>,
}
generator!(WithSpeed { speed, leaf, tags });

/// Internally tagged, variants with a unit-enum member (the same `Speed`
/// in two of them) beside others: the tag picks the variant whatever that
/// member holds, and a member outside its enum is reported inside it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Paced {
    Run { speed: Speed, laps: u32, leaf: Leaf },
    Walk { speed: Speed, note: Option<String> },
    Rest { minutes: u32 },
}
generator!(Paced { Run { speed, laps, leaf }, Walk { speed, note }, Rest { minutes } } enum);

/// Adjacently tagged, a variant whose content is a unit enum.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
#[serde(tag = "t", content = "c", rename_all = "snake_case")]
pub enum PacedAdjacent {
    Pace(Speed),
    Laps(Vec<u32>),
    Off,
}
generator!(PacedAdjacent { Pace(f0), Laps(f0), Off } enum);

/// Tagged unions whose branches carry enums, at the root of a member, in
/// an `Option` and in a list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct Pacing {
    pub paced: Paced,
    pub maybe: Option<Paced>,
    pub adjacent: Vec<PacedAdjacent>,
}
generator!(Pacing {
    paced,
    maybe,
    adjacent
});

/// Two numbers first: no array of strings with one element replaced
/// spells it (serde reads a struct from a sequence too, `["a", 7]` is a
/// `Target`, which the schema does not say).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Stretch {
    pub from: u32,
    pub to: u32,
    pub at: Target,
}
generator!(Stretch { from, to, at });

/// Untagged: an array of string-`enum` items, an object, a string.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum SpeedsOrStretch {
    Speeds(Vec<Speed>),
    Stretch(Stretch),
    Name(String),
}
generator!(SpeedsOrStretch { Speeds(f0), Stretch(f0), Name(f0) } enum);

/// One required member: as a union's branch, serde's externally tagged
/// variant has this shape, so the plan applies it only to an object that
/// has the member.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct OneMember {
    pub ports: Vec<u16>,
}
generator!(OneMember { ports });

/// Holds a `OneMember`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Holder {
    pub one: OneMember,
    pub name: String,
}
generator!(Holder { one, name });

/// Unions a container's shape decides (`Option<Leaf>`, the object variant
/// of an untagged enum) beside ones where the branch has `enum` members or
/// items (`Option<WithSpeed>`, the array variant).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct ShapeUnions {
    pub leaf: Option<Leaf>,
    pub holder: Option<Holder>,
    pub with_speed: Option<WithSpeed>,
    pub either: SpeedsOrStretch,
}
generator!(ShapeUnions {
    leaf,
    holder,
    with_speed,
    either
});

/// A struct with a `from`, which `Reach::Start` reads by its `from` alone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct NamedReach {
    pub name: String,
    pub from: u32,
}
generator!(NamedReach { name, from });

/// Untagged, where serde reads later variants as an earlier one: `Start`
/// takes any object with a `from`, ignoring `to` or `name`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Reach {
    Start { from: u32 },
    Both { from: u32, to: u32 },
    Named(NamedReach),
    Label(String),
}
generator!(Reach { Start { from }, Both { from, to }, Named(f0), Label(f0) } enum);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Narrow {
    pub id: u32,
}
generator!(Narrow { id });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Wide {
    pub id: u32,
    pub extra: Option<String>,
}
generator!(Wide { id, extra });

/// The same one level down: `Narrow` ignores `Wide`'s `extra`, so serde
/// reads every `Wide` variant as a `Narrow` one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Around {
    Narrow { inner: Narrow },
    Wide { inner: Wide },
}
generator!(Around { Narrow { inner }, Wide { inner } } enum);

/// A named struct: serde also reads it from `[from, by]`, `[from, by,
/// step]` or `[from, by, step, to]` (`step` and `to` have defaults; an
/// `Option` without one would be needed in the array, which the schema
/// cannot show).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Steps {
    pub from: u8,
    pub by: u8,
    #[serde(default)]
    pub step: Option<u8>,
    #[serde(default)]
    pub to: u8,
}
generator!(Steps { from, by, step, to });

/// serde reads a `List` of two to four small numbers as `Range`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Pick {
    Range(Steps),
    List(Vec<u8>),
}
generator!(Pick { Range(f0), List(f0) } enum);

/// A set that refuses other members.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetOf {
    pub tags: BTreeSet<u8>,
}
generator!(SetOf { tags });

/// Generated in order (a set's order is no information serde keeps), with
/// repeats now and then.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ListOf {
    pub tags: Vec<u8>,
}

impl Gen for ListOf {
    fn generate(rng: &mut Rng, depth: u32) -> Self {
        let mut tags = Vec::<u8>::generate(rng, depth);
        tags.sort_unstable();
        ListOf { tags }
    }
}

/// serde reads a `List` with repeats (or in order) as the `Set`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Bag {
    Set(SetOf),
    List(ListOf),
}
generator!(Bag { Set(f0), List(f0) } enum);

/// Untagged enums whose earlier variants read later ones (serde ignores
/// members a variant does not declare, and reads a struct from an array of
/// its fields): a value serde would cut down or read as another variant is
/// rejected, within its union.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct ShadowedUnions {
    pub reach: Reach,
    pub around: Option<Around>,
    pub pick: Pick,
    pub bag: Bag,
}
generator!(ShadowedUnions {
    reach,
    around,
    pick,
    bag
});

// ---- 6. generics ----

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct Page<T> {
    #[serde(alias = "results")]
    pub items: Vec<T>,
    pub next: Option<String>,
}

impl<T: Gen> Gen for Page<T> {
    fn generate(rng: &mut Rng, depth: u32) -> Self {
        Page {
            items: Gen::generate(rng, depth + 1),
            next: Gen::generate(rng, depth + 1),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct Envelope<T> {
    pub id: String,
    #[serde(flatten)]
    pub body: T,
}

impl<T: Gen> Gen for Envelope<T> {
    fn generate(rng: &mut Rng, depth: u32) -> Self {
        Envelope {
            id: Gen::generate(rng, depth + 1),
            body: Gen::generate(rng, depth + 1),
        }
    }
}

/// A flattened `Option` of a type parameter: serde drops what makes no
/// whole `T`, as for a named type. (`T`'s own aliases are not declared: the
/// derive cannot know a type argument derives `ToolArgs`.)
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct FlattenGeneric<T> {
    pub q: String,
    #[serde(flatten)]
    pub extra: Option<T>,
}

impl<T: Gen> Gen for FlattenGeneric<T> {
    fn generate(rng: &mut Rng, depth: u32) -> Self {
        FlattenGeneric {
            q: Gen::generate(rng, depth + 1),
            extra: Gen::generate(rng, depth + 1),
        }
    }
}

/// An internally tagged newtype around `serde_json::Value` reads every
/// member beside the tag (the branch stays open); a unit and a struct
/// variant beside it stay closed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
#[serde(tag = "action")]
pub enum AnyAction {
    Stop,
    Custom(serde_json::Value),
    Go { to: String },
}

impl Gen for AnyAction {
    fn generate(rng: &mut Rng, depth: u32) -> Self {
        match rng.below(3) {
            0 => AnyAction::Stop,
            // Serialized beside a tag, the value must be an object.
            1 => AnyAction::Custom(serde_json::Value::Object(
                (0..rng.below(3))
                    .map(|i| {
                        let value = match rng.below(4) {
                            0 => serde_json::Value::from(String::generate(rng, depth + 1)),
                            1 => serde_json::Value::from(rng.below(100)),
                            2 => serde_json::Value::from(vec![String::generate(rng, depth + 1)]),
                            _ => serde_json::Value::Null,
                        };
                        (format!("k{i}"), value)
                    })
                    .collect(),
            )),
            _ => AnyAction::Go {
                to: String::generate(rng, depth + 1),
            },
        }
    }
}

/// Maps and sets whose keys serde may read the same from two texts
/// (`a/b` and `a//b` as `PathBuf`s): their entries stay distinct once read
/// (`x-toolargs-distinct`), or the call is refused.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct FileMap {
    pub files: BTreeMap<std::path::PathBuf, String>,
    pub hosts: Option<HashMap<std::net::IpAddr, u32>>,
    pub skip: BTreeSet<std::path::PathBuf>,
}
generator!(FileMap { files, hosts, skip });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct SearchPage {
    pub page: Page<Filter>,
    pub bare_page: Option<Page<Bare>>,
}
generator!(SearchPage { page, bare_page });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct TwoPages {
    pub ids: Page<u32>,
    pub names: Page<String>,
}
generator!(TwoPages { ids, names });

// ---- 7. recursion ----

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct Tree {
    pub name: String,
    pub children: Vec<Tree>,
}
generator!(Tree { name, children });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct Chain {
    pub value: u32,
    pub next: Option<Box<Chain>>,
}
generator!(Chain { value, next });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub enum Expr {
    Lit(u32),
    Neg(Box<Expr>),
    Add(Box<Expr>, Box<Expr>),
    Call { name: String, args: Vec<Expr> },
}
generator!(Expr { Lit(f0), Neg(f0), Add(f0, f1), Call { name, args } } enum);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PlainTree {
    pub label: String,
    pub kids: Vec<PlainTree>,
}
generator!(PlainTree { label, kids });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct Forest {
    pub trees: BTreeMap<String, Tree>,
    pub expr: Option<Expr>,
    pub plain: PlainTree,
}
generator!(Forest { trees, expr, plain });

// ---- 8. name clashes ----

pub mod a {
    use super::*;
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Filter {
        pub since: Option<String>,
        pub words: Vec<String>,
    }
    generator!(Filter { since, words });
}

pub mod b {
    use super::*;
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Filter {
        pub until: u32,
        #[serde(alias = "word")]
        pub text: String,
    }
    generator!(Filter { until, text });
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct Clash {
    pub a: a::Filter,
    pub b: b::Filter,
    pub list: Vec<a::Filter>,
}
generator!(Clash { a, b, list });

pub mod nested {
    use super::*;
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Shipment {
        pub sku: String,
        pub qty: u32,
    }
    generator!(Shipment { sku, qty });
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct Shipment {
    pub item: nested::Shipment,
    pub items: Vec<nested::Shipment>,
    pub note: Option<String>,
}
generator!(Shipment { item, items, note });

// ---- 9. nested types without ToolArgs ----

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Customer {
    pub name: Option<String>,
    pub tier: u8,
}
generator!(Customer { name, tier });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct LineItem {
    pub sku: String,
    pub qty: u32,
    pub tags: BTreeSet<String>,
}
generator!(LineItem { sku, qty, tags });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct Purchase {
    pub customer: Customer,
    pub lines: Vec<LineItem>,
    pub gift: Option<Customer>,
}
generator!(Purchase {
    customer,
    lines,
    gift
});

// ---- 10. transparent, newtype, tuple structs ----

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
#[serde(transparent)]
pub struct Wrapped {
    pub inner: Filter,
}
generator!(Wrapped { inner });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
/// A documented wrapper.
#[serde(transparent)]
pub struct DocWrapped {
    pub inner: Filter,
}
generator!(DocWrapped { inner });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
#[serde(transparent)]
#[schemars(inline)]
pub struct InlineWrapped {
    pub inner: Filter,
}
generator!(InlineWrapped { inner });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
#[serde(transparent)]
pub struct WrappedList {
    pub items: Vec<Bare>,
}
generator!(WrappedList { items });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct HoldsWrapped {
    pub w: Wrapped,
    pub d: Vec<DocWrapped>,
    pub i: Option<InlineWrapped>,
    pub l: WrappedList,
}
generator!(HoldsWrapped { w, d, i, l });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct NewtypeArgs(pub Leaf);
generator!(NewtypeArgs(f0));

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct PairArgs(pub String, pub Vec<u32>);
generator!(PairArgs(f0, f1));

// ---- 11. `#[serde(with = "Type")]` ----

#[derive(Debug, Clone, PartialEq)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(remote = "Span")]
pub struct SpanDef {
    pub start: u32,
    pub end: u32,
}

impl Gen for Span {
    fn generate(rng: &mut Rng, depth: u32) -> Self {
        Span {
            start: Gen::generate(rng, depth + 1),
            end: Gen::generate(rng, depth + 1),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Level {
    Low,
    High(u32),
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(remote = "Level", rename_all = "lowercase")]
pub enum LevelDef {
    Low,
    High(u32),
}

impl Gen for Level {
    fn generate(rng: &mut Rng, depth: u32) -> Self {
        if rng.chance(50) {
            Level::Low
        } else {
            Level::High(Gen::generate(rng, depth + 1))
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct WithRemote {
    #[serde(with = "SpanDef")]
    pub span: Span,
    #[serde(with = "LevelDef")]
    pub level: Level,
    pub label: String,
}
generator!(WithRemote { span, level, label });

// ---- 12. deny_unknown_fields, everything together ----

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
#[serde(deny_unknown_fields)]
pub struct Strict {
    pub tags: Vec<String>,
    pub leaf: Option<Leaf>,
}
generator!(Strict { tags, leaf });

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
pub struct Everything {
    pub lists: Lists,
    pub tree: Option<Box<Tree>>,
    pub external: Vec<External>,
    pub internal: Option<Internal>,
    pub page: Page<Leaf>,
    pub flattened: Option<Flattened>,
    pub clash: Option<Clash>,
}
generator!(Everything {
    lists,
    tree,
    external,
    internal,
    page,
    flattened,
    clash
});

/// Every type of the suite, as `test_name: Type[, unions ...][, aliases ...];`
/// items passed to the macro `$m` (the test binaries build their tests from
/// it). `unions` are the pointers of untagged enum values in the type,
/// `aliases` its declared `(name, alias)` pairs of object keys.
macro_rules! contract_types {
    ($m:ident) => {
        $m! {
            leaf: Leaf;
            filter: Filter;
            search_args: SearchArgs;
            scalars: Scalars;
            optionals: Optionals;
            lists: Lists;
            arrays: Arrays;
            boxed_slices: BoxedSlices;
            tuples: Tuples;
            sets: Sets;
            maps: Maps;
            shards: Shards;
            number_keys: NumberKeys;
            map_of_lists: MapOfLists;
            boxes: Boxes;
            no_args: NoArgs;
            opt_nested: OptNested;
            renamed: Renamed;
            kebab: Kebab;
            aliased: Aliased, aliases &[("query", "q"), ("tags", "labels"), ("tags", "tag_list"), ("filter", "f")];
            alias_required: AliasRequired, aliases &[("customer", "who"), ("lines", "items")];
            aliased_nested: AliasedNested, aliases &[("query", "q"), ("tags", "labels")];
            defaults: Defaults;
            skipped: Skipped;
            skip_deserializing: SkipDeserializing;
            struct_default: StructDefault;
            flattened: Flattened;
            flatten_aliased: FlattenAliased, aliases &[("query", "q"), ("tags", "labels")];
            flatten_two: FlattenTwo;
            flatten_map: FlattenMap;
            flatten_map_of_structs: FlattenMapOfStructs;
            flatten_optional: FlattenOptional, aliases &[("hi", "high")];
            flatten_optional_tagged: FlattenOptionalTagged;
            flatten_optional_map: FlattenOptionalMap;
            flatten_newtype: FlattenNewtype;
            notify: Notify, aliases &[("copy", "copy_to")];
            notify_external: NotifyExternal;
            shape: Shape;
            drawing: Drawing;
            external: External;
            internal: Internal;
            cmd: Cmd;
            adjacent: Adjacent;
            untagged: Untagged, unions &[""];
            job: Job;
            action: Action, aliases &[("tags", "labels"), ("ping", "poke"), ("archive", "store")];
            internal_aliased: InternalAliased, aliases &[("newPlace", "to"), ("Delete", "remove")];
            adjacent_renamed: AdjacentRenamed;
            enum_fields: EnumFields, unions &["/u"];
            shape_unions: ShapeUnions, unions &["/either", "/with_speed"];
            shadowed_unions: ShadowedUnions, unions &["/reach", "/around", "/pick", "/bag"];
            paced: Paced;
            pacing: Pacing;
            page_of_filters: Page<Filter>, aliases &[("items", "results")];
            page_of_numbers: Page<u32>, aliases &[("items", "results")];
            page_of_strings: Page<String>, aliases &[("items", "results")];
            page_of_bare: Page<Bare>, aliases &[("items", "results")];
            search_page: SearchPage, aliases &[("items", "results")];
            two_pages: TwoPages, aliases &[("items", "results")];
            envelope_of_search: Envelope<SearchArgs>;
            envelope_of_bare: Envelope<Bare>;
            envelope_of_shape: Envelope<Shape>;
            flatten_generic_window: FlattenGeneric<Window>;
            flatten_generic_tail: FlattenGeneric<Tail>;
            file_map: FileMap;
            any_action: AnyAction;
            tree: Tree;
            chain: Chain;
            expr: Expr;
            forest: Forest;
            clash: Clash, aliases &[("text", "word")];
            b_filter: b::Filter, aliases &[("text", "word")];
            shipment: Shipment;
            purchase: Purchase;
            wrapped: Wrapped;
            doc_wrapped: DocWrapped;
            inline_wrapped: InlineWrapped;
            wrapped_list: WrappedList;
            holds_wrapped: HoldsWrapped;
            newtype_args: NewtypeArgs;
            pair_args: PairArgs;
            with_remote: WithRemote;
            strict: Strict;
            everything: Everything, aliases &[("items", "results"), ("text", "word")];
        }
    };
}
pub(crate) use contract_types;

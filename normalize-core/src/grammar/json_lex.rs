//! Lexemes of minified JSON text: strings (any, length-bounded, or matching a
//! pattern), numbers, and the literal text of fixed values.

use super::charset::CharSet;
use super::ir::Lex;
use serde_json::Value;

/// Characters a JSON string may hold unescaped (RFC 8259: all but `"`, `\`
/// and U+0000..U+001F).
fn unescaped() -> CharSet {
    CharSet::from_ranges([(0x20, 0x21), (0x23, 0x5B), (0x5D, super::charset::MAX_CHAR)])
}

fn hex_digit() -> Lex {
    Lex::class(CharSet::from_ranges([
        (0x30, 0x39),
        (0x41, 0x46),
        (0x61, 0x66),
    ]))
}

/// One character of a JSON string, written any way RFC 8259 allows; with
/// `counted`, `\uXXXX` escapes of UTF-16 surrogates are left out, so that
/// every written character is one character of the value (a character
/// beyond U+FFFF is then written as itself, as `serde_json` writes it).
fn string_char(counted: bool) -> Lex {
    let short = CharSet::from_ranges(
        ['"', '\\', '/', 'b', 'f', 'n', 'r', 't']
            .map(|c| (c as u32, c as u32))
            .to_vec(),
    );
    let code_unit = if counted {
        let hex = |ranges: &[(u8, u8)]| {
            Lex::class(CharSet::from_ranges(
                ranges
                    .iter()
                    .map(|&(lo, hi)| (u32::from(lo), u32::from(hi))),
            ))
        };
        Lex::alt([
            Lex::seq([
                hex(&[
                    (b'0', b'9'),
                    (b'A', b'C'),
                    (b'a', b'c'),
                    (b'E', b'F'),
                    (b'e', b'f'),
                ]),
                Lex::repeat(hex_digit(), 3, Some(3)),
            ]),
            Lex::seq([
                hex(&[(b'D', b'D'), (b'd', b'd')]),
                hex(&[(b'0', b'7')]),
                Lex::repeat(hex_digit(), 2, Some(2)),
            ]),
        ])
    } else {
        Lex::repeat(hex_digit(), 4, Some(4))
    };
    Lex::alt([
        Lex::class(unescaped()),
        Lex::seq([
            Lex::lit("\\"),
            Lex::alt([Lex::class(short), Lex::seq([Lex::lit("u"), code_unit])]),
        ]),
    ])
}

/// A JSON string of `min` to `max` characters. Without bounds any string
/// is admitted; with bounds, each written character (an escape counts as
/// one) is one character of the value, so surrogate-pair escapes are not
/// admitted.
pub(crate) fn string(min: u32, max: Option<u32>) -> Lex {
    let counted = min > 0 || max.is_some();
    Lex::seq([
        Lex::lit("\""),
        Lex::repeat(string_char(counted), min, max),
        Lex::lit("\""),
    ])
}

/// A JSON string whose decoded value matches `decoded` (a [`Lex`] over
/// decoded characters, from a pattern). Each character is admitted in the
/// form `serde_json` writes it: literally, or `\"`, `\\`, `\b`, `\f`, `\n`,
/// `\r`, `\t`, `\u00xx` for the other control characters.
pub(crate) fn pattern_string(decoded: &Lex) -> Lex {
    Lex::seq([Lex::lit("\""), encode(decoded), Lex::lit("\"")])
}

fn encode(decoded: &Lex) -> Lex {
    match decoded {
        Lex::Lit(text) => Lex::lit(escape_text(text)),
        Lex::Class(set) => {
            let mut branches = vec![Lex::class(set.intersect(&unescaped()))];
            let special = set.minus(&unescaped());
            for c in special.chars() {
                branches.push(Lex::lit(escape_text(&c.to_string())));
            }
            Lex::alt(branches)
        }
        Lex::Seq(parts) => Lex::seq(parts.iter().map(encode)),
        Lex::Alt(branches) => Lex::alt(branches.iter().map(encode)),
        Lex::Repeat(item, min, max) => Lex::repeat(encode(item), *min, *max),
    }
}

/// The longest declared name [`key_except`] keeps extra member names apart
/// from. The lexeme nests one level per character of a name, and every
/// consumer (printers, engines) walks that nesting recursively, so a longer
/// name is left to the validator (and reported) rather than risk the stack.
pub(crate) const MAX_EXCLUDED_NAME: usize = 128;

/// A JSON object key, written the way `serde_json` writes it, whose value is
/// none of `names` (each at most [`MAX_EXCLUDED_NAME`] characters): the name
/// of an extra member of an open object, which must not reuse a declared
/// name with another schema.
///
/// Writing keys in one canonical form is what makes the exclusion exact: a
/// key has exactly one text, so excluding the texts of the declared names
/// excludes their values (`"v\u0065nue"` is not a second way to write
/// `venue`). The decoded-level language "any string but these" is the
/// complement of the names' trie: at each trie node the key may end (unless
/// a name ends there), continue into a child, or continue with any other
/// character followed by anything.
pub(crate) fn key_except(names: &[&str]) -> Lex {
    let names: Vec<Vec<char>> = names.iter().map(|n| n.chars().collect()).collect();
    let suffixes: Vec<&[char]> = names.iter().map(Vec::as_slice).collect();
    let anything = Lex::repeat(canonical_char(&CharSet::any()), 0, None);
    Lex::seq([
        Lex::lit("\""),
        none_of(&suffixes, &anything),
        Lex::lit("\""),
    ])
}

/// Decoded strings (written canonically) that are none of `suffixes`.
fn none_of(suffixes: &[&[char]], anything: &Lex) -> Lex {
    let mut children: std::collections::BTreeMap<char, Vec<&[char]>> = Default::default();
    let mut ends_here = false;
    for suffix in suffixes {
        match suffix.split_first() {
            None => ends_here = true,
            Some((first, rest)) => children.entry(*first).or_default().push(rest),
        }
    }
    let mut branches = Vec::with_capacity(children.len() + 2);
    if !ends_here {
        branches.push(Lex::empty());
    }
    let taken = CharSet::from_ranges(children.keys().map(|&c| (c as u32, c as u32)));
    for (c, rest) in &children {
        branches.push(Lex::seq([
            Lex::lit(escape_text(&c.to_string())),
            none_of(rest, anything),
        ]));
    }
    branches.push(Lex::seq([
        canonical_char(&CharSet::any().minus(&taken)),
        anything.clone(),
    ]));
    Lex::alt(branches)
}

/// One character of `set` as `serde_json` writes it inside a string. The
/// full set of escaped characters gets a compact form (`\"`, `\\`, the five
/// short escapes, `\u00xx` for the other controls); a partial set lists its
/// escapes.
fn canonical_char(set: &CharSet) -> Lex {
    let plain = Lex::class(set.intersect(&unescaped()));
    let special = set.minus(&unescaped());
    if special == unescaped().complement() {
        let hex = |chars: &str| {
            Lex::class(CharSet::from_ranges(
                chars.chars().map(|c| (c as u32, c as u32)),
            ))
        };
        let escape = Lex::seq([
            Lex::lit("\\"),
            Lex::alt([
                hex("\"\\bfnrt"),
                Lex::seq([
                    Lex::lit("u00"),
                    Lex::alt([
                        Lex::seq([Lex::lit("0"), hex("01234567bef")]),
                        Lex::seq([Lex::lit("1"), hex("0123456789abcdef")]),
                    ]),
                ]),
            ]),
        ]);
        Lex::alt([plain, escape])
    } else {
        let escapes = special
            .chars()
            .map(|c| Lex::lit(escape_text(&c.to_string())));
        Lex::alt(std::iter::once(plain).chain(escapes))
    }
}

/// The inside of a JSON string literal for `text`, escaped as `serde_json`
/// escapes it.
pub(crate) fn escape_text(text: &str) -> String {
    let quoted = serde_json::to_string(text).unwrap_or_default();
    quoted[1..quoted.len() - 1].to_owned()
}

/// A JSON integer without fraction or exponent (`-0` included).
pub(crate) fn integer() -> Lex {
    let digit = Lex::class(CharSet::from_ranges([(0x30, 0x39)]));
    let nonzero = Lex::class(CharSet::from_ranges([(0x31, 0x39)]));
    Lex::seq([
        Lex::repeat(Lex::lit("-"), 0, Some(1)),
        Lex::alt([
            Lex::lit("0"),
            Lex::seq([nonzero, Lex::repeat(digit, 0, None)]),
        ]),
    ])
}

/// Any JSON number (RFC 8259 grammar).
pub(crate) fn number() -> Lex {
    let digit = || Lex::class(CharSet::from_ranges([(0x30, 0x39)]));
    let sign = Lex::class(CharSet::from_ranges([(0x2B, 0x2B), (0x2D, 0x2D)]));
    Lex::seq([
        integer(),
        Lex::repeat(
            Lex::seq([Lex::lit("."), Lex::repeat(digit(), 1, None)]),
            0,
            Some(1),
        ),
        Lex::repeat(
            Lex::seq([
                Lex::class(CharSet::from_ranges([(0x45, 0x45), (0x65, 0x65)])),
                Lex::repeat(sign, 0, Some(1)),
                Lex::repeat(digit(), 1, None),
            ]),
            0,
            Some(1),
        ),
    ])
}

/// The minified JSON text of a fixed value (`enum` member, `const`, tool
/// name), as `serde_json` writes it.
pub(crate) fn literal(value: &Value) -> Lex {
    Lex::lit(value.to_string())
}

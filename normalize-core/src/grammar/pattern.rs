//! The subset of ECMA-262 regular expressions (JSON Schema's `pattern`
//! dialect, with Unicode semantics) that a grammar can enforce, parsed into a
//! [`Lex`] over the *decoded* characters of a string.
//!
//! Supported: literals, `.`, classes (`[a-z]`, `[^...]`), the escapes `\d \D
//! \w \W \s \S \t \n \r \f \v \0 \xHH \uHHHH \u{H...}` and escaped syntax
//! characters, groups (`(...)`, `(?:...)`, `(?<name>...)`), alternation, the
//! quantifiers `* + ? {n} {n,} {n,m}` (lazy forms too: the language is the
//! same), and `^`/`$` at the start/end of a top-level alternative. JSON
//! Schema patterns are not anchored: a side without an anchor matches any
//! text there.
//!
//! Anything else (back-references, look-around, `\b`, `\p{...}`, anchors in
//! the middle, a `{` that is not a quantifier, counts above
//! [`MAX_REPEAT`]) is refused with the reason, and the caller reports the
//! pattern as not enforced.

use super::charset::CharSet;
use super::ir::Lex;

/// The largest repetition count accepted in a pattern; larger counts would
/// make grammars that engines expand into huge rule sets.
pub const MAX_REPEAT: u32 = 1000;

/// Parses `pattern`, or says why it is outside the supported subset.
pub(crate) fn parse(pattern: &str) -> Result<Lex, String> {
    let mut parser = Parser {
        chars: pattern.chars().collect(),
        pos: 0,
    };
    let lex = parser.alternation(true)?;
    if parser.pos < parser.chars.len() {
        return Err(format!("unbalanced `{}`", parser.chars[parser.pos]));
    }
    Ok(lex)
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
}

fn any_text() -> Lex {
    Lex::repeat(Lex::class(CharSet::any()), 0, None)
}

fn digits() -> CharSet {
    CharSet::from_ranges([(0x30, 0x39)])
}

fn word() -> CharSet {
    CharSet::from_ranges([(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)])
}

/// ECMA-262 `WhiteSpace` and `LineTerminator`.
fn space() -> CharSet {
    CharSet::from_ranges([
        (0x09, 0x0D),
        (0x20, 0x20),
        (0xA0, 0xA0),
        (0x1680, 0x1680),
        (0x2000, 0x200A),
        (0x2028, 0x2029),
        (0x202F, 0x202F),
        (0x205F, 0x205F),
        (0x3000, 0x3000),
        (0xFEFF, 0xFEFF),
    ])
}

/// What `.` matches: everything but line terminators.
fn dot() -> CharSet {
    CharSet::from_ranges([(0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029)]).complement()
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, offset: usize) -> Option<char> {
        self.chars.get(self.pos + offset).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn alternation(&mut self, top: bool) -> Result<Lex, String> {
        let mut branches = vec![self.sequence(top)?];
        while self.eat('|') {
            branches.push(self.sequence(top)?);
        }
        Ok(Lex::alt(branches))
    }

    fn sequence(&mut self, top: bool) -> Result<Lex, String> {
        let anchored_start = top && self.eat('^');
        let mut parts = Vec::new();
        let mut anchored_end = false;
        while let Some(c) = self.peek() {
            match c {
                '|' | ')' => break,
                '$' if top && matches!(self.peek_at(1), None | Some('|')) => {
                    self.pos += 1;
                    anchored_end = true;
                    break;
                }
                '^' | '$' => return Err(format!("anchor `{c}` inside the pattern")),
                _ => {
                    let atom = self.atom()?;
                    let quantified = self.quantifier(atom)?;
                    parts.push(quantified);
                }
            }
        }
        if top && !anchored_start {
            parts.insert(0, any_text());
        }
        if top && !anchored_end {
            parts.push(any_text());
        }
        Ok(Lex::seq(parts))
    }

    fn quantifier(&mut self, atom: Lex) -> Result<Lex, String> {
        let (min, max) = match self.peek() {
            Some('*') => {
                self.pos += 1;
                (0, None)
            }
            Some('+') => {
                self.pos += 1;
                (1, None)
            }
            Some('?') => {
                self.pos += 1;
                (0, Some(1))
            }
            Some('{') => self.braces()?,
            _ => return Ok(atom),
        };
        // A lazy quantifier matches the same language.
        self.eat('?');
        if matches!(self.peek(), Some('*' | '+' | '?' | '{')) {
            return Err("a quantifier follows a quantifier".into());
        }
        if min > MAX_REPEAT || max.is_some_and(|m| m > MAX_REPEAT) {
            return Err(format!("a repetition count above {MAX_REPEAT}"));
        }
        if max.is_some_and(|m| m < min) {
            return Err("a repetition range out of order".into());
        }
        Ok(Lex::repeat(atom, min, max))
    }

    fn braces(&mut self) -> Result<(u32, Option<u32>), String> {
        self.pos += 1;
        let min = self
            .number()
            .ok_or("a `{` that does not start a quantifier")?;
        let max = if self.eat(',') {
            if self.peek() == Some('}') {
                None
            } else {
                Some(
                    self.number()
                        .ok_or("a `{` that does not start a quantifier")?,
                )
            }
        } else {
            Some(min)
        };
        if !self.eat('}') {
            return Err("a `{` that does not start a quantifier".into());
        }
        Ok((min, max))
    }

    fn number(&mut self) -> Option<u32> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        if start == self.pos {
            return None;
        }
        let text: String = self.chars[start..self.pos].iter().collect();
        // Counts too large for u32 are certainly above MAX_REPEAT.
        Some(text.parse().unwrap_or(u32::MAX))
    }

    fn atom(&mut self) -> Result<Lex, String> {
        let Some(c) = self.peek() else {
            return Err("unexpected end".into());
        };
        self.pos += 1;
        match c {
            '.' => Ok(Lex::class(dot())),
            '[' => self.class().map(Lex::class),
            '(' => {
                if self.eat('?') {
                    if self.eat(':') {
                        // non-capturing group
                    } else if self.peek() == Some('<')
                        && !matches!(self.peek_at(1), Some('=' | '!'))
                    {
                        while let Some(n) = self.peek() {
                            self.pos += 1;
                            if n == '>' {
                                break;
                            }
                        }
                    } else {
                        return Err("look-around or an inline flag group".into());
                    }
                }
                let inner = self.alternation(false)?;
                if !self.eat(')') {
                    return Err("an unclosed group".into());
                }
                Ok(inner)
            }
            ')' => Err("unbalanced `)`".into()),
            '*' | '+' | '?' => Err(format!("a quantifier `{c}` with nothing to repeat")),
            '{' => Err("a `{` that does not start a quantifier".into()),
            '\\' => self.escape(false).map(Lex::class),
            c => Ok(Lex::class(CharSet::single(c))),
        }
    }

    /// After a `\`: the set the escape stands for.
    fn escape(&mut self, in_class: bool) -> Result<CharSet, String> {
        let Some(c) = self.peek() else {
            return Err("a trailing `\\`".into());
        };
        self.pos += 1;
        let single = |c: char| Ok(CharSet::single(c));
        match c {
            'd' => Ok(digits()),
            'D' => Ok(digits().complement()),
            'w' => Ok(word()),
            'W' => Ok(word().complement()),
            's' => Ok(space()),
            'S' => Ok(space().complement()),
            't' => single('\t'),
            'n' => single('\n'),
            'r' => single('\r'),
            'f' => single('\u{0C}'),
            'v' => single('\u{0B}'),
            'b' if in_class => single('\u{08}'),
            '0' if !self.peek().is_some_and(|d| d.is_ascii_digit()) => single('\0'),
            'x' => self.hex(2).map(CharSet::single),
            'u' => {
                if self.eat('{') {
                    let start = self.pos;
                    while self.peek().is_some_and(|d| d.is_ascii_hexdigit()) {
                        self.pos += 1;
                    }
                    let text: String = self.chars[start..self.pos].iter().collect();
                    if !self.eat('}') {
                        return Err("a malformed `\\u{...}` escape".into());
                    }
                    u32::from_str_radix(&text, 16)
                        .ok()
                        .and_then(char::from_u32)
                        .map(CharSet::single)
                        .ok_or_else(|| "a malformed `\\u{...}` escape".into())
                } else {
                    self.hex(4).map(CharSet::single)
                }
            }
            '^' | '$' | '\\' | '.' | '*' | '+' | '?' | '(' | ')' | '[' | ']' | '{' | '}' | '|'
            | '/' | '-' => single(c),
            'b' | 'B' => Err(format!("the word-boundary assertion `\\{c}`")),
            '1'..='9' | 'k' => Err("a back-reference".into()),
            'p' | 'P' => Err(format!("the Unicode property escape `\\{c}{{...}}`")),
            'c' => Err("a control escape `\\c`".into()),
            other => Err(format!("the escape `\\{other}`")),
        }
    }

    fn hex(&mut self, len: usize) -> Result<char, String> {
        let text: String = self.chars.iter().skip(self.pos).take(len).collect();
        if text.len() != len || !text.chars().all(|d| d.is_ascii_hexdigit()) {
            return Err("a malformed hexadecimal escape".into());
        }
        self.pos += len;
        let value = u32::from_str_radix(&text, 16).map_err(|e| e.to_string())?;
        char::from_u32(value).ok_or_else(|| "an escape naming a lone surrogate".into())
    }

    /// After `[`: the class's set.
    fn class(&mut self) -> Result<CharSet, String> {
        let negated = self.eat('^');
        let mut set = CharSet::empty();
        loop {
            let Some(c) = self.peek() else {
                return Err("an unclosed `[`".into());
            };
            // `]` closes even right after `[`: `[]` matches nothing and
            // `[^]` anything in ECMA-262.
            if c == ']' {
                self.pos += 1;
                break;
            }
            let lo = self.class_atom()?;
            if self.peek() == Some('-') && !matches!(self.peek_at(1), Some(']') | None) {
                self.pos += 1;
                let hi = self.class_atom()?;
                match (lo.as_single(), hi.as_single()) {
                    (Some(lo), Some(hi)) if lo <= hi => {
                        set = set.union(&CharSet::from_ranges([(lo as u32, hi as u32)]));
                    }
                    (Some(_), Some(_)) => return Err("a class range out of order".into()),
                    _ => return Err("a class range with a class escape as an end".into()),
                }
            } else {
                set = set.union(&lo);
            }
        }
        Ok(if negated { set.complement() } else { set })
    }

    fn class_atom(&mut self) -> Result<CharSet, String> {
        let Some(c) = self.peek() else {
            return Err("an unclosed `[`".into());
        };
        self.pos += 1;
        if c == '\\' {
            self.escape(true)
        } else {
            Ok(CharSet::single(c))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_supported_subset() {
        let lex = parse("^ord_[0-9]{6}$").unwrap();
        assert_eq!(
            lex,
            Lex::seq([
                Lex::lit("ord_"),
                Lex::repeat(Lex::class(digits()), 6, Some(6))
            ])
        );
        assert!(parse("^(?:a|b)+c?$").is_ok());
        assert!(parse("^[^\\s@]+@[\\w.-]+$").is_ok());
        assert!(parse("ab").is_ok());
    }

    #[test]
    fn refuses_what_it_cannot_enforce() {
        for (pattern, why) in [
            ("^(a)\\1$", "back-reference"),
            ("^(?=a)a$", "look-around"),
            ("^\\bword$", "word-boundary"),
            ("^\\p{L}+$", "property"),
            ("^a$b", "anchor"),
            ("^a{2000}$", "above"),
            ("^a{,3}$", "quantifier"),
            ("^(a", "unclosed"),
        ] {
            let err = parse(pattern).unwrap_err();
            assert!(err.contains(why), "{pattern}: {err}");
        }
    }
}

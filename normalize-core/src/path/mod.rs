//! Locations in the arguments: `Path`, kept on the stack while walking
//! (`walk.rs`, for the normalizer and generated code only), and [`Pointer`],
//! the JSON pointer (RFC 6901) a repair is recorded at.
//!
//! A walk visits every location but records only a few, and the locations it
//! records share their prefixes (a repair at every level of a value nested
//! 10,000 deep). So a path allocates nothing until something is recorded
//! under it, and then each of its levels becomes one shared link of a
//! pointer, once: recording costs O(1) per level however deep, and a
//! pointer's text is rendered only when someone reads it.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Cow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

pub(crate) mod walk;

pub(crate) use walk::Path;

/// One step from a container to a member.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Segment<'a> {
    /// A member of an object.
    Key(&'a str),
    /// An element of an array.
    Index(usize),
}

/// A JSON pointer (RFC 6901) to a location in an arguments value: where a
/// repair was made.
///
/// Pointers taken while walking share their prefixes (each is one link onto
/// its parent's), so a report of a repair at every level of a value nested
/// `n` deep holds `n` links, not `n²` characters. The text is rendered when
/// asked for ([`fmt::Display`], so `to_string`, and serialization) and the
/// pointer compares, hashes and serializes as that text: `/tags/0` is the
/// same pointer however it was built, and equals the string `"/tags/0"`.
///
/// ```
/// use toolargs_core::path::Pointer;
///
/// let tags = Pointer::root().key("tags");
/// let first = tags.index(0);
/// assert_eq!(first, "/tags/0");
/// assert_eq!(first.to_string(), "/tags/0");
/// assert_eq!("/tags/0".parse::<Pointer>()?, first);
/// assert_eq!(Pointer::root().key("a/b~c").to_string(), "/a~1b~0c");
/// # Ok::<(), toolargs_core::path::PointerError>(())
/// ```
#[derive(Clone, Default)]
pub struct Pointer(Option<Arc<Link>>);

/// One level of a pointer: its parent's pointer and one reference token.
struct Link {
    parent: Pointer,
    token: Token,
    /// Number of tokens from the root to this one (1 for `/a`).
    depth: usize,
}

/// A reference token: an index is kept as a number until rendered, a short
/// key inside the link (recording a repair at a field costs the link's one
/// allocation, not two).
enum Token {
    Short { len: u8, bytes: [u8; SHORT] },
    Key(Box<str>),
    Index(usize),
}

/// Longest key kept inside its link.
const SHORT: usize = 22;

/// Room for the decimal digits of any `usize`.
pub(crate) type Digits = [u8; 20];

impl Token {
    /// The token's text (unescaped), an index written into `digits`.
    fn text<'t>(&'t self, digits: &'t mut Digits) -> &'t str {
        match self {
            Token::Index(index) => index_text(*index, digits),
            Token::Short { .. } | Token::Key(_) => self.key(),
        }
    }

    /// The text of a key token (empty for an index).
    fn key(&self) -> &str {
        match self {
            // Copied from a `&str` whole, so always UTF-8.
            Token::Short { len, bytes } => {
                std::str::from_utf8(&bytes[..usize::from(*len)]).unwrap_or_default()
            }
            Token::Key(key) => key,
            Token::Index(_) => "",
        }
    }

    fn cow(&self) -> Cow<'_, str> {
        match self {
            Token::Index(index) => Cow::Owned(index.to_string()),
            key => Cow::Borrowed(key.key()),
        }
    }
}

/// Writes `index` in decimal into `digits` without allocating.
pub(crate) fn index_text(mut index: usize, digits: &mut Digits) -> &str {
    let mut start = digits.len();
    loop {
        start -= 1;
        // `index % 10` is a single digit.
        digits[start] = b'0' + (index % 10) as u8;
        index /= 10;
        if index == 0 {
            break;
        }
    }
    std::str::from_utf8(&digits[start..]).unwrap_or("")
}

/// Why a text is not a JSON pointer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PointerError {
    /// A non-empty pointer must start with `/`.
    #[error("a JSON pointer is empty or starts with `/`, found `{found}`")]
    NoLeadingSlash {
        /// The first character found.
        found: char,
    },
    /// `~` must be followed by `0` (for `~`) or `1` (for `/`).
    #[error("`~` at byte {offset} of a JSON pointer is not followed by `0` or `1`")]
    BadEscape {
        /// Byte offset of the `~`.
        offset: usize,
    },
}

impl Pointer {
    /// The pointer to the whole value (`""`).
    pub const fn root() -> Pointer {
        Pointer(None)
    }

    /// Whether this is the pointer to the whole value.
    pub fn is_root(&self) -> bool {
        self.0.is_none()
    }

    /// Number of reference tokens (0 for the root).
    pub fn depth(&self) -> usize {
        self.0.as_ref().map_or(0, |link| link.depth)
    }

    /// The pointer one level up (`None` for the root). Shares this pointer's
    /// prefix, without copying.
    pub fn parent(&self) -> Option<&Pointer> {
        self.0.as_ref().map(|link| &link.parent)
    }

    /// The last reference token, unescaped (`None` for the root).
    pub fn last(&self) -> Option<Cow<'_, str>> {
        self.0.as_ref().map(|link| link.token.cow())
    }

    /// The pointer to member `key` of the object this pointer designates.
    #[must_use]
    pub fn key(&self, key: &str) -> Pointer {
        let token = match u8::try_from(key.len()) {
            Ok(len) if key.len() <= SHORT => {
                let mut bytes = [0; SHORT];
                bytes[..key.len()].copy_from_slice(key.as_bytes());
                Token::Short { len, bytes }
            }
            _ => Token::Key(key.into()),
        };
        self.link(token)
    }

    /// The pointer to element `index` of the array this pointer designates.
    #[must_use]
    pub fn index(&self, index: usize) -> Pointer {
        self.link(Token::Index(index))
    }

    pub(crate) fn child(&self, segment: Segment<'_>) -> Pointer {
        match segment {
            Segment::Key(key) => self.key(key),
            Segment::Index(index) => self.index(index),
        }
    }

    fn link(&self, token: Token) -> Pointer {
        Pointer(Some(Arc::new(Link {
            parent: self.clone(),
            token,
            depth: self.depth() + 1,
        })))
    }

    /// Parses a pointer's text (RFC 6901: empty, or `/`-separated tokens
    /// with `~0` for `~` and `~1` for `/`).
    ///
    /// # Errors
    ///
    /// [`PointerError`] when `text` is not a JSON pointer.
    pub fn parse(text: &str) -> Result<Pointer, PointerError> {
        let Some(rest) = text.strip_prefix('/') else {
            return match text.chars().next() {
                None => Ok(Pointer::root()),
                Some(found) => Err(PointerError::NoLeadingSlash { found }),
            };
        };
        let mut pointer = Pointer::root();
        let mut offset = 1;
        for raw in rest.split('/') {
            let token = unescape_token(raw).map_err(|at| PointerError::BadEscape {
                offset: offset + at,
            })?;
            pointer = pointer.key(&token);
            offset += raw.len() + 1;
        }
        Ok(pointer)
    }

    /// The reference tokens, unescaped, from the root down.
    pub fn tokens(&self) -> Vec<Cow<'_, str>> {
        let mut tokens: Vec<Cow<'_, str>> = self.links().map(|link| link.token.cow()).collect();
        tokens.reverse();
        tokens
    }

    /// The links from this pointer's last token up to its first.
    fn links(&self) -> impl Iterator<Item = &Link> {
        let mut next = self.0.as_deref();
        std::iter::from_fn(move || {
            let link = next?;
            next = link.parent.0.as_deref();
            Some(link)
        })
    }

    /// An address identifying this pointer's last link while it is alive
    /// (`None` for the root): pointers with the same address are the same
    /// pointer, and share every link above it.
    pub(crate) fn link_address(&self) -> Option<usize> {
        self.0.as_ref().map(|link| Arc::as_ptr(link) as usize)
    }

    /// This pointer's last token, unescaped, an index written into `digits`.
    pub(crate) fn last_text<'t>(&'t self, digits: &'t mut Digits) -> Option<&'t str> {
        self.0.as_deref().map(|link| link.token.text(digits))
    }
}

/// Unescapes one reference token; the error is the offset of a bad `~`.
fn unescape_token(raw: &str) -> Result<Cow<'_, str>, usize> {
    if !raw.contains('~') {
        return Ok(Cow::Borrowed(raw));
    }
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.char_indices();
    while let Some((at, c)) = chars.next() {
        if c != '~' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some((_, '0')) => out.push('~'),
            Some((_, '1')) => out.push('/'),
            _ => return Err(at),
        }
    }
    Ok(Cow::Owned(out))
}

impl Drop for Link {
    fn drop(&mut self) {
        // Unlink the chain one level at a time: the default drop would
        // recurse once per level of a pointer that may be any depth.
        let mut next = self.parent.0.take();
        while let Some(link) = next {
            next = Arc::into_inner(link).and_then(|mut link| link.parent.0.take());
        }
    }
}

impl fmt::Display for Pointer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let links: Vec<&Link> = self.links().collect();
        let mut digits = Digits::default();
        for link in links.iter().rev() {
            f.write_str("/")?;
            write_token(f, link.token.text(&mut digits))?;
        }
        Ok(())
    }
}

impl fmt::Debug for Pointer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Pointer(\"{self}\")")
    }
}

impl PartialEq for Pointer {
    fn eq(&self, other: &Pointer) -> bool {
        if self.depth() != other.depth() {
            return false;
        }
        let (mut mine, mut theirs) = (Digits::default(), Digits::default());
        for (a, b) in self.links().zip(other.links()) {
            if std::ptr::eq(a, b) {
                return true;
            }
            if a.token.text(&mut mine) != b.token.text(&mut theirs) {
                return false;
            }
        }
        true
    }
}

impl Eq for Pointer {}

impl Hash for Pointer {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_usize(self.depth());
        let mut digits = Digits::default();
        for link in self.links() {
            link.token.text(&mut digits).hash(state);
        }
    }
}

impl PartialEq<str> for Pointer {
    /// Compares with a pointer's text token by token, from the last,
    /// without rendering this pointer.
    fn eq(&self, other: &str) -> bool {
        let mut rest = other;
        let mut digits = Digits::default();
        for link in self.links() {
            let Some((before, raw)) = rest.rsplit_once('/') else {
                return false;
            };
            if unescape_token(raw).ok().as_deref() != Some(link.token.text(&mut digits)) {
                return false;
            }
            rest = before;
        }
        rest.is_empty()
    }
}

impl PartialEq<&str> for Pointer {
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

impl PartialEq<String> for Pointer {
    fn eq(&self, other: &String) -> bool {
        *self == **other
    }
}

impl PartialEq<Pointer> for str {
    fn eq(&self, other: &Pointer) -> bool {
        other == self
    }
}

impl PartialEq<Pointer> for &str {
    fn eq(&self, other: &Pointer) -> bool {
        other == *self
    }
}

impl PartialEq<Pointer> for String {
    fn eq(&self, other: &Pointer) -> bool {
        other == self
    }
}

impl std::str::FromStr for Pointer {
    type Err = PointerError;

    fn from_str(text: &str) -> Result<Pointer, PointerError> {
        Pointer::parse(text)
    }
}

impl TryFrom<&str> for Pointer {
    type Error = PointerError;

    fn try_from(text: &str) -> Result<Pointer, PointerError> {
        Pointer::parse(text)
    }
}

impl From<&Pointer> for String {
    fn from(pointer: &Pointer) -> String {
        pointer.to_string()
    }
}

impl Serialize for Pointer {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Pointer {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Pointer, D::Error> {
        let text = String::deserialize(deserializer)?;
        Pointer::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// Writes one JSON pointer reference token, escaping `~` as `~0` and `/` as `~1`.
pub fn write_token(out: &mut impl fmt::Write, token: &str) -> fmt::Result {
    let mut rest = token;
    while let Some(i) = rest.find(['~', '/']) {
        out.write_str(&rest[..i])?;
        out.write_str(if rest.as_bytes()[i] == b'~' {
            "~0"
        } else {
            "~1"
        })?;
        rest = &rest[i + 1..];
    }
    out.write_str(rest)
}

/// A serde path (`a.b[0]`) as a JSON pointer (`/a/b/0`).
pub(crate) fn pointer_of(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut pointer = String::new();
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => {
                pointer.push('/');
                pointer.push_str(&index.to_string());
            }
            Segment::Map { key } => {
                pointer.push('/');
                let _ = write_token(&mut pointer, key);
            }
            // An externally tagged variant is a member of the JSON object.
            Segment::Enum { variant } => {
                pointer.push('/');
                let _ = write_token(&mut pointer, variant);
            }
            Segment::Unknown => {}
        }
    }
    pointer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_share_prefixes_render_and_compare() {
        let docs = Pointer::root().key("documents");
        let title = docs.index(3).key("a/b~c");
        assert_eq!(title.to_string(), "/documents/3/a~1b~0c");
        assert_eq!(Pointer::root().to_string(), "");
        assert_eq!(
            title,
            Pointer::root().key("documents").index(3).key("a/b~c")
        );
        assert_ne!(title, docs.index(3).key("a"));
        assert_eq!(title.depth(), 3);
        assert_eq!(
            title.parent().map(Pointer::to_string).as_deref(),
            Some("/documents/3")
        );
    }

    #[test]
    fn a_deep_pointer_drops_without_recursion() {
        let mut at = Pointer::root();
        for i in 0..200_000 {
            at = at.index(i);
        }
        assert_eq!(at.depth(), 200_000);
        drop(at);
    }

    #[test]
    fn renders_paths() {
        assert_eq!(Path::ROOT.to_pointer(), "");
        let root = Path::ROOT;
        let a = root.key("a/b");
        let b = a.index(3);
        let c = b.key("m~n");
        assert_eq!(c.to_pointer(), "/a~1b/3/m~0n");
        assert_eq!(root.key("").to_pointer(), "/");
        assert_eq!(c.pointer(), "/a~1b/3/m~0n");
        assert_eq!(root.pointer(), "");
        assert_eq!(format!("{c:?}"), r#"Path("/a~1b/3/m~0n")"#);
        let long = "a key longer than a link keeps inside itself";
        assert_eq!(
            c.key(long).pointer(),
            format!("/a~1b/3/m~0n/{long}").as_str()
        );
    }

    #[test]
    fn pointers_of_one_walk_share_their_prefix() {
        let root = Path::ROOT;
        let a = root.key("a");
        let b = a.index(0);
        let deep = b.key("x");
        let first = deep.pointer();
        let sibling = b.key("y").pointer();
        // Both hang on the one link made for `/a/0`.
        assert_eq!(
            first.parent().unwrap().link_address(),
            b.pointer().link_address()
        );
        assert_eq!(
            sibling.parent().unwrap().link_address(),
            b.pointer().link_address()
        );
        assert_eq!(sibling, "/a/0/y");
    }

    #[test]
    fn parses_and_compares_as_text() {
        for text in ["", "/", "/a", "/a~1b/3/m~0n", "//", "/0/01"] {
            let pointer = Pointer::parse(text).unwrap();
            assert_eq!(pointer, text);
            assert_eq!(pointer.to_string(), text);
        }
        assert_eq!(
            Pointer::parse("/a/3").unwrap(),
            Pointer::root().key("a").index(3)
        );
        let a3 = Pointer::root().key("a").index(3);
        for other in ["/a/3/", "/a/4", "a/3", "/a", "//a/3", "/b/3"] {
            assert_ne!(a3, other);
        }
        assert_eq!(Pointer::root().key("x/y~").index(0), "/x~1y~0/0");
        assert_ne!(
            Pointer::parse("/a/3").unwrap(),
            Pointer::root().key("a").index(4)
        );
        assert_ne!(
            Pointer::parse("/a").unwrap(),
            Pointer::parse("/a/0").unwrap()
        );
        assert_eq!(
            Pointer::parse("a"),
            Err(PointerError::NoLeadingSlash { found: 'a' })
        );
        assert_eq!(
            Pointer::parse("/ab/c~2"),
            Err(PointerError::BadEscape { offset: 5 })
        );
        assert!(Pointer::parse("/~").is_err());
        let tokens = Pointer::parse("/a~1b/3").unwrap();
        assert_eq!(tokens.tokens(), ["a/b", "3"]);
        assert_eq!(tokens.last().as_deref(), Some("3"));
    }

    #[test]
    fn hashes_as_text() {
        use std::collections::HashSet;
        let built = Pointer::root().key("a").index(10);
        let parsed = Pointer::parse("/a/10").unwrap();
        let set: HashSet<Pointer> = [built].into_iter().collect();
        assert!(set.contains(&parsed));
    }

    #[test]
    fn round_trips_through_serde() {
        let pointer = Pointer::root().key("a~").index(2);
        let text = serde_json::to_string(&pointer).unwrap();
        assert_eq!(text, r#""/a~0/2""#);
        let back: Pointer = serde_json::from_str(&text).unwrap();
        assert_eq!(back, pointer);
        assert!(serde_json::from_str::<Pointer>(r#""x""#).is_err());
    }

    #[test]
    fn a_very_deep_pointer_renders_and_drops_without_recursion() {
        let mut pointer = Pointer::root();
        for i in 0..200_000 {
            pointer = pointer.index(i % 10);
        }
        assert_eq!(pointer.depth(), 200_000);
        assert_eq!(pointer.to_string().len(), 400_000);
        let copy = Pointer::parse(&pointer.to_string()).unwrap();
        assert_eq!(copy, pointer);
        drop(copy);
        drop(pointer);
    }
}

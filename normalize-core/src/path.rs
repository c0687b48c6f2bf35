//! Where a value sits in the arguments, kept on the stack while walking and
//! rendered as a JSON pointer (RFC 6901) only when something is recorded.

use std::fmt;

/// One step from a container to a member.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Segment<'a> {
    /// A member of an object.
    Key(&'a str),
    /// An element of an array.
    Index(usize),
}

/// A location in a JSON value: the root, or a parent location and one step.
///
/// Each level borrows its parent, so building a path allocates nothing.
#[derive(Clone, Copy, Debug)]
pub struct Path<'a> {
    parent: Option<&'a Path<'a>>,
    segment: Option<Segment<'a>>,
}

impl<'a> Path<'a> {
    /// The whole value.
    pub const ROOT: Path<'static> = Path {
        parent: None,
        segment: None,
    };

    /// The member `key` of the object at this path.
    pub fn key(&'a self, key: &'a str) -> Path<'a> {
        Path {
            parent: Some(self),
            segment: Some(Segment::Key(key)),
        }
    }

    /// The element `index` of the array at this path.
    pub fn index(&'a self, index: usize) -> Path<'a> {
        Path {
            parent: Some(self),
            segment: Some(Segment::Index(index)),
        }
    }

    /// The path as a JSON pointer (`""` for the root, `/a~1b/0` otherwise).
    pub fn to_pointer(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Parents first; recursion depth is the path's depth, which the
        // normalizer bounds by `Options::max_depth`.
        if let Some(parent) = self.parent {
            fmt::Display::fmt(parent, f)?;
        }
        match self.segment {
            None => Ok(()),
            Some(Segment::Index(i)) => write!(f, "/{i}"),
            Some(Segment::Key(key)) => {
                f.write_str("/")?;
                write_token(f, key)
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_pointers() {
        assert_eq!(Path::ROOT.to_pointer(), "");
        let a = Path::ROOT.key("a/b");
        let b = a.index(3);
        let c = b.key("m~n");
        assert_eq!(c.to_pointer(), "/a~1b/3/m~0n");
        assert_eq!(Path::ROOT.key("").to_pointer(), "/");
    }
}

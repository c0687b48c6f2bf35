//! Where a streamed member sits: a JSON pointer whose prefix is shared with
//! its container's (one link per member, however deep), rendered as text
//! only when read.

use std::fmt;
use std::sync::Arc;

#[derive(Debug)]
enum Step {
    Key(Box<str>),
    Index(usize),
}

#[derive(Debug)]
struct Link {
    parent: Location,
    step: Step,
    depth: usize,
}

/// A location in streamed arguments (a JSON pointer, RFC 6901).
///
/// Each member's location is one link onto its container's, so an event
/// costs O(1) however deep it sits; the text (`/documents/3/title`) is
/// rendered when asked for ([`Location::to_pointer`], [`fmt::Display`]).
#[derive(Clone, Debug, Default)]
pub struct Location(Option<Arc<Link>>);

impl Location {
    /// The whole arguments value.
    pub const fn root() -> Location {
        Location(None)
    }

    /// Member `key` of the object here.
    pub fn key(&self, key: &str) -> Location {
        self.link(Step::Key(key.into()))
    }

    /// Element `index` of the array here.
    pub fn index(&self, index: usize) -> Location {
        self.link(Step::Index(index))
    }

    fn link(&self, step: Step) -> Location {
        Location(Some(Arc::new(Link {
            depth: self.depth() + 1,
            parent: self.clone(),
            step,
        })))
    }

    /// How many steps from the root (0 for the root).
    pub fn depth(&self) -> usize {
        self.0.as_ref().map_or(0, |link| link.depth)
    }

    /// The last step's key, when it is an object member.
    pub fn last_key(&self) -> Option<&str> {
        match &self.0.as_ref()?.step {
            Step::Key(key) => Some(key),
            Step::Index(_) => None,
        }
    }

    /// The last step's index, when it is an array element.
    pub fn last_index(&self) -> Option<usize> {
        match self.0.as_ref()?.step {
            Step::Index(index) => Some(index),
            Step::Key(_) => None,
        }
    }

    /// The container's location (`None` at the root).
    pub fn parent(&self) -> Option<&Location> {
        self.0.as_ref().map(|link| &link.parent)
    }

    /// The JSON pointer text (`""` for the root).
    pub fn to_pointer(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Root first, without recursion: a location may be deep.
        let mut links = Vec::with_capacity(self.depth());
        let mut at = self.0.as_deref();
        while let Some(link) = at {
            links.push(link);
            at = link.parent.0.as_deref();
        }
        for link in links.iter().rev() {
            match &link.step {
                Step::Index(i) => write!(f, "/{i}")?,
                Step::Key(key) => {
                    f.write_str("/")?;
                    crate::path::write_token(f, key)?;
                }
            }
        }
        Ok(())
    }
}

impl PartialEq for Location {
    fn eq(&self, other: &Location) -> bool {
        let (mut a, mut b) = (self.0.as_deref(), other.0.as_deref());
        loop {
            match (a, b) {
                (None, None) => return true,
                (Some(x), Some(y)) if std::ptr::eq(x, y) => return true,
                (Some(x), Some(y)) => {
                    let same = x.depth == y.depth
                        && match (&x.step, &y.step) {
                            (Step::Key(p), Step::Key(q)) => p == q,
                            (Step::Index(p), Step::Index(q)) => p == q,
                            _ => false,
                        };
                    if !same {
                        return false;
                    }
                    a = x.parent.0.as_deref();
                    b = y.parent.0.as_deref();
                }
                _ => return false,
            }
        }
    }
}

impl Eq for Location {}

impl Drop for Link {
    fn drop(&mut self) {
        // Unlink parents iteratively: a long chain dropped recursively
        // could exhaust the stack.
        let mut parent = self.parent.0.take();
        while let Some(link) = parent {
            match Arc::try_unwrap(link) {
                Ok(mut inner) => parent = inner.parent.0.take(),
                Err(_) => break,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_and_compares() {
        let docs = Location::root().key("documents");
        let title = docs.index(3).key("a/b~c");
        assert_eq!(title.to_pointer(), "/documents/3/a~1b~0c");
        assert_eq!(Location::root().to_pointer(), "");
        assert_eq!(
            title,
            Location::root().key("documents").index(3).key("a/b~c")
        );
        assert_ne!(title, docs.index(3).key("a"));
        assert_eq!(title.depth(), 3);
        assert_eq!(
            title.parent().map(Location::to_pointer).as_deref(),
            Some("/documents/3")
        );
    }

    #[test]
    fn a_deep_chain_drops_without_recursion() {
        let mut at = Location::root();
        for i in 0..200_000 {
            at = at.index(i);
        }
        assert_eq!(at.depth(), 200_000);
        drop(at);
    }
}

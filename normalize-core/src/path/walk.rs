//! [`Path`]: the location a walk is at, kept on the stack and turned into
//! a [`Pointer`] only when something is recorded under it. Public for the
//! code `#[derive(ToolArgs)]` generates (through `__private`), not part of
//! the crate's API.

use super::{Pointer, Segment, write_token};
use std::cell::OnceCell;
use std::fmt;

/// A location in a JSON value being walked: the root, or a parent location
/// and one step.
///
/// Each level borrows its parent, so building a path allocates nothing; the
/// first [`Path::pointer`] asked of a level (or of a level below it) turns it
/// into a [`Pointer`] link, kept for every later repair under it.
#[derive(Clone)]
pub struct Path<'a> {
    parent: Option<&'a Path<'a>>,
    segment: Option<Segment<'a>>,
    /// This level as a pointer, once something was recorded at or under it
    /// (the root, always the empty pointer, keeps none).
    pointer: Option<OnceCell<Pointer>>,
}

impl<'a> Path<'a> {
    /// The whole value.
    pub const ROOT: Path<'static> = Path {
        parent: None,
        segment: None,
        pointer: None,
    };

    /// The member `key` of the object at this path.
    pub fn key(&'a self, key: &'a str) -> Path<'a> {
        self.step(Segment::Key(key))
    }

    /// The element `index` of the array at this path.
    pub fn index(&'a self, index: usize) -> Path<'a> {
        self.step(Segment::Index(index))
    }

    fn step(&'a self, segment: Segment<'a>) -> Path<'a> {
        Path {
            parent: Some(self),
            segment: Some(segment),
            pointer: Some(OnceCell::new()),
        }
    }

    /// This location as a [`Pointer`] sharing its prefix with every pointer
    /// already taken under the same ancestors. Costs one link per level not
    /// yet turned into a pointer, so a repair at every level of a deep value
    /// costs O(1) each.
    pub fn pointer(&self) -> Pointer {
        let Some(cell) = &self.pointer else {
            return Pointer::root();
        };
        if let Some(pointer) = cell.get() {
            return pointer.clone();
        }
        // The common case, without allocating a work list: the parent is
        // the root or already a pointer (a sibling was recorded).
        let parent = match self.parent {
            None => Some(Pointer::root()),
            Some(parent) => match &parent.pointer {
                None => Some(Pointer::root()),
                Some(cell) => cell.get().cloned(),
            },
        };
        if let (Some(parent), Some(segment)) = (parent, self.segment) {
            return cell.get_or_init(|| parent.child(segment)).clone();
        }
        // The levels without a pointer yet, deepest first, up to the nearest
        // one that has one (or the root). A loop, not recursion: a path may
        // be any number of levels deep.
        let mut pending = vec![self];
        let mut base = Pointer::root();
        let mut up = self.parent;
        while let Some(level) = up {
            if let Some(pointer) = level.pointer.as_ref().and_then(OnceCell::get) {
                base = pointer.clone();
                break;
            }
            pending.push(level);
            up = level.parent;
        }
        for level in pending.into_iter().rev() {
            if let (Some(cell), Some(segment)) = (&level.pointer, level.segment) {
                base = cell.get_or_init(|| base.child(segment)).clone();
            }
        }
        base
    }

    /// The path as a JSON pointer's text (`""` for the root, `/a~1b/0`
    /// otherwise).
    pub fn to_pointer(&self) -> String {
        self.to_string()
    }
}

impl fmt::Debug for Path<'_> {
    /// The pointer's text: the derived form would recurse through every
    /// parent.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Path(\"{self}\")")
    }
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Root first, without recursion: a path may be any number of levels
        // deep.
        let mut levels = Vec::new();
        let mut up = Some(self);
        while let Some(level) = up {
            levels.extend(level.segment);
            up = level.parent;
        }
        for segment in levels.iter().rev() {
            match *segment {
                Segment::Index(i) => write!(f, "/{i}")?,
                Segment::Key(key) => {
                    f.write_str("/")?;
                    write_token(f, key)?;
                }
            }
        }
        Ok(())
    }
}

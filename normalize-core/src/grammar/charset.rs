//! Sets of Unicode scalar values, kept as sorted, disjoint, non-adjacent
//! inclusive ranges: the character classes of patterns and of JSON text.

/// The last Unicode scalar value.
pub(crate) const MAX_CHAR: u32 = 0x10_FFFF;
const SURROGATES: (u32, u32) = (0xD800, 0xDFFF);

/// A set of Unicode scalar values (never surrogates).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct CharSet {
    ranges: Vec<(u32, u32)>,
}

impl CharSet {
    /// The empty set.
    pub(crate) fn empty() -> Self {
        Self::default()
    }

    /// Every Unicode scalar value.
    pub(crate) fn any() -> Self {
        Self::from_ranges([(0, MAX_CHAR)])
    }

    /// One character.
    pub(crate) fn single(c: char) -> Self {
        Self::from_ranges([(c as u32, c as u32)])
    }

    /// The union of inclusive ranges (surrogates removed, reversed ranges
    /// ignored).
    pub(crate) fn from_ranges(ranges: impl IntoIterator<Item = (u32, u32)>) -> Self {
        let mut all: Vec<(u32, u32)> = Vec::new();
        for (lo, hi) in ranges {
            let hi = hi.min(MAX_CHAR);
            if lo > hi {
                continue;
            }
            // Cut the surrogate block out.
            if hi < SURROGATES.0 || lo > SURROGATES.1 {
                all.push((lo, hi));
            } else {
                if lo < SURROGATES.0 {
                    all.push((lo, SURROGATES.0 - 1));
                }
                if hi > SURROGATES.1 {
                    all.push((SURROGATES.1 + 1, hi));
                }
            }
        }
        all.sort_unstable();
        let mut ranges: Vec<(u32, u32)> = Vec::with_capacity(all.len());
        for (lo, hi) in all {
            match ranges.last_mut() {
                Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
                _ => ranges.push((lo, hi)),
            }
        }
        // Ranges on either side of the surrogate block are adjacent as
        // scalar values; merge them so equal sets compare equal.
        let mut merged: Vec<(u32, u32)> = Vec::with_capacity(ranges.len());
        for (lo, hi) in ranges {
            match merged.last_mut() {
                Some(last) if last.1 == SURROGATES.0 - 1 && lo == SURROGATES.1 + 1 => last.1 = hi,
                _ => merged.push((lo, hi)),
            }
        }
        Self { ranges: merged }
    }

    /// The inclusive ranges, ascending (a range may span the surrogate
    /// block, which it never includes).
    pub(crate) fn ranges(&self) -> &[(u32, u32)] {
        &self.ranges
    }

    /// Whether the set holds nothing.
    pub(crate) fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// The only member, when there is exactly one.
    pub(crate) fn as_single(&self) -> Option<char> {
        match self.ranges.as_slice() {
            [(lo, hi)] if lo == hi => char::from_u32(*lo),
            _ => None,
        }
    }

    /// Whether `c` is a member.
    #[cfg(test)]
    pub(crate) fn contains(&self, c: u32) -> bool {
        !(SURROGATES.0..=SURROGATES.1).contains(&c)
            && self.ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi)
    }

    /// Members of either set.
    pub(crate) fn union(&self, other: &CharSet) -> CharSet {
        Self::from_ranges(self.ranges.iter().chain(&other.ranges).copied())
    }

    /// Every scalar value not in this set.
    pub(crate) fn complement(&self) -> CharSet {
        let mut out = Vec::new();
        let mut next = 0u32;
        for &(lo, hi) in &self.ranges {
            if lo > next {
                out.push((next, lo - 1));
            }
            next = hi + 1;
        }
        if next <= MAX_CHAR {
            out.push((next, MAX_CHAR));
        }
        Self::from_ranges(out)
    }

    /// Members of this set that are also in `other`.
    pub(crate) fn intersect(&self, other: &CharSet) -> CharSet {
        self.complement().union(&other.complement()).complement()
    }

    /// Members of this set that are not in `other`.
    pub(crate) fn minus(&self, other: &CharSet) -> CharSet {
        self.intersect(&other.complement())
    }

    /// The members, one by one (for small sets such as control characters).
    /// The set as a bracketed character class (`[a-z]`, or `[^...]` when the
    /// complement is shorter), each bound written by `write_char`: GBNF and
    /// Lark share the shape and differ only in how a character is escaped.
    pub(crate) fn class_text(&self, write_char: impl Fn(u32) -> String) -> String {
        let ranges = |set: &CharSet| {
            let mut out = String::new();
            for &(lo, hi) in set.ranges() {
                out.push_str(&write_char(lo));
                if hi > lo {
                    if hi > lo + 1 {
                        out.push('-');
                    }
                    out.push_str(&write_char(hi));
                }
            }
            out
        };
        let positive = ranges(self);
        let complement = ranges(&self.complement());
        if !complement.is_empty() && complement.len() < positive.len() {
            format!("[^{complement}]")
        } else {
            format!("[{positive}]")
        }
    }

    pub(crate) fn chars(&self) -> impl Iterator<Item = char> + '_ {
        self.ranges
            .iter()
            .flat_map(|&(lo, hi)| (lo..=hi).filter_map(char::from_u32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizes_and_complements() {
        let set = CharSet::from_ranges([(b'a' as u32, b'c' as u32), (b'b' as u32, b'f' as u32)]);
        assert_eq!(set.ranges(), &[(0x61, 0x66)]);
        assert_eq!(set.complement().complement(), set);
        assert!(CharSet::any().complement().is_empty());
        assert_eq!(CharSet::any().ranges(), &[(0, MAX_CHAR)]);
        assert!(!CharSet::any().contains(0xD800));
        let digits = CharSet::from_ranges([(0x30, 0x39)]);
        assert_eq!(
            digits.minus(&CharSet::single('5')).ranges(),
            &[(0x30, 0x34), (0x36, 0x39)]
        );
        assert_eq!(CharSet::single('x').as_single(), Some('x'));
    }
}

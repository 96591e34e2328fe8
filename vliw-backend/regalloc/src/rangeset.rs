//! The live ranges of a growing coalescing class: an ordered map from the
//! start of each disjoint range to its end. Testing two classes for an
//! overlap walks the smaller one and looks each range up in the larger,
//! and a merge inserts the smaller one's ranges into the larger, so a class
//! that absorbs thousands of small intervals (a value copied along a long
//! chain of blocks) costs O(small · log large) per merge instead of a
//! re-sort of everything it holds.

use std::collections::BTreeMap;

use crate::intervals::Interval;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct RangeSet {
    /// start → end (half-open), disjoint and non-adjacent.
    ranges: BTreeMap<u32, u32>,
}

impl RangeSet {
    pub fn of(iv: &Interval) -> RangeSet {
        let mut s = RangeSet::default();
        for &(a, b) in &iv.ranges {
            s.insert(a, b);
        }
        s
    }

    /// Number of ranges.
    pub fn len(&self) -> usize {
        self.ranges.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// Whether `[s, e)` overlaps a range of the set.
    fn overlaps(&self, s: u32, e: u32) -> bool {
        // The range starting last before `e` ends last among those.
        self.ranges.range(..e).next_back().is_some_and(|(_, &end)| end > s)
    }

    /// Whether some position is in both sets.
    pub fn intersects(&self, other: &RangeSet) -> bool {
        let (small, large) = if self.len() <= other.len() { (self, other) } else { (other, self) };
        small.ranges.iter().any(|(&s, &e)| large.overlaps(s, e))
    }

    /// Adds `[s, e)`, merging it with the ranges it overlaps or touches.
    pub fn insert(&mut self, mut s: u32, mut e: u32) {
        if s >= e {
            return;
        }
        while let Some((&rs, &re)) = self.ranges.range(..=e).next_back() {
            if re < s {
                break;
            }
            s = s.min(rs);
            e = e.max(re);
            self.ranges.remove(&rs);
        }
        self.ranges.insert(s, e);
    }

    /// Adds every range of `other` (the smaller set is inserted into the larger).
    pub fn absorb(&mut self, mut other: RangeSet) {
        if other.len() > self.len() {
            std::mem::swap(self, &mut other);
        }
        for (s, e) in other.ranges {
            self.insert(s, e);
        }
    }

    /// The ranges in order.
    pub fn iter(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.ranges.iter().map(|(&s, &e)| (s, e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(r: &[(u32, u32)]) -> RangeSet {
        let mut s = RangeSet::default();
        for &(a, b) in r {
            s.insert(a, b);
        }
        s
    }

    #[test]
    fn insert_merges_and_intersects_like_intervals() {
        let a = set(&[(10, 12), (0, 4), (4, 6), (20, 20)]);
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![(0, 6), (10, 12)]);
        assert!(!a.intersects(&set(&[(6, 10)])));
        assert!(a.intersects(&set(&[(6, 11)])));
        assert!(!a.intersects(&set(&[(12, 20)])));
        assert!(a.intersects(&set(&[(1, 2), (30, 40)])));
        assert!(!a.intersects(&RangeSet::default()));
        let mut b = set(&[(5, 11)]);
        b.absorb(a.clone());
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![(0, 12)]);
        let mut iv = Interval::default();
        iv.add_range(3, 5);
        iv.add_range(1, 2);
        iv.normalize();
        assert_eq!(RangeSet::of(&iv).iter().collect::<Vec<_>>(), vec![(1, 2), (3, 5)]);
    }
}

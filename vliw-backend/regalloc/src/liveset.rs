//! Sets of register keys ([`crate::target::RegKeys`]) for liveness, sized
//! by their members rather than by the number of keys, so that a function
//! of many blocks and many values does not cost blocks × values:
//! - [`LiveSet`], a block's live-in or live-out set: its keys sorted, with
//!   union and difference by merging;
//! - [`ScratchSet`], the set of values live at one point of a walk over a
//!   block: Briggs and Torczon's sparse set ("An Efficient Representation
//!   for Sparse Sets", LOPLAS 1993), with constant-time insert, remove,
//!   membership and clear, allocated once per function.

/// A sorted set of keys.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LiveSet {
    keys: Vec<u32>,
}

impl LiveSet {
    /// The set of `keys` (any order, repeats allowed).
    pub fn from_unsorted(mut keys: Vec<u32>) -> LiveSet {
        keys.sort_unstable();
        keys.dedup();
        LiveSet { keys }
    }
    pub fn contains(&self, key: usize) -> bool {
        u32::try_from(key).is_ok_and(|k| self.keys.binary_search(&k).is_ok())
    }
    pub fn len(&self) -> usize {
        self.keys.len()
    }
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
    /// The keys in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.keys.iter().map(|&k| k as usize)
    }
    /// The union of several sets.
    pub fn union_of<'a>(sets: impl IntoIterator<Item = &'a LiveSet>) -> LiveSet {
        let mut sets = sets.into_iter();
        let Some(first) = sets.next() else {
            return LiveSet::default();
        };
        let mut acc = first.clone();
        let mut rest: Vec<u32> = Vec::new();
        for s in sets {
            if s.keys == acc.keys {
                continue;
            }
            rest.extend_from_slice(&s.keys);
        }
        if rest.is_empty() {
            return acc;
        }
        acc.keys.extend_from_slice(&rest);
        acc.keys.sort_unstable();
        acc.keys.dedup();
        acc
    }
    /// `gen ∪ (self − kill)`: the live-in set of a block whose live-out set
    /// is `self`.
    pub fn transfer(&self, gen: &LiveSet, kill: &LiveSet) -> LiveSet {
        let mut out = Vec::with_capacity(gen.keys.len() + self.keys.len());
        let (mut i, mut j, mut k) = (0, 0, 0);
        let (a, g, x) = (&self.keys, &gen.keys, &kill.keys);
        while i < a.len() || j < g.len() {
            if j >= g.len() || (i < a.len() && a[i] < g[j]) {
                let v = a[i];
                i += 1;
                while k < x.len() && x[k] < v {
                    k += 1;
                }
                if k >= x.len() || x[k] != v {
                    out.push(v);
                }
            } else {
                let v = g[j];
                j += 1;
                if i < a.len() && a[i] == v {
                    i += 1;
                }
                out.push(v);
            }
        }
        LiveSet { keys: out }
    }
}

/// Briggs and Torczon's sparse set over keys `0..capacity`.
#[derive(Clone, Debug)]
pub struct ScratchSet {
    dense: Vec<u32>,
    sparse: Vec<u32>,
}

impl ScratchSet {
    pub fn new(capacity: usize) -> ScratchSet {
        ScratchSet { dense: Vec::new(), sparse: vec![0; capacity] }
    }
    fn grow(&mut self, key: usize) {
        if key >= self.sparse.len() {
            self.sparse.resize(key + 1, 0);
        }
    }
    pub fn contains(&self, key: usize) -> bool {
        self.sparse
            .get(key)
            .is_some_and(|&at| self.dense.get(at as usize).is_some_and(|&k| k as usize == key))
    }
    /// Adds `key`; true when it was not there.
    pub fn insert(&mut self, key: usize) -> bool {
        if self.contains(key) {
            return false;
        }
        self.grow(key);
        self.sparse[key] = self.dense.len() as u32;
        self.dense.push(key as u32);
        true
    }
    pub fn remove(&mut self, key: usize) {
        if !self.contains(key) {
            return;
        }
        let at = self.sparse[key] as usize;
        let last = self.dense.pop().unwrap_or(key as u32);
        if at < self.dense.len() {
            self.dense[at] = last;
            self.sparse[last as usize] = at as u32;
        }
    }
    pub fn clear(&mut self) {
        self.dense.clear();
    }
    /// Empties the set, then adds every key of `s`.
    pub fn load(&mut self, s: &LiveSet) {
        self.clear();
        for k in s.iter() {
            self.insert(k);
        }
    }
    /// The keys, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.dense.iter().map(|&k| k as usize)
    }
    /// The keys as a [`LiveSet`].
    pub fn to_live_set(&self) -> LiveSet {
        LiveSet::from_unsorted(self.dense.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(k: &[u32]) -> LiveSet {
        LiveSet::from_unsorted(k.to_vec())
    }

    #[test]
    fn live_set_operations() {
        let a = set(&[9, 1, 5, 5]);
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![1, 5, 9]);
        assert!(a.contains(5) && !a.contains(4) && !a.contains(usize::MAX));
        let u = LiveSet::union_of([&a, &set(&[2, 9]), &a]);
        assert_eq!(u.iter().collect::<Vec<_>>(), vec![1, 2, 5, 9]);
        assert_eq!(LiveSet::union_of([&a, &a]), a);
        assert!(LiveSet::union_of(std::iter::empty()).is_empty());
        // live-in = gen ∪ (out − kill)
        let out = set(&[1, 2, 5, 9]);
        let inn = out.transfer(&set(&[3, 5]), &set(&[2, 5, 7]));
        assert_eq!(inn.iter().collect::<Vec<_>>(), vec![1, 3, 5, 9]);
    }

    #[test]
    fn scratch_set_operations() {
        let mut s = ScratchSet::new(4);
        assert!(s.insert(3) && s.insert(10) && !s.insert(3));
        assert!(s.contains(10) && s.contains(3) && !s.contains(2) && !s.contains(100));
        s.remove(3);
        s.remove(50);
        assert!(!s.contains(3) && s.contains(10));
        s.load(&set(&[1, 2]));
        assert_eq!(s.to_live_set(), set(&[1, 2]));
        s.clear();
        assert_eq!(s.iter().count(), 0);
    }
}

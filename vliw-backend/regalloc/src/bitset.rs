//! A dense bit set over small integer keys (registers numbered by
//! [`crate::target::RegKeys`]), for liveness sets and interference tests.

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct BitSet {
    words: Vec<u64>,
}

impl BitSet {
    pub fn new(bits: usize) -> BitSet {
        BitSet { words: vec![0; bits.div_ceil(64)] }
    }
    fn grow(&mut self, bit: usize) {
        let need = bit / 64 + 1;
        if self.words.len() < need {
            self.words.resize(need, 0);
        }
    }
    pub fn insert(&mut self, bit: usize) -> bool {
        self.grow(bit);
        let (w, m) = (bit / 64, 1u64 << (bit % 64));
        let was = self.words[w] & m != 0;
        self.words[w] |= m;
        !was
    }
    pub fn remove(&mut self, bit: usize) {
        if let Some(w) = self.words.get_mut(bit / 64) {
            *w &= !(1u64 << (bit % 64));
        }
    }
    pub fn contains(&self, bit: usize) -> bool {
        self.words.get(bit / 64).is_some_and(|w| w & (1u64 << (bit % 64)) != 0)
    }
    /// `self |= other`; true when `self` changed.
    pub fn union_with(&mut self, other: &BitSet) -> bool {
        if self.words.len() < other.words.len() {
            self.words.resize(other.words.len(), 0);
        }
        let mut changed = false;
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            let n = *a | *b;
            changed |= n != *a;
            *a = n;
        }
        changed
    }
    pub fn clear(&mut self) {
        self.words.iter_mut().for_each(|w| *w = 0);
    }
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(i * 64 + b)
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let mut a = BitSet::new(10);
        assert!(a.insert(3));
        assert!(!a.insert(3));
        assert!(a.insert(130));
        assert!(a.contains(130) && a.contains(3) && !a.contains(4));
        let mut b = BitSet::new(0);
        b.insert(7);
        assert!(a.union_with(&b));
        assert!(!a.union_with(&b));
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![3, 7, 130]);
        a.remove(7);
        a.remove(1000);
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![3, 130]);
        a.clear();
        assert!(a.is_empty());
    }
}

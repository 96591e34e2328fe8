//! Delta debugging (Zeller's ddmin) over an input's lines, then its bytes:
//! the smallest input found, within a budget of runs and seconds, that
//! still fails the same way.

use std::time::{Duration, Instant};

pub struct Budget {
    pub runs: usize,
    pub time: Duration,
}

/// Reduces `input` while `fails` holds; `fails(input)` is assumed true.
pub fn reduce(input: &[u8], budget: &Budget, fails: &mut dyn FnMut(&[u8]) -> bool) -> Vec<u8> {
    let start = Instant::now();
    let mut runs = 0usize;
    let mut left = |runs: &mut usize| -> bool {
        *runs += 1;
        *runs <= budget.runs && start.elapsed() < budget.time
    };
    // Lines first (keeping their newlines), then single bytes.
    let lines: Vec<Vec<u8>> = input.split_inclusive(|&b| b == b'\n').map(|l| l.to_vec()).collect();
    let mut units = if lines.len() > 1 { ddmin(lines, &mut runs, &mut left, fails) } else { lines };
    let bytes: Vec<Vec<u8>> = units.concat().into_iter().map(|b| vec![b]).collect();
    units = ddmin(bytes, &mut runs, &mut left, fails);
    units.concat()
}

fn ddmin(
    mut units: Vec<Vec<u8>>,
    runs: &mut usize,
    left: &mut dyn FnMut(&mut usize) -> bool,
    fails: &mut dyn FnMut(&[u8]) -> bool,
) -> Vec<Vec<u8>> {
    let mut n = 2usize;
    while units.len() >= 2 {
        let chunk = units.len().div_ceil(n);
        let mut reduced = false;
        let mut i = 0;
        while i * chunk < units.len() {
            let (a, b) = (i * chunk, ((i + 1) * chunk).min(units.len()));
            let candidate: Vec<Vec<u8>> = units[..a].iter().chain(&units[b..]).cloned().collect();
            if !left(runs) {
                return units;
            }
            if fails(&candidate.concat()) {
                units = candidate;
                n = (n - 1).max(2);
                reduced = true;
                break;
            }
            i += 1;
        }
        if !reduced {
            if n >= units.len() {
                break;
            }
            n = (n * 2).min(units.len());
        }
    }
    units
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_two_bytes_that_matter() {
        let input = b"hello\nworld, this is X and here Y\nmore\n".to_vec();
        let budget = Budget { runs: 10_000, time: Duration::from_secs(10) };
        let out = reduce(&input, &budget, &mut |d| d.contains(&b'X') && d.contains(&b'Y'));
        assert_eq!(out, b"XY");
    }

    #[test]
    fn stops_at_the_budget() {
        let input = vec![b'a'; 1000];
        let budget = Budget { runs: 5, time: Duration::from_secs(10) };
        let mut calls = 0;
        let out = reduce(&input, &budget, &mut |d| {
            calls += 1;
            !d.is_empty()
        });
        assert!(calls <= 5, "{calls}");
        assert!(!out.is_empty());
    }
}

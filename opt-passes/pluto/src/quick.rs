//! Integer emptiness without a solver: bound propagation and a dive for
//! an integer point, the fast path of [`Polyhedron::is_empty`] (CBC decides
//! what they cannot).

use crate::poly::{Kind, Polyhedron};

impl Polyhedron {
    /// Decides emptiness without a solver when it can: integer bound
    /// propagation ([`propagate`]) proves the set empty, or a dive — each
    /// variable in turn fixed at its lower bound (else its upper one, else 0)
    /// and the bounds propagated again — ends on an integer point that
    /// satisfies every row. `None`: undecided, CBC decides. On the legality
    /// proof's and the tiler's sets over constant loop bounds, most end here.
    pub(crate) fn quick_emptiness(&self) -> Option<bool> {
        let n = self.n_vars();
        let mut rows: Vec<(Vec<(usize, i128)>, i128)> = Vec::new();
        for c in &self.cons {
            let a: Vec<(usize, i128)> = c.aff.coeffs.iter().enumerate().filter(|(_, &x)| x != 0).map(|(v, &x)| (v, x as i128)).collect();
            if c.kind == Kind::Eq {
                rows.push((a.iter().map(|&(v, x)| (v, -x)).collect(), -(c.aff.constant as i128)));
            }
            rows.push((a, c.aff.constant as i128));
        }
        let mut b: Bounds = (vec![None; n], vec![None; n]);
        if !propagate(&rows, &mut b) {
            return Some(true);
        }
        for v in 0..n {
            if b.0[v].is_some() && b.0[v] == b.1[v] {
                continue;
            }
            let tries = [b.0[v], b.1[v], Some(0)];
            let mut fixed = false;
            for x in tries.into_iter().flatten() {
                if b.0[v].is_some_and(|l| x < l) || b.1[v].is_some_and(|h| x > h) {
                    continue;
                }
                let mut c = b.clone();
                c.0[v] = Some(x);
                c.1[v] = Some(x);
                if propagate(&rows, &mut c) {
                    b = c;
                    fixed = true;
                    break;
                }
            }
            if !fixed {
                return None;
            }
        }
        // Every variable fixed: the point must satisfy every row exactly.
        let point: Vec<i128> = b.0.iter().map(|x| x.unwrap_or(0)).collect();
        let ok = rows.iter().all(|(a, k)| a.iter().try_fold(*k, |acc, &(v, x)| acc.checked_add(x.checked_mul(point[v])?)).is_some_and(|s| s >= 0));
        ok.then_some(false)
    }
}

/// Lower and upper bounds per variable (`None`: unbounded on that side).
type Bounds = (Vec<Option<i128>>, Vec<Option<i128>>);

/// Integer bound propagation over rows `Σ a_v·x_v + k ≥ 0`: each row
/// tightens each of its variables' bounds from the others'
/// (`a_v·x_v ≥ -k - Σ_{u≠v} max a_u·x_u`, rounded inward) until nothing
/// changes (16 rounds at most). `false`: a lower bound passed an upper one,
/// so the set has no integer point (exact). Bounds past 2^60 and
/// overflowing sums are left alone, which only weakens the result.
fn propagate(rows: &[(Vec<(usize, i128)>, i128)], b: &mut Bounds) -> bool {
    const LIMIT: i128 = 1 << 60;
    let (lo, hi) = b;
    for _round in 0..16 {
        let mut changed = false;
        for (a, k) in rows {
            let top = |&(u, x): &(usize, i128)| if x > 0 { hi[u].and_then(|h| x.checked_mul(h)) } else { lo[u].and_then(|l| x.checked_mul(l)) };
            let tops: Vec<Option<i128>> = a.iter().map(top).collect();
            let unbounded = tops.iter().filter(|t| t.is_none()).count();
            let Some(sum) = tops.iter().flatten().try_fold(0i128, |acc, &t| acc.checked_add(t)) else { continue };
            if a.is_empty() && *k < 0 {
                return false;
            }
            for (j, &(v, x)) in a.iter().enumerate() {
                // Σ_{u≠v} a_u·x_u ≤ rest, so a_v·x_v ≥ -k - rest.
                let rest = match (tops[j], unbounded) {
                    (Some(t), 0) => sum - t,
                    (None, 1) => sum,
                    _ => continue,
                };
                let Some(need) = k.checked_neg().and_then(|nk| nk.checked_sub(rest)) else { continue };
                if need.abs() > LIMIT {
                    continue;
                }
                if x > 0 {
                    let nb = need.div_euclid(x) + i128::from(need.rem_euclid(x) != 0);
                    if lo[v].is_none_or(|l| nb > l) {
                        lo[v] = Some(nb);
                        changed = true;
                    }
                } else {
                    let nb = (-need).div_euclid(-x);
                    if hi[v].is_none_or(|h| nb < h) {
                        hi[v] = Some(nb);
                        changed = true;
                    }
                }
                if let (Some(l), Some(h)) = (lo[v], hi[v]) {
                    if l > h {
                        return false;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    true
}

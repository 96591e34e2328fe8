//! Exact small-matrix linear algebra over the rationals (fraction-free
//! Gaussian elimination in `i128`, rows normalized by their gcd): rank, an
//! integer basis of the right kernel (PLuTo's orthogonal sub-space for the
//! linear independence constraints, seed 002 "每次迭代结束会增加正交的约束"),
//! and the integer inverse `adj / det` used by code generation to express
//! a statement's iterators in terms of the loop variables.

use crate::error::{narrow, Error, Result};

fn gcd128(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

fn normalize(row: &mut [i128]) {
    let g = row.iter().fold(0, |g, &x| gcd128(g, x));
    if g > 1 {
        for x in row.iter_mut() {
            *x /= g;
        }
    }
}

/// Reduced row echelon form (each pivot row scaled so the other rows have
/// zero in its column; rows integral, not unit pivots). Returns the rows and
/// the pivot columns.
fn echelon(m: &[Vec<i64>], ncols: usize) -> Result<(Vec<Vec<i128>>, Vec<usize>)> {
    let mut a: Vec<Vec<i128>> = m.iter().map(|r| r.iter().map(|&x| x as i128).collect()).collect();
    if a.iter().any(|r| r.len() != ncols) {
        return Err(Error::Invalid("matrix rows of different lengths".into()));
    }
    let mut pivots = Vec::new();
    let mut r = 0;
    for c in 0..ncols {
        let Some(p) = (r..a.len()).find(|&i| a[i][c] != 0) else { continue };
        a.swap(r, p);
        for i in 0..a.len() {
            if i != r && a[i][c] != 0 {
                let (x, y) = (a[r][c], a[i][c]);
                let pivot = a[r].clone();
                for (v, p) in a[i].iter_mut().zip(&pivot) {
                    *v = x.checked_mul(*v).and_then(|v| v.checked_sub(y.checked_mul(*p)?)).ok_or(Error::Overflow)?;
                }
                normalize(&mut a[i]);
            }
        }
        pivots.push(c);
        r += 1;
    }
    a.truncate(r);
    Ok((a, pivots))
}

/// The rank of a matrix with `ncols` columns.
pub fn rank(m: &[Vec<i64>], ncols: usize) -> Result<usize> {
    Ok(echelon(m, ncols)?.1.len())
}

/// An integer basis of `{ x | m·x = 0 }`, one vector per free column,
/// each with gcd 1.
pub fn kernel(m: &[Vec<i64>], ncols: usize) -> Result<Vec<Vec<i64>>> {
    let (a, piv) = echelon(m, ncols)?;
    let mut out = Vec::new();
    for f in (0..ncols).filter(|c| !piv.contains(c)) {
        // x_f = L (lcm of pivots), x_p = -a[r][f]·L/a[r][p].
        let l = piv.iter().enumerate().try_fold(1i128, |l, (r, &p)| {
            let x = a[r][p].abs();
            (l / gcd128(l, x)).checked_mul(x).ok_or(Error::Overflow)
        })?;
        let mut v = vec![0i128; ncols];
        v[f] = l;
        for (r, &p) in piv.iter().enumerate() {
            v[p] = -a[r][f].checked_mul(l / a[r][p]).ok_or(Error::Overflow)?;
        }
        normalize(&mut v);
        out.push(v.into_iter().map(narrow).collect::<Result<Vec<i64>>>()?);
    }
    Ok(out)
}

/// Inverse of a square non-singular integer matrix as `(adj, det)` with
/// `det > 0` and `m⁻¹ = adj / det`; `None` when singular.
pub fn inverse(m: &[Vec<i64>]) -> Result<Option<(Vec<Vec<i64>>, i64)>> {
    let n = m.len();
    // [m | I] reduced.
    let aug: Vec<Vec<i64>> = m
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut x = r.clone();
            x.extend((0..n).map(|j| i64::from(i == j)));
            x
        })
        .collect();
    if m.iter().any(|r| r.len() != n) {
        return Err(Error::Invalid("inverse of a non-square matrix".into()));
    }
    let (a, piv) = echelon(&aug, 2 * n)?;
    if piv.len() < n || piv[n - 1] != n - 1 {
        return Ok(None);
    }
    // Row r: a[r][r]·x_r = (a[r][n..])·e ⇒ inverse row r = a[r][n..]/a[r][r].
    let mut det: i128 = 1;
    for (r, row) in a.iter().enumerate() {
        let x = row[r].abs();
        det = (det / gcd128(det, x)).checked_mul(x).ok_or(Error::Overflow)?;
    }
    let mut out: Vec<Vec<i128>> = Vec::with_capacity(n);
    for (r, row) in a.iter().enumerate() {
        let k = det / row[r];
        out.push(row[n..].iter().map(|&x| x.checked_mul(k).ok_or(Error::Overflow)).collect::<Result<Vec<i128>>>()?);
    }
    // Reduce by the common gcd of everything.
    let g = out.iter().flatten().fold(det, |g, &x| gcd128(g, x));
    let det = narrow(det / g)?;
    let out = out.into_iter().map(|r| r.into_iter().map(|x| narrow(x / g)).collect::<Result<Vec<i64>>>()).collect::<Result<Vec<_>>>()?;
    Ok(Some((out, det)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel_and_rank() {
        let m = vec![vec![1, 1, 0]];
        assert_eq!(rank(&m, 3).unwrap(), 1);
        let k = kernel(&m, 3).unwrap();
        assert_eq!(k.len(), 2);
        for v in &k {
            assert_eq!(v[0] + v[1], 0);
        }
        assert_eq!(rank(&[vec![1, 2], vec![2, 4]], 2).unwrap(), 1);
    }

    #[test]
    fn integer_inverse() {
        // (t, 2t + i): inverse t = c1, i = c2 - 2 c1.
        let (adj, det) = inverse(&[vec![1, 0], vec![2, 1]]).unwrap().unwrap();
        assert_eq!(det, 1);
        assert_eq!(adj, vec![vec![1, 0], vec![-2, 1]]);
        // (i + j, i - j): det 2.
        let (adj, det) = inverse(&[vec![1, 1], vec![1, -1]]).unwrap().unwrap();
        assert_eq!(det, 2);
        assert_eq!(adj, vec![vec![1, 1], vec![1, -1]]);
        assert!(inverse(&[vec![1, 2], vec![2, 4]]).unwrap().is_none());
    }
}

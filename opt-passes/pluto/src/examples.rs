//! The classic PLuTo kernels as [`Scop`]s (PLuTo's `test/` and
//! PolyBench's sources), for the tests and as examples of building a model:
//! matrix multiply, jacobi-1d and jacobi-2d (imperfectly nested), seidel-2d
//! and lu.

use crate::scop::{Scop, ScopBuilder};

/// `for i, j, k in [0, N): C[i][j] += A[i][k] * B[k][j]`.
pub fn matmul() -> Scop {
    ScopBuilder::new(&["N"])
        .context("N >= 1")
        .and_then(|b| {
            b.array("A", 2).array("B", 2).array("C", 2).stmt(
                "S",
                &["i", "j", "k"],
                &["0 <= i <= N - 1", "0 <= j <= N - 1", "0 <= k <= N - 1"],
                &[0, 0, 0, 0],
                &["=C[i][j]", "C[i][j]", "A[i][k]", "B[k][j]"],
            )
        })
        .and_then(|b| b.build())
        .expect("matmul model")
}

/// PLuTo's jacobi-1d-imper:
/// `for t in [0, T): { for i in [1, N-2]: b[i] = (a[i-1] + a[i] + a[i+1]) / 3;
///                     for j in [1, N-2]: a[j] = b[j]; }`.
pub fn jacobi_1d() -> Scop {
    ScopBuilder::new(&["T", "N"])
        .context("T >= 1")
        .and_then(|b| b.context("N >= 3"))
        .and_then(|b| {
            b.array("a", 1).array("b", 1).stmt("S1", &["t", "i"], &["0 <= t <= T - 1", "1 <= i <= N - 2"], &[0, 0, 0], &["=b[i]", "a[i-1]", "a[i]", "a[i+1]"])
        })
        .and_then(|b| b.stmt("S2", &["t", "j"], &["0 <= t <= T - 1", "1 <= j <= N - 2"], &[0, 1, 0], &["=a[j]", "b[j]"]))
        .and_then(|b| b.build())
        .expect("jacobi-1d model")
}

/// seidel-2d: `for t in [0, T), i, j in [1, N-2]: a[i][j] = (the 9 points around it) / 9`.
pub fn seidel_2d() -> Scop {
    ScopBuilder::new(&["T", "N"])
        .context("T >= 1")
        .and_then(|b| b.context("N >= 3"))
        .and_then(|b| {
            b.array("a", 2).stmt(
                "S",
                &["t", "i", "j"],
                &["0 <= t <= T - 1", "1 <= i <= N - 2", "1 <= j <= N - 2"],
                &[0, 0, 0, 0],
                &["=a[i][j]", "a[i-1][j-1]", "a[i-1][j]", "a[i-1][j+1]", "a[i][j-1]", "a[i][j]", "a[i][j+1]", "a[i+1][j-1]", "a[i+1][j]", "a[i+1][j+1]"],
            )
        })
        .and_then(|b| b.build())
        .expect("seidel-2d model")
}

/// lu (PLuTo's `lu.c`):
/// `for k in [0, N): { for j in [k+1, N): a[k][j] = a[k][j] / a[k][k];
///                     for i in [k+1, N), j in [k+1, N): a[i][j] -= a[i][k] * a[k][j]; }`.
pub fn lu() -> Scop {
    ScopBuilder::new(&["N"])
        .context("N >= 1")
        .and_then(|b| b.array("a", 2).stmt("S1", &["k", "j"], &["0 <= k <= N - 1", "k + 1 <= j <= N - 1"], &[0, 0, 0], &["=a[k][j]", "a[k][j]", "a[k][k]"]))
        .and_then(|b| {
            b.stmt(
                "S2",
                &["k", "i", "j"],
                &["0 <= k <= N - 1", "k + 1 <= i <= N - 1", "k + 1 <= j <= N - 1"],
                &[0, 1, 0, 0],
                &["=a[i][j]", "a[i][j]", "a[i][k]", "a[k][j]"],
            )
        })
        .and_then(|b| b.build())
        .expect("lu model")
}

/// PLuTo's jacobi-2d-imper:
/// `for t in [0, T): { for i, j in [1, N-2]: b[i][j] = (a[i][j] + a[i][j-1] + a[i][j+1] + a[i+1][j] + a[i-1][j]) / 5;
///                     for i, j in [1, N-2]: a[i][j] = b[i][j]; }`.
pub fn jacobi_2d() -> Scop {
    ScopBuilder::new(&["T", "N"])
        .context("T >= 1")
        .and_then(|b| b.context("N >= 3"))
        .and_then(|b| {
            b.array("a", 2).array("b", 2).stmt(
                "S1",
                &["t", "i", "j"],
                &["0 <= t <= T - 1", "1 <= i <= N - 2", "1 <= j <= N - 2"],
                &[0, 0, 0, 0],
                &["=b[i][j]", "a[i][j]", "a[i][j-1]", "a[i][j+1]", "a[i+1][j]", "a[i-1][j]"],
            )
        })
        .and_then(|b| b.stmt("S2", &["t", "i", "j"], &["0 <= t <= T - 1", "1 <= i <= N - 2", "1 <= j <= N - 2"], &[0, 1, 0, 0], &["=a[i][j]", "b[i][j]"]))
        .and_then(|b| b.build())
        .expect("jacobi-2d model")
}

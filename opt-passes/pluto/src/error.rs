//! The crate's error type: everything an input can trigger is reported as an
//! [`Error`], never as a panic.

use std::fmt;

/// Why an operation of this crate failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// An exact integer computation left the range of `i64`.
    Overflow,
    /// The input is malformed (wrong number of coefficients, unknown
    /// statement or array, a dimension out of range, ...).
    Invalid(String),
    /// The MILP solver failed or hit its time cap.
    Solver(String),
    /// Fourier–Motzkin produced more constraints than the limit.
    TooComplex(String),
    /// The scheduler found no legal hyperplane and no cut would help.
    NoSchedule(String),
    /// A loop bound is missing (the domain is unbounded in that direction).
    Unbounded(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Overflow => write!(f, "integer overflow in exact arithmetic"),
            Error::Invalid(m) => write!(f, "invalid input: {m}"),
            Error::Solver(m) => write!(f, "MILP solver: {m}"),
            Error::TooComplex(m) => write!(f, "too complex: {m}"),
            Error::NoSchedule(m) => write!(f, "no legal schedule: {m}"),
            Error::Unbounded(m) => write!(f, "unbounded: {m}"),
        }
    }
}

impl std::error::Error for Error {}

/// Results of this crate.
pub type Result<T> = std::result::Result<T, Error>;

/// `i128` back to `i64`, or [`Error::Overflow`].
pub fn narrow(v: i128) -> Result<i64> {
    i64::try_from(v).map_err(|_| Error::Overflow)
}

/// Greatest common divisor of absolute values (`gcd(0, 0) = 0`).
pub fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    // a <= max(|a|,|b|); only gcd(i64::MIN, 0) does not fit, saturate it.
    i64::try_from(a).unwrap_or(i64::MAX)
}

/// Floor division for a positive divisor (in `i128`, where `i64` inputs
/// cannot overflow).
pub fn floor_div(a: i128, d: i128) -> i128 {
    a.div_euclid(d)
}

/// Ceiling division for a positive divisor.
pub fn ceil_div(a: i128, d: i128) -> i128 {
    -((-a).div_euclid(d))
}

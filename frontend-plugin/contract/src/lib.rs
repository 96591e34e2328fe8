//! The IR contract of the function-level vectorization directives (seed 001
//! §3): the typed form of a `vec-function` declaration and its text in the
//! `"dsp-vec-function"` function attribute, which the clang plugin
//! (`frontend-plugin/`) writes and `opt-passes` (`wfv::directives`) reads.
//!
//! A function carries `"dsp-vec-function"="V1;V2;…"`, one variant per
//! directive on it; each variant is a space-separated list of clauses, in
//! this order, arguments by their index in the LLVM function's argument list:
//!
//! ```text
//! args(N)                  the function's IR argument count when the directive was attached
//! uniform(i,…)             §3.2: the same value in every instance
//! linear(i:S,…)            §3.3: instance k sees the argument plus k*S; S an integer
//!                          constant (in bytes for pointers, in units for integers),
//!                          or $j: the value of the uniform argument j
//! aligned(i[:B],…)         §3.4: pointer aligned to B bytes (no B: the target's vector alignment)
//! mask | nomask            §3.5: only the masked / only the unmasked variant (neither: both)
//! simdlen(N)               OpenMP's simdlen: N instances per call (none: the target's lane count)
//! ```
//!
//! Loops marked by `#pragma simd vec-function` (§3.1) or `#pragma omp simd`
//! carry the property `!{!"dsp.vec_function.loop", !"simd"|!"omp"}` in their
//! `llvm.loop` metadata (see [`LOOP_PROPERTY`]).

use std::fmt;
use std::str::FromStr;

/// The function attribute holding a function's directives.
pub const FN_ATTR: &str = "dsp-vec-function";

/// The first operand of the loop property marking a `vec-function` loop.
pub const LOOP_PROPERTY: &str = "dsp.vec_function.loop";

/// The loop property (`!{!"dsp.loop.independent"}`) of a loop whose
/// iterations touch disjoint memory, proven by opt-passes' `dsp-interchange`
/// under its run-time guard: `dsp-egg-isel` skips its dependence checks,
/// and the backend's pipeliner its memory dependences between iterations.
pub const INDEPENDENT_LOOP_PROPERTY: &str = "dsp.loop.independent";

/// Which variants a vector function needs (§3.5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MaskMode {
    /// Both a masked and an unmasked variant (no clause).
    #[default]
    Both,
    /// Only the masked variant (`mask`, OpenMP `inbranch`).
    Masked,
    /// Only the unmasked variant (`nomask`, OpenMP `notinbranch`).
    Unmasked,
}

/// The step of a linear argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A constant: in bytes for pointer arguments, in units for integers.
    Const(i64),
    /// The value of a uniform argument (OpenMP `linear(p:n)` with `n` uniform).
    Arg(u32),
}

/// A linear argument (§3.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Linear {
    pub arg: u32,
    pub step: Step,
}

/// An aligned pointer argument (§3.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Aligned {
    pub arg: u32,
    /// `None`: the target's vector alignment.
    pub bytes: Option<u32>,
}

/// One `vec-function` declaration of a function: the variant(s) it asks for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VecFunctionDecl {
    /// The function's IR argument count when the directive was attached (a
    /// check: a pass that changed the signature invalidates the indices).
    pub args: u32,
    pub uniform: Vec<u32>,
    pub linear: Vec<Linear>,
    pub aligned: Vec<Aligned>,
    pub mask: MaskMode,
    pub simdlen: Option<u32>,
}

/// Where a `vec-function` loop's directive came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopOrigin {
    /// `#pragma simd vec-function`.
    Simd,
    /// `#pragma omp simd` (and the combined `… simd` constructs).
    Omp,
}

impl LoopOrigin {
    /// The second operand of the loop property.
    pub fn name(self) -> &'static str {
        match self {
            LoopOrigin::Simd => "simd",
            LoopOrigin::Omp => "omp",
        }
    }

    pub fn from_name(s: &str) -> Option<LoopOrigin> {
        match s {
            "simd" => Some(LoopOrigin::Simd),
            "omp" => Some(LoopOrigin::Omp),
            _ => None,
        }
    }
}

/// A malformed attribute text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContractError(pub String);

impl fmt::Display for ContractError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "malformed \"{FN_ATTR}\" attribute: {}", self.0)
    }
}

impl std::error::Error for ContractError {}

fn join<T>(items: &[T], one: impl Fn(&T) -> String) -> String {
    items.iter().map(one).collect::<Vec<_>>().join(",")
}

impl fmt::Display for VecFunctionDecl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "args({})", self.args)?;
        if !self.uniform.is_empty() {
            write!(f, " uniform({})", join(&self.uniform, |a| a.to_string()))?;
        }
        if !self.linear.is_empty() {
            let s = join(&self.linear, |l| match l.step {
                Step::Const(c) => format!("{}:{c}", l.arg),
                Step::Arg(j) => format!("{}:${j}", l.arg),
            });
            write!(f, " linear({s})")?;
        }
        if !self.aligned.is_empty() {
            let s = join(&self.aligned, |a| match a.bytes {
                Some(b) => format!("{}:{b}", a.arg),
                None => a.arg.to_string(),
            });
            write!(f, " aligned({s})")?;
        }
        match self.mask {
            MaskMode::Both => {}
            MaskMode::Masked => write!(f, " mask")?,
            MaskMode::Unmasked => write!(f, " nomask")?,
        }
        if let Some(n) = self.simdlen {
            write!(f, " simdlen({n})")?;
        }
        Ok(())
    }
}

fn num<T: FromStr>(s: &str, what: &str) -> Result<T, ContractError> {
    s.trim().parse().map_err(|_| ContractError(format!("bad {what} '{s}'")))
}

/// `name(list)` → (`name`, `Some(list)`); `name` → (`name`, `None`).
fn split_clause(c: &str) -> Result<(&str, Option<&str>), ContractError> {
    match c.find('(') {
        None => Ok((c, None)),
        Some(i) => {
            let inner = c[i + 1..]
                .strip_suffix(')')
                .ok_or_else(|| ContractError(format!("unclosed clause '{c}'")))?;
            Ok((&c[..i], Some(inner)))
        }
    }
}

impl FromStr for VecFunctionDecl {
    type Err = ContractError;

    /// Reads one variant (the inverse of `Display`).
    fn from_str(s: &str) -> Result<Self, ContractError> {
        let mut d = VecFunctionDecl::default();
        let mut saw_args = false;
        for clause in s.split_whitespace() {
            let (name, list) = split_clause(clause)?;
            let items = || list.unwrap_or("").split(',').filter(|x| !x.is_empty());
            let need_list = || list.ok_or_else(|| ContractError(format!("'{name}' without a list")));
            match name {
                "args" => {
                    d.args = num(need_list()?, "argument count")?;
                    saw_args = true;
                }
                "uniform" => {
                    need_list()?;
                    d.uniform = items().map(|a| num(a, "argument")).collect::<Result<_, _>>()?;
                }
                "linear" => {
                    need_list()?;
                    for it in items() {
                        let (a, st) = it
                            .split_once(':')
                            .ok_or_else(|| ContractError(format!("linear '{it}' without a step")))?;
                        let step = match st.strip_prefix('$') {
                            Some(j) => Step::Arg(num(j, "step argument")?),
                            None => Step::Const(num(st, "step")?),
                        };
                        d.linear.push(Linear { arg: num(a, "argument")?, step });
                    }
                }
                "aligned" => {
                    need_list()?;
                    for it in items() {
                        let (a, b) = match it.split_once(':') {
                            Some((a, b)) => (a, Some(num(b, "alignment")?)),
                            None => (it, None),
                        };
                        d.aligned.push(Aligned { arg: num(a, "argument")?, bytes: b });
                    }
                }
                "mask" | "nomask" if list.is_none() => {
                    if d.mask != MaskMode::Both {
                        return Err(ContractError("two mask clauses".into()));
                    }
                    d.mask = if name == "mask" { MaskMode::Masked } else { MaskMode::Unmasked };
                }
                "simdlen" => d.simdlen = Some(num(need_list()?, "simdlen")?),
                _ => return Err(ContractError(format!("unknown clause '{clause}'"))),
            }
        }
        if !saw_args {
            return Err(ContractError(format!("no args(N) in '{s}'")));
        }
        d.check()?;
        Ok(d)
    }
}

impl VecFunctionDecl {
    /// Every index below `args`, each argument in at most one of uniform and linear.
    pub fn check(&self) -> Result<(), ContractError> {
        let mut seen = Vec::new();
        let linear_args = self.linear.iter().map(|l| l.arg);
        for a in self.uniform.iter().copied().chain(linear_args) {
            if seen.contains(&a) {
                return Err(ContractError(format!("argument {a} both uniform and linear, or twice")));
            }
            seen.push(a);
        }
        let steps = self.linear.iter().filter_map(|l| match l.step {
            Step::Arg(j) => Some(j),
            Step::Const(_) => None,
        });
        let aligned = self.aligned.iter().map(|a| a.arg);
        for a in seen.iter().copied().chain(steps).chain(aligned) {
            if a >= self.args {
                return Err(ContractError(format!("argument {a} out of range (args({}))", self.args)));
            }
        }
        Ok(())
    }
}

/// The attribute value for a function's variants.
pub fn format_variants(variants: &[VecFunctionDecl]) -> String {
    variants.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(";")
}

/// The variants in an attribute value.
pub fn parse_variants(s: &str) -> Result<Vec<VecFunctionDecl>, ContractError> {
    s.split(';').map(str::parse).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let d = VecFunctionDecl {
            args: 4,
            uniform: vec![0],
            linear: vec![Linear { arg: 1, step: Step::Const(4) }, Linear { arg: 3, step: Step::Arg(0) }],
            aligned: vec![Aligned { arg: 2, bytes: Some(64) }, Aligned { arg: 1, bytes: None }],
            mask: MaskMode::Masked,
            simdlen: Some(8),
        };
        let s = d.to_string();
        assert_eq!(s, "args(4) uniform(0) linear(1:4,3:$0) aligned(2:64,1) mask simdlen(8)");
        assert_eq!(s.parse::<VecFunctionDecl>().unwrap(), d);
        let plain = VecFunctionDecl { args: 2, ..Default::default() };
        let two = format_variants(&[plain.clone(), d.clone()]);
        assert_eq!(two, format!("args(2);{s}"));
        assert_eq!(parse_variants(&two).unwrap(), vec![plain, d]);
        assert_eq!(parse_variants("args(1) nomask").unwrap()[0].mask, MaskMode::Unmasked);
    }

    #[test]
    fn malformed_texts_are_errors() {
        for bad in [
            "",
            "uniform(0)",
            "args(1) uniform(1)",
            "args(2) uniform(0) linear(0:1)",
            "args(2) linear(1)",
            "args(2) linear(1:x)",
            "args(2) mask nomask",
            "args(2) vector",
            "args(2) uniform(0",
            "args(2) linear(1:$5)",
        ] {
            assert!(parse_variants(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn loop_origins() {
        for o in [LoopOrigin::Simd, LoopOrigin::Omp] {
            assert_eq!(LoopOrigin::from_name(o.name()), Some(o));
        }
        assert_eq!(LoopOrigin::from_name("x"), None);
    }
}

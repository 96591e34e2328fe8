//! From parsed clauses to the IR contract (seed 001 §3.2–3.5): parameter
//! names become parameter indices, checked against the function the
//! directive precedes (each name a parameter, in at most one of uniform and
//! linear; linear parameters integers or pointers, aligned ones pointers;
//! a named OpenMP step a uniform parameter); pointer steps become bytes. Then
//! [`render`] shifts the indices to the LLVM function's arguments (past a
//! struct-return pointer) and writes the attribute text.

use dsp_vec_contract::{format_variants, Aligned, Linear, Step, VecFunctionDecl};

use crate::parse::{Clauses, Diag, Name, StepSyntax};

/// What a parameter is, as far as the clauses care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    Integer,
    /// A pointer (or array parameter) to objects of this many bytes (1 for `void *`).
    Pointer { pointee_size: u64 },
    Float,
    /// Structures, unions, complex numbers.
    Other,
}

/// A parameter of the function a directive precedes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    pub name: String,
    pub kind: ParamKind,
}

struct Resolver<'a> {
    function: &'a str,
    params: &'a [Param],
    /// Parameters already uniform or linear, and which.
    taken: Vec<(usize, &'static str)>,
}

impl Resolver<'_> {
    fn index(&self, n: &Name) -> Result<usize, Diag> {
        self.params.iter().position(|p| p.name == n.text).ok_or_else(|| Diag {
            token: n.token,
            message: format!("'{}' is not a parameter of '{}'", n.text, self.function),
        })
    }

    fn take(&mut self, n: &Name, clause: &'static str) -> Result<usize, Diag> {
        let i = self.index(n)?;
        if let Some((_, was)) = self.taken.iter().find(|(j, _)| *j == i) {
            return Err(Diag { token: n.token, message: format!("'{}' is already {was}", n.text) });
        }
        self.taken.push((i, clause));
        Ok(i)
    }
}

fn idx(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// Resolves the clauses of a directive before `function(params)`.
pub fn resolve(c: &Clauses, function: &str, params: &[Param]) -> Result<VecFunctionDecl, Diag> {
    let mut r = Resolver { function, params, taken: Vec::new() };
    let mut d = VecFunctionDecl { args: idx(params.len()), mask: c.mask, simdlen: c.simdlen, ..Default::default() };
    for n in &c.uniform {
        let i = r.take(n, "uniform")?;
        d.uniform.push(idx(i));
    }
    for (n, step) in &c.linear {
        let i = r.take(n, "linear")?;
        let step = match step {
            StepSyntax::Const(s) => match params[i].kind {
                ParamKind::Integer => Step::Const(*s),
                ParamKind::Pointer { pointee_size } => {
                    let bytes = i64::try_from(pointee_size).ok().and_then(|b| s.checked_mul(b));
                    Step::Const(bytes.ok_or_else(|| Diag { token: n.token, message: "linear step too large".into() })?)
                }
                ParamKind::Float | ParamKind::Other => {
                    return Err(Diag {
                        token: n.token,
                        message: format!("'{}' in linear is neither an integer nor a pointer parameter", n.text),
                    })
                }
            },
            StepSyntax::Param(p) => {
                let j = r.index(p)?;
                if !c.uniform.iter().any(|u| u.text == p.text) {
                    return Err(Diag { token: p.token, message: format!("linear step '{}' is not a uniform parameter", p.text) });
                }
                Step::Arg(idx(j))
            }
        };
        d.linear.push(Linear { arg: idx(i), step });
    }
    for (n, bytes) in &c.aligned {
        let i = r.index(n)?;
        if !matches!(params[i].kind, ParamKind::Pointer { .. }) {
            let clause = if c.dialect == Some(crate::parse::Dialect::Omp) { "aligned" } else { "alignment" };
            return Err(Diag { token: n.token, message: format!("'{}' in {clause} is not a pointer parameter", n.text) });
        }
        if d.aligned.iter().any(|a| a.arg == idx(i)) {
            return Err(Diag { token: n.token, message: format!("'{}' is already aligned", n.text) });
        }
        let bytes = bytes.map(|(b, _)| u32::try_from(b).unwrap_or(u32::MAX));
        d.aligned.push(Aligned { arg: idx(i), bytes });
    }
    d.uniform.sort_unstable();
    d.linear.sort_by_key(|l| l.arg);
    d.aligned.sort_by_key(|a| a.arg);
    Ok(d)
}

/// The attribute text for a function's resolved directives, with parameter
/// indices moved `offset` places (a struct-return pointer before them) and
/// checked against the LLVM function's `ir_args` arguments.
pub fn render(decls: &[VecFunctionDecl], offset: u32, ir_args: u32) -> Result<String, String> {
    let mut out = Vec::new();
    for d in decls {
        if d.args + offset != ir_args {
            return Err(format!(
                "the calling convention passes its {} parameters as {} IR arguments; vec-function directives need one argument per parameter",
                d.args,
                ir_args.saturating_sub(offset)
            ));
        }
        let s = |i: u32| i + offset;
        out.push(VecFunctionDecl {
            args: ir_args,
            uniform: d.uniform.iter().map(|&i| s(i)).collect(),
            linear: d
                .linear
                .iter()
                .map(|l| Linear {
                    arg: s(l.arg),
                    step: match l.step {
                        Step::Arg(j) => Step::Arg(s(j)),
                        c => c,
                    },
                })
                .collect(),
            aligned: d.aligned.iter().map(|a| Aligned { arg: s(a.arg), ..*a }).collect(),
            mask: d.mask,
            simdlen: d.simdlen,
        });
    }
    let text = format_variants(&out);
    out.iter().try_for_each(|d| d.check()).map_err(|e| e.to_string())?;
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::{parse, tests::lex, Dialect, Parsed};
    use dsp_vec_contract::MaskMode;

    fn params() -> Vec<Param> {
        vec![
            Param { name: "n".into(), kind: ParamKind::Integer },
            Param { name: "x".into(), kind: ParamKind::Float },
            Param { name: "p".into(), kind: ParamKind::Pointer { pointee_size: 4 } },
            Param { name: "i".into(), kind: ParamKind::Integer },
        ]
    }

    fn run(dialect: Dialect, s: &str) -> Result<VecFunctionDecl, (usize, String)> {
        let toks = lex(s);
        let Ok(Parsed::Declare(c)) = parse(dialect, &toks) else { panic!("{s}") };
        resolve(&c, "f", &params()).map_err(|d| (d.token, d.message))
    }

    #[test]
    fn names_become_indices() {
        let d = run(Dialect::Simd, "declare vec-function uniform(n) linear(i, p:2) alignment(p:64) nomask").unwrap();
        assert_eq!(d.args, 4);
        assert_eq!(d.uniform, vec![0]);
        assert_eq!(d.linear, vec![Linear { arg: 2, step: Step::Const(8) }, Linear { arg: 3, step: Step::Const(1) }]);
        assert_eq!(d.aligned, vec![Aligned { arg: 2, bytes: Some(64) }]);
        assert_eq!(d.mask, MaskMode::Unmasked);
        assert_eq!(render(std::slice::from_ref(&d), 0, 4).unwrap(), "args(4) uniform(0) linear(2:8,3:1) aligned(2:64) nomask");
        assert_eq!(render(std::slice::from_ref(&d), 1, 5).unwrap(), "args(5) uniform(1) linear(3:8,4:1) aligned(3:64) nomask");
        assert!(render(&[d], 0, 5).unwrap_err().contains("one argument per parameter"));
        let o = run(Dialect::Omp, "uniform(n) linear(i:n)").unwrap();
        assert_eq!(o.linear, vec![Linear { arg: 3, step: Step::Arg(0) }]);
    }

    #[test]
    fn bad_names_are_errors_at_their_token() {
        assert_eq!(run(Dialect::Simd, "declare vec-function uniform(n, m)"), Err((8, "'m' is not a parameter of 'f'".into())));
        assert_eq!(run(Dialect::Simd, "declare vec-function uniform(n) linear(n)"), Err((10, "'n' is already uniform".into())));
        assert_eq!(
            run(Dialect::Simd, "declare vec-function linear(x)"),
            Err((6, "'x' in linear is neither an integer nor a pointer parameter".into()))
        );
        assert_eq!(run(Dialect::Simd, "declare vec-function alignment(n)"), Err((6, "'n' in alignment is not a pointer parameter".into())));
        assert_eq!(run(Dialect::Omp, "linear(i:n)"), Err((4, "linear step 'n' is not a uniform parameter".into())));
    }
}

//! Evaluation of assembly expressions to constants or symbol-relative values.
//!
//! A value is either absolute (`Abs`) or a symbol plus an addend (`Rel`).
//! The difference of two locations in one section is absolute (`end-start`);
//! anything else done to a symbol-relative value is an error. `.equ` names
//! are evaluated where they are used, with `.` standing for the location of
//! their own `.equ` directive.

use std::collections::HashMap;

use crate::parser::{BinOp, Expr, ExprKind, UnOp};
use crate::Pos;

/// What a relocatable value is relative to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SymRef {
    /// A location in a section of this file: a label (`name`) or `.` (no name).
    Local { name: Option<String>, section: usize, offset: u32 },
    /// A symbol not defined in this file.
    Undef(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Abs(i64),
    Rel { sym: SymRef, addend: i64 },
}

/// A `.equ`/`.set` definition.
#[derive(Clone, Debug)]
pub struct Equ {
    pub expr: Expr,
    /// Location of the directive, for `.` in its expression.
    pub dot: Option<(usize, u32)>,
    pub pos: Pos,
}

/// What names mean while evaluating.
pub struct Env<'a> {
    /// Labels defined so far: name → (section, offset).
    pub labels: &'a HashMap<String, (usize, u32)>,
    pub equs: &'a HashMap<String, Equ>,
    /// Whether unknown names are undefined (external) symbols; when false
    /// (sizes computed during layout) they are an error.
    pub allow_undefined: bool,
}

pub type EvalError = (Pos, String);

const MAX_DEPTH: u32 = 64;

impl Env<'_> {
    /// Evaluates `e` with `.` at `dot` (section, offset).
    pub fn eval(&self, e: &Expr, dot: Option<(usize, u32)>) -> Result<Value, EvalError> {
        self.eval_depth(e, dot, 0)
    }

    /// Evaluates an expression that must be a constant.
    pub fn eval_const(&self, e: &Expr, dot: Option<(usize, u32)>) -> Result<i64, EvalError> {
        match self.eval(e, dot)? {
            Value::Abs(v) => Ok(v),
            Value::Rel { .. } => {
                Err((e.pos, format!("'{e}' is not a constant (it refers to a symbol's address)")))
            }
        }
    }

    fn eval_depth(&self, e: &Expr, dot: Option<(usize, u32)>, depth: u32) -> Result<Value, EvalError> {
        if depth > MAX_DEPTH {
            return Err((e.pos, "expression nests too deeply (recursive .equ?)".into()));
        }
        match &e.kind {
            ExprKind::Int(v) => Ok(Value::Abs(*v)),
            ExprKind::Float(_) => Err((e.pos, format!("floating-point number '{e}' where an integer is needed"))),
            ExprKind::Dot => match dot {
                Some((section, offset)) => {
                    Ok(Value::Rel { sym: SymRef::Local { name: None, section, offset }, addend: 0 })
                }
                None => Err((e.pos, "'.' used outside any section".into())),
            },
            ExprKind::Name(name) => {
                if let Some(&(section, offset)) = self.labels.get(name) {
                    return Ok(Value::Rel {
                        sym: SymRef::Local { name: Some(name.clone()), section, offset },
                        addend: 0,
                    });
                }
                if let Some(equ) = self.equs.get(name) {
                    return self.eval_depth(&equ.expr, equ.dot, depth + 1);
                }
                if self.allow_undefined {
                    Ok(Value::Rel { sym: SymRef::Undef(name.clone()), addend: 0 })
                } else {
                    Err((e.pos, format!("'{name}' is not defined before this point; a constant is needed here")))
                }
            }
            ExprKind::Unary(op, a) => {
                let v = self.eval_depth(a, dot, depth + 1)?;
                let Value::Abs(v) = v else {
                    return Err((e.pos, format!("cannot apply '{}' to the address in '{a}'", unop_name(*op))));
                };
                Ok(Value::Abs(match op {
                    UnOp::Neg => v.wrapping_neg(),
                    UnOp::Not => !v,
                }))
            }
            ExprKind::Binary(..) => {
                // A left-leaning chain (`a + b + c …`, as the parser builds
                // it) is folded in a loop: only right operands nest.
                let mut spine = Vec::new();
                let mut cur = e;
                while let ExprKind::Binary(op, a, b) = &cur.kind {
                    spine.push((*op, b.as_ref(), cur));
                    cur = a;
                }
                let mut acc = self.eval_depth(cur, dot, depth + 1)?;
                for (op, b, node) in spine.into_iter().rev() {
                    let vb = self.eval_depth(b, dot, depth + 1)?;
                    acc = binary(op, acc, vb, node)?;
                }
                Ok(acc)
            }
        }
    }

    /// Evaluates a floating-point expression (`.float`, `.double`): literals,
    /// integers and negation.
    pub fn eval_float(&self, e: &Expr, dot: Option<(usize, u32)>) -> Result<f64, EvalError> {
        match &e.kind {
            ExprKind::Float(v) => Ok(*v),
            ExprKind::Unary(UnOp::Neg, a) => Ok(-self.eval_float(a, dot)?),
            _ => Ok(self.eval_const(e, dot)? as f64),
        }
    }
}

fn unop_name(op: UnOp) -> &'static str {
    match op {
        UnOp::Neg => "-",
        UnOp::Not => "~",
    }
}

fn binary(op: BinOp, a: Value, b: Value, e: &Expr) -> Result<Value, EvalError> {
    use Value::{Abs, Rel};
    let not_const = || (e.pos, format!("'{e}' combines addresses in a way that is not a constant or symbol+offset"));
    match (op, a, b) {
        (BinOp::Add, Rel { sym, addend }, Abs(k)) | (BinOp::Add, Abs(k), Rel { sym, addend }) => {
            Ok(Rel { sym, addend: addend.wrapping_add(k) })
        }
        (BinOp::Sub, Rel { sym, addend }, Abs(k)) => Ok(Rel { sym, addend: addend.wrapping_sub(k) }),
        (
            BinOp::Sub,
            Rel { sym: SymRef::Local { section: s1, offset: o1, .. }, addend: a1 },
            Rel { sym: SymRef::Local { section: s2, offset: o2, .. }, addend: a2 },
        ) if s1 == s2 => Ok(Abs((o1 as i64 + a1) - (o2 as i64 + a2))),
        (op, Abs(x), Abs(y)) => Ok(Abs(match op {
            BinOp::Add => x.wrapping_add(y),
            BinOp::Sub => x.wrapping_sub(y),
            BinOp::Mul => x.wrapping_mul(y),
            BinOp::Div | BinOp::Rem if y == 0 => return Err((e.pos, format!("division by zero in '{e}'"))),
            BinOp::Div => x.wrapping_div(y),
            BinOp::Rem => x.wrapping_rem(y),
            BinOp::Shl => x.wrapping_shl(y as u32),
            BinOp::Shr => x.wrapping_shr(y as u32),
            BinOp::And => x & y,
            BinOp::Or => x | y,
            BinOp::Xor => x ^ y,
        })),
        _ => Err(not_const()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;
    use crate::parser::{parse, Arg, Stmt};

    fn expr(s: &str) -> Expr {
        let (t, _) = lex(&format!(".x {s}"));
        let (stmts, errs) = parse(&t);
        assert!(errs.is_empty(), "{errs:?}");
        let Stmt::Directive { args, .. } = &stmts[0] else { panic!() };
        let Arg::Expr(e) = &args[0] else { panic!() };
        e.clone()
    }

    #[test]
    fn evaluates() {
        let mut labels = HashMap::new();
        labels.insert("start".to_string(), (0usize, 8u32));
        labels.insert("end".to_string(), (0usize, 40u32));
        labels.insert("other".to_string(), (1usize, 0u32));
        let mut equs = HashMap::new();
        equs.insert("N".to_string(), Equ { expr: expr("3*4"), dot: None, pos: Pos::default() });
        let env = Env { labels: &labels, equs: &equs, allow_undefined: true };
        let dot = Some((0, 16));
        assert_eq!(env.eval(&expr("1 + 2 * 3 - (8 >> 1)"), dot), Ok(Value::Abs(3)));
        assert_eq!(env.eval(&expr("end - start + N"), dot), Ok(Value::Abs(44)));
        assert_eq!(env.eval(&expr(". - start"), dot), Ok(Value::Abs(8)));
        assert_eq!(
            env.eval(&expr("printf + 4"), dot),
            Ok(Value::Rel { sym: SymRef::Undef("printf".into()), addend: 4 })
        );
        assert!(env.eval(&expr("end - other"), dot).is_err());
        assert!(env.eval(&expr("end * 2"), dot).is_err());
        assert!(env.eval(&expr("1 / 0"), dot).is_err());
    }
}

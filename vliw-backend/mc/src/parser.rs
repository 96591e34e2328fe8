//! Parser: turns the token stream into statements (labels, directives and
//! bundles of operations), each with its line and column.
//!
//! Grammar (one statement per line, or several separated by `;`):
//! ```text
//! stmt    := label* (directive | bundle)?
//! label   := IDENT ':'
//! directive := '.'IDENT (arg (',' arg)*)?
//! bundle  := op | '{' op (';' | NEWLINE) ... '}'
//! op      := ('(' '!'? REG ')')? MNEMONIC (expr (',' expr)*)?
//! ```
//! Expressions follow C precedence: `| ^ & << >> + - * / %` and unary `- ~ +`.

use std::fmt;

use crate::lexer::{Tok, Token};
use crate::Pos;

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub pos: Pos,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    And,
    Or,
    Xor,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Not,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Int(i64),
    Float(f64),
    /// A symbol, `.equ` name or register name (decided by context).
    Name(String),
    /// `.`: the current location.
    Dot,
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
}

impl BinOp {
    fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::And => "&",
            BinOp::Or => "|",
            BinOp::Xor => "^",
        }
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ExprKind::Int(v) => write!(f, "{v}"),
            ExprKind::Float(v) => write!(f, "{v}"),
            ExprKind::Name(n) => f.write_str(n),
            ExprKind::Dot => f.write_str("."),
            ExprKind::Unary(UnOp::Neg, e) => write!(f, "-{e}"),
            ExprKind::Unary(UnOp::Not, e) => write!(f, "~{e}"),
            ExprKind::Binary(op, a, b) => write!(f, "{a}{}{b}", op.symbol()),
        }
    }
}

/// A directive argument.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    Expr(Expr),
    Str(Vec<u8>, Pos),
    /// `@function`, `@object`, `@nobits`…
    Type(String, Pos),
}

impl Arg {
    pub fn pos(&self) -> Pos {
        match self {
            Arg::Expr(e) => e.pos,
            Arg::Str(_, p) | Arg::Type(_, p) => *p,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct GuardSpec {
    pub reg: String,
    pub negate: bool,
    pub pos: Pos,
}

#[derive(Clone, Debug, PartialEq)]
pub struct OpStmt {
    pub mnemonic: String,
    pub pos: Pos,
    pub guard: Option<GuardSpec>,
    pub operands: Vec<Expr>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    Label { name: String, pos: Pos },
    Directive { name: String, pos: Pos, args: Vec<Arg> },
    /// One bundle; `pos` is its `{` (or its only operation).
    Bundle { ops: Vec<OpStmt>, pos: Pos },
}

/// A syntax error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub pos: Pos,
    pub message: String,
}

struct Parser<'t> {
    toks: &'t [Token],
    i: usize,
    /// Expression nesting, bounded so that hostile input cannot overflow the stack.
    depth: u32,
    /// Binary operators in the current expression, bounded for the same
    /// reason: `1+1+…` builds a chain that every walk (display, drop)
    /// descends (a 1 MB line of them overflowed the stack).
    operators: u32,
    out: Vec<Stmt>,
    errors: Vec<ParseError>,
}

type PResult<T> = Result<T, ParseError>;

const MAX_NESTING: u32 = 200;
/// Most binary operators in one expression.
const MAX_OPERATORS: u32 = 4096;

fn describe(tok: &Tok) -> String {
    match tok {
        Tok::Ident(s) => format!("'{s}'"),
        Tok::Int(v) => format!("'{v}'"),
        Tok::Float(v) => format!("'{v}'"),
        Tok::Str(_) => "a string".into(),
        Tok::Dot => "'.'".into(),
        Tok::Shl => "'<<'".into(),
        Tok::Shr => "'>>'".into(),
        Tok::Punct(c) => format!("'{c}'"),
        Tok::Newline => "end of line".into(),
    }
}

/// Parses a token stream (from [`crate::lexer::lex`]) into statements.
pub fn parse(toks: &[Token]) -> (Vec<Stmt>, Vec<ParseError>) {
    let mut p = Parser { toks, i: 0, depth: 0, operators: 0, out: Vec::new(), errors: Vec::new() };
    p.run();
    (p.out, p.errors)
}

impl<'t> Parser<'t> {
    fn peek(&self) -> &Tok {
        self.toks.get(self.i).map(|t| &t.tok).unwrap_or(&Tok::Newline)
    }
    fn peek_at(&self, k: usize) -> &Tok {
        self.toks.get(self.i + k).map(|t| &t.tok).unwrap_or(&Tok::Newline)
    }
    fn pos(&self) -> Pos {
        match self.toks.get(self.i) {
            Some(t) => t.pos,
            None => self.toks.last().map(|t| t.pos).unwrap_or(Pos { line: 1, col: 1 }),
        }
    }
    fn at_end(&self) -> bool {
        self.i >= self.toks.len()
    }
    fn bump(&mut self) {
        self.i += 1;
    }
    fn error_here(&self, what: &str) -> ParseError {
        ParseError { pos: self.pos(), message: format!("expected {what}, found {}", describe(self.peek())) }
    }
    /// Skips to the end of the current statement (not past a `}`).
    fn recover(&mut self) {
        while !self.at_end() && !matches!(self.peek(), Tok::Newline | Tok::Punct(';') | Tok::Punct('}')) {
            self.bump();
        }
    }

    fn run(&mut self) {
        while !self.at_end() {
            match self.peek() {
                Tok::Newline | Tok::Punct(';') => self.bump(),
                _ => {
                    if let Err(e) = self.statement() {
                        self.errors.push(e);
                        self.recover();
                        // A stray '}' ends the statement; skip it too.
                        if matches!(self.peek(), Tok::Punct('}')) {
                            self.bump();
                        }
                    }
                }
            }
        }
    }

    fn end_of_statement(&mut self) -> PResult<()> {
        match self.peek() {
            Tok::Newline | Tok::Punct(';') => Ok(()),
            _ if self.at_end() => Ok(()),
            _ => Err(self.error_here("end of statement")),
        }
    }

    fn statement(&mut self) -> PResult<()> {
        // Labels.
        while let (Tok::Ident(name), Tok::Punct(':')) = (self.peek().clone(), self.peek_at(1).clone()) {
            self.out.push(Stmt::Label { name, pos: self.pos() });
            self.bump();
            self.bump();
        }
        match self.peek().clone() {
            Tok::Newline | Tok::Punct(';') => Ok(()),
            Tok::Punct('{') => self.bundle(),
            Tok::Punct('}') => Err(ParseError { pos: self.pos(), message: "'}' without a matching '{'".into() }),
            Tok::Ident(name) if name.starts_with('.') => {
                let pos = self.pos();
                self.bump();
                let args = self.directive_args()?;
                self.end_of_statement()?;
                self.out.push(Stmt::Directive { name, pos, args });
                Ok(())
            }
            Tok::Ident(_) | Tok::Punct('(') => {
                let op = self.op()?;
                self.end_of_statement()?;
                let pos = op.pos;
                self.out.push(Stmt::Bundle { ops: vec![op], pos });
                Ok(())
            }
            _ => Err(self.error_here("a label, directive or instruction")),
        }
    }

    fn bundle(&mut self) -> PResult<()> {
        let open = self.pos();
        self.bump();
        let mut ops = Vec::new();
        loop {
            if self.at_end() {
                self.errors.push(ParseError { pos: open, message: "unterminated '{': missing '}'".into() });
                if ops.is_empty() {
                    return Ok(());
                }
                break;
            }
            match self.peek().clone() {
                Tok::Newline | Tok::Punct(';') => self.bump(),
                Tok::Punct('}') => {
                    self.bump();
                    self.end_of_statement()?;
                    break;
                }
                Tok::Punct('{') => {
                    // A new bundle starts: the previous one was never closed.
                    self.errors.push(ParseError { pos: open, message: "unterminated '{': missing '}'".into() });
                    if !ops.is_empty() {
                        self.out.push(Stmt::Bundle { ops, pos: open });
                    }
                    return Ok(());
                }
                Tok::Ident(name) if matches!(self.peek_at(1), Tok::Punct(':')) => {
                    let pos = self.pos();
                    self.errors.push(ParseError {
                        pos,
                        message: format!("label '{name}' inside a bundle: labels go between bundles"),
                    });
                    self.bump();
                    self.bump();
                }
                Tok::Ident(name) if name.starts_with('.') => {
                    self.errors.push(ParseError {
                        pos: self.pos(),
                        message: format!("directive '{name}' inside a bundle"),
                    });
                    self.recover();
                }
                _ => match self.op() {
                    Ok(op) => {
                        ops.push(op);
                        if !matches!(self.peek(), Tok::Newline | Tok::Punct(';') | Tok::Punct('}')) {
                            let e = self.error_here("';' or '}'");
                            self.errors.push(e);
                            self.recover();
                        }
                    }
                    Err(e) => {
                        self.errors.push(e);
                        self.recover();
                    }
                },
            }
        }
        if ops.is_empty() {
            return Err(ParseError { pos: open, message: "empty bundle".into() });
        }
        self.out.push(Stmt::Bundle { ops, pos: open });
        Ok(())
    }

    fn op(&mut self) -> PResult<OpStmt> {
        let mut guard = None;
        if matches!(self.peek(), Tok::Punct('(')) {
            self.bump();
            let negate = matches!(self.peek(), Tok::Punct('!'));
            if negate {
                self.bump();
            }
            let pos = self.pos();
            let Tok::Ident(reg) = self.peek().clone() else {
                return Err(self.error_here("a guard register"));
            };
            self.bump();
            if !matches!(self.peek(), Tok::Punct(')')) {
                return Err(self.error_here("')' after the guard"));
            }
            self.bump();
            guard = Some(GuardSpec { reg, negate, pos });
        }
        let pos = self.pos();
        let Tok::Ident(mnemonic) = self.peek().clone() else {
            return Err(self.error_here("an instruction mnemonic"));
        };
        self.bump();
        let mut operands = Vec::new();
        if !matches!(self.peek(), Tok::Newline | Tok::Punct(';') | Tok::Punct('}')) && !self.at_end() {
            loop {
                operands.push(self.expr()?);
                if matches!(self.peek(), Tok::Punct(',')) {
                    self.bump();
                } else {
                    break;
                }
            }
        }
        Ok(OpStmt { mnemonic, pos, guard, operands })
    }

    fn directive_args(&mut self) -> PResult<Vec<Arg>> {
        let mut args = Vec::new();
        if matches!(self.peek(), Tok::Newline | Tok::Punct(';')) || self.at_end() {
            return Ok(args);
        }
        loop {
            let pos = self.pos();
            match self.peek().clone() {
                Tok::Str(s) => {
                    self.bump();
                    args.push(Arg::Str(s, pos));
                }
                Tok::Punct('@') | Tok::Punct('%') => {
                    self.bump();
                    let Tok::Ident(name) = self.peek().clone() else {
                        return Err(self.error_here("a type name after '@'"));
                    };
                    self.bump();
                    args.push(Arg::Type(name, pos));
                }
                _ => args.push(Arg::Expr(self.expr()?)),
            }
            if matches!(self.peek(), Tok::Punct(',')) {
                self.bump();
            } else {
                break;
            }
        }
        Ok(args)
    }

    pub fn expr(&mut self) -> PResult<Expr> {
        if self.depth == 0 {
            self.operators = 0;
        }
        self.binary(0)
    }

    fn binop(&self) -> Option<(BinOp, u8)> {
        Some(match self.peek() {
            Tok::Punct('|') => (BinOp::Or, 0),
            Tok::Punct('^') => (BinOp::Xor, 1),
            Tok::Punct('&') => (BinOp::And, 2),
            Tok::Shl => (BinOp::Shl, 3),
            Tok::Shr => (BinOp::Shr, 3),
            Tok::Punct('+') => (BinOp::Add, 4),
            Tok::Punct('-') => (BinOp::Sub, 4),
            Tok::Punct('*') => (BinOp::Mul, 5),
            Tok::Punct('/') => (BinOp::Div, 5),
            Tok::Punct('%') => (BinOp::Rem, 5),
            _ => return None,
        })
    }

    fn binary(&mut self, min_prec: u8) -> PResult<Expr> {
        let mut lhs = self.unary()?;
        while let Some((op, prec)) = self.binop() {
            if prec < min_prec {
                break;
            }
            self.operators += 1;
            if self.operators > MAX_OPERATORS {
                return Err(ParseError { pos: self.pos(), message: format!("expression has more than {MAX_OPERATORS} operators") });
            }
            self.bump();
            let rhs = self.binary(prec + 1)?;
            let pos = lhs.pos;
            lhs = Expr { kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), pos };
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> PResult<Expr> {
        if self.depth >= MAX_NESTING {
            return Err(ParseError { pos: self.pos(), message: format!("expression nests deeper than {MAX_NESTING} levels") });
        }
        self.depth += 1;
        let e = self.unary_inner();
        self.depth -= 1;
        e
    }

    fn unary_inner(&mut self) -> PResult<Expr> {
        let pos = self.pos();
        let kind = match self.peek().clone() {
            Tok::Punct('-') => {
                self.bump();
                let e = self.unary()?;
                // Fold literals so that `-16` is one number.
                match e.kind {
                    ExprKind::Int(v) => ExprKind::Int(v.wrapping_neg()),
                    ExprKind::Float(v) => ExprKind::Float(-v),
                    _ => ExprKind::Unary(UnOp::Neg, Box::new(e)),
                }
            }
            Tok::Punct('~') => {
                self.bump();
                ExprKind::Unary(UnOp::Not, Box::new(self.unary()?))
            }
            Tok::Punct('+') => {
                self.bump();
                return self.unary();
            }
            Tok::Punct('(') => {
                self.bump();
                let e = self.expr()?;
                if !matches!(self.peek(), Tok::Punct(')')) {
                    return Err(self.error_here("')'"));
                }
                self.bump();
                return Ok(Expr { kind: e.kind, pos });
            }
            Tok::Int(v) => {
                self.bump();
                ExprKind::Int(v)
            }
            Tok::Float(v) => {
                self.bump();
                ExprKind::Float(v)
            }
            Tok::Ident(n) => {
                self.bump();
                ExprKind::Name(n)
            }
            Tok::Dot => {
                self.bump();
                ExprKind::Dot
            }
            _ => return Err(self.error_here("an operand")),
        };
        Ok(Expr { kind, pos })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn parse_ok(s: &str) -> Vec<Stmt> {
        let (t, e) = lex(s);
        assert!(e.is_empty());
        let (stmts, errs) = parse(&t);
        assert!(errs.is_empty(), "{errs:?}");
        stmts
    }

    #[test]
    fn labels_ops_and_bundles() {
        let s = parse_ok("main: addi r1, r1, -16\n { ldw r5, r1, 0 ; (!p2) br loop }\n");
        assert_eq!(s.len(), 3);
        assert!(matches!(&s[0], Stmt::Label { name, .. } if name == "main"));
        let Stmt::Bundle { ops, .. } = &s[2] else { panic!() };
        assert_eq!(ops.len(), 2);
        assert_eq!(ops[1].guard.as_ref().map(|g| (g.reg.as_str(), g.negate)), Some(("p2", true)));
    }

    #[test]
    fn multi_line_bundle() {
        let s = parse_ok("{\n  add r1, r2, r3\n  (p1) add r4, r5, r6\n}\n");
        let Stmt::Bundle { ops, pos } = &s[0] else { panic!() };
        assert_eq!(ops.len(), 2);
        assert_eq!(*pos, Pos { line: 1, col: 1 });
        assert_eq!(ops[1].pos, Pos { line: 3, col: 8 });
    }

    #[test]
    fn expressions() {
        let s = parse_ok(".word 1+2*3, end-start, msg+4, -(1<<4)\n");
        let Stmt::Directive { args, .. } = &s[0] else { panic!() };
        assert_eq!(args.len(), 4);
        let Arg::Expr(e) = &args[0] else { panic!() };
        assert_eq!(e.to_string(), "1+2*3");
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let src = format!(".word {}1{}", "(".repeat(5000), ")".repeat(5000));
        let (t, _) = lex(&src);
        let (_, errs) = parse(&t);
        assert_eq!(errs[0].message, "expression nests deeper than 200 levels");
        let (t, _) = lex(&format!(".word {}1", "-~".repeat(5000)));
        assert_eq!(parse(&t).1.len(), 1);
    }

    #[test]
    fn unterminated_bundle() {
        let (t, _) = lex("  { add r1, r2, r3\n add r1, r1, r1\n");
        let (_, errs) = parse(&t);
        assert_eq!(errs[0].pos, Pos { line: 1, col: 3 });
        assert_eq!(errs[0].message, "unterminated '{': missing '}'");
    }
}

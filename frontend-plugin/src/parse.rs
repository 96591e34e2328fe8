//! The directives' syntax (seed 001 §3): the tokens of a `#pragma simd …`
//! line (as clang's preprocessor lexed them, macros expanded) or of a
//! `#pragma omp declare simd` clause list (rebuilt by the shim from clang's
//! attribute) → a [`Parsed`] directive with parameter names still unresolved,
//! or diagnostics at the offending token.
//!
//! ```text
//! #pragma simd vec-function                                    §3.1, before a loop
//! #pragma simd declare vec-function clause*                    §3.2–3.5, before a function
//!   clause: uniform(p, …) | linear(v[:step], …) | alignment(p[:bytes], …)
//!         | mask | nomask | simdlen(n)
//! omp dialect: uniform | linear | aligned | inbranch | notinbranch | simdlen
//! ```
//!
//! Steps, alignments and simdlen are integer constant expressions (literals,
//! `+ - * / % << >> ~ ( )`); an OpenMP step may also name a parameter.

use dsp_vec_contract::MaskMode;

/// A token's class, as the shim reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokKind {
    /// Identifiers and keywords.
    Ident,
    /// Numeric literals.
    Number,
    Punct,
    /// String or character literals and the rest.
    Other,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: TokKind,
    pub text: String,
}

impl Token {
    pub fn new(kind: TokKind, text: &str) -> Token {
        Token { kind, text: text.to_string() }
    }
}

/// A diagnostic at token `token` (the token count: at the end of the directive).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diag {
    pub token: usize,
    pub message: String,
}

/// Which spelling the tokens are in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// The tokens after `#pragma simd`.
    Simd,
    /// An OpenMP `declare simd` clause list.
    Omp,
}

/// A name as written, with its token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name {
    pub text: String,
    pub token: usize,
}

/// A linear step as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepSyntax {
    Const(i64),
    /// A parameter name (OpenMP only: a uniform parameter).
    Param(Name),
}

/// The clauses of one `vec-function` declaration, names unresolved.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Clauses {
    pub dialect: Option<Dialect>,
    pub uniform: Vec<Name>,
    pub linear: Vec<(Name, StepSyntax)>,
    pub aligned: Vec<(Name, Option<(u64, usize)>)>,
    pub mask: MaskMode,
    pub simdlen: Option<u32>,
}

/// A parsed directive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Parsed {
    /// `#pragma simd vec-function`: the next statement must be a loop.
    Loop,
    /// A function declaration's clauses.
    Declare(Clauses),
}

struct Parser<'a> {
    toks: &'a [Token],
    at: usize,
    dialect: Dialect,
}

type PResult<T> = Result<T, Diag>;

impl Parser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.toks.get(self.at)
    }

    fn is(&self, kind: TokKind, text: &str) -> bool {
        self.peek().is_some_and(|t| t.kind == kind && t.text == text)
    }

    fn err<T>(&self, token: usize, message: impl Into<String>) -> PResult<T> {
        Err(Diag { token, message: message.into() })
    }

    /// "'x'" for the current token, "end of directive" past the last.
    fn here(&self) -> String {
        match self.peek() {
            Some(t) => format!("'{}'", t.text),
            None => "end of directive".into(),
        }
    }

    fn expect_punct(&mut self, p: &str, after: &str) -> PResult<()> {
        if self.is(TokKind::Punct, p) {
            self.at += 1;
            Ok(())
        } else {
            self.err(self.at, format!("expected '{p}' {after}, found {}", self.here()))
        }
    }

    /// `vec-function` (three tokens: `vec`, `-`, `function`).
    fn vec_function(&mut self) -> bool {
        let ok = self.is(TokKind::Ident, "vec")
            && self.toks.get(self.at + 1).is_some_and(|t| t.text == "-")
            && self.toks.get(self.at + 2).is_some_and(|t| t.text == "function");
        if ok {
            self.at += 3;
        }
        ok
    }

    fn name(&mut self, clause: &str) -> PResult<Name> {
        match self.peek() {
            Some(t) if t.kind == TokKind::Ident => {
                let n = Name { text: t.text.clone(), token: self.at };
                self.at += 1;
                Ok(n)
            }
            _ => self.err(self.at, format!("expected a parameter name in '{clause}', found {}", self.here())),
        }
    }

    /// The tokens of an expression up to `,` or `)` at depth 0: their range.
    fn expr_range(&mut self) -> (usize, usize) {
        let start = self.at;
        let mut depth = 0usize;
        while let Some(t) = self.peek() {
            if t.kind == TokKind::Punct {
                match t.text.as_str() {
                    "(" => depth += 1,
                    ")" if depth == 0 => break,
                    ")" => depth -= 1,
                    "," if depth == 0 => break,
                    _ => {}
                }
            }
            self.at += 1;
        }
        (start, self.at)
    }

    /// A parenthesised, comma-separated list of `item`.
    fn list<T>(&mut self, clause: &str, mut item: impl FnMut(&mut Self) -> PResult<T>) -> PResult<Vec<T>> {
        self.expect_punct("(", &format!("after '{clause}'"))?;
        let mut v = vec![item(self)?];
        loop {
            if self.is(TokKind::Punct, ",") {
                self.at += 1;
                v.push(item(self)?);
            } else if self.is(TokKind::Punct, ")") {
                self.at += 1;
                return Ok(v);
            } else {
                return self.err(self.at, format!("expected ',' or ')' in '{clause}', found {}", self.here()));
            }
        }
    }

    /// `: constant` after a name, if there.
    fn constant_after_colon(&mut self, what: &str) -> PResult<Option<(i64, usize)>> {
        if !self.is(TokKind::Punct, ":") {
            return Ok(None);
        }
        self.at += 1;
        let (s, e) = self.expr_range();
        if s == e {
            return self.err(s, format!("expected {what} after ':'"));
        }
        match eval(&self.toks[s..e]) {
            Ok(v) => Ok(Some((v, s))),
            Err(k) => self.err(s + k, format!("{what} must be an integer constant expression")),
        }
    }

    fn linear_item(&mut self) -> PResult<(Name, StepSyntax)> {
        let n = self.name("linear")?;
        if !self.is(TokKind::Punct, ":") {
            return Ok((n, StepSyntax::Const(1)));
        }
        // An OpenMP step may be a parameter: one identifier.
        let single_ident = self.toks.get(self.at + 1).is_some_and(|t| t.kind == TokKind::Ident)
            && self.toks.get(self.at + 2).is_none_or(|t| t.text == "," || t.text == ")");
        if self.dialect == Dialect::Omp && single_ident {
            self.at += 1;
            let p = self.name("linear")?;
            return Ok((n, StepSyntax::Param(p)));
        }
        let (v, _) = self.constant_after_colon("linear step")?.unwrap_or((1, 0));
        Ok((n, StepSyntax::Const(v)))
    }

    fn aligned_item(&mut self) -> PResult<(Name, Option<(u64, usize)>)> {
        let n = self.name(self.aligned_spelling())?;
        match self.constant_after_colon("alignment")? {
            None => Ok((n, None)),
            Some((v, tok)) if v > 0 && (v as u64).is_power_of_two() => Ok((n, Some((v as u64, tok)))),
            Some((_, tok)) => self.err(tok, "alignment must be a power of two"),
        }
    }

    fn aligned_spelling(&self) -> &'static str {
        match self.dialect {
            Dialect::Simd => "alignment",
            Dialect::Omp => "aligned",
        }
    }

    fn set_mask(&mut self, c: &mut Clauses, mode: MaskMode, spelled: &str, tok: usize) -> PResult<()> {
        if c.mask != MaskMode::Both {
            let (m, nm) = match self.dialect {
                Dialect::Simd => ("mask", "nomask"),
                Dialect::Omp => ("inbranch", "notinbranch"),
            };
            let other = if c.mask == MaskMode::Masked { m } else { nm };
            return if other == spelled {
                self.err(tok, format!("'{spelled}' given twice"))
            } else {
                self.err(tok, format!("'{spelled}' cannot be used together with '{other}'"))
            };
        }
        c.mask = mode;
        Ok(())
    }

    fn clauses(&mut self) -> PResult<Clauses> {
        let mut c = Clauses { dialect: Some(self.dialect), ..Default::default() };
        let directive = match self.dialect {
            Dialect::Simd => "#pragma simd declare vec-function",
            Dialect::Omp => "#pragma omp declare simd",
        };
        while let Some(t) = self.peek() {
            let tok = self.at;
            if t.text == "," && self.dialect == Dialect::Omp {
                self.at += 1; // OpenMP allows commas between clauses
                continue;
            }
            if t.kind != TokKind::Ident {
                return self.err(tok, format!("expected a clause of '{directive}', found '{}'", t.text));
            }
            let word = t.text.clone();
            self.at += 1;
            match (self.dialect, word.as_str()) {
                (_, "uniform") => {
                    let v = self.list("uniform", |p| p.name("uniform"))?;
                    c.uniform.extend(v);
                }
                (_, "linear") => {
                    let v = self.list("linear", Self::linear_item)?;
                    c.linear.extend(v);
                }
                (Dialect::Simd, "alignment") | (Dialect::Omp, "aligned") => {
                    let v = self.list(&word, Self::aligned_item)?;
                    c.aligned.extend(v);
                }
                (Dialect::Simd, "mask") | (Dialect::Omp, "inbranch") => self.set_mask(&mut c, MaskMode::Masked, &word, tok)?,
                (Dialect::Simd, "nomask") | (Dialect::Omp, "notinbranch") => {
                    self.set_mask(&mut c, MaskMode::Unmasked, &word, tok)?
                }
                (_, "simdlen") => {
                    self.expect_punct("(", "after 'simdlen'")?;
                    let (s, e) = self.expr_range();
                    let v = match eval(&self.toks[s..e]) {
                        Ok(v) if v > 0 && v <= i64::from(u32::MAX) => v as u32,
                        Ok(_) => return self.err(s, "simdlen must be positive"),
                        Err(k) => return self.err(s + k.min(e - s), "simdlen must be an integer constant expression"),
                    };
                    self.expect_punct(")", "after the simdlen")?;
                    if c.simdlen.replace(v).is_some() {
                        return self.err(tok, "'simdlen' given twice");
                    }
                }
                (Dialect::Simd, "aligned") => {
                    return self.err(tok, format!("unknown clause 'aligned' in '{directive}' (did you mean 'alignment'?)"))
                }
                _ => return self.err(tok, format!("unknown clause '{word}' in '{directive}'")),
            }
        }
        Ok(c)
    }
}

/// Parses the tokens after `#pragma simd` ([`Dialect::Simd`]) or an OpenMP
/// clause list ([`Dialect::Omp`]).
pub fn parse(dialect: Dialect, toks: &[Token]) -> Result<Parsed, Diag> {
    let mut p = Parser { toks, at: 0, dialect };
    match dialect {
        Dialect::Omp => Ok(Parsed::Declare(p.clauses()?)),
        Dialect::Simd => {
            if p.vec_function() {
                if p.peek().is_some() {
                    return p.err(p.at, format!("unexpected {} after '#pragma simd vec-function'", p.here()));
                }
                return Ok(Parsed::Loop);
            }
            if p.is(TokKind::Ident, "declare") {
                p.at += 1;
                if !p.vec_function() {
                    return p.err(p.at, format!("expected 'vec-function' after '#pragma simd declare', found {}", p.here()));
                }
                return Ok(Parsed::Declare(p.clauses()?));
            }
            p.err(0, format!("expected 'vec-function' or 'declare vec-function' after '#pragma simd', found {}", p.here()))
        }
    }
}

/// Evaluates an integer constant expression; `Err(k)`: token `k` is not
/// part of one (an identifier, a float, a string, a stray operator).
pub fn eval(toks: &[Token]) -> Result<i64, usize> {
    let mut e = Eval { toks, at: 0 };
    let v = e.binary(0)?;
    if e.at != toks.len() {
        return Err(e.at);
    }
    Ok(v)
}

struct Eval<'a> {
    toks: &'a [Token],
    at: usize,
}

fn prec(op: &str) -> Option<u8> {
    Some(match op {
        "|" => 1,
        "^" => 2,
        "&" => 3,
        "<<" | ">>" => 4,
        "+" | "-" => 5,
        "*" | "/" | "%" => 6,
        _ => return None,
    })
}

impl Eval<'_> {
    fn binary(&mut self, min: u8) -> Result<i64, usize> {
        let mut lhs = self.unary()?;
        while let Some(t) = self.toks.get(self.at) {
            let Some(p) = prec(&t.text).filter(|&p| p > min && t.kind == TokKind::Punct) else { break };
            let op_at = self.at;
            let op = t.text.clone();
            self.at += 1;
            let rhs = self.binary(p)?;
            lhs = match op.as_str() {
                "+" => lhs.checked_add(rhs),
                "-" => lhs.checked_sub(rhs),
                "*" => lhs.checked_mul(rhs),
                "/" => lhs.checked_div(rhs),
                "%" => lhs.checked_rem(rhs),
                "<<" => u32::try_from(rhs).ok().and_then(|r| lhs.checked_shl(r)),
                ">>" => u32::try_from(rhs).ok().and_then(|r| lhs.checked_shr(r)),
                "&" => Some(lhs & rhs),
                "|" => Some(lhs | rhs),
                _ => Some(lhs ^ rhs),
            }
            .ok_or(op_at)?;
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> Result<i64, usize> {
        let at = self.at;
        let t = self.toks.get(at).ok_or(at)?;
        self.at += 1;
        match (t.kind, t.text.as_str()) {
            (TokKind::Punct, "-") => self.unary()?.checked_neg().ok_or(at),
            (TokKind::Punct, "+") => self.unary(),
            (TokKind::Punct, "~") => Ok(!self.unary()?),
            (TokKind::Punct, "(") => {
                let v = self.binary(0)?;
                match self.toks.get(self.at) {
                    Some(c) if c.text == ")" => {
                        self.at += 1;
                        Ok(v)
                    }
                    _ => Err(self.at),
                }
            }
            (TokKind::Number, s) => int_literal(s).ok_or(at),
            _ => Err(at),
        }
    }
}

/// A C integer literal (decimal, octal, hex, binary; `u`/`l` suffixes).
fn int_literal(s: &str) -> Option<i64> {
    let body = s.trim_end_matches(['u', 'U', 'l', 'L']);
    let (digits, radix) = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        (h, 16)
    } else if let Some(b) = body.strip_prefix("0b").or_else(|| body.strip_prefix("0B")) {
        (b, 2)
    } else if body.len() > 1 && body.starts_with('0') {
        (&body[1..], 8)
    } else {
        (body, 10)
    };
    let digits = digits.replace('\'', "");
    i64::from_str_radix(&digits, radix).ok()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Splits C-like text into tokens (enough for the tests).
    pub(crate) fn lex(s: &str) -> Vec<Token> {
        let mut v = Vec::new();
        let cs: Vec<char> = s.chars().collect();
        let mut i = 0;
        while i < cs.len() {
            let c = cs[i];
            if c.is_whitespace() {
                i += 1;
            } else if c.is_alphabetic() || c == '_' {
                let st = i;
                while i < cs.len() && (cs[i].is_alphanumeric() || cs[i] == '_') {
                    i += 1;
                }
                v.push(Token::new(TokKind::Ident, &cs[st..i].iter().collect::<String>()));
            } else if c.is_ascii_digit() {
                let st = i;
                while i < cs.len() && (cs[i].is_alphanumeric() || cs[i] == '.') {
                    i += 1;
                }
                v.push(Token::new(TokKind::Number, &cs[st..i].iter().collect::<String>()));
            } else if (c == '<' || c == '>') && cs.get(i + 1) == Some(&c) {
                v.push(Token::new(TokKind::Punct, &format!("{c}{c}")));
                i += 2;
            } else {
                v.push(Token::new(TokKind::Punct, &c.to_string()));
                i += 1;
            }
        }
        v
    }

    fn simd(s: &str) -> Result<Parsed, Diag> {
        parse(Dialect::Simd, &lex(s))
    }

    fn decl(s: &str) -> Clauses {
        match simd(s).unwrap() {
            Parsed::Declare(c) => c,
            p => panic!("{p:?}"),
        }
    }

    #[test]
    fn loops_and_declarations() {
        assert_eq!(simd("vec-function").unwrap(), Parsed::Loop);
        let c = decl("declare vec-function uniform(a, b) linear(i, p:2*4) alignment(p:64, q) mask simdlen(8)");
        assert_eq!(c.uniform.iter().map(|n| n.text.as_str()).collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(c.linear[0].1, StepSyntax::Const(1));
        assert_eq!(c.linear[1].1, StepSyntax::Const(8));
        assert_eq!(c.aligned[0].1.map(|a| a.0), Some(64));
        assert_eq!(c.aligned[1].1, None);
        assert_eq!(c.mask, MaskMode::Masked);
        assert_eq!(c.simdlen, Some(8));
        assert_eq!(decl("declare vec-function").uniform.len(), 0);
        assert_eq!(decl("declare vec-function linear(i:-(3))").linear[0].1, StepSyntax::Const(-3));
    }

    #[test]
    fn omp_clauses() {
        let Parsed::Declare(c) = parse(Dialect::Omp, &lex("uniform(n), linear(i:n) aligned(p:16) notinbranch")).unwrap() else {
            panic!()
        };
        assert!(matches!(&c.linear[0].1, StepSyntax::Param(n) if n.text == "n"));
        assert_eq!(c.mask, MaskMode::Unmasked);
        assert_eq!(c.aligned[0].1.map(|a| a.0), Some(16));
    }

    fn diag(s: &str) -> (usize, String) {
        let d = simd(s).unwrap_err();
        (d.token, d.message)
    }

    #[test]
    fn errors_name_the_offending_token() {
        assert_eq!(
            diag("declare vec-function uniform(a) vector(b)"),
            (8, "unknown clause 'vector' in '#pragma simd declare vec-function'".into())
        );
        assert_eq!(
            diag("declare vec-function mask nomask"),
            (5, "'nomask' cannot be used together with 'mask'".into())
        );
        assert_eq!(diag("declare vec-function linear(i:n)"), (8, "linear step must be an integer constant expression".into()));
        assert_eq!(diag("declare vec-function linear(i:2*n)"), (10, "linear step must be an integer constant expression".into()));
        assert_eq!(diag("declare vec-function alignment(p:24)"), (8, "alignment must be a power of two".into()));
        assert_eq!(diag("declare vec-function uniform(a b)"), (7, "expected ',' or ')' in 'uniform', found 'b'".into()));
        assert_eq!(diag("declare vec-function uniform"), (5, "expected '(' after 'uniform', found end of directive".into()));
        assert_eq!(diag("vec-function x"), (3, "unexpected 'x' after '#pragma simd vec-function'".into()));
        assert_eq!(diag("vectorize"), (0, "expected 'vec-function' or 'declare vec-function' after '#pragma simd', found 'vectorize'".into()));
        assert_eq!(
            diag("declare vec-function aligned(p)"),
            (4, "unknown clause 'aligned' in '#pragma simd declare vec-function' (did you mean 'alignment'?)".into())
        );
        assert_eq!(diag("declare vec-function simdlen(0)"), (6, "simdlen must be positive".into()));
    }

    #[test]
    fn constant_expressions() {
        let e = |s: &str| eval(&lex(s));
        assert_eq!(e("1 + 2 * 3"), Ok(7));
        assert_eq!(e("(1 + 2) * 3"), Ok(9));
        assert_eq!(e("0x10 << 2"), Ok(64));
        assert_eq!(e("-8 / 2"), Ok(-4));
        assert_eq!(e("010"), Ok(8));
        assert_eq!(e("4u"), Ok(4));
        assert_eq!(e("1 + x"), Err(2));
        assert_eq!(e("1.5"), Err(0));
        assert_eq!(e("1 / 0"), Err(1));
        assert_eq!(e("(1"), Err(2));
    }
}

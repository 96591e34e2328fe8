//! Parser of `.isa` files: statements to declarations, `base` inheritance and
//! `set` overrides, then resolution into a checked [`Machine`] (see `resolve`).
//!
//! Every error is a [`Diagnostic`] `FILE:LINE:COL: error: MESSAGE`; nothing
//! in here panics on bad input.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use crate::builtin;
use crate::lexer::{statements, Statement, Tok, Token};
use crate::model::Machine;

/// An error in a description, with its location: `FILE:LINE:COL: error: …`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            // Not about a place in the text (a missing file, an unknown machine).
            write!(f, "{}: error: {}", crate::text::shown(&self.file), crate::text::shown(&self.message))
        } else {
            let (file, message) = (crate::text::shown(&self.file), crate::text::shown(&self.message));
            write!(f, "{file}:{}:{}: error: {message}", self.line, self.col)
        }
    }
}
impl std::error::Error for Diagnostic {}

/// A source location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loc {
    pub file: String,
    pub line: u32,
    pub col: u32,
}

impl Loc {
    pub fn error(&self, message: impl Into<String>) -> Diagnostic {
        Diagnostic { file: self.file.clone(), line: self.line, col: self.col, message: message.into() }
    }
}

/// A name with the place it was written.
#[derive(Clone, Debug)]
pub struct Name {
    pub text: String,
    pub loc: Loc,
}

#[derive(Clone, Debug)]
pub enum RegShape {
    Width(u32),
    Lanes(u32, u32),
    MaskOf(Name),
}

#[derive(Clone, Debug)]
pub struct RegFileDecl {
    pub name: Name,
    pub count: i64,
    pub shape: RegShape,
    pub read: i64,
    pub write: i64,
    pub specials: Vec<(i64, crate::model::SpecialKind, Loc)>,
}

#[derive(Clone, Debug)]
pub struct FieldDecl {
    pub name: Name,
    pub hi: i64,
    pub lo: i64,
}

#[derive(Clone, Debug)]
pub struct EncodingDecl {
    pub width: i64,
    pub stop: i64,
    pub opcode: (i64, i64),
    /// (hi, lo, negate bit, file)
    pub guard: Option<(i64, i64, i64, Name)>,
}

#[derive(Clone, Debug)]
pub struct OperandDecl {
    pub name: Name,
    pub class: Name,
}

#[derive(Clone, Debug)]
pub struct SemDecl {
    pub dst: Option<Name>,
    pub op: Name,
    pub args: Vec<Name>,
}

#[derive(Clone, Debug)]
pub struct InstDecl {
    pub mnemonic: Name,
    pub operands: Vec<OperandDecl>,
    pub units: Vec<Name>,
    pub latency: Option<(i64, Loc)>,
    pub busy: Option<(i64, Loc)>,
    pub sem: Option<SemDecl>,
    pub format: Option<Name>,
    pub opcode: Option<(i64, Loc)>,
    pub cost: Option<(i64, Loc)>,
}

impl InstDecl {
    fn new(mnemonic: Name) -> InstDecl {
        InstDecl {
            mnemonic,
            operands: Vec::new(),
            units: Vec::new(),
            latency: None,
            busy: None,
            sem: None,
            format: None,
            opcode: None,
            cost: None,
        }
    }
}

/// `cache NAME level N size B line B ways N hit C miss C policy P`: every
/// property with where it was written (checked by `memsys`).
#[derive(Clone, Debug)]
pub struct CacheDecl {
    pub name: Name,
    pub props: Vec<(Name, PropValue)>,
}

/// `onchip NAME base ADDR size BYTES units U…`.
#[derive(Clone, Debug)]
pub struct OnChipDecl {
    pub name: Name,
    pub base: Option<(i64, Loc)>,
    pub size: Option<(i64, Loc)>,
    pub units: Vec<Name>,
}

/// The value of a `key value` property: a number or a word.
#[derive(Clone, Debug)]
pub enum PropValue {
    Number(i64, Loc),
    Word(Name),
}

#[derive(Clone, Debug)]
pub enum AbiDecl {
    Regs(Vec<Name>),
    Number(i64),
}

/// One declaration of the language.
#[derive(Clone, Debug)]
pub enum Decl {
    Machine { name: Name, description: String },
    Memory { base: i64, size: i64, null_guard: i64, units: Vec<Name> },
    Cache(CacheDecl),
    OnChip(OnChipDecl),
    RegFile(RegFileDecl),
    Unit { name: Name, kind: Name, count: i64 },
    Bundle { max_ops: i64 },
    Slot { name: Name, feeds: Vec<Name> },
    DelaySlots(i64),
    Link(Name),
    Abi { key: Name, value: AbiDecl },
    Encoding(EncodingDecl),
    Format { name: Name, fields: Vec<FieldDecl> },
    Inst(Box<InstDecl>),
}

impl Decl {
    /// Identity for duplicate detection and `base` overriding.
    fn key(&self) -> (&'static str, String) {
        match self {
            Decl::Machine { .. } => ("machine", String::new()),
            Decl::Memory { .. } => ("memory", String::new()),
            Decl::Cache(c) => ("cache", c.name.text.clone()),
            Decl::OnChip(o) => ("onchip", o.name.text.clone()),
            Decl::RegFile(r) => ("regfile", r.name.text.clone()),
            Decl::Unit { name, .. } => ("unit", name.text.clone()),
            Decl::Bundle { .. } => ("bundle", String::new()),
            Decl::Slot { name, .. } => ("slot", name.text.clone()),
            Decl::DelaySlots(_) => ("delay_slots", String::new()),
            Decl::Link(_) => ("link", String::new()),
            Decl::Abi { key, .. } => ("abi", key.text.clone()),
            Decl::Encoding(_) => ("encoding", String::new()),
            Decl::Format { name, .. } => ("format", name.text.clone()),
            Decl::Inst(i) => ("inst", i.mnemonic.text.clone()),
        }
    }
}

/// A `set MNEMONIC lat N …` modification of an inherited instruction.
#[derive(Clone, Debug)]
pub struct SetDecl {
    pub mnemonic: Name,
    pub latency: Option<(i64, Loc)>,
    pub busy: Option<(i64, Loc)>,
    pub cost: Option<(i64, Loc)>,
    pub units: Option<Vec<Name>>,
}

/// Everything a file (with its bases) declares, in order.
#[derive(Default, Debug)]
pub struct Declarations {
    pub decls: Vec<(Decl, Loc)>,
    pub sets: Vec<SetDecl>,
    /// Concatenated source texts, for the fingerprint.
    pub texts: String,
}

/// Finds the text of a file named by `base "…"`.
/// Err: the file is there but is not UTF-8 (where its first bad byte is).
fn load_base(name: &str, including_dir: Option<&Path>) -> Result<Option<(String, String)>, Diagnostic> {
    if let Some(dir) = including_dir {
        let p = dir.join(name);
        if let Ok(bytes) = std::fs::read(&p) {
            let file = p.display().to_string();
            return match crate::text::decode_utf8(bytes) {
                Ok(t) => Ok(Some((file, t))),
                Err(e) => Err(Diagnostic { file, line: e.line, col: e.col, message: format!("invalid UTF-8 (byte 0x{:02x})", e.byte) }),
            };
        }
    }
    Ok(builtin::source(name).map(|(f, t)| (f.to_string(), t.to_string())))
}

struct Cursor<'a> {
    toks: &'a [Token],
    pos: usize,
    file: &'a str,
    end: (u32, u32),
}

impl<'a> Cursor<'a> {
    fn loc_of(&self, t: &Token) -> Loc {
        Loc { file: self.file.to_string(), line: t.line, col: t.col }
    }
    fn here(&self) -> Loc {
        match self.toks.get(self.pos) {
            Some(t) => self.loc_of(t),
            None => Loc { file: self.file.to_string(), line: self.end.0, col: self.end.1 },
        }
    }
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.tok)
    }
    fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }
    fn found(&self) -> String {
        match self.toks.get(self.pos) {
            Some(t) => t.describe(),
            None => "end of line".into(),
        }
    }
    fn ident(&mut self, what: &str) -> Result<Name, Diagnostic> {
        match self.toks.get(self.pos) {
            Some(Token { tok: Tok::Ident(s), .. }) => {
                let loc = self.here();
                self.pos += 1;
                Ok(Name { text: s.clone(), loc })
            }
            _ => Err(self.here().error(format!("expected {what}, found {}", self.found()))),
        }
    }
    fn number(&mut self, what: &str) -> Result<i64, Diagnostic> {
        let neg = self.peek() == Some(&Tok::Punct("-"));
        if neg {
            self.pos += 1;
        }
        match self.toks.get(self.pos) {
            Some(Token { tok: Tok::Number(n), .. }) => {
                self.pos += 1;
                Ok(if neg { -n } else { *n })
            }
            _ => Err(self.here().error(format!("expected {what}, found {}", self.found()))),
        }
    }
    fn number_loc(&mut self, what: &str) -> Result<(i64, Loc), Diagnostic> {
        let loc = self.here();
        Ok((self.number(what)?, loc))
    }
    fn string(&mut self, what: &str) -> Result<String, Diagnostic> {
        match self.toks.get(self.pos) {
            Some(Token { tok: Tok::Str(s), .. }) => {
                self.pos += 1;
                Ok(s.clone())
            }
            _ => Err(self.here().error(format!("expected {what}, found {}", self.found()))),
        }
    }
    fn punct(&mut self, p: &'static str) -> Result<(), Diagnostic> {
        if self.peek() == Some(&Tok::Punct(p)) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.here().error(format!("expected '{p}', found {}", self.found())))
        }
    }
    fn eat(&mut self, p: &'static str) -> bool {
        if self.peek() == Some(&Tok::Punct(p)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn keyword(&mut self, kw: &str) -> Result<(), Diagnostic> {
        match self.peek() {
            Some(Tok::Ident(s)) if s == kw => {
                self.pos += 1;
                Ok(())
            }
            _ => Err(self.here().error(format!("expected '{kw}', found {}", self.found()))),
        }
    }
    fn is_keyword(&self, kw: &str) -> bool {
        matches!(self.peek(), Some(Tok::Ident(s)) if s == kw)
    }
    fn finish(&self) -> Result<(), Diagnostic> {
        if self.at_end() {
            Ok(())
        } else {
            Err(self.here().error(format!("unexpected {} at end of statement", self.found())))
        }
    }
    /// `HI..LO` bit range.
    fn range(&mut self, what: &str) -> Result<(i64, i64), Diagnostic> {
        let hi = self.number(what)?;
        self.punct("..")?;
        let lo = self.number(what)?;
        Ok((hi, lo))
    }
    /// Identifiers until the end or until one of `stop` keywords.
    fn idents_until(&mut self, stop: &[&str], what: &str) -> Result<Vec<Name>, Diagnostic> {
        let mut v = Vec::new();
        while let Some(Tok::Ident(s)) = self.peek() {
            if stop.contains(&s.as_str()) {
                break;
            }
            v.push(self.ident(what)?);
        }
        if v.is_empty() {
            return Err(self.here().error(format!("expected {what}, found {}", self.found())));
        }
        Ok(v)
    }
}

const INST_KEYWORDS: &[&str] = &["units", "lat", "busy", "sem", "enc", "cost"];

fn parse_regfile(c: &mut Cursor) -> Result<RegFileDecl, Diagnostic> {
    let name = c.ident("register file name")?;
    let mut count = None;
    let mut shape = None;
    let (mut read, mut write) = (None, None);
    let mut specials = Vec::new();
    while !c.at_end() {
        let kw = c.ident("a register file property (count, width, lanes, mask_of, read, write, zero, true)")?;
        match kw.text.as_str() {
            "count" => count = Some(c.number("register count")?),
            "width" => shape = Some(RegShape::Width(c.number("width in bits")? as u32)),
            "lanes" => {
                let l = c.number("lane count")?;
                c.keyword("x")?;
                let b = c.number("bits per lane")?;
                shape = Some(RegShape::Lanes(l as u32, b as u32));
            }
            "mask_of" => shape = Some(RegShape::MaskOf(c.ident("vector register file")?)),
            "read" => read = Some(c.number("read ports")?),
            "write" => write = Some(c.number("write ports")?),
            "zero" | "true" => {
                let loc = c.here();
                let idx = c.number("register index")?;
                let kind = if kw.text == "zero" {
                    crate::model::SpecialKind::Zero
                } else {
                    crate::model::SpecialKind::True
                };
                specials.push((idx, kind, loc));
            }
            other => return Err(kw.loc.error(format!("unknown register file property '{other}'"))),
        }
    }
    let missing = |what: &str| name.loc.error(format!("register file '{}' needs '{what}'", name.text));
    Ok(RegFileDecl {
        count: count.ok_or_else(|| missing("count"))?,
        shape: shape.ok_or_else(|| missing("width, lanes or mask_of"))?,
        read: read.ok_or_else(|| missing("read"))?,
        write: write.ok_or_else(|| missing("write"))?,
        name,
        specials,
    })
}

fn parse_inst_body(c: &mut Cursor, d: &mut InstDecl, allow: &[&str]) -> Result<(), Diagnostic> {
    while !c.at_end() {
        let kw = c.ident("an instruction property (units, lat, busy, sem, enc, cost)")?;
        if !allow.contains(&kw.text.as_str()) {
            return Err(kw.loc.error(format!("unknown instruction property '{}'", kw.text)));
        }
        match kw.text.as_str() {
            "units" => d.units = c.idents_until(INST_KEYWORDS, "unit name")?,
            "lat" => d.latency = Some(c.number_loc("latency")?),
            "busy" => d.busy = Some(c.number_loc("busy cycles")?),
            "cost" => d.cost = Some(c.number_loc("cost")?),
            "enc" => {
                d.format = Some(c.ident("format name")?);
                if matches!(c.peek(), Some(Tok::Number(_))) {
                    d.opcode = Some(c.number_loc("opcode")?);
                }
            }
            "sem" => {
                let first = c.ident("semantics")?;
                let (dst, op) = if c.eat("=") { (Some(first), c.ident("operation")?) } else { (None, first) };
                c.punct("(")?;
                let mut args = Vec::new();
                if !c.eat(")") {
                    loop {
                        args.push(c.ident("operand name")?);
                        if c.eat(")") {
                            break;
                        }
                        c.punct(",")?;
                    }
                }
                d.sem = Some(SemDecl { dst, op, args });
            }
            _ => unreachable!("filtered by allow"),
        }
    }
    Ok(())
}

fn parse_inst(c: &mut Cursor) -> Result<InstDecl, Diagnostic> {
    let mnemonic = c.ident("mnemonic")?;
    c.punct("(")?;
    let mut operands = Vec::new();
    if !c.eat(")") {
        loop {
            let name = c.ident("operand name")?;
            c.punct(":")?;
            let class = c.ident("operand class (a register file, sN, uN, iN or relN)")?;
            operands.push(OperandDecl { name, class });
            if c.eat(")") {
                break;
            }
            c.punct(",")?;
        }
    }
    let mut d = InstDecl { operands, ..InstDecl::new(mnemonic) };
    parse_inst_body(c, &mut d, INST_KEYWORDS)?;
    Ok(d)
}

/// Parses one statement. `Ok(None)` for `base` (handled by the caller).
fn parse_statement(st: &Statement, file: &str) -> Result<Stmt, Diagnostic> {
    let mut c = Cursor { toks: &st.tokens, pos: 0, file, end: st.end };
    let kw = c.ident("a statement keyword")?;
    let decl = match kw.text.as_str() {
        "base" => {
            let loc = c.here();
            let s = c.string("a quoted file name")?;
            c.finish()?;
            return Ok(Stmt::Base(s, loc));
        }
        "set" => {
            let mnemonic = c.ident("mnemonic")?;
            let mut d = InstDecl::new(mnemonic.clone());
            parse_inst_body(&mut c, &mut d, &["units", "lat", "busy", "cost"])?;
            return Ok(Stmt::Set(SetDecl {
                mnemonic,
                latency: d.latency,
                busy: d.busy,
                cost: d.cost,
                units: (!d.units.is_empty()).then_some(d.units),
            }));
        }
        "drop" => {
            let names = c.idents_until(&[], "instruction mnemonic")?;
            c.finish()?;
            return Ok(Stmt::Drop(names));
        }
        "machine" => {
            let name = c.ident("machine name")?;
            let description = if c.at_end() { String::new() } else { c.string("a quoted description")? };
            Decl::Machine { name, description }
        }
        "memory" => {
            c.keyword("base")?;
            let base = c.number("memory base address")?;
            c.keyword("size")?;
            let size = c.number("memory size")?;
            let null_guard = if c.is_keyword("null_guard") {
                c.pos += 1;
                c.number("null guard size")?
            } else {
                0
            };
            let units = if c.is_keyword("units") {
                c.pos += 1;
                c.idents_until(&[], "unit name")?
            } else {
                Vec::new()
            };
            Decl::Memory { base, size, null_guard, units }
        }
        "cache" => {
            let name = c.ident("cache name")?;
            let mut props = Vec::new();
            while !c.at_end() {
                let key = c.ident("a cache property (level, size, line, ways, hit, miss, policy)")?;
                let value = if key.text == "policy" {
                    PropValue::Word(c.ident("a write policy (writeback or writethrough)")?)
                } else {
                    let (n, loc) = c.number_loc(&format!("a number after '{}'", key.text))?;
                    PropValue::Number(n, loc)
                };
                props.push((key, value));
            }
            Decl::Cache(CacheDecl { name, props })
        }
        "onchip" => {
            let name = c.ident("on-chip memory name")?;
            let mut d = OnChipDecl { name, base: None, size: None, units: Vec::new() };
            while !c.at_end() {
                let key = c.ident("an on-chip memory property (base, size, units)")?;
                match key.text.as_str() {
                    "base" => d.base = Some(c.number_loc("base address")?),
                    "size" => d.size = Some(c.number_loc("size in bytes")?),
                    "units" => d.units = c.idents_until(&["base", "size"], "unit name")?,
                    other => return Err(key.loc.error(format!("unknown on-chip memory property '{other}' (expected base, size, units)"))),
                }
            }
            Decl::OnChip(d)
        }
        "regfile" => Decl::RegFile(parse_regfile(&mut c)?),
        "unit" => {
            let name = c.ident("unit name")?;
            c.keyword("kind")?;
            let kind = c.ident("unit kind (scalar, vector, memory, control, cross)")?;
            c.keyword("count")?;
            let count = c.number("unit count")?;
            Decl::Unit { name, kind, count }
        }
        "bundle" => {
            c.keyword("max_ops")?;
            Decl::Bundle { max_ops: c.number("operations per bundle")? }
        }
        "slot" => {
            let name = c.ident("slot name")?;
            c.keyword("feeds")?;
            Decl::Slot { name, feeds: c.idents_until(&[], "unit name")? }
        }
        "delay_slots" => Decl::DelaySlots(c.number("number of delay slots")?),
        "link" => Decl::Link(c.ident("link register")?),
        "abi" => {
            let key = c.ident("ABI property (sp, fp, args, rets, callee_saved, stack_align)")?;
            let value = match key.text.as_str() {
                "sp" | "fp" => AbiDecl::Regs(vec![c.ident("register")?]),
                "args" | "rets" | "callee_saved" => AbiDecl::Regs(c.idents_until(&[], "register")?),
                "stack_align" => AbiDecl::Number(c.number("alignment in bytes")?),
                other => return Err(key.loc.error(format!("unknown ABI property '{other}'"))),
            };
            Decl::Abi { key, value }
        }
        "encoding" => {
            c.keyword("width")?;
            let width = c.number("operation width in bits")?;
            c.keyword("stop")?;
            let stop = c.number("stop bit")?;
            c.keyword("opcode")?;
            let opcode = c.range("opcode bits")?;
            let guard = if c.is_keyword("guard") {
                c.pos += 1;
                let (hi, lo) = c.range("guard bits")?;
                c.keyword("negate")?;
                let neg = c.number("negate bit")?;
                c.keyword("file")?;
                let file = c.ident("predicate register file")?;
                Some((hi, lo, neg, file))
            } else {
                None
            };
            Decl::Encoding(EncodingDecl { width, stop, opcode, guard })
        }
        "format" => {
            let name = c.ident("format name")?;
            let mut fields = Vec::new();
            if !c.at_end() {
                loop {
                    let fname = c.ident("field name")?;
                    let (hi, lo) = c.range("field bits")?;
                    fields.push(FieldDecl { name: fname, hi, lo });
                    if c.at_end() {
                        break;
                    }
                    c.punct(",")?;
                }
            }
            Decl::Format { name, fields }
        }
        "inst" => Decl::Inst(Box::new(parse_inst(&mut c)?)),
        other => {
            return Err(kw.loc.error(format!(
                "unknown statement '{other}' (expected machine, memory, cache, onchip, regfile, unit, bundle, slot, \
                 delay_slots, link, abi, encoding, format, inst, set, drop or base)"
            )))
        }
    };
    c.finish()?;
    Ok(Stmt::Decl(Box::new(decl), kw.loc))
}

enum Stmt {
    Base(String, Loc),
    Set(SetDecl),
    /// `drop MNEMONIC…`: inherited instructions removed.
    Drop(Vec<Name>),
    Decl(Box<Decl>, Loc),
}

/// Collects the declarations of `text` (and of its `base`, recursively).
pub fn declarations(text: &str, file: &str, dir: Option<&Path>, depth: u32) -> Result<Declarations, Diagnostic> {
    let stmts = statements(text, file)?;
    let mut out = Declarations::default();
    let mut own: HashMap<(&'static str, String), Loc> = HashMap::new();
    // Positions in `out.decls` by identity, and the dropped ones (removed at
    // the end): linear in the number of declarations.
    let mut index: HashMap<(&'static str, String), usize> = HashMap::new();
    let mut dropped: Vec<bool> = Vec::new();
    let mut first = true;
    for st in &stmts {
        match parse_statement(st, file)? {
            Stmt::Base(name, loc) => {
                if !first {
                    return Err(loc.error("'base' must be the first statement of the file"));
                }
                if depth > 8 {
                    return Err(loc.error("'base' nested too deeply (a cycle?)"));
                }
                let (path, base_text) = load_base(&name, dir)?
                    .ok_or_else(|| loc.error(format!("cannot find base description '{name}'")))?;
                let base_dir = Path::new(&path).parent().map(Path::to_path_buf);
                out = declarations(&base_text, &path, base_dir.as_deref(), depth + 1)?;
                index = out.decls.iter().enumerate().map(|(i, (d, _))| (d.key(), i)).collect();
                dropped = vec![false; out.decls.len()];
            }
            Stmt::Set(s) => out.sets.push(s),
            Stmt::Drop(names) => {
                for n in names {
                    let key = ("inst", n.text.clone());
                    let i = index.remove(&key).ok_or_else(|| {
                        n.loc.error(format!("cannot drop '{}': no instruction of that name is declared before", n.text))
                    })?;
                    dropped[i] = true;
                    out.sets.retain(|s| s.mnemonic.text != n.text);
                }
            }
            Stmt::Decl(decl, loc) => {
                let key = decl.key();
                if let Some(prev) = own.get(&key) {
                    let what = if key.1.is_empty() { key.0.to_string() } else { format!("{} '{}'", key.0, key.1) };
                    return Err(loc.error(format!("duplicate {what} (first defined at line {})", prev.line)));
                }
                own.insert(key.clone(), loc.clone());
                // A declaration of the base with the same identity is replaced in place.
                match index.get(&key) {
                    Some(&i) => out.decls[i] = (*decl, loc),
                    None => {
                        index.insert(key, out.decls.len());
                        out.decls.push((*decl, loc));
                        dropped.push(false);
                    }
                }
            }
        }
        first = false;
    }
    if dropped.iter().any(|&d| d) {
        let decls = std::mem::take(&mut out.decls);
        out.decls = decls.into_iter().zip(dropped).filter(|(_, d)| !d).map(|(x, _)| x).collect();
    }
    out.texts.push_str(text);
    Ok(out)
}

fn fnv1a(text: &str) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in text.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

impl Machine {
    /// Parses a description held in memory. `base "…"` is looked up among
    /// the shipped machines.
    pub fn parse_str(text: &str, file: &str) -> Result<Machine, Diagnostic> {
        Self::parse_in(text, file, None)
    }

    /// Parses a description file; `base "…"` is looked up next to it first,
    /// then among the shipped machines.
    pub fn parse_file(path: &Path) -> Result<Machine, Diagnostic> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| Diagnostic {
            file: name.clone(),
            line: 0,
            col: 0,
            message: format!("cannot read file: {e}"),
        })?;
        let text = crate::text::decode_utf8(bytes).map_err(|e| Diagnostic {
            file: name.clone(),
            line: e.line,
            col: e.col,
            message: format!("invalid UTF-8 (byte 0x{:02x})", e.byte),
        })?;
        let dir: Option<PathBuf> = path.parent().map(Path::to_path_buf);
        Self::parse_in(&text, &name, dir.as_deref())
    }

    /// A shipped machine by name (`ftm`), or a `.isa` file by path.
    pub fn load(name_or_path: &str) -> Result<Machine, Diagnostic> {
        if let Some((file, text)) = builtin::source(name_or_path) {
            if !Path::new(name_or_path).exists() || !name_or_path.contains('/') {
                return Self::parse_str(text, file);
            }
        }
        let path = Path::new(name_or_path);
        if path.exists() {
            return Self::parse_file(path);
        }
        let known: Vec<&str> = builtin::names().collect();
        Err(Diagnostic {
            file: name_or_path.to_string(),
            line: 0,
            col: 0,
            message: format!("no such machine or file (shipped machines: {})", known.join(", ")),
        })
    }

    fn parse_in(text: &str, file: &str, dir: Option<&Path>) -> Result<Machine, Diagnostic> {
        let decls = declarations(text, file, dir, 0)?;
        let fingerprint = fnv1a(&decls.texts);
        let end = Loc { file: file.to_string(), line: text.lines().count().max(1) as u32, col: 1 };
        crate::resolve::resolve(decls, fingerprint, end)
    }
}

//! The two-pass assembler: pass 1 lays out sections and defines labels,
//! pass 2 evaluates operands, checks and encodes bundles, emits data and
//! relocations. The result is a [`dsp_obj::ObjectFile`].
//!
//! Both passes walk the same statements with the same code, so every
//! statement occupies the same bytes in both; sizes that depend on
//! expressions (`.zero N`, `.align N`) are computed once, in pass 1.

use std::collections::{BTreeSet, HashMap, HashSet};

use dsp_obj::{MachineId, ObjectFile, Reloc, RelocKind, Section, SectionKind, Symbol, SymbolKind};
use isa_tablegen::Machine;

use crate::expr::{Env, Equ};
use crate::lexer::lex;
use crate::parser::{parse, Stmt};
use crate::{AsmError, Pos, MAX_ERRORS};

/// Largest section the assembler builds (bytes).
pub const MAX_SECTION: u32 = 1 << 28;

/// A relocation whose symbol is still a name.
#[derive(Clone, Debug)]
pub(crate) struct PendingReloc {
    pub offset: u32,
    pub kind: RelocKind,
    pub symbol: String,
    pub addend: i64,
}

/// A section being assembled.
#[derive(Clone, Debug)]
pub(crate) struct SectionBuf {
    pub name: String,
    pub kind: SectionKind,
    pub align: u32,
    pub data: Vec<u8>,
    /// Location counter (the section's size so far).
    pub size: u32,
    pub relocs: Vec<PendingReloc>,
}

/// Alignment of a section that no `.align` raised: one operation word for
/// code, one byte for data. The disassembler prints `.align` only above it.
pub fn default_align(machine: &Machine, kind: SectionKind) -> u32 {
    match kind {
        SectionKind::Text => machine.op_bytes(),
        _ => 1,
    }
}

/// The section kind a name implies (`.text*`, `.rodata*`, `.data*`, `.bss*`).
pub fn kind_from_name(name: &str) -> Option<SectionKind> {
    let is = |prefix: &str| name == prefix || name.starts_with(&format!("{prefix}."));
    if is(".text") {
        Some(SectionKind::Text)
    } else if is(".rodata") {
        Some(SectionKind::ReadOnly)
    } else if is(".data") {
        Some(SectionKind::Data)
    } else if is(".bss") {
        Some(SectionKind::Bss)
    } else {
        None
    }
}

pub(crate) struct Asm<'m> {
    pub m: &'m Machine,
    pub file: String,
    pub errors: Vec<AsmError>,
    pub pass: u8,
    pub sections: Vec<SectionBuf>,
    /// Indices of `sections` by name.
    pub section_by_name: HashMap<String, usize>,
    pub cur: Option<usize>,
    /// Labels: name → (section, offset); defined in pass 1.
    pub labels: HashMap<String, (usize, u32)>,
    /// Label names in order of definition.
    pub label_order: Vec<String>,
    pub label_pos: HashMap<String, Pos>,
    pub equs: HashMap<String, Equ>,
    /// Names made global (sets: thousands of symbols stay linear).
    pub globals: BTreeSet<String>,
    pub types: HashMap<String, SymbolKind>,
    pub sizes: HashMap<String, u32>,
    /// Sizes of `.zero`/`.align` statements computed in pass 1, by statement index.
    pub stmt_sizes: HashMap<usize, u32>,
    /// Names referenced by relocations that are not defined here.
    pub undefined_refs: BTreeSet<String>,
    /// A section that would have grown past [`MAX_SECTION`].
    pub too_large: Option<(String, Pos)>,
    /// Position of the statement being processed.
    pub stmt_pos: Pos,
}

/// The constant `dsp-as` predefines from the machine description: the bytes
/// of the widest vector register (0 without vector files), what one
/// full-width vector store writes (`crt0.s` clears `.bss` with it).
pub const VECTOR_BYTES: &str = "__dsp_vector_bytes";

/// Assembles one source file for `machine`.
///
/// Errors are reported as `FILE:LINE:COL: error: MESSAGE`, sorted by
/// position, at most [`MAX_ERRORS`] of them.
pub fn assemble(machine: &Machine, source: &str, file_name: &str) -> Result<ObjectFile, Vec<AsmError>> {
    let mut asm = Asm::new(machine, file_name);
    let (tokens, lex_errors) = lex(source);
    for e in lex_errors {
        asm.error(e.pos, e.message);
    }
    let (stmts, parse_errors) = parse(&tokens);
    for e in parse_errors {
        asm.error(e.pos, e.message);
    }
    asm.run(&stmts, 1);
    asm.run(&stmts, 2);
    asm.finish()
}

impl<'m> Asm<'m> {
    fn new(m: &'m Machine, file: &str) -> Self {
        // Predefined constants: position line 0 marks them.
        let predefined = Equ {
            expr: crate::parser::Expr { kind: crate::parser::ExprKind::Int(m.vector_bytes() as i64), pos: Pos::default() },
            dot: None,
            pos: Pos::default(),
        };
        Asm {
            m,
            file: file.to_string(),
            errors: Vec::new(),
            pass: 1,
            sections: Vec::new(),
            section_by_name: HashMap::new(),
            cur: None,
            labels: HashMap::new(),
            label_order: Vec::new(),
            label_pos: HashMap::new(),
            equs: HashMap::from([(VECTOR_BYTES.to_string(), predefined)]),
            globals: BTreeSet::new(),
            types: HashMap::new(),
            sizes: HashMap::new(),
            stmt_sizes: HashMap::new(),
            undefined_refs: BTreeSet::new(),
            too_large: None,
            stmt_pos: Pos::default(),
        }
    }

    pub fn error(&mut self, pos: Pos, message: impl Into<String>) {
        self.errors.push(AsmError { file: self.file.clone(), line: pos.line, col: pos.col, message: message.into() });
    }

    /// The environment for evaluating expressions in the current pass.
    pub fn env(&self) -> Env<'_> {
        Env { labels: &self.labels, equs: &self.equs, allow_undefined: self.pass == 2 }
    }

    /// The current location (section, offset), creating `.text` if no
    /// section was chosen yet.
    pub fn here(&mut self) -> (usize, u32) {
        let s = self.current_section();
        (s, self.sections[s].size)
    }

    pub fn current_section(&mut self) -> usize {
        match self.cur {
            Some(s) => s,
            None => {
                let s = self.section_index(".text", SectionKind::Text);
                self.cur = Some(s);
                s
            }
        }
    }

    /// Finds or creates a section.
    pub fn section_index(&mut self, name: &str, kind: SectionKind) -> usize {
        if let Some(&i) = self.section_by_name.get(name) {
            return i;
        }
        self.section_by_name.insert(name.to_string(), self.sections.len());
        self.sections.push(SectionBuf {
            name: name.to_string(),
            kind,
            align: default_align(self.m, kind),
            data: Vec::new(),
            size: 0,
            relocs: Vec::new(),
        });
        self.sections.len() - 1
    }

    /// Appends bytes (pass 2) or only advances (pass 1) in the current section.
    pub fn emit(&mut self, bytes: &[u8]) {
        let s = self.current_section();
        if !self.grow(s, bytes.len() as u64) {
            return;
        }
        let sec = &mut self.sections[s];
        if self.pass == 2 && sec.kind != SectionKind::Bss {
            sec.data.extend_from_slice(bytes);
        }
    }

    pub fn emit_zeros(&mut self, n: u32) {
        let s = self.current_section();
        if !self.grow(s, n as u64) {
            return;
        }
        let sec = &mut self.sections[s];
        if self.pass == 2 && sec.kind != SectionKind::Bss {
            sec.data.resize(sec.data.len() + n as usize, 0);
        }
    }

    /// Advances a section's location counter, refusing to pass [`MAX_SECTION`].
    fn grow(&mut self, s: usize, n: u64) -> bool {
        let sec = &mut self.sections[s];
        if sec.size as u64 + n > MAX_SECTION as u64 {
            if self.too_large.is_none() {
                self.too_large = Some((sec.name.clone(), self.stmt_pos));
            }
            return false;
        }
        sec.size += n as u32;
        true
    }

    pub fn add_reloc(&mut self, offset: u32, kind: RelocKind, symbol: String, addend: i64) {
        if self.pass != 2 {
            return;
        }
        if !self.labels.contains_key(&symbol) && !self.undefined_refs.contains(&symbol) {
            self.undefined_refs.insert(symbol.clone());
        }
        let s = self.current_section();
        self.sections[s].relocs.push(PendingReloc { offset, kind, symbol, addend });
    }

    fn run(&mut self, stmts: &[Stmt], pass: u8) {
        self.pass = pass;
        self.cur = None;
        self.sections.clear();
        self.section_by_name.clear();
        self.undefined_refs.clear();
        if pass == 2 {
            self.globals.clear();
            self.types.clear();
            self.sizes.clear();
        }
        for (idx, stmt) in stmts.iter().enumerate() {
            self.stmt_pos = match stmt {
                Stmt::Label { pos, .. } | Stmt::Directive { pos, .. } | Stmt::Bundle { pos, .. } => *pos,
            };
            match stmt {
                Stmt::Label { name, pos } => self.define_label(name, *pos),
                Stmt::Directive { name, pos, args } => self.directive(idx, name, args, *pos),
                Stmt::Bundle { ops, pos } => self.bundle(ops, *pos),
            }
        }
    }

    fn define_label(&mut self, name: &str, pos: Pos) {
        let here = self.here();
        if self.pass == 2 {
            return;
        }
        if let Some(first) = self.label_pos.get(name) {
            let first = *first;
            self.error(pos, format!("label '{name}' is already defined at line {}", first.line));
            return;
        }
        if let Some(equ) = self.equs.get(name) {
            let line = equ.pos.line;
            self.error(pos, format!("'{name}' is already defined by .equ at line {line}"));
            return;
        }
        self.labels.insert(name.to_string(), here);
        self.label_pos.insert(name.to_string(), pos);
        self.label_order.push(name.to_string());
    }

    fn finish(mut self) -> Result<ObjectFile, Vec<AsmError>> {
        if let Some((name, pos)) = self.too_large.take() {
            self.error(pos, format!("section '{name}' would exceed {MAX_SECTION} bytes"));
        }
        // Symbol attributes given to names that are .equ constants.
        for name in self.globals.clone() {
            if self.equs.contains_key(&name) {
                let pos = self.equs[&name].pos;
                self.error(pos, format!("'{name}' is a .equ constant and cannot be made global"));
            }
        }
        if !self.errors.is_empty() {
            let mut seen = HashSet::new();
            let mut errors: Vec<AsmError> =
                self.errors.into_iter().filter(|e| seen.insert((e.line, e.col, e.message.clone()))).collect();
            errors.sort_by_key(|e| (e.line, e.col));
            errors.truncate(MAX_ERRORS);
            return Err(errors);
        }
        // Symbols: local definitions, global definitions, then undefined (by name).
        let mut defined: Vec<(bool, usize, u32, usize, String)> = self
            .label_order
            .iter()
            .enumerate()
            .map(|(order, name)| {
                let (s, off) = self.labels[name];
                (self.globals.contains(name), s, off, order, name.clone())
            })
            .collect();
        defined.sort();
        let mut undefined: BTreeSet<String> = self.undefined_refs.clone();
        for g in &self.globals {
            if !self.labels.contains_key(g) && !self.equs.contains_key(g) {
                undefined.insert(g.clone());
            }
        }
        let mut symbols = Vec::new();
        for (global, s, off, _, name) in defined {
            symbols.push(Symbol {
                size: self.sizes.get(&name).copied().unwrap_or(0),
                kind: self.types.get(&name).copied().unwrap_or(SymbolKind::NoType),
                name,
                section: Some(s),
                value: off,
                global,
            });
        }
        for name in undefined {
            symbols.push(Symbol {
                size: self.sizes.get(&name).copied().unwrap_or(0),
                kind: self.types.get(&name).copied().unwrap_or(SymbolKind::NoType),
                name,
                section: None,
                value: 0,
                global: true,
            });
        }
        let index: HashMap<&str, usize> = symbols.iter().enumerate().map(|(i, s)| (s.name.as_str(), i)).collect();
        let sections = self
            .sections
            .iter()
            .map(|s| Section {
                name: s.name.clone(),
                kind: s.kind,
                align: s.align,
                data: if s.kind == SectionKind::Bss { Vec::new() } else { s.data.clone() },
                size: s.size,
                relocs: s
                    .relocs
                    .iter()
                    .map(|r| Reloc { offset: r.offset, kind: r.kind, symbol: index[r.symbol.as_str()], addend: r.addend })
                    .collect(),
            })
            .collect();
        Ok(ObjectFile {
            machine: MachineId { name: self.m.name.clone(), fingerprint: self.m.fingerprint },
            sections,
            symbols,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn section_kinds_from_names() {
        assert_eq!(kind_from_name(".text"), Some(SectionKind::Text));
        assert_eq!(kind_from_name(".text.hot"), Some(SectionKind::Text));
        assert_eq!(kind_from_name(".rodata.str1"), Some(SectionKind::ReadOnly));
        assert_eq!(kind_from_name(".data"), Some(SectionKind::Data));
        assert_eq!(kind_from_name(".bss.x"), Some(SectionKind::Bss));
        assert_eq!(kind_from_name(".textual"), None);
        assert_eq!(kind_from_name("mine"), None);
    }

    #[test]
    fn errors_are_sorted_deduplicated_and_capped() {
        let m = Machine::load("ftm").expect("ftm");
        let src: String = (0..40).rev().map(|i| format!("  .byte {}\n", 1000 + i)).collect();
        let e = assemble(&m, &format!("  .data\n{src}"), "x.s").unwrap_err();
        assert_eq!(e.len(), MAX_ERRORS);
        assert!(e.windows(2).all(|w| w[0].line < w[1].line));
        assert_eq!(e[0].to_string(), "x.s:2:9: error: value 1039 out of range for '.byte' [-128, 255]");
    }

    #[test]
    fn huge_sections_are_refused() {
        let m = Machine::load("ftm").expect("ftm");
        let e = assemble(&m, "  .bss\n  .zero 0x8000000\n  .zero 0x8000000\n  .zero 1\n", "x.s").unwrap_err();
        assert_eq!(e[0].to_string(), "x.s:4:3: error: section '.bss' would exceed 268435456 bytes");
    }

    #[test]
    fn empty_source_gives_empty_object() {
        let m = Machine::load("ftm").expect("ftm");
        let obj = assemble(&m, "# nothing\n", "x.s").unwrap();
        assert!(obj.sections.is_empty() && obj.symbols.is_empty());
        assert_eq!(obj.machine.name, "ftm");
    }
}

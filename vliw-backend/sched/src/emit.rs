//! Assembly text for dsp-as (syntax: vliw-backend/mc/README.md): functions
//! as labelled bundles (`{ a ; b }`, or the operation alone), block labels
//! `.L<function>_<block>`, `.globl`/`.type`/`.size` for every symbol, and
//! data objects in `.rodata`, `.data` and `.bss` with `.align`, `.byte`,
//! `.word sym+off` for relocated words and `.zero` for runs of zeros.
//! With comments on, a `# FILE:LINE: text` line precedes the bundles of each
//! source line. A block's own comments (`dsp_mir::BlockData::comments`, the
//! software pipeliner's report) are `# text` lines before its label, always.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;

use dsp_mir::{DataObject, DataSection, Loc};
use isa_tablegen::Machine;

use crate::lower::{LOp, LOperand};
use crate::ScheduledFunction;

/// Whether the assembler accepts `name` as a symbol.
pub fn valid_symbol(name: &str) -> bool {
    let mut chars = name.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '.' || c == '$' => {}
        _ => return false,
    }
    name != "." && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$')
}

/// Checks a symbol the module references: representable, and not spelled
/// like a register unless defined here (the assembler reads an undefined
/// `r1` as the register).
pub fn check_symbol(m: &Machine, name: &str, defined: &HashSet<&str>) -> Result<(), String> {
    if !valid_symbol(name) {
        return Err(format!(
            "symbol name '{name}' cannot be written in assembly (letters, digits, '_', '.', '$')"
        ));
    }
    if !defined.contains(name) && m.parse_reg(name).is_some() {
        return Err(format!(
            "external symbol '{name}' is spelled like a register of machine {}; the assembler cannot refer to it",
            m.name
        ));
    }
    Ok(())
}

pub fn operand(m: &Machine, o: &LOperand) -> String {
    match o {
        LOperand::Reg(r) => m.reg_name(*r),
        LOperand::Imm(v) => v.to_string(),
        LOperand::Sym { name, offset: 0 } => name.clone(),
        LOperand::Sym { name, offset } if *offset > 0 => format!("{name}+{offset}"),
        LOperand::Sym { name, offset } => format!("{name}-{}", offset.unsigned_abs()),
        LOperand::Label(l) => l.clone(),
    }
}

pub fn op_text(m: &Machine, op: &LOp) -> String {
    let mut s = String::new();
    if let Some((g, neg)) = op.guard {
        let _ = write!(s, "({}{}) ", if neg { "!" } else { "" }, m.reg_name(g));
    }
    s.push_str(&m.instr(op.instr).mnemonic);
    let ops: Vec<String> = op.operands.iter().map(|o| operand(m, o)).collect();
    if !ops.is_empty() {
        s.push(' ');
        s.push_str(&ops.join(", "));
    }
    s
}

pub fn bundle_text(m: &Machine, ops: &[LOp]) -> String {
    let texts: Vec<String> = ops.iter().map(|o| op_text(m, o)).collect();
    if texts.len() == 1 {
        texts.into_iter().next().unwrap_or_default()
    } else {
        format!("{{ {} }}", texts.join(" ; "))
    }
}

/// Source lines for `-S` comments, read once per file.
#[derive(Default)]
pub struct SourceCache {
    files: HashMap<String, Option<Vec<String>>>,
}

impl SourceCache {
    fn line(&mut self, loc: &Loc) -> Option<String> {
        let lines = self.files.entry(loc.file.clone()).or_insert_with(|| {
            std::fs::read_to_string(&loc.file)
                .ok()
                .map(|t| t.lines().map(str::to_string).collect())
        });
        lines
            .as_ref()?
            .get((loc.line as usize).checked_sub(1)?)
            .map(|l| l.trim().to_string())
    }

    fn comment(&mut self, loc: &Loc) -> String {
        match self.line(loc) {
            Some(text) if !text.is_empty() => format!("\t# {}:{}: {}\n", loc.file, loc.line, text),
            _ => format!("\t# {}:{}\n", loc.file, loc.line),
        }
    }
}

/// Text of a scheduled function.
pub fn function(
    m: &Machine,
    f: &ScheduledFunction,
    comments: bool,
    cache: &mut SourceCache,
    out: &mut String,
) {
    out.push('\n');
    if f.global {
        let _ = writeln!(out, "\t.globl {}", f.name);
    }
    let _ = writeln!(out, "\t.type {}, @function", f.name);
    let _ = writeln!(out, "{}:", f.name);
    let mut last: Option<(String, u32)> = None;
    for b in &f.blocks {
        for line in b.comments.iter().flat_map(|c| c.split('\n')) {
            let line = line.trim_end();
            if line.is_empty() {
                out.push_str("#\n");
            } else {
                let _ = writeln!(out, "# {line}");
            }
        }
        let _ = writeln!(out, "{}:", b.label);
        for (k, bundle) in b.bundles.iter().enumerate() {
            for (_, entry) in b.entries.iter().filter(|(at, _)| *at == k) {
                let _ = writeln!(out, "{entry}:");
            }
            if comments {
                if let Some(loc) = bundle.iter().find_map(|o| o.loc.as_ref()) {
                    let key = (loc.file.clone(), loc.line);
                    if last.as_ref() != Some(&key) && loc.line > 0 {
                        out.push_str(&cache.comment(loc));
                        last = Some(key);
                    }
                }
            }
            let _ = writeln!(out, "\t{}", bundle_text(m, bundle));
        }
    }
    let _ = writeln!(out, "\t.size {}, .-{}", f.name, f.name);
}

fn bytes_line(out: &mut String, bytes: &[u8]) {
    for chunk in bytes.chunks(16) {
        let v: Vec<String> = chunk.iter().map(|b| b.to_string()).collect();
        let _ = writeln!(out, "\t.byte {}", v.join(", "));
    }
}

/// Text of one data object; Err names what cannot be emitted.
/// `sections`: in a section of its own (`.rodata.NAME`, `.data.NAME`, `.bss.NAME`).
pub fn data_object(d: &DataObject, sections: bool, out: &mut String) -> Result<(), String> {
    out.push('\n');
    if sections {
        let _ = match d.section {
            DataSection::ReadOnly => writeln!(out, "\t.section .rodata.{},\"a\"", d.name),
            DataSection::Data => writeln!(out, "\t.section .data.{},\"aw\"", d.name),
            DataSection::Bss => writeln!(out, "\t.section .bss.{},\"aw\",@nobits", d.name),
        };
    } else {
        out.push_str(match d.section {
            DataSection::ReadOnly => "\t.rodata\n",
            DataSection::Data => "\t.data\n",
            DataSection::Bss => "\t.bss\n",
        });
    }
    if d.align > 1 {
        if !d.align.is_power_of_two() {
            return Err(format!(
                "data object '{}': alignment {} is not a power of two",
                d.name, d.align
            ));
        }
        let _ = writeln!(out, "\t.align {}", d.align);
    }
    if d.global {
        let _ = writeln!(out, "\t.globl {}", d.name);
    }
    let _ = writeln!(out, "\t.type {}, @object", d.name);
    let _ = writeln!(out, "\t.size {}, {}", d.name, d.size);
    let _ = writeln!(out, "{}:", d.name);
    if d.section == DataSection::Bss {
        if !d.relocs.is_empty() {
            return Err(format!("data object '{}' in .bss has relocations", d.name));
        }
        if d.size > 0 {
            let _ = writeln!(out, "\t.zero {}", d.size);
        }
        return Ok(());
    }
    let size = d.size as usize;
    if d.bytes.len() > size {
        return Err(format!(
            "data object '{}': {} bytes of contents for size {}",
            d.name,
            d.bytes.len(),
            d.size
        ));
    }
    let mut relocs: Vec<_> = d.relocs.iter().collect();
    relocs.sort_by_key(|r| r.offset);
    let byte_at = |i: usize| d.bytes.get(i).copied().unwrap_or(0);
    let mut pos = 0usize;
    let mut pending: Vec<u8> = Vec::new();
    let mut ri = 0usize;
    while pos < size {
        if let Some(r) = relocs.get(ri).filter(|r| r.offset as usize == pos) {
            if pos + 4 > size {
                return Err(format!(
                    "data object '{}': relocation at {} past its end",
                    d.name, r.offset
                ));
            }
            bytes_line(out, &pending);
            pending.clear();
            let o = LOperand::Sym {
                name: r.symbol.clone(),
                offset: r.addend,
            };
            let text = match &o {
                LOperand::Sym { name, offset: 0 } => name.clone(),
                LOperand::Sym { name, offset } if *offset > 0 => format!("{name}+{offset}"),
                LOperand::Sym { name, offset } => format!("{name}-{}", offset.unsigned_abs()),
                _ => String::new(),
            };
            let _ = writeln!(out, "\t.word {text}");
            pos += 4;
            ri += 1;
            continue;
        }
        let next_reloc = relocs.get(ri).map_or(size, |r| r.offset as usize);
        if next_reloc < pos {
            return Err(format!(
                "data object '{}': overlapping relocations at {}",
                d.name, next_reloc
            ));
        }
        // A run of zeros up to the next relocation.
        let mut z = pos;
        while z < next_reloc && byte_at(z) == 0 {
            z += 1;
        }
        if z - pos >= 8 {
            bytes_line(out, &pending);
            pending.clear();
            let _ = writeln!(out, "\t.zero {}", z - pos);
            pos = z;
            continue;
        }
        pending.push(byte_at(pos));
        pos += 1;
    }
    bytes_line(out, &pending);
    Ok(())
}

//! Disassembly of relocatable objects and executables into assembly text
//! that `dsp-as` accepts and that reassembles to the same section bytes,
//! relocations and symbols.
//!
//! Code is printed one bundle per line (`{ op ; op }`, a one-op bundle
//! without braces) followed by `# ADDRESS: WORDS  UNITS`. Anything that
//! does not decode to a legal bundle that re-encodes to the same words is
//! printed as raw data with a comment saying why. Data sections become
//! `.byte`/`.ascii`/`.asciz`/`.zero` runs and `.word sym+A` for R_DSP_32
//! relocations; .bss becomes `.zero`, and so does memory past a segment's
//! file data (whatever its size field says).
//!
//! The listing goes to any [`std::fmt::Write`] as it is made (dsp-objdump
//! streams it to stdout), and the work is linear in the file: labels and
//! relocations are looked up in sorted tables, zero runs are measured on the
//! bytes the file holds, never byte by byte over a size field.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;

use dsp_obj::{Executable, ObjectFile, RelocKind, SectionKind, SymbolKind};
use isa_tablegen::{Machine, Op, OperandKind, Reg};

use crate::assembler::{default_align, kind_from_name};

/// Column at which the trailing comment of a code line starts.
const COMMENT_COL: usize = 48;

/// A section or segment as the printer sees it.
struct View<'a> {
    name: &'a str,
    kind: SectionKind,
    /// Address of offset 0 (0 in objects).
    base: u32,
    data: &'a [u8],
    size: u32,
    /// Relocations by offset: (kind, symbol name, addend).
    relocs: HashMap<u32, (RelocKind, &'a str, i64)>,
    /// The offsets of `relocs`, sorted.
    reloc_offsets: Vec<u32>,
    /// Labels by offset, sorted by offset (stable: symbol-table order at one offset).
    labels: Vec<(u32, String)>,
}

impl View<'_> {
    fn new<'a>(
        name: &'a str,
        kind: SectionKind,
        base: u32,
        data: &'a [u8],
        size: u32,
        relocs: HashMap<u32, (RelocKind, &'a str, i64)>,
        mut labels: Vec<(u32, String)>,
    ) -> View<'a> {
        let mut reloc_offsets: Vec<u32> = relocs.keys().copied().collect();
        reloc_offsets.sort_unstable();
        labels.sort_by_key(|(v, _)| *v);
        View { name, kind, base, data, size, relocs, reloc_offsets, labels }
    }

    /// The first relocation offset in `from..to`, else `to`.
    fn next_reloc(&self, from: u32, to: u32) -> u32 {
        let i = self.reloc_offsets.partition_point(|&o| o < from);
        self.reloc_offsets.get(i).copied().filter(|&o| o < to).unwrap_or(to)
    }

    /// The first label offset above `off`, else `u32::MAX`.
    fn next_label(&self, off: u32) -> u32 {
        let i = self.labels.partition_point(|(o, _)| *o <= off);
        self.labels.get(i).map(|(o, _)| *o).unwrap_or(u32::MAX)
    }

    /// The labels at `off`.
    fn labels_at(&self, off: u32) -> &[(u32, String)] {
        let a = self.labels.partition_point(|(o, _)| *o < off);
        let b = self.labels.partition_point(|(o, _)| *o <= off);
        &self.labels[a..b]
    }

    fn byte(&self, o: u32) -> u8 {
        self.data.get(o as usize).copied().unwrap_or(0)
    }

    /// The number of zero bytes from `o` (before `stop`): bytes past the
    /// file's data are zeros, counted without visiting them.
    fn zero_run(&self, o: u32, stop: u32) -> u32 {
        if o >= stop {
            return 0;
        }
        let held = (self.data.len() as u64).min(stop as u64) as u32;
        if o >= held {
            return stop - o;
        }
        let zeros = self.data[o as usize..held as usize].iter().take_while(|&&b| b == 0).count() as u32;
        if o + zeros == held { stop - o } else { zeros }
    }

    /// The number of printable bytes from `o` (before `stop`), at most `limit`.
    fn text_run(&self, o: u32, stop: u32, limit: usize) -> u32 {
        let held = (self.data.len() as u64).min(stop as u64) as u32;
        if o >= held {
            return 0;
        }
        self.data[o as usize..held as usize].iter().take(limit).take_while(|&&b| printable(b)).count() as u32
    }
}

/// A [`std::fmt::Write`] over an [`std::io::Write`] that keeps the first
/// I/O error (a closed pipe, a full disk) and refuses every write after it.
pub struct IoSink<'w> {
    inner: &'w mut dyn std::io::Write,
    /// The first error, if any.
    pub error: Option<std::io::Error>,
}

impl<'w> IoSink<'w> {
    pub fn new(inner: &'w mut dyn std::io::Write) -> Self {
        IoSink { inner, error: None }
    }
}

impl std::fmt::Write for IoSink<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        if self.error.is_some() {
            return Err(std::fmt::Error);
        }
        self.inner.write_all(s.as_bytes()).map_err(|e| {
            self.error = Some(e);
            std::fmt::Error
        })
    }
}

/// Symbol attributes printed before a label.
#[derive(Default)]
struct Attrs {
    global: bool,
    kind: Option<SymbolKind>,
    size: u32,
}

struct Printer<'m, 'w> {
    m: &'m Machine,
    out: &'w mut dyn std::fmt::Write,
    /// Attribute lines for labels, by name.
    attrs: HashMap<String, Attrs>,
    /// Label names printed so far (an executable may repeat local names).
    printed: HashSet<String>,
    /// Symbols by address, for naming pc-relative targets: address → name.
    targets: HashMap<(usize, u32), String>,
}

/// A symbol name that reads back as one token.
fn is_plain_name(name: &str) -> bool {
    let b = name.as_bytes();
    !b.is_empty()
        && name != "."
        && (b[0].is_ascii_alphabetic() || b"_.$".contains(&b[0]))
        && b.iter().all(|c| c.is_ascii_alphanumeric() || b"_.$".contains(c))
}

fn sym_plus(name: &str, addend: i64) -> String {
    match addend {
        0 => name.to_string(),
        a if a > 0 => format!("{name}+{a}"),
        a => format!("{name}-{}", a.unsigned_abs()),
    }
}

fn escape(bytes: &[u8]) -> String {
    let mut s = String::new();
    for &b in bytes {
        match b {
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            b'\n' => s.push_str("\\n"),
            b'\t' => s.push_str("\\t"),
            0x20..=0x7e => s.push(b as char),
            _ => {
                let _ = write!(s, "\\x{b:02x}");
            }
        }
    }
    s
}

fn printable(b: u8) -> bool {
    (0x20..=0x7e).contains(&b) || b == b'\n' || b == b'\t'
}

/// The data directive for a raw operation word of `n` bytes.
fn raw_directive(n: u32) -> &'static str {
    match n {
        1 => ".byte",
        2 => ".half",
        4 => ".word",
        _ => ".quad",
    }
}

fn section_directive(m: &Machine, name: &str, kind: SectionKind) -> String {
    if kind_from_name(name) == Some(kind) {
        if matches!(name, ".text" | ".data" | ".rodata" | ".bss") {
            return format!("\t{name}");
        }
        return format!("\t.section {name}");
    }
    let _ = m;
    match kind {
        SectionKind::Text => format!("\t.section {name}, \"ax\""),
        SectionKind::ReadOnly => format!("\t.section {name}, \"a\""),
        SectionKind::Data => format!("\t.section {name}, \"aw\""),
        SectionKind::Bss => format!("\t.section {name}, \"aw\", @nobits"),
    }
}

/// Prints a relocatable object as assembly source.
pub fn disassemble_object(m: &Machine, obj: &ObjectFile) -> String {
    let mut out = String::new();
    write_object_listing(m, obj, &mut out);
    out
}

/// Writes a relocatable object as assembly source to `out`, as it goes.
pub fn write_object_listing(m: &Machine, obj: &ObjectFile, out: &mut dyn std::fmt::Write) {
    let mut p = Printer::new(m, out);
    for s in &obj.symbols {
        let kind = (s.kind != SymbolKind::NoType).then_some(s.kind);
        p.attrs.insert(s.name.clone(), Attrs { global: s.global, kind, size: s.size });
        if let Some(sec) = s.section {
            p.targets.entry((sec, s.value)).or_insert_with(|| s.name.clone());
        }
    }
    let _ = writeln!(p.out, "# machine {} (fingerprint {:016x})", obj.machine.name, obj.machine.fingerprint);
    for s in obj.symbols.iter().filter(|s| s.section.is_none()) {
        p.attributes(&s.name);
    }
    // Labels by section, in symbol-table order (one pass over the symbols).
    let mut by_section: Vec<Vec<(u32, String)>> = vec![Vec::new(); obj.sections.len()];
    for s in &obj.symbols {
        if let Some(list) = s.section.and_then(|i| by_section.get_mut(i)) {
            list.push((s.value, s.name.clone()));
        }
    }
    for (i, sec) in obj.sections.iter().enumerate() {
        let labels = std::mem::take(&mut by_section[i]);
        let relocs = sec
            .relocs
            .iter()
            .filter_map(|r| {
                let sym = obj.symbols.get(r.symbol)?;
                Some((r.offset, (r.kind, sym.name.as_str(), r.addend)))
            })
            .collect();
        let view = View::new(&sec.name, sec.kind, 0, &sec.data, sec.size, relocs, labels);
        let _ = writeln!(p.out);
        let _ = writeln!(p.out, "{}", section_directive(m, &sec.name, sec.kind));
        if sec.align > default_align(m, sec.kind) {
            let _ = writeln!(p.out, "\t.align {}", sec.align);
        }
        p.section(&view, i);
    }
}

/// Prints a linked executable as assembly (one section per segment).
pub fn disassemble_executable(m: &Machine, exe: &Executable) -> String {
    let mut out = String::new();
    write_executable_listing(m, exe, &mut out);
    out
}

/// Writes a linked executable as assembly to `out`, as it goes.
pub fn write_executable_listing(m: &Machine, exe: &Executable, out: &mut dyn std::fmt::Write) {
    let mut p = Printer::new(m, out);
    let _ = writeln!(p.out, "# machine {} (fingerprint {:016x})", exe.machine.name, exe.machine.fingerprint);
    let _ = writeln!(p.out, "# entry point {:08x}", exe.entry);
    for s in &exe.symbols {
        let kind = (s.kind != SymbolKind::NoType).then_some(s.kind);
        p.attrs.entry(s.name.clone()).or_insert(Attrs { global: s.global, kind, size: s.size });
    }
    // Symbol indices by address (ties in table order): each segment looks
    // at its own address range only, so the work is linear in the symbols
    // (segments do not overlap).
    let mut by_addr: Vec<usize> = (0..exe.symbols.len()).collect();
    by_addr.sort_by_key(|&k| exe.symbols[k].addr);
    let in_range = |lo: u64, hi: u64| {
        let a = by_addr.partition_point(|&k| (exe.symbols[k].addr as u64) < lo);
        let b = by_addr.partition_point(|&k| (exe.symbols[k].addr as u64) < hi);
        &by_addr[a..b.max(a)]
    };
    for (i, seg) in exe.segments.iter().enumerate() {
        for &k in in_range(seg.addr as u64, seg.addr.saturating_add(seg.mem_size.max(1)) as u64) {
            let s = &exe.symbols[k];
            p.targets.entry((i, s.addr - seg.addr)).or_insert_with(|| s.name.clone());
        }
    }
    let mut placed = HashSet::new();
    for (i, seg) in exe.segments.iter().enumerate() {
        let kind = if seg.flags.exec {
            SectionKind::Text
        } else {
            match kind_from_name(&seg.name) {
                Some(k) => k,
                None if seg.flags.write => SectionKind::Data,
                None => SectionKind::ReadOnly,
            }
        };
        let size = seg.mem_size.max(seg.data.len() as u32);
        let mut labels: Vec<(u32, String)> = Vec::new();
        for &k in in_range(seg.addr as u64, seg.addr as u64 + size as u64 + 1) {
            if placed.insert(k) {
                let s = &exe.symbols[k];
                labels.push((s.addr - seg.addr, s.name.clone()));
            }
        }
        let data: &[u8] = if kind == SectionKind::Bss { &[] } else { &seg.data };
        let view = View::new(&seg.name, kind, seg.addr, data, size, HashMap::new(), labels);
        let _ = writeln!(p.out);
        let _ = writeln!(p.out, "{}\t\t# {:08x}..{:08x}", section_directive(m, &seg.name, kind), seg.addr, seg.addr as u64 + size as u64);
        p.section(&view, i);
    }
    let others: Vec<_> = exe.symbols.iter().enumerate().filter(|(k, _)| !placed.contains(k)).collect();
    if !others.is_empty() {
        let _ = writeln!(p.out);
        let _ = writeln!(p.out, "# symbols outside every segment:");
        for (_, s) in others {
            let _ = writeln!(p.out, "# {:08x} {}", s.addr, s.name);
        }
    }
}

impl<'m, 'w> Printer<'m, 'w> {
    fn new(m: &'m Machine, out: &'w mut dyn std::fmt::Write) -> Self {
        Printer { m, out, attrs: HashMap::new(), printed: HashSet::new(), targets: HashMap::new() }
    }

    /// `.globl`, `.type` and `.size` lines for a symbol.
    fn attributes(&mut self, name: &str) {
        let Some(a) = self.attrs.get(name) else { return };
        if a.global {
            let _ = writeln!(self.out, "\t.globl {name}");
        }
        match a.kind {
            Some(SymbolKind::Func) => {
                let _ = writeln!(self.out, "\t.type {name}, @function");
            }
            Some(SymbolKind::Object) => {
                let _ = writeln!(self.out, "\t.type {name}, @object");
            }
            _ => {}
        }
        if a.size != 0 {
            let _ = writeln!(self.out, "\t.size {name}, {}", a.size);
        }
    }

    fn labels_at(&mut self, v: &View, off: u32) {
        for (_, name) in v.labels_at(off) {
            if self.printed.insert(name.clone()) {
                self.attributes(name);
                let _ = writeln!(self.out, "{name}:");
            } else {
                let _ = writeln!(self.out, "# {name}: (repeated name)");
            }
        }
    }

    fn section(&mut self, v: &View, index: usize) {
        let mut off = 0u32;
        while off < v.size {
            self.labels_at(v, off);
            let end = v.size.min(v.next_label(off));
            off = match v.kind {
                // Memory past the file's data (a size field larger than the file).
                SectionKind::Text if off as usize >= v.data.len() && off.is_multiple_of(self.m.op_bytes()) => {
                    let _ = writeln!(self.out, "\t.zero {}\t\t\t\t\t# {:08x}: not in the file", end - off, v.base + off);
                    end
                }
                SectionKind::Text => self.code(v, index, off, end),
                SectionKind::Bss => {
                    let _ = writeln!(self.out, "\t.zero {}", end - off);
                    end
                }
                _ => self.data(v, off, end),
            };
        }
        // Labels at the very end (and past it, which cannot be placed).
        self.labels_at(v, v.size);
        for (o, name) in v.labels.iter().filter(|(o, _)| *o > v.size) {
            let _ = writeln!(self.out, "# {name}: at offset {o}, past the end of {}", v.name);
        }
    }

    fn comment_line(&mut self, text: &str, comment: &str) {
        let pad = COMMENT_COL.saturating_sub(8 + text.len()).max(1);
        let _ = writeln!(self.out, "\t{text}{:pad$}# {comment}", "");
    }

    /// Prints code from `off`, at most to `end`; returns the offset reached.
    fn code(&mut self, v: &View, index: usize, off: u32, end: u32) -> u32 {
        let n = self.m.op_bytes();
        if !off.is_multiple_of(n) || end - off < n {
            let len = (n - off % n).min(end - off);
            return self.data(v, off, off + len);
        }
        match self.bundle(v, index, off, end) {
            Ok((text, comment, len)) => {
                self.comment_line(&text, &comment);
                off + len
            }
            Err(reason) => {
                if let Some((RelocKind::Data32, sym, addend)) = v.relocs.get(&off) {
                    let text = format!(".word {}", sym_plus(sym, *addend));
                    self.comment_line(&text, &format!("{:08x}", v.base + off));
                    return off + 4;
                }
                let word = self.m.read_word(v.data, off as usize).unwrap_or(0);
                let text = format!("{} {:#0w$x}", raw_directive(n), word, w = n as usize * 2 + 2);
                let mut comment = format!("{:08x}: {reason}", v.base + off);
                if let Some((kind, sym, addend)) = v.relocs.get(&off) {
                    let _ = write!(comment, "; relocation {kind:?} {} lost", sym_plus(sym, *addend));
                }
                self.comment_line(&text, &comment);
                off + n
            }
        }
    }

    /// Decodes the bundle at `off`: (text, comment, bytes) or why not.
    fn bundle(&self, v: &View, index: usize, off: u32, end: u32) -> Result<(String, String, u32), String> {
        let n = self.m.op_bytes();
        let mut ops: Vec<Op> = Vec::new();
        let mut words = Vec::new();
        let mut pos = off;
        loop {
            if pos + n > end {
                return Err(if end < v.size { "a label falls inside this bundle".into() } else { "bundle runs past the end of the section (no stop bit)".into() });
            }
            let word = self.m.read_word(v.data, pos as usize).ok_or("section data is shorter than its size")?;
            let (op, stop) = self.m.decode_op(word).map_err(|e| format!("cannot decode: {e}"))?;
            match self.m.encode_op(&op, stop) {
                Ok(w) if w == word => {}
                _ => return Err("decodes but does not re-encode to the same word".into()),
            }
            ops.push(op);
            words.push(word);
            pos += n;
            if stop {
                break;
            }
        }
        let placement = self.m.check_bundle(&ops).map_err(|e| format!("illegal bundle: {e}"))?;
        let mut texts = Vec::new();
        for (k, op) in ops.iter().enumerate() {
            texts.push(self.op_text(v, index, off + k as u32 * n, op)?);
        }
        let text = if texts.len() == 1 { texts.remove(0) } else { format!("{{ {} }}", texts.join(" ; ")) };
        let hex: Vec<String> = words.iter().map(|w| format!("{:0w$x}", w, w = n as usize * 2)).collect();
        let units: Vec<String> =
            placement.iter().map(|p| format!("{}{}", self.m.unit(p.unit).name, p.instance)).collect();
        let comment = format!("{:08x}: {}  {}", v.base + off, hex.join(" "), units.join(" "));
        Ok((text, comment, pos - off))
    }

    fn op_text(&self, v: &View, index: usize, off: u32, op: &Op) -> Result<String, String> {
        let m = self.m;
        let instr = m.instr(op.instr);
        let reloc = v.relocs.get(&off);
        let reloc_index = m.reloc_operand(op.instr);
        if let Some((kind, _, _)) = reloc {
            let want_pcrel = reloc_index.map(|i| matches!(instr.operands[i].kind, OperandKind::PcRel(_)));
            let ok = match kind {
                RelocKind::Imm => want_pcrel == Some(false),
                RelocKind::PcRel => want_pcrel == Some(true),
                RelocKind::Data32 => false,
            };
            if !ok {
                return Err(format!("relocation {kind:?} does not fit '{}'", instr.mnemonic));
            }
        }
        let mut s = String::new();
        if let (Some(g), Some(field)) = (op.guard, m.encoding.guard) {
            let reg = m.reg_name(Reg { file: field.file, index: g.reg });
            let _ = write!(s, "({}{reg}) ", if g.negate { "!" } else { "" });
        }
        s.push_str(&instr.mnemonic);
        for (i, (operand, &value)) in instr.operands.iter().zip(&op.args).enumerate() {
            s.push_str(if i == 0 { " " } else { ", " });
            match (operand.kind, reloc) {
                (_, Some((_, sym, addend))) if reloc_index == Some(i) => s.push_str(&sym_plus(sym, *addend)),
                (OperandKind::Reg(file), _) => s.push_str(&m.reg_name(Reg { file, index: value as u16 })),
                (OperandKind::PcRel(_), _) => {
                    let dist = value * m.op_bytes() as i64;
                    let target = off as i64 + dist;
                    let name = u32::try_from(target).ok().and_then(|t| self.targets.get(&(index, t)));
                    match name {
                        Some(name) if is_plain_name(name) => s.push_str(name),
                        _ if dist == 0 => s.push('.'),
                        _ => s.push_str(&sym_plus(".", dist)),
                    }
                }
                (OperandKind::Imm(..), _) => {
                    let _ = write!(s, "{value}");
                }
            }
        }
        Ok(s)
    }

    /// Prints data bytes `off..end` (no labels inside); returns `end`.
    fn data(&mut self, v: &View, mut off: u32, end: u32) -> u32 {
        while off < end {
            if let Some((kind, sym, addend)) = v.relocs.get(&off) {
                if *kind == RelocKind::Data32 && off + 4 <= end {
                    let text = format!(".word {}", sym_plus(sym, *addend));
                    self.comment_line(&text, &format!("{:08x}", v.base + off));
                    off += 4;
                    continue;
                }
            }
            // The run up to the next relocation.
            let stop = v.next_reloc(off + 1, end);
            let byte = |o: u32| v.byte(o);
            let zeros = v.zero_run(off, stop);
            if zeros >= 8 || (zeros > 0 && off + zeros == stop && zeros == stop - off && zeros >= 4) {
                let _ = writeln!(self.out, "\t.zero {zeros}");
                off += zeros;
                continue;
            }
            // A string line holds at most 64 KiB (a long run is several lines).
            let text_len = v.text_run(off, stop, 1 << 16);
            if text_len >= 4 {
                let bytes: Vec<u8> = (off..off + text_len).map(byte).collect();
                let nul = off + text_len < stop && byte(off + text_len) == 0;
                let dir = if nul { ".asciz" } else { ".ascii" };
                let text = format!("{dir} \"{}\"", escape(&bytes));
                self.comment_line(&text, &format!("{:08x}", v.base + off));
                off += text_len + u32::from(nul);
                continue;
            }
            let starts_run = |o: u32| v.zero_run(o, stop.min(o.saturating_add(8))) >= 8 || v.text_run(o, stop, 4) >= 4;
            // Aligned little-endian words, up to 4 on a line.
            let mut words = Vec::new();
            while off.is_multiple_of(4) && words.len() < 4 {
                let o = off + 4 * words.len() as u32;
                if o + 4 > stop || (!words.is_empty() && starts_run(o)) || (1..4).any(|k| starts_run(o + k)) {
                    break;
                }
                let w = u32::from_le_bytes([byte(o), byte(o + 1), byte(o + 2), byte(o + 3)]);
                words.push(format!("{w:#010x}"));
            }
            if !words.is_empty() {
                let text = format!(".word {}", words.join(", "));
                self.comment_line(&text, &format!("{:08x}", v.base + off));
                off += 4 * words.len() as u32;
                continue;
            }
            // Up to 8 bytes, stopping before a string, a zero run or an aligned word.
            let mut n = 0u32;
            while off + n < stop && n < 8 {
                let o = off + n;
                if n > 0 {
                    let z = v.zero_run(o, stop.min(o.saturating_add(8)));
                    let t = v.text_run(o, stop, 4);
                    if z >= 8 || t >= 4 || (o.is_multiple_of(4) && o + 4 <= stop) {
                        break;
                    }
                }
                n += 1;
            }
            let vals: Vec<String> = (off..off + n).map(|o| format!("{:#04x}", byte(o))).collect();
            let text = format!(".byte {}", vals.join(", "));
            self.comment_line(&text, &format!("{:08x}", v.base + off));
            off += n;
        }
        end
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers() {
        assert_eq!(sym_plus("f", 0), "f");
        assert_eq!(sym_plus("f", 8), "f+8");
        assert_eq!(sym_plus(".", -16), ".-16");
        assert_eq!(escape(b"a\"b\\\n\x01"), "a\\\"b\\\\\\n\\x01");
        assert!(is_plain_name("main") && is_plain_name(".L1") && !is_plain_name(".") && !is_plain_name("a b"));
        assert_eq!(raw_directive(8), ".quad");
        assert_eq!(raw_directive(4), ".word");
    }

    #[test]
    fn data_runs() {
        let m = Machine::load("ftm").expect("ftm");
        let obj = crate::assemble(&m, "\t.data\nd:\t.byte 1, 2, 3\n\t.asciz \"text!\"\n\t.zero 12\n\t.align 4\n\t.word 5\n", "t.s").unwrap();
        let out = disassemble_object(&m, &obj);
        assert!(out.contains("\t.byte 0x01, 0x02, 0x03"), "{out}");
        assert!(out.contains("\t.asciz \"text!\""), "{out}");
        assert!(out.contains("\t.zero 15"), "{out}");
        assert!(out.contains("\t.word 0x00000005"), "{out}");
        assert_eq!(crate::assemble(&m, &out, "again.s").unwrap(), obj);
    }
}

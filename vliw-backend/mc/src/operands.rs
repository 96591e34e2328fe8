//! Operations and bundles: mnemonic lookup (with "did you mean" hints),
//! guards, operand checking against the instruction's operand list,
//! symbolic operands and their relocations, bundle legality and encoding.

use dsp_obj::{RelocKind, SectionKind};
use isa_tablegen::{BundleError, Guard, InstrId, Machine, Op, OperandKind, RegFileId};

use crate::assembler::Asm;
use crate::expr::{SymRef, Value};
use crate::parser::{Expr, ExprKind, OpStmt};
use crate::Pos;

/// Edit distance of two short strings, counting a transposition of two
/// neighbouring characters as one edit.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

/// The candidate closest to `word`, when it is close enough to be a likely typo.
pub fn closest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let len = word.chars().count();
    let limit = (len / 3).clamp(1, 3);
    let word = word.to_ascii_lowercase();
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        // The distance is at least the difference in length: a word far
        // longer than every candidate (a 100 KB line) costs nothing.
        if len.abs_diff(c.chars().count()) > limit {
            continue;
        }
        let d = distance(&word, c);
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// Splits a register name into its file and index without checking the
/// index against the file size: `r40` → (file r, 40). Longest prefix wins.
pub fn split_reg(m: &Machine, text: &str) -> Option<(RegFileId, u64)> {
    let mut best: Option<(usize, RegFileId)> = None;
    for (i, f) in m.regfiles.iter().enumerate() {
        if let Some(rest) = text.strip_prefix(f.name.as_str()) {
            let digits = !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit());
            if digits && best.is_none_or(|(len, _)| f.name.len() > len) {
                best = Some((f.name.len(), RegFileId(i as u16)));
            }
        }
    }
    let (len, file) = best?;
    let rest = &text[len..];
    if rest.len() > 1 && rest.starts_with('0') {
        return None;
    }
    Some((file, rest.parse().unwrap_or(u64::MAX)))
}

/// A resolved operation and the relocation its symbolic operand needs.
struct Resolved {
    op: Op,
    reloc: Option<(RelocKind, String, i64)>,
}

impl Asm<'_> {
    /// Emits one bundle holding one operand-less operation (`nop`).
    pub(crate) fn emit_nop_bundle(&mut self, mnemonic: &str, pos: Pos) {
        let op = OpStmt { mnemonic: mnemonic.to_string(), pos, guard: None, operands: Vec::new() };
        self.bundle(std::slice::from_ref(&op), pos);
    }

    pub(crate) fn bundle(&mut self, ops: &[OpStmt], pos: Pos) {
        let (s, start) = self.here();
        let op_bytes = self.m.op_bytes();
        let sec = &self.sections[s];
        if sec.kind != SectionKind::Text {
            let msg = format!(
                "operation '{}' outside .text: section '{}' holds data (switch with .text)",
                ops[0].mnemonic, sec.name
            );
            self.error(ops[0].pos, msg);
        } else if start % op_bytes != 0 {
            self.error(pos, format!("bundle at offset {start} is not aligned to the {op_bytes}-byte operation size"));
        }
        if self.pass == 1 || self.sections[s].kind != SectionKind::Text {
            self.emit_zeros(op_bytes * ops.len() as u32);
            return;
        }
        let mut resolved = Vec::new();
        for (k, op) in ops.iter().enumerate() {
            resolved.push(self.resolve_op(op, s, start + k as u32 * op_bytes));
        }
        let words = if resolved.iter().all(Option::is_some) {
            let resolved: Vec<Resolved> = resolved.into_iter().flatten().collect();
            self.check_and_encode(ops, &resolved, pos, start)
        } else {
            None
        };
        match words {
            Some(words) => {
                let mut bytes = Vec::new();
                for w in words {
                    self.m.write_word(&mut bytes, w);
                }
                self.emit(&bytes);
            }
            None => self.emit_zeros(op_bytes * ops.len() as u32),
        }
    }

    fn check_and_encode(&mut self, ops: &[OpStmt], resolved: &[Resolved], pos: Pos, start: u32) -> Option<Vec<u64>> {
        let plain: Vec<Op> = resolved.iter().map(|r| r.op.clone()).collect();
        if let Err(e) = self.m.check_bundle(&plain) {
            let at = match &e {
                BundleError::NoUnit { op, .. } => ops.get(*op).map(|o| o.pos).unwrap_or(pos),
                BundleError::SameDest { second, .. } => ops.get(*second).map(|o| o.pos).unwrap_or(pos),
                _ => pos,
            };
            self.error(at, e.to_string());
            return None;
        }
        let mut words = Vec::new();
        let op_bytes = self.m.op_bytes();
        for (k, r) in resolved.iter().enumerate() {
            match self.m.encode_op(&r.op, k + 1 == resolved.len()) {
                Ok(w) => words.push(w),
                Err(e) => {
                    self.error(ops[k].pos, e.to_string());
                    return None;
                }
            }
        }
        for (k, r) in resolved.iter().enumerate() {
            if let Some((kind, sym, addend)) = &r.reloc {
                self.add_reloc(start + k as u32 * op_bytes, *kind, sym.clone(), *addend);
            }
        }
        Some(words)
    }

    fn lookup_instr(&mut self, op: &OpStmt) -> Option<InstrId> {
        if let Some(id) = self.m.instr_by_mnemonic(&op.mnemonic) {
            return Some(id);
        }
        let lower = op.mnemonic.to_ascii_lowercase();
        let hint = if self.m.instr_by_mnemonic(&lower).is_some() {
            Some(lower)
        } else {
            closest(&op.mnemonic, self.m.instrs.iter().map(|i| i.mnemonic.as_str())).map(str::to_string)
        };
        let hint = hint.map(|h| format!("; did you mean '{h}'?")).unwrap_or_default();
        self.error(op.pos, format!("unknown instruction '{}'{hint}", op.mnemonic));
        None
    }

    fn resolve_guard(&mut self, op: &OpStmt) -> Result<Option<Guard>, ()> {
        let Some(g) = &op.guard else { return Ok(None) };
        let Some(field) = self.m.encoding.guard else {
            self.error(g.pos, format!("this machine has no guarded execution (guard '{}')", g.reg));
            return Err(());
        };
        let gfile = self.m.regfile(field.file);
        match split_reg(self.m, &g.reg) {
            Some((file, index)) if file == field.file => {
                if index >= gfile.count as u64 {
                    let msg = self.out_of_range(&g.reg, file);
                    self.error(g.pos, msg);
                    return Err(());
                }
                Ok(Some(Guard { reg: index as u16, negate: g.negate }))
            }
            _ => {
                let msg = format!(
                    "guard '{}' is not a register of the guard file '{}' ({}0-{}{})",
                    g.reg,
                    gfile.name,
                    gfile.name,
                    gfile.name,
                    gfile.count.saturating_sub(1)
                );
                self.error(g.pos, msg);
                Err(())
            }
        }
    }

    fn out_of_range(&self, text: &str, file: RegFileId) -> String {
        let f = self.m.regfile(file);
        format!(
            "register '{text}' out of range: file '{}' has {} registers ({}0-{}{})",
            f.name,
            f.count,
            f.name,
            f.name,
            f.count.saturating_sub(1)
        )
    }

    fn resolve_op(&mut self, op: &OpStmt, section: usize, offset: u32) -> Option<Resolved> {
        let id = self.lookup_instr(op)?;
        let guard = self.resolve_guard(op);
        let instr = self.m.instr(id);
        let mnemonic = instr.mnemonic.clone();
        if op.operands.len() != instr.operands.len() {
            let names: Vec<&str> = instr.operands.iter().map(|o| o.name.as_str()).collect();
            let at = op.operands.get(instr.operands.len()).map(|e| e.pos).unwrap_or(op.pos);
            let n = instr.operands.len();
            let plural = if n == 1 { "" } else { "s" };
            let list = if n == 0 { String::new() } else { format!(" ({})", names.join(", ")) };
            self.error(at, format!("'{mnemonic}' takes {n} operand{plural}{list}, got {}", op.operands.len()));
            return None;
        }
        let mut ok = guard.is_ok();
        let mut args = Vec::new();
        let mut reloc = None;
        let reloc_index = self.m.reloc_operand(id);
        for (i, (operand, e)) in instr.operands.iter().zip(&op.operands).enumerate() {
            let what = format!("operand {} of '{mnemonic}'", i + 1);
            match operand.kind {
                OperandKind::Reg(file) => match self.register_operand(e, file, &what) {
                    Some(v) => args.push(v),
                    None => {
                        ok = false;
                        args.push(0);
                    }
                },
                kind => {
                    let pcrel = matches!(kind, OperandKind::PcRel(_));
                    match self.value_operand(e, kind, &what, section, offset) {
                        Some((v, None)) => args.push(v),
                        Some((_, Some((sym, addend)))) => {
                            if reloc_index != Some(i) {
                                self.error(
                                    e.pos,
                                    format!("{what} cannot refer to a symbol: '{mnemonic}' has more than one immediate operand"),
                                );
                                ok = false;
                            }
                            let kind = if pcrel { RelocKind::PcRel } else { RelocKind::Imm };
                            reloc = Some((kind, sym, addend));
                            args.push(0);
                        }
                        None => {
                            ok = false;
                            args.push(0);
                        }
                    }
                }
            }
        }
        if !ok {
            return None;
        }
        Some(Resolved { op: Op { instr: id, guard: guard.ok().flatten(), args }, reloc })
    }

    fn register_operand(&mut self, e: &Expr, file: RegFileId, what: &str) -> Option<i64> {
        let fname = self.m.regfile(file).name.clone();
        let wrong = format!("{what} must be a register of file '{fname}', got '{e}'");
        let ExprKind::Name(text) = &e.kind else {
            self.error(e.pos, wrong);
            return None;
        };
        match split_reg(self.m, text) {
            Some((f, index)) if f == file => {
                if index >= self.m.regfile(file).count as u64 {
                    let msg = self.out_of_range(text, file);
                    self.error(e.pos, msg);
                    return None;
                }
                Some(index as i64)
            }
            _ => {
                self.error(e.pos, wrong);
                None
            }
        }
    }

    /// A register name used inside an expression (and not also a symbol).
    fn register_in(&self, e: &Expr) -> Option<(String, Pos)> {
        match &e.kind {
            ExprKind::Name(text) => {
                let known = self.labels.contains_key(text) || self.equs.contains_key(text);
                (!known && split_reg(self.m, text).is_some()).then(|| (text.clone(), e.pos))
            }
            ExprKind::Unary(_, a) => self.register_in(a),
            ExprKind::Binary(_, a, b) => self.register_in(a).or_else(|| self.register_in(b)),
            _ => None,
        }
    }

    /// An immediate or pc-relative operand: its field value, or a symbol and
    /// addend to relocate against.
    fn value_operand(
        &mut self,
        e: &Expr,
        kind: OperandKind,
        what: &str,
        section: usize,
        offset: u32,
    ) -> Option<(i64, Option<(String, i64)>)> {
        if let Some((text, pos)) = self.register_in(e) {
            let expected = if matches!(kind, OperandKind::PcRel(_)) { "a branch target" } else { "an immediate" };
            self.error(pos, format!("{what} must be {expected}, got register '{text}'"));
            return None;
        }
        let (min, max) = kind.imm_range().unwrap_or((i64::MIN, i64::MAX));
        let value = match self.env().eval(e, Some((section, offset))) {
            Ok(v) => v,
            Err((p, m)) => {
                self.error(p, m);
                return None;
            }
        };
        match (kind, value) {
            (OperandKind::PcRel(_), Value::Abs(_)) => {
                self.error(e.pos, format!("{what} is pc-relative: write a label or '.+N' (bytes), not the number '{e}'"));
                None
            }
            (OperandKind::PcRel(_), Value::Rel { sym: SymRef::Local { section: s, offset: target, .. }, addend })
                if s == section =>
            {
                let op_bytes = self.m.op_bytes() as i64;
                let dist = (target as i64).wrapping_add(addend).wrapping_sub(offset as i64);
                if dist % op_bytes != 0 {
                    self.error(e.pos, format!("{what}: branch distance {dist} bytes is not a multiple of the {op_bytes}-byte operation size"));
                    return None;
                }
                let words = dist / op_bytes;
                if words < min || words > max {
                    self.error(e.pos, format!("{what}: branch distance {words} operations out of range [{min}, {max}]"));
                    return None;
                }
                Some((words, None))
            }
            (_, Value::Abs(v)) => {
                if v < min || v > max {
                    self.error(e.pos, format!("{what}: value {v} out of range [{min}, {max}]"));
                    return None;
                }
                Some((v, None))
            }
            (_, Value::Rel { sym, addend }) => {
                let name = self.reloc_symbol(&sym, e)?;
                Some((0, Some((name, addend))))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        let names = ["add", "addi", "sub", "ldw", "stw"];
        assert_eq!(closest("ad", names.iter().copied()), Some("add"));
        assert_eq!(closest("ldx", names.iter().copied()), Some("ldw"));
        assert_eq!(closest("frobnicate", names.iter().copied()), None);
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance(".wrod", ".word"), 1);
        // Found by scripts/fuzz-tools: a 100,000-character mnemonic took 4 s
        // (a distance table of 100,000 rows per instruction).
        let long = "a".repeat(1_000_000);
        assert_eq!(closest(&long, names.iter().copied()), None);
        assert_eq!(closest("ADDI", names.iter().copied()), Some("addi"));
    }
}

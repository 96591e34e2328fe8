//! Building small executables in memory, for the simulator's own tests and the
//! bench example: either from bundles of [`Op`]s, or from a tiny assembly
//! subset (bundles `a ; b`, optional braces, guards `(p1)`/`(!p1)`, labels,
//! decimal/hex immediates, `label` and `label+K` operands). It is not the
//! toolchain's assembler (dsp-mc), only enough to write tests without it.
//!
//! Layout follows the linker's: text at `memory.base + null_guard`, then
//! read-only data, then data, each aligned to 64 bytes. Text labels become
//! function symbols, except those starting with `.L`. The entry is `_start`
//! if defined, else the start of text.

use std::collections::HashMap;

use dsp_obj::{ExeSymbol, Executable, MachineId, Segment, SegmentFlags, SymbolKind};
use isa_tablegen::{Guard, Machine, Op, OperandKind};

/// An executable under construction.
pub struct Builder<'m> {
    m: &'m Machine,
    /// Bundles of (operation text or op) with the labels defined before each.
    items: Vec<Item>,
    rodata: Vec<(String, Vec<u8>, u32)>,
    data: Vec<(String, Vec<u8>, u32)>,
}

enum Item {
    Label(String),
    Bundle(Vec<OpSrc>),
}

enum OpSrc {
    Text(String, usize),
    Op(Op),
}

fn align_up(x: u32, a: u32) -> u32 {
    x.div_ceil(a) * a
}

impl<'m> Builder<'m> {
    pub fn new(m: &'m Machine) -> Builder<'m> {
        Builder { m, items: Vec::new(), rodata: Vec::new(), data: Vec::new() }
    }

    /// Appends bundles of already-built operations.
    pub fn bundles(&mut self, bundles: &[Vec<Op>]) -> &mut Self {
        for b in bundles {
            self.items.push(Item::Bundle(b.iter().cloned().map(OpSrc::Op).collect()));
        }
        self
    }

    /// Appends assembly text: one bundle per line, operations separated by `;`.
    pub fn asm(&mut self, text: &str) -> &mut Self {
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("");
            let mut rest = line.trim();
            while let Some(colon) = rest.find(':') {
                let label = rest[..colon].trim();
                if label.is_empty() || !label.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.') {
                    break;
                }
                self.items.push(Item::Label(label.to_string()));
                rest = rest[colon + 1..].trim();
            }
            let rest = rest.trim_start_matches('{').trim_end_matches('}').trim();
            if rest.is_empty() {
                continue;
            }
            let ops = rest.split(';').map(|s| OpSrc::Text(s.trim().to_string(), n + 1)).collect();
            self.items.push(Item::Bundle(ops));
        }
        self
    }

    /// Adds initialised writable data under `label`, aligned to `align`.
    pub fn data(&mut self, label: &str, bytes: &[u8], align: u32) -> &mut Self {
        self.data.push((label.to_string(), bytes.to_vec(), align.max(1)));
        self
    }

    /// Adds read-only data under `label`.
    pub fn rodata(&mut self, label: &str, bytes: &[u8], align: u32) -> &mut Self {
        self.rodata.push((label.to_string(), bytes.to_vec(), align.max(1)));
        self
    }

    /// Lays out, resolves labels and encodes.
    pub fn build(&self) -> Result<Executable, String> {
        let m = self.m;
        let ob = m.op_bytes();
        let text_base = m.memory.base + m.memory.null_guard;
        let mut syms: HashMap<String, u32> = HashMap::new();
        let mut order: Vec<(String, u32, bool)> = Vec::new();
        let mut pc = text_base;
        for it in &self.items {
            match it {
                Item::Label(l) => {
                    if syms.insert(l.clone(), pc).is_some() {
                        return Err(format!("label '{l}' defined twice"));
                    }
                    order.push((l.clone(), pc, true));
                }
                Item::Bundle(ops) => pc += ob * ops.len() as u32,
            }
        }
        let text_end = pc;
        let mut place = |list: &[(String, Vec<u8>, u32)], start: u32, syms: &mut HashMap<String, u32>| {
            let mut a = start;
            let mut out = Vec::new();
            for (l, bytes, al) in list {
                a = align_up(a, *al);
                syms.insert(l.clone(), a);
                order.push((l.clone(), a, false));
                out.push((a, bytes.clone()));
                a += bytes.len() as u32;
            }
            (out, a)
        };
        let ro_base = align_up(text_end, 64);
        let (ro_items, ro_end) = place(&self.rodata, ro_base, &mut syms);
        let data_base = align_up(ro_end, 64);
        let (data_items, data_end) = place(&self.data, data_base, &mut syms);
        // Encode text.
        let mut text = Vec::new();
        let mut pc = text_base;
        for it in &self.items {
            let Item::Bundle(ops) = it else { continue };
            for (k, o) in ops.iter().enumerate() {
                let op = match o {
                    OpSrc::Op(op) => op.clone(),
                    OpSrc::Text(t, line) => parse_op(m, t, pc, &syms).map_err(|e| format!("line {line}: {e}"))?,
                };
                let word = m.encode_op(&op, k + 1 == ops.len()).map_err(|e| e.to_string())?;
                m.write_word(&mut text, word);
                pc += ob;
            }
        }
        let seg = |name: &str, addr: u32, items: Vec<(u32, Vec<u8>)>, end: u32, write: bool| {
            let mut data = vec![0u8; (end - addr) as usize];
            for (a, b) in items {
                data[(a - addr) as usize..(a - addr) as usize + b.len()].copy_from_slice(&b);
            }
            Segment {
                name: name.into(),
                addr,
                mem_size: data.len() as u32,
                data,
                flags: SegmentFlags { read: true, write, exec: false },
            }
        };
        let mut segments = vec![Segment {
            name: ".text".into(),
            addr: text_base,
            mem_size: text.len() as u32,
            data: text,
            flags: SegmentFlags { read: true, write: false, exec: true },
        }];
        if !self.rodata.is_empty() {
            segments.push(seg(".rodata", ro_base, ro_items, ro_end, false));
        }
        if !self.data.is_empty() {
            segments.push(seg(".data", data_base, data_items, data_end, true));
        }
        let symbols = order
            .iter()
            .map(|(name, addr, is_text)| ExeSymbol {
                name: name.clone(),
                addr: *addr,
                size: 0,
                kind: if *is_text && !name.starts_with(".L") {
                    SymbolKind::Func
                } else if *is_text {
                    SymbolKind::NoType
                } else {
                    SymbolKind::Object
                },
                global: true,
            })
            .collect();
        Ok(Executable {
            machine: MachineId { name: m.name.clone(), fingerprint: m.fingerprint },
            entry: syms.get("_start").copied().unwrap_or(text_base),
            segments,
            symbols,
        })
    }
}

/// Builds an executable from bundles of operations (text at the usual place).
pub fn exe_from_bundles(m: &Machine, bundles: &[Vec<Op>]) -> Result<Executable, String> {
    Builder::new(m).bundles(bundles).build()
}

fn parse_int(s: &str) -> Option<i64> {
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s),
    };
    let v = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        i64::from_str_radix(h, 16).ok()?
    } else {
        body.parse::<i64>().ok()?
    };
    Some(if neg { -v } else { v })
}

/// Value of `label`, `label+K`, `label-K` or a number.
fn parse_value(s: &str, syms: &HashMap<String, u32>) -> Option<(i64, bool)> {
    if let Some(v) = parse_int(s) {
        return Some((v, false));
    }
    let split = s.rfind(['+', '-']).filter(|&i| i > 0);
    let (name, off) = match split {
        Some(i) => (&s[..i], parse_int(&s[i..].replace('+', ""))?),
        None => (s, 0),
    };
    Some((*syms.get(name.trim())? as i64 + off, true))
}

/// Parses one operation such as `(!p1) addi r5, r5, -1`.
pub fn parse_op(m: &Machine, text: &str, pc: u32, syms: &HashMap<String, u32>) -> Result<Op, String> {
    let mut t = text.trim();
    let mut guard = None;
    if let Some(rest) = t.strip_prefix('(') {
        let close = rest.find(')').ok_or_else(|| format!("unclosed guard in '{text}'"))?;
        let g = rest[..close].trim();
        let (negate, name) = match g.strip_prefix('!') {
            Some(n) => (true, n.trim()),
            None => (false, g),
        };
        let reg = m.parse_reg(name).ok_or_else(|| format!("bad guard register '{name}'"))?;
        guard = Some(Guard { reg: reg.index, negate });
        t = rest[close + 1..].trim();
    }
    let (mnemonic, args) = match t.find(char::is_whitespace) {
        Some(i) => (&t[..i], t[i..].trim()),
        None => (t, ""),
    };
    let id = m.instr_by_mnemonic(mnemonic).ok_or_else(|| format!("unknown mnemonic '{mnemonic}'"))?;
    let instr = m.instr(id);
    let parts: Vec<&str> = if args.is_empty() { Vec::new() } else { args.split(',').map(str::trim).collect() };
    if parts.len() != instr.operands.len() {
        return Err(format!("'{mnemonic}' takes {} operands, got {}", instr.operands.len(), parts.len()));
    }
    let mut values = Vec::new();
    for (p, operand) in parts.iter().zip(&instr.operands) {
        let v = match operand.kind {
            OperandKind::Reg(file) => {
                let r = m.parse_reg(p).filter(|r| r.file == file).ok_or_else(|| {
                    format!("'{mnemonic}' operand '{}' needs a {} register, got '{p}'", operand.name, m.regfile(file).name)
                })?;
                r.index as i64
            }
            OperandKind::Imm(..) => parse_value(p, syms).ok_or_else(|| format!("bad immediate '{p}'"))?.0,
            OperandKind::PcRel(_) => {
                let (v, is_sym) = parse_value(p, syms).ok_or_else(|| format!("bad target '{p}'"))?;
                if is_sym {
                    (v - pc as i64) / m.op_bytes() as i64
                } else {
                    v
                }
            }
        };
        values.push(v);
    }
    Ok(Op { instr: id, guard, args: values })
}

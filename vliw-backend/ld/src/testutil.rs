//! Test helpers: every shipped machine, operation words from
//! `Machine::encode_op`, and a small builder for `ObjectFile` values.

use dsp_obj::{MachineId, ObjectFile, Reloc, RelocKind, Section, SectionKind, Symbol, SymbolKind};
use isa_tablegen::{Machine, Op};

pub fn machines() -> Vec<Machine> {
    isa_tablegen::builtin::names()
        .map(|n| Machine::load(n).unwrap_or_else(|d| panic!("machine {n}: {d}")))
        .collect()
}

/// One operation as a one-operation bundle.
pub fn op(m: &Machine, mnemonic: &str, args: &[i64]) -> u64 {
    let instr = m
        .instr_by_mnemonic(mnemonic)
        .unwrap_or_else(|| panic!("no '{mnemonic}' on {}", m.name));
    m.encode_op(
        &Op {
            instr,
            guard: None,
            args: args.to_vec(),
        },
        true,
    )
    .unwrap()
}

pub fn decode(m: &Machine, bytes: &[u8], offset: usize) -> (String, Vec<i64>) {
    let word = m.read_word(bytes, offset).unwrap();
    let (op, _) = m.decode_op(word).unwrap();
    (m.instr(op.instr).mnemonic.clone(), op.args)
}

pub struct Obj<'m> {
    pub m: &'m Machine,
    pub obj: ObjectFile,
}

impl<'m> Obj<'m> {
    pub fn new(m: &'m Machine) -> Self {
        let machine = MachineId {
            name: m.name.clone(),
            fingerprint: m.fingerprint,
        };
        Obj {
            m,
            obj: ObjectFile {
                machine,
                sections: vec![],
                symbols: vec![],
            },
        }
    }

    pub fn section(&mut self, name: &str, kind: SectionKind, align: u32) -> usize {
        self.obj.sections.push(Section {
            name: name.into(),
            kind,
            align,
            data: vec![],
            size: 0,
            relocs: vec![],
        });
        self.obj.sections.len() - 1
    }

    /// Appends operations; returns the offset of the first.
    pub fn code(&mut self, sec: usize, ops: &[(&str, &[i64])]) -> u32 {
        let at = self.obj.sections[sec].size;
        for (mn, args) in ops {
            let w = op(self.m, mn, args);
            let s = &mut self.obj.sections[sec];
            self.m.write_word(&mut s.data, w);
            s.size = s.data.len() as u32;
        }
        at
    }

    pub fn bytes(&mut self, sec: usize, bytes: &[u8]) -> u32 {
        let s = &mut self.obj.sections[sec];
        let at = s.size;
        if s.kind == SectionKind::Bss {
            s.size += bytes.len() as u32;
        } else {
            s.data.extend_from_slice(bytes);
            s.size = s.data.len() as u32;
        }
        at
    }

    pub fn sym(
        &mut self,
        name: &str,
        sec: Option<usize>,
        value: u32,
        global: bool,
        kind: SymbolKind,
    ) -> usize {
        self.obj.symbols.push(Symbol {
            name: name.into(),
            section: sec,
            value,
            size: 0,
            global,
            kind,
        });
        self.obj.symbols.len() - 1
    }

    pub fn func(&mut self, name: &str, sec: usize, value: u32, size: u32) -> usize {
        let i = self.sym(name, Some(sec), value, true, SymbolKind::Func);
        self.obj.symbols[i].size = size;
        i
    }

    pub fn undef(&mut self, name: &str) -> usize {
        self.sym(name, None, 0, true, SymbolKind::NoType)
    }

    pub fn reloc(&mut self, sec: usize, offset: u32, kind: RelocKind, symbol: usize, addend: i64) {
        self.obj.sections[sec].relocs.push(Reloc {
            offset,
            kind,
            symbol,
            addend,
        });
    }

    pub fn done(self) -> ObjectFile {
        // Locals first, as the assembler writes them.
        let mut o = self.obj;
        let order: Vec<usize> = (0..o.symbols.len())
            .filter(|&i| !o.symbols[i].global)
            .chain((0..o.symbols.len()).filter(|&i| o.symbols[i].global))
            .collect();
        let mut new_index = vec![0; order.len()];
        for (k, &i) in order.iter().enumerate() {
            new_index[i] = k;
        }
        o.symbols = order.iter().map(|&i| o.symbols[i].clone()).collect();
        for s in &mut o.sections {
            for r in &mut s.relocs {
                r.symbol = new_index[r.symbol];
            }
        }
        o
    }
}

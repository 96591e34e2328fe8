//! Hostile input never panics: random source text is assembled, random
//! words and odd objects are disassembled, on every shipped machine.

use dsp_mc::{assemble, disassemble_object};
use dsp_obj::{MachineId, ObjectFile, Reloc, RelocKind, Section, SectionKind, Symbol, SymbolKind};
use isa_tablegen::{builtin, Machine};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

const PIECES: &[&str] = &[
    "add", "li", "br", "call", "ldw", "{", "}", ";", ",", "(", ")", "(!p1)", "(p9)", "r1", "r99", "v3", "p2", "m1",
    "d4", ".", ".+8", ".-3", "-", "+", "*", "/", "%", "<<", "0x", "0xffffffffffffffff", "-9223372036854775808", "12ab",
    "'a'", "'", "\"str", "\"ok\"", "x:", "lab", ".word", ".byte", ".zero", ".align", ".p2align", ".equ", ".set", ".bss",
    ".data", ".text", ".section", ".globl", ".type", "@function", ".size", ".nop_delay", ".float", "1.5e3", "#", "//",
    "\n", "\n", "\n", "~", "!", "@", "$", "é", "\t", "nop", "trap", "vstm", "sel", "99999999999999999999",
];

#[test]
fn random_source_never_panics() {
    for name in builtin::names() {
        let m = Machine::load(name).unwrap();
        let mut rng = Rng(0x9e3779b97f4a7c15);
        for _ in 0..300 {
            let n = 1 + rng.next() % 60;
            let src: Vec<&str> = (0..n).map(|_| rng.pick(PIECES)).collect();
            let src = src.join(" ");
            if let Err(errors) = assemble(&m, &src, "fuzz.s") {
                assert!(!errors.is_empty() && errors.len() <= dsp_mc::MAX_ERRORS);
                for e in errors {
                    assert!(e.line >= 1 && e.col >= 1, "{e}");
                }
            }
        }
    }
}

#[test]
fn random_words_and_odd_objects_never_panic_and_reassemble() {
    for name in builtin::names() {
        let m = Machine::load(name).unwrap();
        let mut rng = Rng(0x1234_5678_9abc_def1);
        let n = m.op_bytes() as usize;
        let mut data = Vec::new();
        for _ in 0..400 {
            // Mostly real opcodes with random fields, some pure noise.
            let mut w = rng.next();
            if !rng.next().is_multiple_of(4) {
                let k = (rng.next() % m.instrs.len() as u64) as usize;
                w = m.encoding.opcode.set(w & m.used_bits[k], m.instrs[k].opcode as u64);
                if !rng.next().is_multiple_of(4) {
                    w |= 1 << m.encoding.stop_bit;
                }
            }
            data.extend_from_slice(&w.to_le_bytes()[..n]);
        }
        data.extend_from_slice(&[1, 2, 3]);
        // The Data32 relocation at 40 makes those bytes a `.word sym`, whose
        // value lives in the relocation: the field itself must be zero to
        // reassemble identically (whatever random word was drawn there).
        data[40..44].fill(0);
        let size = data.len() as u32;
        let obj = ObjectFile {
            machine: MachineId { name: m.name.clone(), fingerprint: m.fingerprint },
            sections: vec![
                Section {
                    name: ".text".into(),
                    kind: SectionKind::Text,
                    align: 8,
                    data: data.clone(),
                    size,
                    relocs: vec![
                        Reloc { offset: 8, kind: RelocKind::Imm, symbol: 1, addend: 4 },
                        Reloc { offset: 24, kind: RelocKind::PcRel, symbol: 1, addend: -8 },
                        Reloc { offset: 40, kind: RelocKind::Data32, symbol: 0, addend: 0 },
                    ],
                },
                Section { name: ".data".into(), kind: SectionKind::Data, align: 4, data: data[..64].to_vec(), size: 64, relocs: vec![] },
            ],
            symbols: vec![
                Symbol { name: "a".into(), section: Some(0), value: 12, size: 0, global: false, kind: SymbolKind::NoType },
                Symbol { name: "ext".into(), section: None, value: 0, size: 0, global: true, kind: SymbolKind::NoType },
                Symbol { name: "far".into(), section: Some(1), value: 1000, size: 0, global: false, kind: SymbolKind::NoType },
            ],
        };
        let text = disassemble_object(&m, &obj);
        let decoded = text.lines().filter(|l| !l.trim_start().starts_with('.') && l.contains(": ")).count();
        assert!(decoded > 20, "{name}: only {decoded} bundles decoded\n{text}");
        let again = assemble(&m, &text, "again.s").unwrap_or_else(|e| {
            panic!("{name}: {}\n{text}", e.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n"))
        });
        assert_eq!(again.sections[0].data, obj.sections[0].data, "{name}");
        assert_eq!(again.sections[1].data, obj.sections[1].data, "{name}");
    }
}

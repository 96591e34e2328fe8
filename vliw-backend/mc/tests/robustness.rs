//! Hostile input never panics: random source text is assembled, random
//! words and odd objects are disassembled, on every shipped machine
//! (proptest: generated inputs from a fixed seed, shrunk to a minimal case
//! on failure).

use dsp_mc::{assemble, disassemble_object};
use dsp_obj::{MachineId, ObjectFile, Reloc, RelocKind, Section, SectionKind, Symbol, SymbolKind};
use isa_tablegen::{builtin, Machine};
use proptest::prelude::*;
use proptest::sample::{select, Index};
use proptest::test_runner::{Config, RngSeed, TestRunner};

/// A deterministic runner of `cases` cases that writes no regression files.
fn runner(cases: u32, seed: u64) -> TestRunner {
    TestRunner::new(Config { cases, rng_seed: RngSeed::Fixed(seed), failure_persistence: None, ..Config::default() })
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
        let source = prop::collection::vec(select(PIECES), 1..=60).prop_map(|p| p.join(" "));
        runner(300, 0x9e37_79b9_7f4a_7c15)
            .run(&source, |src| {
                if let Err(errors) = assemble(&m, &src, "fuzz.s") {
                    prop_assert!(!errors.is_empty() && errors.len() <= dsp_mc::MAX_ERRORS);
                    for e in errors {
                        prop_assert!(e.line >= 1 && e.col >= 1, "{e}");
                    }
                }
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

/// One operation word: a random 64-bit pattern, mostly made into a real
/// opcode with random fields (sometimes ending a bundle), else pure noise.
#[derive(Clone, Debug)]
struct Word {
    bits: u64,
    instr: Option<(Index, bool)>,
}

fn word() -> impl Strategy<Value = Word> {
    (any::<u64>(), prop::option::weighted(0.75, (any::<Index>(), prop::bool::weighted(0.75)))).prop_map(|(bits, instr)| Word { bits, instr })
}

#[test]
fn random_words_and_odd_objects_never_panic_and_reassemble() {
    for name in builtin::names() {
        let m = Machine::load(name).unwrap();
        let words = prop::collection::vec(word(), 400);
        runner(6, 0x1234_5678_9abc_def1)
            .run(&words, |words| {
                check_words(&m, &words);
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

fn check_words(m: &Machine, words: &[Word]) {
    let name = &m.name;
    {
        let n = m.op_bytes() as usize;
        let mut data = Vec::new();
        for w in words {
            let mut bits = w.bits;
            if let Some((k, stop)) = &w.instr {
                let k = k.index(m.instrs.len());
                bits = m.encoding.opcode.set(bits & m.used_bits[k], m.instrs[k].opcode as u64);
                if *stop {
                    bits |= 1 << m.encoding.stop_bit;
                }
            }
            data.extend_from_slice(&bits.to_le_bytes()[..n]);
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
        let text = disassemble_object(m, &obj);
        let decoded = text.lines().filter(|l| !l.trim_start().starts_with('.') && l.contains(": ")).count();
        assert!(decoded > 20, "{name}: only {decoded} bundles decoded\n{text}");
        let again = assemble(m, &text, "again.s").unwrap_or_else(|e| {
            panic!("{name}: {}\n{text}", e.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n"))
        });
        assert_eq!(again.sections[0].data, obj.sections[0].data, "{name}");
        assert_eq!(again.sections[1].data, obj.sections[1].data, "{name}");
    }
}

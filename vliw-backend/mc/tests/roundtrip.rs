//! For every shipped machine: a generated source that uses every
//! instruction (extreme immediates, highest registers, guarded and negated
//! forms, packed multi-operation bundles, symbolic operands) assembles,
//! disassembles and reassembles to the identical object; every word
//! decodes to the operation intended; the object survives the ELF writer
//! and reader.

use std::fmt::Write;

use dsp_mc::{assemble, disassemble_object};
use dsp_obj::{read_object, write_object, ObjectFile, SectionKind};
use isa_tablegen::{builtin, Guard, ImmKind, InstrId, Machine, Op, OperandKind, Reg};

fn load(name: &str) -> Machine {
    Machine::load(name).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn sign_extend(v: i64, bits: u32) -> i64 {
    let shift = 64 - bits;
    (v << shift) >> shift
}

/// How decoding reports a value written in the source.
fn normalize(kind: OperandKind, v: i64) -> i64 {
    match kind {
        OperandKind::Imm(ImmKind::Either, bits) => sign_extend(v, bits),
        _ => v,
    }
}

/// Operand text and the value decoding should give, for a variant.
fn operand(m: &Machine, kind: OperandKind, variant: usize, k: usize) -> (String, i64) {
    match kind {
        OperandKind::Reg(file) => {
            let count = m.regfile(file).count as i64;
            let index = match variant {
                0 => count - 1,
                1 => 0,
                _ => (k as i64 * 5 + 3) % count,
            };
            (m.reg_name(Reg { file, index: index as u16 }), index)
        }
        OperandKind::Imm(..) => {
            let (min, max) = kind.imm_range().unwrap();
            let v = match variant {
                0 => max,
                1 => min,
                _ => (min + max) / 3,
            };
            (v.to_string(), normalize(kind, v))
        }
        OperandKind::PcRel(_) => {
            let (min, max) = kind.imm_range().unwrap();
            let words = match variant {
                0 => max,
                1 => min,
                _ => 0,
            };
            let bytes = words * m.op_bytes() as i64;
            let text = match bytes {
                0 => ".".to_string(),
                b if b > 0 => format!(".+{b}"),
                b => format!(".-{}", -b),
            };
            (text, words)
        }
    }
}

fn guard_for(m: &Machine, variant: usize) -> Option<(String, Guard)> {
    let g = m.encoding.guard?;
    let count = m.regfile(g.file).count;
    let (index, negate) = match variant {
        0 => return None,
        1 => (count - 1, false),
        _ => (1 % count, true),
    };
    let name = m.reg_name(Reg { file: g.file, index });
    let text = format!("({}{name}) ", if negate { "!" } else { "" });
    Some((text, Guard { reg: index, negate }))
}

/// One operation as text and as the `Op` it must decode to.
fn op_variant(m: &Machine, id: InstrId, variant: usize) -> (String, Op) {
    let instr = m.instr(id);
    let mut args = Vec::new();
    let mut texts = Vec::new();
    for (k, o) in instr.operands.iter().enumerate() {
        let (t, v) = operand(m, o.kind, variant, k);
        texts.push(t);
        args.push(v);
    }
    let (gtext, guard) = match guard_for(m, variant) {
        Some((t, g)) => (t, Some(g)),
        None => (String::new(), None),
    };
    let text = format!("{gtext}{} {}", instr.mnemonic, texts.join(", "));
    (text.trim_end().to_string(), Op { instr: id, guard, args })
}

/// A source using every instruction, and the operations of its .text in order.
fn every_instruction(m: &Machine) -> (String, Vec<Op>) {
    let mut src = String::from("\t.text\n\t.globl start\n\t.type start, @function\nstart:\n");
    let mut expected = Vec::new();
    let mut all = Vec::new();
    for i in 0..m.instrs.len() {
        let id = InstrId(i as u16);
        for variant in 0..3 {
            let (text, op) = op_variant(m, id, variant);
            // One operation per bundle: always legal.
            assert!(m.check_bundle(std::slice::from_ref(&op)).is_ok(), "{text}");
            let _ = writeln!(src, "\t{text}");
            expected.push(op.clone());
            all.push((text, op));
        }
    }
    // Packed bundles, built greedily with the machine's own legality check.
    src.push_str("packed:\n");
    // Each bundle takes every remaining operation that still fits.
    let mut rest: Vec<(String, Op)> =
        all.into_iter().filter(|(_, o)| o.guard.is_none() || o.guard.is_some_and(|g| g.negate)).collect();
    let mut widest = 0;
    while !rest.is_empty() {
        let mut bundle: Vec<(String, Op)> = vec![rest.remove(0)];
        let mut k = 0;
        while k < rest.len() {
            let mut trial: Vec<Op> = bundle.iter().map(|(_, o)| o.clone()).collect();
            trial.push(rest[k].1.clone());
            if m.check_bundle(&trial).is_ok() {
                bundle.push(rest.remove(k));
            } else {
                k += 1;
            }
        }
        widest = widest.max(bundle.len());
        let texts: Vec<&str> = bundle.iter().map(|(t, _)| t.as_str()).collect();
        let _ = writeln!(src, "\t{{ {} }}", texts.join(" ; "));
        expected.extend(bundle.into_iter().map(|(_, o)| o));
    }
    assert!(widest >= m.bundle.max_ops as usize - 2, "widest packed bundle {widest}");
    (src, expected)
}

/// Symbolic operands: labels, relocations of each kind, data and bss.
fn symbolic(m: &Machine) -> String {
    let imm = m.instrs.iter().find(|i| {
        i.operands.len() == 2
            && matches!(i.operands[0].kind, OperandKind::Reg(_))
            && matches!(i.operands[1].kind, OperandKind::Imm(_, 32))
    });
    let pcrel = m.instrs.iter().find(|i| {
        i.operands.len() == 1 && matches!(i.operands[0].kind, OperandKind::PcRel(_)) && !i.sem.is_call()
    });
    let call = m.instrs.iter().find(|i| i.sem.is_call() && matches!(i.operands[0].kind, OperandKind::PcRel(_)));
    let mut s = String::from("\t.section .text.more\n\t.globl entry\nentry:\n");
    if let Some(i) = imm {
        let OperandKind::Reg(f) = i.operands[0].kind else { unreachable!() };
        let r = m.reg_name(Reg { file: f, index: 2 });
        let _ = writeln!(s, "\t{} {r}, msg+4\n\t{} {r}, extern_data-8\n\t{} {r}, end-entry\n\t{} {r}, entry",
            i.mnemonic, i.mnemonic, i.mnemonic, i.mnemonic);
    }
    if let Some(i) = pcrel {
        let _ = writeln!(s, "back:\n\t{} back\n\t{} fwd\n\t{} start\n\t{} other_file+16", i.mnemonic, i.mnemonic, i.mnemonic, i.mnemonic);
        s.push_str("\t.nop_delay\nfwd:\n");
    }
    if let Some(i) = call {
        let _ = writeln!(s, "\t{} printf\n\t.nop_delay", i.mnemonic);
    }
    s.push_str("end:\n\t.rodata\nmsg:\t.asciz \"hello, world\\n\"\n\t.align 8\n");
    s.push_str("\t.data\n\t.globl table\n\t.type table, @object\ntable:\t.word 1, -2, 0xffffffff, msg, msg+3, extern_data, table+8\n");
    s.push_str("\t.half 0x1234, -1\n\t.byte 1, 2, 255, 'z'\n\t.quad -1, 0x123456789abcdef0\n\t.float 1.5\n\t.double -2.25\n");
    s.push_str("\t.size table, .-table\n\t.section .rodata.str, \"a\"\nstr:\t.ascii \"tab\\there\"\n\t.zero 20\n\t.byte 7\n");
    s.push_str("\t.bss\n\t.align 64\nbuf:\t.zero 100\nbuf2:\t.space 12\nbss_end:\n");
    s
}

fn check_decodes(m: &Machine, obj: &ObjectFile, expected: &[Op]) {
    let text = &obj.sections.iter().find(|s| s.name == ".text").expect(".text").data;
    let n = m.op_bytes() as usize;
    assert_eq!(text.len(), expected.len() * n);
    for (k, want) in expected.iter().enumerate() {
        let word = m.read_word(text, k * n).unwrap();
        let (got, _) = m.decode_op(word).unwrap_or_else(|e| panic!("word {k} ({word:#x}): {e}"));
        let instr = m.instr(want.instr);
        assert_eq!(&got, want, "operation {k} ({})", instr.mnemonic);
    }
}

fn round_trip(m: &Machine, src: &str, name: &str) -> ObjectFile {
    let obj = assemble(m, src, name).unwrap_or_else(|e| {
        panic!("{}: {}", m.name, e.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n"))
    });
    let text = disassemble_object(m, &obj);
    let again = assemble(m, &text, "disassembly.s").unwrap_or_else(|e| {
        panic!("{}: reassembly failed:\n{}\n--- disassembly:\n{text}", m.name,
            e.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n"))
    });
    assert_eq!(obj.sections.len(), again.sections.len());
    for (a, b) in obj.sections.iter().zip(&again.sections) {
        assert_eq!(a.name, b.name);
        assert_eq!(a.kind, b.kind, "{}", a.name);
        assert_eq!(a.align, b.align, "{}", a.name);
        assert_eq!(a.size, b.size, "{}", a.name);
        assert!(a.data == b.data, "{}: {}: section bytes differ\n{text}", m.name, a.name);
        assert_eq!(a.relocs, b.relocs, "{}", a.name);
    }
    assert_eq!(obj.symbols, again.symbols);
    assert_eq!(obj, again);
    // Through the ELF writer and reader too.
    let bytes = write_object(&obj).expect("write_object");
    let back = read_object(&bytes).expect("read_object");
    assert_eq!(back, obj);
    assert_eq!(disassemble_object(m, &back), text);
    obj
}

#[test]
fn every_instruction_round_trips_on_every_machine() {
    for name in builtin::names() {
        let m = load(name);
        let (src, expected) = every_instruction(&m);
        assert!(expected.len() >= 3 * m.instrs.len());
        let obj = round_trip(&m, &src, "every.s");
        check_decodes(&m, &obj, &expected);
    }
}

#[test]
fn symbolic_operands_round_trip_on_every_machine() {
    for name in builtin::names() {
        let m = load(name);
        let obj = round_trip(&m, &symbolic(&m), "symbolic.s");
        let kinds: Vec<SectionKind> = obj.sections.iter().map(|s| s.kind).collect();
        assert_eq!(
            kinds,
            [SectionKind::Text, SectionKind::ReadOnly, SectionKind::Data, SectionKind::ReadOnly, SectionKind::Bss]
        );
        let relocs: usize = obj.sections.iter().map(|s| s.relocs.len()).sum();
        assert!(relocs >= 8, "{relocs}");
    }
}

#[test]
fn both_together_round_trip() {
    for name in builtin::names() {
        let m = load(name);
        let (src, _) = every_instruction(&m);
        round_trip(&m, &format!("{src}{}", symbolic(&m)), "both.s");
    }
}

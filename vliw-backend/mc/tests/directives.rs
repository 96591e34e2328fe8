//! Data directives, expressions, relocations of each kind, symbols, and
//! `.nop_delay` on every shipped machine.

use dsp_mc::{assemble, disassemble_executable, disassemble_object};
use dsp_obj::{
    Executable, ExeSymbol, MachineId, ObjectFile, Reloc, RelocKind, Section, SectionKind, Segment,
    SegmentFlags, SymbolKind,
};
use isa_tablegen::{builtin, Machine, SemOp};

fn ftm() -> Machine {
    Machine::load("ftm").expect("ftm")
}

fn asm(m: &Machine, src: &str) -> ObjectFile {
    assemble(m, src, "t.s").unwrap_or_else(|e| panic!("{}", e.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n")))
}

fn section<'a>(obj: &'a ObjectFile, name: &str) -> &'a Section {
    obj.sections.iter().find(|s| s.name == name).unwrap_or_else(|| panic!("no section {name}"))
}

fn sym(obj: &ObjectFile, name: &str) -> usize {
    obj.symbols.iter().position(|s| s.name == name).unwrap_or_else(|| panic!("no symbol {name}"))
}

#[test]
fn data_directives_emit_little_endian_bytes() {
    let m = ftm();
    let obj = asm(
        &m,
        "\t.data\n\t.byte 1, -1, 'A'\n\t.half 0x1234\n\t.short -2\n\t.word 0xdeadbeef\n\t.long -1\n\
         \t.quad 0x0102030405060708\n\t.float 1.0\n\t.double 0.5\n\t.ascii \"ab\"\n\t.asciz \"c\"\n\
         \t.string \"\\n\"\n\t.zero 3\n\t.space 2, 0x7f\n",
    );
    let d = &section(&obj, ".data").data;
    let mut want = vec![1u8, 0xff, b'A', 0x34, 0x12, 0xfe, 0xff, 0xef, 0xbe, 0xad, 0xde, 0xff, 0xff, 0xff, 0xff];
    want.extend_from_slice(&0x0102030405060708u64.to_le_bytes());
    want.extend_from_slice(&1.0f32.to_le_bytes());
    want.extend_from_slice(&0.5f64.to_le_bytes());
    want.extend_from_slice(b"abc\0\n\0\0\0\0\x7f\x7f");
    assert_eq!(d, &want);
    assert_eq!(section(&obj, ".data").size as usize, want.len());
}

#[test]
fn alignment_pads_data_with_zeros_and_code_with_nops() {
    let m = ftm();
    let obj = asm(&m, "\t.data\n\t.byte 1\n\t.align 8\n\t.byte 2\n\t.p2align 2\n\t.byte 3\n\t.balign 2, 0xaa\n\t.byte 4\n\t.text\n\tnop\n\t.align 32\nf:\tnop\n");
    assert_eq!(section(&obj, ".data").data, [1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 3, 0xaa, 4]);
    assert_eq!(section(&obj, ".data").align, 8);
    let text = section(&obj, ".text");
    assert_eq!(text.align, 32);
    let n = m.op_bytes() as usize;
    assert_eq!(text.data.len(), 32 + n);
    assert_eq!(obj.symbols[sym(&obj, "f")].value, 32);
    for k in 0..text.data.len() / n {
        let (op, stop) = m.decode_op(m.read_word(&text.data, k * n).unwrap()).unwrap();
        assert_eq!(m.instr(op.instr).sem.op, SemOp::Nop);
        assert!(stop);
    }
}

#[test]
fn expressions_and_constants() {
    let m = ftm();
    let obj = asm(
        &m,
        "\t.equ N, 100\n\t.set M, N * 2 + (3 << 4) - ~0\n\t.data\nstart:\t.word N, M, end - start, 7 / 2, -7 % 4, 6 & 3 | 8 ^ 1\n\
         \t.byte 'z' - 'a'\nend:\n\t.equ LEN, end - start\n\t.word LEN\n",
    );
    let d = &section(&obj, ".data").data;
    let words: Vec<i32> = d[..24].chunks(4).map(|c| i32::from_le_bytes(c.try_into().unwrap())).collect();
    assert_eq!(words, [100, 249, 25, 3, -3, 2 | (8 ^ 1)]);
    assert_eq!(d[24], 25);
    assert_eq!(i32::from_le_bytes(d[25..29].try_into().unwrap()), 25);
    // Constants are not symbols.
    assert!(obj.symbols.iter().all(|s| s.name != "N" && s.name != "LEN"));
}

#[test]
fn relocations_of_each_kind() {
    let m = ftm();
    let obj = asm(
        &m,
        "\t.text\nf:\tli r4, msg+4\n\tcall printf\n\tbr g\n\tbr f\n\t.nop_delay\n\t.section .text.g\ng:\tli r5, f - 8\n\
         \t.data\nmsg:\t.word 0, ext+12, msg, g\n",
    );
    let text = section(&obj, ".text");
    let n = m.op_bytes();
    assert_eq!(
        text.relocs,
        [
            Reloc { offset: 0, kind: RelocKind::Imm, symbol: sym(&obj, "msg"), addend: 4 },
            Reloc { offset: n, kind: RelocKind::PcRel, symbol: sym(&obj, "printf"), addend: 0 },
            Reloc { offset: 2 * n, kind: RelocKind::PcRel, symbol: sym(&obj, "g"), addend: 0 },
        ]
    );
    // `br f` in the same section is resolved: -3 operations.
    let (op, _) = m.decode_op(m.read_word(&text.data, 3 * n as usize).unwrap()).unwrap();
    assert_eq!(op.args, [-3]);
    assert_eq!(
        section(&obj, ".text.g").relocs,
        [Reloc { offset: 0, kind: RelocKind::Imm, symbol: sym(&obj, "f"), addend: -8 }]
    );
    assert_eq!(
        section(&obj, ".data").relocs,
        [
            Reloc { offset: 4, kind: RelocKind::Data32, symbol: sym(&obj, "ext"), addend: 12 },
            Reloc { offset: 8, kind: RelocKind::Data32, symbol: sym(&obj, "msg"), addend: 0 },
            Reloc { offset: 12, kind: RelocKind::Data32, symbol: sym(&obj, "g"), addend: 0 },
        ]
    );
    // Undefined symbols are global and sorted by name after the definitions.
    let names: Vec<&str> = obj.symbols.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["f", "g", "msg", "ext", "printf"]);
    assert!(obj.symbols[3].section.is_none() && obj.symbols[3].global);
}

#[test]
fn symbol_attributes() {
    let m = ftm();
    let obj = asm(
        &m,
        "\t.globl main, helper\n\t.type main, @function\nmain:\tnop\n\tnop\n\t.size main, .-main\n\
         \t.bss\n\t.type buf, @object\nbuf:\t.zero 40\n\t.size buf, 40\n\t.local helper\n",
    );
    let main = &obj.symbols[sym(&obj, "main")];
    assert!(main.global);
    assert_eq!((main.kind, main.size), (SymbolKind::Func, 2 * m.op_bytes()));
    let buf = &obj.symbols[sym(&obj, "buf")];
    assert_eq!((buf.kind, buf.size, buf.global), (SymbolKind::Object, 40, false));
    assert_eq!(section(&obj, ".bss").size, 40);
    assert!(section(&obj, ".bss").data.is_empty());
    assert!(obj.symbols.iter().all(|s| s.name != "helper"));
    // Locals come first.
    assert_eq!(obj.symbols[0].name, "buf");
}

#[test]
fn sections_by_name_and_flags() {
    let m = ftm();
    let obj = asm(&m, "\t.section .text.hot\n\tnop\n\t.section .rodata.cst\n\t.word 1\n\t.section mydata, \"aw\"\n\t.word 2\n\t.section mybss, \"aw\", @nobits\n\t.zero 8\n\t.section code2, \"ax\"\n\tnop\n");
    let kinds: Vec<(&str, SectionKind)> = obj.sections.iter().map(|s| (s.name.as_str(), s.kind)).collect();
    assert_eq!(
        kinds,
        [
            (".text.hot", SectionKind::Text),
            (".rodata.cst", SectionKind::ReadOnly),
            ("mydata", SectionKind::Data),
            ("mybss", SectionKind::Bss),
            ("code2", SectionKind::Text),
        ]
    );
    let again = asm(&m, &disassemble_object(&m, &obj));
    assert_eq!(again, obj);
}

#[test]
fn nop_delay_emits_one_nop_bundle_per_delay_slot_on_every_machine() {
    for name in builtin::names() {
        let m = Machine::load(name).unwrap();
        let obj = asm(&m, "\tbr .\n\t.nop_delay\nafter:\n");
        let text = section(&obj, ".text");
        let n = m.op_bytes() as usize;
        let slots = m.control.delay_slots as usize;
        assert_eq!(text.data.len(), (1 + slots) * n, "{name}");
        for k in 1..=slots {
            let (op, stop) = m.decode_op(m.read_word(&text.data, k * n).unwrap()).unwrap();
            assert_eq!(m.instr(op.instr).sem.op, SemOp::Nop, "{name}");
            assert!(stop, "{name}: each nop is its own bundle");
        }
        assert_eq!(obj.symbols[sym(&obj, "after")].value as usize, (1 + slots) * n);
    }
}

#[test]
fn undecodable_words_print_as_raw_data_and_reassemble() {
    let m = ftm();
    let n = m.op_bytes() as usize;
    let mut obj = asm(&m, "\t.text\nf:\tnop\n\tnop\n\tnop\n\tnop\n");
    let text = &mut obj.sections[0].data;
    // An unknown opcode, a word without a stop bit at the end, and junk.
    let bad = m.encoding.opcode.set(0, m.encoding.opcode.mask()) | (1 << m.encoding.stop_bit);
    text[n..2 * n].copy_from_slice(&bad.to_le_bytes()[..n]);
    text[3 * n..4 * n].copy_from_slice(&[0xff; 8][..n]);
    let (nop, _) = m.decode_op(m.read_word(text, 0).unwrap()).unwrap();
    let nostop = m.encode_op(&nop, false).unwrap();
    text[2 * n..3 * n].copy_from_slice(&nostop.to_le_bytes()[..n]);
    let out = disassemble_object(&m, &obj);
    assert!(out.contains("cannot decode"), "{out}");
    let again = asm(&m, &out);
    assert_eq!(again, obj, "{out}");
}

#[test]
fn executables_disassemble_with_addresses_and_labels() {
    let m = ftm();
    let obj = asm(&m, "\t.text\n_start:\tli r4, 5\n\tbr _start\n\t.nop_delay\n\t.data\nv:\t.word 7\n\t.asciz \"hello!\"\n");
    let base = m.memory.base + m.memory.null_guard;
    let exe = Executable {
        machine: MachineId { name: m.name.clone(), fingerprint: m.fingerprint },
        entry: base,
        segments: vec![
            Segment {
                name: ".text".into(),
                addr: base,
                data: obj.sections[0].data.clone(),
                mem_size: obj.sections[0].size,
                flags: SegmentFlags { read: true, write: false, exec: true },
            },
            Segment {
                name: ".data".into(),
                addr: base + 0x100,
                data: obj.sections[1].data.clone(),
                mem_size: obj.sections[1].size + 16,
                flags: SegmentFlags { read: true, write: true, exec: false },
            },
        ],
        symbols: vec![
            ExeSymbol { name: "_start".into(), addr: base, size: 0, kind: SymbolKind::Func, global: true },
            ExeSymbol { name: "v".into(), addr: base + 0x100, size: 4, kind: SymbolKind::Object, global: false },
        ],
    };
    let out = disassemble_executable(&m, &exe);
    assert!(out.contains(&format!("# {:08x}: ", base)), "{out}");
    assert!(out.contains("\tbr _start"), "{out}");
    assert!(out.contains("\t.asciz \"hello!\""), "{out}");
    // It is valid assembly with the same code bytes.
    let again = asm(&m, &out);
    assert_eq!(again.sections[0].data, exe.segments[0].data);
    assert_eq!(again.sections[1].size, exe.segments[1].mem_size);
}

/// Number of one-operation nop bundles in a text section.
fn nop_bundles(m: &Machine, text: &Section) -> usize {
    let n = m.op_bytes() as usize;
    (0..text.data.len() / n)
        .filter(|i| {
            let (op, stop) = m.decode_op(m.read_word(&text.data, i * n).unwrap()).unwrap();
            stop && m.instr(op.instr).sem.op == SemOp::Nop
        })
        .count()
}

#[test]
fn wait_and_nops_follow_each_machines_latencies() {
    for name in builtin::names() {
        let m = Machine::load(name).unwrap();
        for mnemonic in ["ldw", "div", "vfmac", "add"] {
            let ins = m.instr(m.instr_by_mnemonic(mnemonic).unwrap());
            let obj = asm(&m, &format!("\t.text\n\t.wait {mnemonic}\n"));
            let want = (ins.latency.max(ins.busy) - 1) as usize;
            assert_eq!(nop_bundles(&m, section(&obj, ".text")), want, "{name}: .wait {mnemonic}");
        }
        let obj = asm(&m, "\t.text\n\t.nops 3\n");
        assert_eq!(nop_bundles(&m, section(&obj, ".text")), 3);
    }
    let m = ftm();
    let err = assemble(&m, "\t.text\n\t.wait lwd\n", "t.s").unwrap_err();
    assert_eq!(err[0].to_string(), "t.s:2:8: error: '.wait': unknown instruction 'lwd'; did you mean 'ldw'?");
    let err = assemble(&m, "\t.text\n\t.nops\n", "t.s").unwrap_err();
    assert_eq!(err[0].to_string(), "t.s:2:2: error: '.nops' takes one operand: the number of nop bundles");
}

#[test]
fn the_vector_bytes_constant_comes_from_the_machine() {
    for name in builtin::names() {
        let m = Machine::load(name).unwrap();
        let obj = asm(&m, "\t.data\n\t.word __dsp_vector_bytes, 2 * __dsp_vector_bytes\n");
        let want = m.vector_bytes();
        assert!(want >= 32, "{name}: {want}");
        let mut bytes = want.to_le_bytes().to_vec();
        bytes.extend_from_slice(&(2 * want).to_le_bytes());
        assert_eq!(section(&obj, ".data").data, bytes, "{name}");
    }
    let errs = assemble(&ftm(), "\t.equ __dsp_vector_bytes, 4\n", "t.s").unwrap_err();
    assert!(errs[0].to_string().contains("'__dsp_vector_bytes' is predefined by the assembler"), "{}", errs[0]);
}

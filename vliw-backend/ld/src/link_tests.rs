//! Tests of the whole link, run for every shipped machine.

use dsp_obj::{
    read_executable, write_executable, write_object, RelocKind, SectionKind, SymbolKind,
};

use super::*;
use crate::testutil::{decode, machines, op, Obj};

fn opts(m: &Machine) -> LinkOptions {
    LinkOptions {
        machine: Some(m.clone()),
        ..LinkOptions::default()
    }
}

fn addr_of(exe: &Executable, name: &str) -> u32 {
    exe.symbols
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no symbol {name}"))
        .addr
}

fn segment<'e>(exe: &'e Executable, name: &str) -> &'e dsp_obj::Segment {
    exe.segments.iter().find(|s| s.name == name).unwrap()
}

/// Bytes at an address of a segment.
fn at(exe: &Executable, addr: u32) -> &[u8] {
    let s = exe
        .segments
        .iter()
        .find(|s| addr >= s.addr && addr < s.addr + s.mem_size)
        .unwrap();
    &s.data[(addr - s.addr) as usize..]
}

/// a.o: `_start` using main, counter and __stack_top; b.o: main, counter, buf.
fn two_objects(m: &Machine) -> (dsp_obj::ObjectFile, dsp_obj::ObjectFile) {
    let n = m.op_bytes();
    let mut a = Obj::new(m);
    let t = a.section(".text", SectionKind::Text, n);
    a.code(
        t,
        &[
            ("li", &[1, 0]),
            ("li", &[4, 0]),
            ("call", &[0]),
            ("trap", &[0]),
            ("br", &[0]),
        ],
    );
    let d = a.section(".data", SectionKind::Data, 4);
    a.bytes(d, &[0; 12]);
    a.func("_start", t, 0, 5 * n);
    let hang = a.sym("hang", Some(t), 4 * n, false, SymbolKind::NoType);
    let tbl = a.sym("tbl", Some(d), 0, false, SymbolKind::Object);
    let top = a.undef("__stack_top");
    let counter = a.undef("counter");
    let main = a.undef("main");
    a.reloc(t, 0, RelocKind::Imm, top, 0);
    a.reloc(t, n, RelocKind::Imm, counter, 4);
    a.reloc(t, 2 * n, RelocKind::PcRel, main, 0);
    a.reloc(t, 4 * n, RelocKind::PcRel, hang, 0);
    a.reloc(d, 0, RelocKind::Data32, main, 0);
    a.reloc(d, 4, RelocKind::Data32, tbl, 8);
    a.reloc(d, 8, RelocKind::Data32, counter, -4);

    let mut b = Obj::new(m);
    let t = b.section(".text", SectionKind::Text, n);
    b.code(t, &[("ldw", &[5, 0, 0]), ("jmp", &[31])]);
    let d = b.section(".data", SectionKind::Data, 8);
    b.bytes(d, &[1, 0, 0, 0, 2, 0, 0, 0]);
    let bss = b.section(".bss", SectionKind::Bss, 16);
    b.bytes(bss, &[0; 100]);
    b.func("main", t, 0, 2 * n);
    let counter = b.sym("counter", Some(d), 0, true, SymbolKind::Object);
    b.sym("buf", Some(bss), 0, false, SymbolKind::Object);
    b.reloc(t, 0, RelocKind::Imm, counter, 0);
    (a.done(), b.done())
}

#[test]
fn cross_references_every_reloc_type() {
    for m in machines() {
        let n = m.op_bytes();
        let (a, b) = two_objects(&m);
        let exe = link(
            &[Input::object("a.o", a), Input::object("b.o", b)],
            &opts(&m),
        )
        .unwrap();
        let start = addr_of(&exe, "_start");
        assert_eq!(start, m.memory.base + m.memory.null_guard, "{}", m.name);
        assert_eq!(exe.entry, start);
        let main = addr_of(&exe, "main");
        let counter = addr_of(&exe, "counter");
        let top = (m.memory.base as u64 + m.memory.size as u64) / m.abi.stack_align as u64
            * m.abi.stack_align as u64;
        let text = at(&exe, start);
        assert_eq!(decode(&m, text, 0), ("li".into(), vec![1, top as i64]));
        assert_eq!(
            decode(&m, text, n as usize),
            ("li".into(), vec![4, counter as i64 + 4])
        );
        let p = start + 2 * n;
        assert_eq!(
            decode(&m, text, 2 * n as usize),
            ("call".into(), vec![(main as i64 - p as i64) / n as i64])
        );
        assert_eq!(decode(&m, text, 4 * n as usize), ("br".into(), vec![0]));
        assert_eq!(
            decode(&m, at(&exe, main), 0),
            ("ldw".into(), vec![5, 0, counter as i64])
        );
        // b.o's .text follows a.o's, aligned to its own alignment.
        assert_eq!(main, start + 5 * n);
        let data = segment(&exe, ".data");
        let word = |i: usize| u32::from_le_bytes(data.data[i..i + 4].try_into().unwrap());
        assert_eq!(word(0), main);
        assert_eq!(word(4), data.addr + 8);
        assert_eq!(word(8), counter - 4);
        // b.o's .data is 8-aligned after a.o's 12 bytes.
        assert_eq!(counter, data.addr + 16);
        // Local labels stay out; local objects and functions are kept.
        assert!(exe.symbols.iter().all(|s| s.name != "hang"));
        assert!(exe.symbols.iter().any(|s| s.name == "tbl" && !s.global));
        assert!(exe
            .symbols
            .iter()
            .any(|s| s.name == "buf" && s.kind == SymbolKind::Object));
        assert_eq!(exe.machine.fingerprint, m.fingerprint);
        // The executable survives the file format.
        assert_eq!(
            read_executable(&write_executable(&exe).unwrap()).unwrap(),
            exe
        );
    }
}

#[test]
fn the_layout_lies_in_the_external_memory_clear_of_the_onchip_memories() {
    for m in machines() {
        let (a, b) = two_objects(&m);
        let exe = link(&[Input::object("a.o", a), Input::object("b.o", b)], &opts(&m)).unwrap();
        for s in &exe.segments {
            let last = s.addr as u64 + s.mem_size.max(1) as u64 - 1;
            for addr in [s.addr as u64, last] {
                assert_eq!(m.memory.region(addr), Some(isa_tablegen::Region::External), "{}: {}", m.name, s.name);
            }
        }
        let top = addr_of(&exe, "__stack_top") as u64;
        assert_eq!(m.memory.region(top - 1), Some(isa_tablegen::Region::External));
    }
    // The on-chip memories are named by linker symbols a program may use.
    for m in machines().into_iter().filter(|m| !m.memory.onchip.is_empty()) {
        let (a, b) = two_objects(&m);
        let mut c = Obj::new(&m);
        let t = c.section(".text", SectionKind::Text, m.op_bytes());
        c.code(t, &[("li", &[4, 0]), ("li", &[5, 0])]);
        c.func("use_onchip", t, 0, 2 * m.op_bytes());
        let o = &m.memory.onchip[m.memory.onchip.len() - 1];
        let start = c.undef(&format!("__onchip_{}_start", o.name));
        let size = c.undef(&format!("__onchip_{}_size", o.name));
        c.reloc(t, 0, RelocKind::Imm, start, 0);
        c.reloc(t, m.op_bytes(), RelocKind::Imm, size, 0);
        let inputs = [Input::object("a.o", a), Input::object("b.o", b), Input::object("c.o", c.done())];
        let exe = link(&inputs, &opts(&m)).unwrap();
        assert_eq!(addr_of(&exe, &format!("__onchip_{}_start", o.name)), o.base, "{}", m.name);
        assert_eq!(addr_of(&exe, &format!("__onchip_{}_size", o.name)), o.size, "{}", m.name);
        let text = segment(&exe, ".text");
        let at = exe.symbols.iter().find(|s| s.name == "use_onchip").unwrap().addr - text.addr;
        assert_eq!(decode(&m, &text.data, at as usize), ("li".to_string(), vec![4, o.base as i64]), "{}", m.name);
    }
    // A layout reaching into an on-chip memory is refused (a description
    // cannot declare one inside the external memory, so the check is tried
    // on a layout built by hand).
    let m = machines().into_iter().find(|m| !m.memory.onchip.is_empty()).expect("a machine with on-chip memories");
    let sm = &m.memory.onchip[0];
    let out = crate::layout::OutputSection {
        name: ".data",
        kind: dsp_obj::SectionKind::Data,
        flags: crate::layout::OUTPUTS[2].2,
        addr: sm.base,
        size: 16,
        align: 64,
        data: vec![0; 16],
        inputs: Vec::new(),
    };
    let e = crate::layout::check_memory_map(&m, &[out], (0x2000, 0x3000)).unwrap_err().to_string();
    assert!(e.contains(&format!(".data [{:#x}, {:#x}) lies outside the external memory", sm.base, sm.base + 16)), "{e}");
}

#[test]
fn memory_map_symbols() {
    for m in machines() {
        let (a, b) = two_objects(&m);
        let o = LinkOptions {
            stack_size: 4096,
            ..opts(&m)
        };
        let exe = link(&[Input::object("a.o", a), Input::object("b.o", b)], &o).unwrap();
        let sym = |n: &str| addr_of(&exe, n);
        let text = segment(&exe, ".text");
        let data = segment(&exe, ".data");
        let bss = segment(&exe, ".bss");
        assert_eq!(text.addr, m.memory.base + m.memory.null_guard);
        assert!(text.flags.exec && !text.flags.write);
        assert!(data.flags.write && !data.flags.exec);
        assert!(
            exe.segments.iter().all(|s| s.name != ".rodata"),
            "empty output sections have no segment"
        );
        for s in &exe.segments {
            assert_eq!(s.addr % 64, 0, "{} aligned to 64", s.name);
        }
        assert!(data.addr >= text.addr + text.mem_size);
        assert_eq!(sym("__bss_start"), bss.addr);
        assert!(sym("__bss_start") >= data.addr + data.mem_size);
        assert_eq!(sym("__bss_end") % 64, 0);
        assert_eq!(sym("__bss_end") - sym("__bss_start"), 128); // 100 bytes rounded to 64
        assert_eq!(sym("__bss_end"), bss.addr + bss.mem_size);
        assert!(bss.data.is_empty());
        assert_eq!(sym("_end"), sym("__bss_end"));
        assert_eq!(sym("__heap_start"), sym("_end"));
        let end = m.memory.base as u64 + m.memory.size as u64;
        let top = end - end % m.abi.stack_align as u64;
        assert_eq!(sym("__stack_top") as u64, top);
        assert_eq!(sym("__heap_end"), sym("__stack_top") - 4096);
    }
}

#[test]
fn default_stack_and_too_big_stack() {
    for m in machines() {
        let (a, b) = two_objects(&m);
        let inputs = [Input::object("a.o", a), Input::object("b.o", b)];
        let exe = link(&inputs, &opts(&m)).unwrap();
        assert_eq!(
            addr_of(&exe, "__heap_end"),
            addr_of(&exe, "__stack_top") - (1 << 20)
        );
        let o = LinkOptions {
            stack_size: m.memory.size,
            ..opts(&m)
        };
        let e = link(&inputs, &o).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("dsp-ld: error: the program does not fit in memory"),
            "{e}"
        );
    }
}

/// A main object calling `foo`; an archive whose `m1.o` defines `foo` and
/// calls `bar` (defined by `m2.o`, placed before it), and `m3.o` defines the
/// unneeded `baz`.
fn archive_inputs(m: &Machine) -> Vec<Input> {
    let n = m.op_bytes();
    let unit = |defs: &[&str], uses: &[&str]| {
        let mut o = Obj::new(m);
        let t = o.section(".text", SectionKind::Text, n);
        for (i, d) in defs.iter().enumerate() {
            o.code(t, &[("nop", &[])]);
            o.func(d, t, i as u32 * n, n);
        }
        for u in uses {
            let at = o.code(t, &[("call", &[0])]);
            let s = o.undef(u);
            o.reloc(t, at, RelocKind::PcRel, s, 0);
        }
        o.done()
    };
    vec![
        Input::object("main.o", unit(&["_start"], &["foo"])),
        Input::archive(
            "lib.a",
            vec![
                ("m2.o".into(), unit(&["bar"], &[])),
                ("m3.o".into(), unit(&["baz"], &["nothere"])),
                ("m1.o".into(), unit(&["foo"], &["bar"])),
            ],
        ),
    ]
}

#[test]
fn archives_link_only_needed_members() {
    for m in machines() {
        let linked = link_with_map(&archive_inputs(&m), &opts(&m)).unwrap();
        let names: Vec<&str> = linked
            .executable
            .symbols
            .iter()
            .map(|s| s.name.as_str())
            .collect();
        assert!(
            names.contains(&"foo") && names.contains(&"bar"),
            "{names:?}"
        );
        assert!(!names.contains(&"baz"), "unneeded member linked: {names:?}");
        let text = &linked.map.sections[0];
        let order: Vec<&str> = text.inputs.iter().map(|i| i.name.as_str()).collect();
        assert_eq!(
            order,
            ["main.o(.text)", "lib.a(m1.o)(.text)", "lib.a(m2.o)(.text)"]
        );
        let map = linked.map.render();
        assert!(
            map.contains("lib.a(m1.o)(.text)") && map.contains("__stack_top"),
            "{map}"
        );
    }
}

#[test]
fn archive_before_its_user_is_not_searched_again() {
    let m = &machines()[0];
    let mut inputs = archive_inputs(m);
    inputs.reverse();
    let e = link(&inputs, &opts(m)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "dsp-ld: error: undefined symbol 'foo' (referenced from main.o(.text+0x8))"
            .replace("0x8", &format!("{:#x}", m.op_bytes()))
    );
}

#[test]
fn undefined_symbols_all_listed() {
    for m in machines() {
        let n = m.op_bytes();
        let mut a = Obj::new(&m);
        let t = a.section(".text", SectionKind::Text, n);
        a.code(
            t,
            &[
                ("nop", &[]),
                ("call", &[0]),
                ("li", &[4, 0]),
                ("call", &[0]),
            ],
        );
        a.func("_start", t, 0, 4 * n);
        let foo = a.undef("foo");
        let bar = a.undef("bar");
        a.reloc(t, n, RelocKind::PcRel, foo, 0);
        a.reloc(t, 2 * n, RelocKind::Imm, bar, 0);
        a.reloc(t, 3 * n, RelocKind::PcRel, foo, 0);
        let e = link(&[Input::object("a.o", a.done())], &opts(&m)).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "dsp-ld: error: undefined symbol 'foo' (referenced from a.o(.text+{:#x}))\n\
                 dsp-ld: error: undefined symbol 'bar' (referenced from a.o(.text+{:#x}))",
                n,
                2 * n
            )
        );
        if n == 8 {
            assert_eq!(
                e.messages[1],
                "undefined symbol 'bar' (referenced from a.o(.text+0x10))"
            );
        }
    }
}

#[test]
fn duplicate_symbols() {
    for m in machines() {
        let mk = || {
            let mut o = Obj::new(&m);
            let t = o.section(".text", SectionKind::Text, m.op_bytes());
            o.code(t, &[("nop", &[])]);
            o.func("x", t, 0, m.op_bytes());
            o.sym("local", Some(t), 0, false, SymbolKind::Func);
            o.done()
        };
        let mut start = Obj::new(&m);
        let t = start.section(".text", SectionKind::Text, m.op_bytes());
        start.code(t, &[("nop", &[])]);
        start.func("_start", t, 0, m.op_bytes());
        let inputs = [
            Input::object("s.o", start.done()),
            Input::object("a.o", mk()),
            Input::object("b.o", mk()),
        ];
        let e = link(&inputs, &opts(&m)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "dsp-ld: error: duplicate symbol 'x': defined in a.o and b.o"
        );
        // Locals of different objects may share names.
        let exe = link(&inputs[..2], &opts(&m)).unwrap();
        assert_eq!(exe.symbols.iter().filter(|s| s.name == "local").count(), 1);
    }
}

#[test]
fn local_names_shared_between_objects() {
    let m = &machines()[0];
    let mk = |start: bool| {
        let mut o = Obj::new(m);
        let t = o.section(".text", SectionKind::Text, m.op_bytes());
        o.code(t, &[("nop", &[])]);
        o.sym("helper", Some(t), 0, false, SymbolKind::Func);
        if start {
            o.func("_start", t, 0, m.op_bytes());
        }
        o.done()
    };
    let exe = link(
        &[
            Input::object("a.o", mk(true)),
            Input::object("b.o", mk(false)),
        ],
        &opts(m),
    )
    .unwrap();
    let helpers: Vec<u32> = exe
        .symbols
        .iter()
        .filter(|s| s.name == "helper")
        .map(|s| s.addr)
        .collect();
    assert_eq!(helpers.len(), 2);
    assert_ne!(helpers[0], helpers[1]);
}

#[test]
fn missing_entry() {
    let m = &machines()[0];
    let (_, b) = two_objects(m);
    let e = link(&[Input::object("b.o", b)], &opts(m)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "dsp-ld: error: entry symbol '_start' is not defined"
    );
    let (_, b) = two_objects(m);
    let o = LinkOptions {
        entry: "main".into(),
        ..opts(m)
    };
    let exe = link(&[Input::object("b.o", b)], &o).unwrap();
    assert_eq!(exe.entry, addr_of(&exe, "main"));
}

#[test]
fn machine_mismatch() {
    let ms = machines();
    let (a, _) = two_objects(&ms[0]);
    let (_, b) = two_objects(&ms[1]);
    let e = link(
        &[Input::object("a.o", a.clone()), Input::object("b.o", b)],
        &LinkOptions::default(),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "dsp-ld: error: machine mismatch: b.o was built for '{}' (fingerprint {:016x}) but a.o for '{}' (fingerprint {:016x})",
            ms[1].name, ms[1].fingerprint, ms[0].name, ms[0].fingerprint
        )
    );
    // Same name, another description.
    let mut stale = a.clone();
    stale.machine.fingerprint ^= 1;
    let e = link(&[Input::object("old.o", stale)], &LinkOptions::default()).unwrap_err();
    assert!(
        e.messages[0].starts_with("machine mismatch: old.o was built for 'ftm'"),
        "{e}"
    );
    assert!(e.messages[0].contains("shipped with dsp-ld"), "{e}");
    // --isa naming another machine.
    let e = link(&[Input::object("a.o", a)], &opts(&ms[2])).unwrap_err();
    assert!(e.messages[0].contains("given by --isa"), "{e}");
}

#[test]
fn machine_loaded_from_inputs() {
    for m in machines() {
        let (a, b) = two_objects(&m);
        let exe = link(
            &[Input::object("a.o", a), Input::object("b.o", b)],
            &LinkOptions::default(),
        )
        .unwrap();
        assert_eq!(exe.machine.name, m.name);
    }
}

#[test]
fn relocation_range_and_alignment_errors() {
    for m in machines() {
        let n = m.op_bytes();
        let mut a = Obj::new(&m);
        let t = a.section(".text", SectionKind::Text, n);
        a.code(t, &[("shli", &[4, 4, 0]), ("call", &[0]), ("trap", &[0])]);
        a.func("_start", t, 0, 3 * n);
        let start = 0; // symbol index after done(): only globals
        a.reloc(t, 0, RelocKind::Imm, start, 0); // _start's address does not fit u5
        a.reloc(t, n, RelocKind::PcRel, start, 3); // not a whole number of words
        a.reloc(t, 2 * n, RelocKind::PcRel, start, 0); // trap has no pc-relative operand
        let e = link(&[Input::object("a.o", a.done())], &opts(&m)).unwrap_err();
        assert_eq!(e.messages.len(), 3, "{e}");
        let addr = m.memory.base + m.memory.null_guard;
        assert!(
            e.messages[0].starts_with(&format!(
                "a.o(.text+0x0): relocation R_DSP_IMM against '_start' (value {addr}): "
            )),
            "{e}"
        );
        assert!(e.messages[0].contains("out of range"), "{e}");
        assert!(
            e.messages[1].starts_with(&format!(
                "a.o(.text+{n:#x}): relocation R_DSP_PCREL against '_start'"
            )),
            "{e}"
        );
        assert!(e.messages[1].contains("not a multiple"), "{e}");
        assert!(
            e.messages[2].contains("cannot take this relocation type"),
            "{e}"
        );
    }
}

#[test]
fn data32_out_of_range() {
    let m = &machines()[0];
    let mut a = Obj::new(m);
    let t = a.section(".text", SectionKind::Text, 8);
    a.code(t, &[("nop", &[])]);
    let d = a.section(".rodata", SectionKind::ReadOnly, 4);
    a.bytes(d, &[0; 4]);
    let s = a.func("_start", t, 0, 8);
    a.reloc(d, 0, RelocKind::Data32, s, 1 << 33);
    let e = link(&[Input::object("a.o", a.done())], &opts(m)).unwrap_err();
    assert!(
        e.messages[0].starts_with("a.o(.rodata+0x0): relocation R_DSP_32 against '_start': value"),
        "{e}"
    );
}

#[test]
fn text_padding_is_nop_bundles() {
    for m in machines() {
        let n = m.op_bytes();
        let mk = |name: &str, align: u32| {
            let mut o = Obj::new(&m);
            let t = o.section(".text", SectionKind::Text, align);
            o.code(t, &[("nop", &[])]);
            o.func(name, t, 0, n);
            o.done()
        };
        let exe = link(
            &[
                Input::object("a.o", mk("_start", n)),
                Input::object("b.o", mk("f", 64)),
            ],
            &opts(&m),
        )
        .unwrap();
        let text = segment(&exe, ".text");
        assert_eq!(addr_of(&exe, "f"), text.addr + 64);
        for off in (0..64).step_by(n as usize) {
            assert_eq!(m.read_word(&text.data, off).unwrap(), op(&m, "nop", &[]));
        }
    }
}

#[test]
fn corrupt_inputs_are_errors() {
    let m = &machines()[0];
    let (a, _) = two_objects(m);
    let bytes = write_object(&a).unwrap();
    let e = Input::from_bytes("a.o", &bytes[..bytes.len() / 2]).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("dsp-ld: error: a.o: truncated file"),
        "{e}"
    );
    let mut b = bytes.clone();
    b[18..20].copy_from_slice(&0x28u16.to_le_bytes());
    let e = Input::from_bytes("a.o", &b).unwrap_err();
    assert_eq!(e.to_string(), "dsp-ld: error: a.o: ELF file for another machine (e_machine 0x28, expected 0xd5d5 for the DSP)");
    // Relocation type 9 in the first entry of .rela.text.
    let pos = (0..bytes.len() - 12)
        .find(|&i| {
            bytes[i..i + 4] == [8, 0, 0, 0][..]
                && bytes[i + 4] == dsp_obj::R_DSP_IMM as u8
                && i % 4 == 0
        })
        .unwrap();
    let mut b = bytes.clone();
    b[pos + 4] = 9;
    let e = Input::from_bytes("a.o", &b).unwrap_err();
    assert_eq!(
        e.to_string(),
        "dsp-ld: error: a.o: relocation at .text+0x8: unknown relocation type 9"
    );
    let e = Input::from_bytes("x.a", b"!<arch>\nnonsense").unwrap_err();
    assert!(e.to_string().starts_with("dsp-ld: error: x.a: "), "{e}");
    let lib = dsp_obj::write_archive(&[dsp_obj::ArchiveMember {
        name: "junk.o".into(),
        data: b"junk".to_vec(),
    }]);
    let e = Input::from_bytes("x.a", &lib).unwrap_err();
    assert_eq!(
        e.to_string(),
        "dsp-ld: error: x.a(junk.o): not an ELF file (bad magic number)"
    );
}

#[test]
fn inputs_from_bytes_round_trip() {
    for m in machines() {
        let (a, b) = two_objects(&m);
        let lib = dsp_obj::write_archive(&[dsp_obj::ArchiveMember {
            name: "b.o".into(),
            data: write_object(&b).unwrap(),
        }]);
        let inputs = [
            Input::from_bytes("a.o", &write_object(&a).unwrap()).unwrap(),
            Input::from_bytes("libb.a", &lib).unwrap(),
        ];
        let exe = link(&inputs, &LinkOptions::default()).unwrap();
        let direct = link(
            &[Input::object("a.o", a), Input::object("b.o", b)],
            &opts(&m),
        )
        .unwrap();
        assert_eq!(exe, direct);
    }
}

/// Issue 14, item 5: an object too large for the machine says so, with the
/// memory there is (a size field from the file, never allocated).
#[test]
fn a_section_larger_than_memory_is_reported_with_what_is_available() {
    let m = Machine::load("ftm").unwrap();
    let src = "\t.text\n\t.globl _start\n_start:\tnop\n\t.bss\nbig:\t.zero 16\n";
    let mut obj = dsp_mc::assemble(&m, src, "big.s").unwrap();
    let bss = obj.sections.iter_mut().find(|s| s.name == ".bss").unwrap();
    bss.size = 1 << 30;
    let bytes = dsp_obj::write_object(&obj).unwrap();
    let obj = dsp_obj::read_object(&bytes).unwrap();
    let e = link(&[Input::object("big.o", obj)], &opts(&m)).unwrap_err().to_string();
    let available = m.memory.size - m.memory.null_guard;
    assert!(e.contains("big.o(.bss), 1073741824 bytes"), "{e}");
    assert!(e.ends_with(&format!("too large for the machine's memory ({available} bytes available)")), "{e}");
}

/// Issue 14, item 2: an archive whose members form a call chain in reverse
/// archive order took one pass over the whole archive per member (5,000
/// members: 0.64 s, quadratic); the next member is found by an index now,
/// in the same order.
#[test]
fn a_reversed_chain_of_archive_members_is_linear_and_in_gnu_order() {
    let m = Machine::load("ftm").unwrap();
    let n = 5000;
    let asm = |src: &str| dsp_mc::assemble(&m, src, "m.s").unwrap();
    let main = asm("\t.text\n\t.globl _start\n_start:\tcall f0\n\t.nop_delay\n\ttrap 0\n");
    let members: Vec<(String, dsp_obj::ObjectFile)> = (0..n)
        .rev()
        .map(|i| {
            let body = if i + 1 < n { format!("call f{}\n\t.nop_delay", i + 1) } else { "nop".into() };
            (format!("m{i}.o"), asm(&format!("\t.text\n\t.globl f{i}\nf{i}:\t{body}\n")))
        })
        .collect();
    let inputs = [Input::object("main.o", main), Input::archive("lib.a", members)];
    let exe = link(&inputs, &opts(&m)).unwrap();
    // Each pass takes the one member the previous one needs: f0, f1, … in
    // that order after _start.
    let addr = |name: &str| exe.symbols.iter().find(|s| s.name == name).unwrap().addr;
    assert!(addr("_start") < addr("f0") && addr("f0") < addr("f1") && addr("f4998") < addr("f4999"));
}

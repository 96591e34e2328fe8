//! Tests of the relocatable object format.

use super::*;
use crate::MachineId;

pub(crate) fn sample() -> ObjectFile {
    let text = Section {
        name: ".text".into(),
        kind: SectionKind::Text,
        align: 8,
        data: (0u8..32).collect(),
        size: 32,
        relocs: vec![
            Reloc {
                offset: 8,
                kind: RelocKind::PcRel,
                symbol: 3,
                addend: 0,
            },
            Reloc {
                offset: 16,
                kind: RelocKind::Imm,
                symbol: 2,
                addend: -4,
            },
        ],
    };
    let data = Section {
        name: ".data.tbl".into(),
        kind: SectionKind::Data,
        align: 4,
        data: vec![1, 2, 3, 4, 5, 6, 7, 8],
        size: 8,
        relocs: vec![Reloc {
            offset: 4,
            kind: RelocKind::Data32,
            symbol: 0,
            addend: 12,
        }],
    };
    let ro = Section {
        name: ".rodata".into(),
        kind: SectionKind::ReadOnly,
        align: 1,
        data: b"hi\0".to_vec(),
        size: 3,
        relocs: vec![],
    };
    let bss = Section {
        name: ".bss".into(),
        kind: SectionKind::Bss,
        align: 64,
        data: vec![],
        size: 256,
        relocs: vec![],
    };
    let sym = |name: &str, section, value, size, global, kind| Symbol {
        name: name.into(),
        section,
        value,
        size,
        global,
        kind,
    };
    ObjectFile {
        machine: MachineId {
            name: "ftm".into(),
            fingerprint: 0x0123_4567_89ab_cdef,
        },
        sections: vec![text, data, ro, bss],
        symbols: vec![
            sym("loop", Some(0), 8, 0, false, SymbolKind::NoType),
            sym("buf", Some(3), 0, 256, false, SymbolKind::Object),
            sym("main", Some(0), 0, 32, true, SymbolKind::Func),
            sym("printf", None, 0, 0, true, SymbolKind::NoType),
            sym("tbl", Some(1), 0, 8, true, SymbolKind::Object),
        ],
    }
}

#[test]
fn round_trip() {
    let obj = sample();
    let bytes = write_object(&obj).unwrap();
    assert_eq!(read_object(&bytes).unwrap(), obj);
}

#[test]
fn round_trip_empty() {
    let obj = ObjectFile {
        machine: MachineId {
            name: "ftm8".into(),
            fingerprint: 7,
        },
        sections: vec![],
        symbols: vec![],
    };
    assert_eq!(read_object(&write_object(&obj).unwrap()).unwrap(), obj);
}

#[test]
fn locals_are_written_first() {
    let mut obj = sample();
    obj.symbols.swap(0, 2); // main (global) first, loop (local) third
    for s in &mut obj.sections {
        for r in &mut s.relocs {
            r.symbol = match r.symbol {
                0 => 2,
                2 => 0,
                x => x,
            };
        }
    }
    let back = read_object(&write_object(&obj).unwrap()).unwrap();
    assert!(!back.symbols[0].global && !back.symbols[1].global);
    assert!(back.symbols[2..].iter().all(|s| s.global));
    // Relocations still name the same symbols.
    for (a, b) in obj.sections.iter().zip(&back.sections) {
        for (ra, rb) in a.relocs.iter().zip(&b.relocs) {
            assert_eq!(obj.symbols[ra.symbol], back.symbols[rb.symbol]);
        }
    }
}

#[test]
fn header_fields() {
    let bytes = write_object(&sample()).unwrap();
    assert_eq!(&bytes[..4], b"\x7fELF");
    assert_eq!(bytes[4], 1); // ELFCLASS32
    assert_eq!(bytes[5], 1); // little-endian
    assert_eq!(u16::from_le_bytes([bytes[16], bytes[17]]), elf::ET_REL);
    assert_eq!(u16::from_le_bytes([bytes[18], bytes[19]]), crate::EM_DSP);
}

#[test]
fn write_rejects_invalid() {
    let mut obj = sample();
    obj.sections[0].relocs[0].symbol = 99;
    assert!(matches!(write_object(&obj), Err(ObjError::Invalid { .. })));
    let mut obj = sample();
    obj.sections[0].size = 40;
    assert!(matches!(write_object(&obj), Err(ObjError::Invalid { .. })));
    let mut obj = sample();
    obj.sections[0].relocs[0].addend = 1 << 40;
    assert!(matches!(write_object(&obj), Err(ObjError::Invalid { .. })));
}

#[test]
fn not_elf_and_truncated() {
    assert_eq!(read_object(b"hello world, not elf"), Err(ObjError::NotElf));
    assert_eq!(read_object(b""), Err(ObjError::NotElf));
    let bytes = write_object(&sample()).unwrap();
    for len in [5, 20, 51, 52, 100, bytes.len() / 2, bytes.len() - 1] {
        let err = read_object(&bytes[..len]).unwrap_err();
        assert!(
            matches!(err, ObjError::Truncated { .. }),
            "len {len}: {err}"
        );
    }
}

#[test]
fn every_prefix_and_byte_flip_is_an_error_not_a_panic() {
    let bytes = write_object(&sample()).unwrap();
    for len in 0..bytes.len() {
        assert!(read_object(&bytes[..len]).is_err());
    }
    for i in 0..bytes.len() {
        for v in [0u8, 0xff, 0x80] {
            let mut b = bytes.clone();
            b[i] = v;
            let _ = read_object(&b);
        }
    }
}

#[test]
fn wrong_class_endian_machine_type() {
    let bytes = write_object(&sample()).unwrap();
    let mut b = bytes.clone();
    b[4] = 2;
    assert_eq!(read_object(&b), Err(ObjError::WrongClass { class: 2 }));
    let mut b = bytes.clone();
    b[5] = 2;
    assert_eq!(read_object(&b), Err(ObjError::WrongEndian { data: 2 }));
    let mut b = bytes.clone();
    b[18..20].copy_from_slice(&62u16.to_le_bytes());
    let err = read_object(&b).unwrap_err();
    assert_eq!(err, ObjError::WrongMachine { machine: 62 });
    assert_eq!(
        err.to_string(),
        "ELF file for another machine (e_machine 0x3e, expected 0xd5d5 for the DSP)"
    );
    let mut b = bytes.clone();
    b[16..18].copy_from_slice(&elf::ET_EXEC.to_le_bytes());
    assert!(matches!(read_object(&b), Err(ObjError::WrongType { .. })));
}

/// Offset of the first relocation entry of `.rela.text` in a written sample.
fn first_rela(bytes: &[u8]) -> usize {
    let elf = parse(bytes, elf::ET_REL, "").unwrap();
    let i = elf.names.iter().position(|n| n == ".rela.text").unwrap();
    elf.section(i).sh_offset(LE) as usize
}

#[test]
fn bad_relocation_type_and_symbol() {
    let bytes = write_object(&sample()).unwrap();
    let at = first_rela(&bytes);
    let mut b = bytes.clone();
    b[at + 4] = 77; // r_info low byte = type
    let err = read_object(&b).unwrap_err();
    assert_eq!(
        err,
        ObjError::UnknownRelocType {
            section: ".text".into(),
            offset: 8,
            r_type: 77
        }
    );
    assert_eq!(
        err.to_string(),
        "relocation at .text+0x8: unknown relocation type 77"
    );
    let mut b = bytes.clone();
    b[at + 5..at + 8].copy_from_slice(&[200, 0, 0]); // symbol 200
    assert!(matches!(
        read_object(&b),
        Err(ObjError::BadSymbolIndex { index: 200, .. })
    ));
}

#[test]
fn missing_isa_section() {
    let bytes = write_object(&sample()).unwrap();
    let elf = parse(&bytes, elf::ET_REL, "").unwrap();
    let i = elf.names.iter().position(|n| n == ISA_SECTION).unwrap();
    // Rename ".dsp.isa" to ".dsp.isb" in .shstrtab.
    let shstr = elf.header.e_shstrndx.get(LE) as usize;
    let base = elf.section(shstr).sh_offset(LE) as usize + elf.section(i).sh_name(LE) as usize;
    let mut b = bytes.clone();
    b[base + ISA_SECTION.len() - 1] = b'b';
    assert_eq!(read_object(&b), Err(ObjError::MissingIsa));
}

#[test]
fn bad_symbol_section_index() {
    let bytes = write_object(&sample()).unwrap();
    let elf = parse(&bytes, elf::ET_REL, "").unwrap();
    let symtab = elf.names.iter().position(|n| n == ".symtab").unwrap();
    let off = elf.section(symtab).sh_offset(LE) as usize;
    let mut b = bytes.clone();
    // Symbol 1, st_shndx at offset 14 of the 16-byte entry.
    b[off + 16 + 14..off + 16 + 16].copy_from_slice(&500u16.to_le_bytes());
    assert!(matches!(
        read_object(&b),
        Err(ObjError::BadSectionIndex { index: 500, .. })
    ));
}

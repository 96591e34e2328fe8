//! Tests of the executable format.

use super::*;
use crate::MachineId;

fn sample() -> Executable {
    let seg = |name: &str, addr, data: Vec<u8>, mem_size, read, write, exec| Segment {
        name: name.into(),
        addr,
        data,
        mem_size,
        flags: SegmentFlags { read, write, exec },
    };
    let sym = |name: &str, addr, size, kind, global| ExeSymbol {
        name: name.into(),
        addr,
        size,
        kind,
        global,
    };
    Executable {
        machine: MachineId {
            name: "ftm32".into(),
            fingerprint: u64::MAX,
        },
        entry: 0x1000,
        segments: vec![
            seg(".text", 0x1000, (0..64).collect(), 64, true, false, true),
            seg(".rodata", 0x1040, b"abc".to_vec(), 3, true, false, false),
            seg(".data", 0x1080, vec![9; 5], 5, true, true, false),
            seg(".bss", 0x10c0, vec![], 128, true, true, false),
        ],
        symbols: vec![
            sym("helper", 0x1020, 32, SymbolKind::Func, false),
            sym("helper", 0x1030, 16, SymbolKind::Func, false),
            sym("_start", 0x1000, 32, SymbolKind::Func, true),
            sym("buf", 0x10c0, 128, SymbolKind::Object, true),
            sym("__stack_top", 0x0400_0000, 0, SymbolKind::NoType, true),
        ],
    }
}

#[test]
fn round_trip() {
    let exe = sample();
    let bytes = write_executable(&exe).unwrap();
    assert_eq!(read_executable(&bytes).unwrap(), exe);
}

#[test]
fn round_trip_partial_data_segment() {
    let mut exe = sample();
    exe.segments[2].mem_size = 64; // 5 bytes of data, 59 zero bytes
    exe.segments[3].addr = 0x1100;
    assert_eq!(
        read_executable(&write_executable(&exe).unwrap()).unwrap(),
        exe
    );
}

#[test]
fn program_headers_and_flags() {
    let bytes = write_executable(&sample()).unwrap();
    let h = Hdr::parse(&bytes[..]).unwrap();
    let phdrs = h.program_headers(LE, &bytes[..]).unwrap();
    assert_eq!(phdrs.len(), 4);
    assert!(phdrs.iter().all(|p| p.p_type(LE) == elf::PT_LOAD));
    assert_eq!(phdrs[0].p_flags(LE), elf::PF_R | elf::PF_X);
    assert_eq!(phdrs[1].p_flags(LE), elf::PF_R);
    assert_eq!(phdrs[2].p_flags(LE), elf::PF_R | elf::PF_W);
    assert_eq!(phdrs[3].p_filesz(LE), 0);
    assert_eq!(phdrs[3].p_memsz(LE), 128);
    for p in phdrs {
        assert_eq!(
            p.p_offset(LE) % p.p_align(LE),
            p.p_vaddr(LE) % p.p_align(LE)
        );
    }
}

use crate::elf::Hdr;

#[test]
fn errors_not_panics() {
    let bytes = write_executable(&sample()).unwrap();
    for len in 0..bytes.len() {
        assert!(read_executable(&bytes[..len]).is_err(), "prefix {len}");
    }
    for i in 0..bytes.len() {
        let mut b = bytes.clone();
        b[i] ^= 0xff;
        let _ = read_executable(&b);
    }
    let mut b = bytes.clone();
    b[18..20].copy_from_slice(&40u16.to_le_bytes());
    assert_eq!(
        read_executable(&b),
        Err(ObjError::WrongMachine { machine: 40 })
    );
    let obj = crate::write_object(&crate::object::tests::sample()).unwrap();
    assert!(matches!(
        read_executable(&obj),
        Err(ObjError::WrongType { .. })
    ));
    assert!(matches!(
        crate::read_object(&bytes),
        Err(ObjError::WrongType { .. })
    ));
}

#[test]
fn rejects_bad_segments() {
    let mut exe = sample();
    exe.segments[1].mem_size = 1; // 3 bytes of data
    assert!(matches!(
        write_executable(&exe),
        Err(ObjError::Invalid { .. })
    ));
    let mut exe = sample();
    exe.segments[3].addr = 0xffff_ff00;
    exe.segments[3].mem_size = 0x1000;
    assert!(matches!(
        write_executable(&exe),
        Err(ObjError::Invalid { .. })
    ));
}

/// Issue 14, item 2: the overlap check compared every pair of segments (a
/// file may hold 65535); it sorts them now.
#[test]
fn many_segments_are_checked_in_linear_time() {
    let mut exe = sample();
    exe.segments.clear();
    exe.symbols.clear();
    for i in 0..30_000u32 {
        exe.segments.push(Segment {
            name: format!(".s{i}"),
            addr: 0x10000 + 64 * (30_000 - i),
            data: vec![1],
            mem_size: 64,
            flags: SegmentFlags { read: true, write: false, exec: false },
        });
    }
    let bytes = write_executable(&exe).unwrap();
    assert_eq!(read_executable(&bytes).unwrap().segments.len(), 30_000);
    // One overlapping pair among them is found and named.
    exe.segments[17].mem_size = 65;
    let bytes = write_executable(&exe).unwrap();
    let err = read_executable(&bytes).unwrap_err().to_string();
    assert!(err.contains("segments '.s17' and '.s16' overlap"), "{err}");
}

//! Bounded memory and linear time (issue 14, item 2): size fields in a file
//! never size the listing, and long inputs take time in proportion to
//! their length. Each test would take minutes or gigabytes before its fix.

use std::fmt::Write as _;

use dsp_mc::{assemble, write_executable_listing, write_object_listing};
use dsp_obj::{read_executable, write_executable, ExeSymbol, Executable, MachineId, Segment, SegmentFlags, SymbolKind};
use isa_tablegen::Machine;

/// Counts what is written, keeping nothing.
#[derive(Default)]
struct Count {
    bytes: usize,
    lines: usize,
}
impl std::fmt::Write for Count {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.bytes += s.len();
        self.lines += s.matches('\n').count();
        Ok(())
    }
}

/// An executable whose `.text` says 1 GiB of memory but holds one bundle
/// (dsp-objdump -d grew to 1.9 GB on it).
#[test]
fn huge_text_memory_size_prints_one_zero_line() {
    let m = Machine::load("ftm").unwrap();
    let obj = assemble(&m, "\t.text\n\t.globl _start\n_start:\tnop\n", "t.s").unwrap();
    let code = obj.sections[0].data.clone();
    let exe = Executable {
        machine: MachineId { name: m.name.clone(), fingerprint: m.fingerprint },
        entry: 0x1000,
        segments: vec![Segment {
            name: ".text".into(),
            addr: 0x1000,
            data: code,
            mem_size: 1 << 30,
            flags: SegmentFlags { read: true, write: false, exec: true },
        }],
        symbols: vec![ExeSymbol { name: "_start".into(), addr: 0x1000, size: 0, kind: SymbolKind::Func, global: true }],
    };
    let bytes = write_executable(&exe).unwrap();
    assert!(bytes.len() < 4096);
    let exe = read_executable(&bytes).unwrap();
    let mut out = String::new();
    write_executable_listing(&m, &exe, &mut out);
    assert!(out.len() < 4096, "{} bytes", out.len());
    assert!(out.contains(&format!("\t.zero {}", (1u32 << 30) - m.op_bytes())), "{out}");
    assert!(out.contains("not in the file"), "{out}");
}

/// 1 MB of data with one relocation at its end: each line used to scan to
/// the next relocation (minutes); now the listing is linear.
#[test]
fn megabyte_of_data_with_a_relocation_is_linear() {
    let m = Machine::load("ftm").unwrap();
    let mut src = String::from("\t.data\nd:\n");
    let mut x = 1u32;
    for _ in 0..(1 << 20) / 16 {
        src.push_str("\t.byte ");
        for k in 0..16 {
            x = x.wrapping_mul(1103515245).wrapping_add(12345);
            let _ = write!(src, "{}{}", if k > 0 { ", " } else { "" }, 1 + (x >> 16) % 31);
        }
        src.push('\n');
    }
    src.push_str("\t.word d\n");
    for _ in 0..2000 {
        src.push_str("\t.byte 1\n");
    }
    let obj = assemble(&m, &src, "big.s").unwrap();
    let mut count = Count::default();
    write_object_listing(&m, &obj, &mut count);
    assert!(count.lines > 60_000 && count.lines < 200_000, "{} lines", count.lines);
}

/// Thousands of labels in one section: each line used to scan every label.
#[test]
fn many_labels_are_linear() {
    let m = Machine::load("ftm").unwrap();
    let mut src = String::from("\t.data\n");
    for i in 0..50_000 {
        let _ = writeln!(src, "l{i}:\t.byte 7");
    }
    let obj = assemble(&m, &src, "labels.s").unwrap();
    let mut out = String::new();
    write_object_listing(&m, &obj, &mut out);
    assert!(out.contains("l49999:"));
    assert_eq!(assemble(&m, &out, "again.s").unwrap(), obj);
}

/// dsp-as lexed in time quadratic in the line length: 80,000 spaces before
/// `.align 4` took 2.4 s, a 1 MB line over 120 s.
#[test]
fn megabyte_line_of_spaces_assembles() {
    let m = Machine::load("ftm").unwrap();
    let src = format!("\t.data\n{}.align 4\n{}.byte 1\n", " ".repeat(1 << 20), "é".repeat(1 << 19));
    let errors = assemble(&m, &src, "spaces.s").unwrap_err();
    // The second line's column counts characters: 2^19 'é', then the error.
    assert!(errors[0].line == 3 && errors[0].col == 1, "{:?}", errors[0]);
    let src = format!("\t.data\n{}.align 4\n", " ".repeat(1 << 20));
    assert!(assemble(&m, &src, "spaces.s").is_ok());
}

/// A megabyte-long unknown mnemonic or directive (found by
/// scripts/fuzz-tools: 100,000 characters took 4 s, each "did you mean"
/// candidate compared through a table of one row per character).
#[test]
fn megabyte_unknown_names_are_reported_quickly() {
    let m = Machine::load("ftm").unwrap();
    let name = "a".repeat(1 << 20);
    for src in [format!("\t{name} r1, r2\n"), format!("\t.{name} 1\n"), format!("\t.wait {name}\n")] {
        let errors = assemble(&m, &src, "long.s").unwrap_err();
        assert_eq!(errors[0].line, 1, "{:?}", errors[0].message.get(..80));
        assert!(!errors[0].message.contains("did you mean"));
    }
}

/// Long operand lists (200,000 numbers, character literals) on one line.
#[test]
fn long_operand_lists_assemble() {
    let m = Machine::load("ftm").unwrap();
    let numbers = vec!["1"; 200_000].join(", ");
    let obj = assemble(&m, &format!("\t.data\n\t.byte {numbers}\n"), "ops.s").unwrap();
    assert_eq!(obj.sections.iter().map(|s| s.data.len()).sum::<usize>(), 200_000);
    let chars = vec!["'a'"; 200_000].join(", ");
    let obj = assemble(&m, &format!("\t.data\n\t.byte {chars}\n"), "chars.s").unwrap();
    assert!(obj.sections.iter().any(|s| s.data.len() == 200_000 && s.data.iter().all(|&b| b == b'a')));
    // An error at the end of a long line still has its column.
    let errors = assemble(&m, &format!("\t.data\n\t.byte {numbers}, `\n"), "bad.s").unwrap_err();
    assert_eq!((errors[0].line, errors[0].col), (2, 8 + 200_000 * 3 - 2 + 2), "{:?}", errors[0]);
}

/// 50,000 global symbols referring to each other: `.globl` kept a list
/// searched on every directive (100,000 took 153 s); sets now.
#[test]
fn many_globals_assemble_and_list_linearly() {
    let m = Machine::load("ftm").unwrap();
    let n = 50_000;
    let mut src = String::from("\t.data\n");
    for i in 0..n {
        let _ = writeln!(src, "\t.globl g{i}\ng{i}:\t.word g{}, ext{}", (i * 7) % n, i % 1000);
    }
    let obj = assemble(&m, &src, "globals.s").unwrap();
    assert_eq!(obj.symbols.iter().filter(|s| s.global).count(), n + 1000);
    let mut out = String::new();
    write_object_listing(&m, &obj, &mut out);
    assert_eq!(assemble(&m, &out, "again.s").unwrap(), obj);
}

/// 20,000 sections (`-ffunction-sections` style): sections were found by
/// name in a list, and the listing scanned every symbol for every section.
#[test]
fn many_sections_assemble_and_list_linearly() {
    let m = Machine::load("ftm").unwrap();
    let mut src = String::new();
    for i in 0..20_000 {
        let _ = writeln!(src, "\t.section .text.f{i},\"ax\"\n\t.globl f{i}\n\t.type f{i}, @function\nf{i}:\tcall ext{i}\n\t.nop_delay\n\t.size f{i}, .-f{i}");
    }
    let obj = assemble(&m, &src, "sections.s").unwrap();
    assert_eq!(obj.sections.len(), 20_000);
    let mut count = Count::default();
    write_object_listing(&m, &obj, &mut count);
    assert!(count.lines > 100_000, "{} lines", count.lines);
}

/// A 1 MB line `1+1+…+1` overflowed dsp-as's stack (every walk of the
/// operator chain recursed once per operator): at most 4096 operators in an
/// expression, and a long sum is folded in a loop (it stopped at 64 before).
#[test]
fn long_operator_chains_are_bounded() {
    let m = Machine::load("ftm").unwrap();
    let src = format!("\t.data\n\t.word {}1\n", "1+".repeat(500_000));
    let errors = assemble(&m, &src, "chain.s").unwrap_err();
    assert_eq!(errors[0].message, "expression has more than 4096 operators");
    let src = format!("\t.data\nd:\t.word {}d-4000\n", "1+".repeat(4000));
    let obj = assemble(&m, &src, "sum.s").unwrap();
    assert_eq!(obj.sections.iter().find(|s| s.name == ".data").unwrap().relocs[0].addend, 0);
}

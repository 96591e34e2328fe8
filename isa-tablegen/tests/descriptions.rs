//! Tests of the description language on real files: the shipped machines, a
//! small good file, every malformed file with its exact diagnostic, encoding
//! round trips of every instruction, bundle placement, and the CLI.

use std::path::{Path, PathBuf};
use std::process::Command;

use isa_tablegen::{builtin, Guard, ImmKind, Machine, Op, OperandKind, SemOp};

fn dir(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join(sub)
}

fn shipped() -> Vec<Machine> {
    builtin::names().map(|n| Machine::load(n).unwrap_or_else(|e| panic!("{n}: {e}"))).collect()
}

#[test]
fn shipped_machines_and_good_files_parse() {
    assert!(shipped().len() >= 3);
    for entry in std::fs::read_dir(dir("good")).unwrap() {
        let path = entry.unwrap().path();
        Machine::parse_file(&path).unwrap_or_else(|e| panic!("{e}"));
    }
    // The machine files on disk are the ones embedded in the tools.
    for (name, file, text) in builtin::MACHINES {
        let on_disk = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("machines").join(file)).unwrap();
        assert_eq!(&on_disk, text, "{name}");
    }
}

#[test]
fn malformed_files_give_their_exact_diagnostics() {
    let mut n = 0;
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir("malformed")).unwrap().map(|e| e.unwrap().path()).collect();
    paths.sort();
    for path in paths {
        let text = std::fs::read_to_string(&path).unwrap();
        let expect = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("# expect: "))
            .unwrap_or_else(|| panic!("{}: first line must be '# expect: LINE:COL: error: …'", path.display()));
        let err = Machine::parse_file(&path).expect_err(&path.display().to_string());
        assert_eq!(err.to_string(), format!("{}:{expect}", path.display()));
        n += 1;
    }
    assert!(n >= 20, "only {n} malformed files");
}

#[test]
fn derived_machines_inherit_and_override() {
    let ftm = Machine::load("ftm").unwrap();
    for m in shipped() {
        // Every variant keeps the base's instruction set and opcodes.
        for ins in &ftm.instrs {
            let id = m.instr_by_mnemonic(&ins.mnemonic).unwrap();
            assert_eq!(m.instr(id).opcode, ins.opcode, "{}: {}", m.name, ins.mnemonic);
        }
        if m.name != ftm.name {
            assert_ne!(m.fingerprint, ftm.fingerprint);
        }
    }
    let wide = Machine::load("ftm32").unwrap();
    let ldw = |m: &Machine| m.instr(m.instr_by_mnemonic("ldw").unwrap()).latency;
    assert!(ldw(&wide) > ldw(&ftm), "ftm32's 'set ldw lat' applies");
}

/// Extreme but legal values for each operand of an instruction.
fn sample_args(m: &Machine, ins: &isa_tablegen::Instr, high: bool) -> Vec<i64> {
    ins.operands
        .iter()
        .map(|o| match o.kind {
            OperandKind::Reg(f) => {
                if high {
                    m.regfile(f).count as i64 - 1
                } else {
                    1.min(m.regfile(f).count as i64 - 1)
                }
            }
            k => {
                let (lo, hi) = k.imm_range().unwrap();
                if high {
                    hi
                } else {
                    lo
                }
            }
        })
        .collect()
}

#[test]
fn every_instruction_encodes_and_decodes_back() {
    for m in shipped() {
        let guard_regs = m.encoding.guard.map(|g| m.regfile(g.file).count).unwrap_or(0);
        for (i, ins) in m.instrs.iter().enumerate() {
            for high in [false, true] {
                for guard in [None, Some(Guard { reg: guard_regs.saturating_sub(1), negate: true })] {
                    let op = Op { instr: isa_tablegen::InstrId(i as u16), guard, args: sample_args(&m, ins, high) };
                    for stop in [false, true] {
                        let word = m.encode_op(&op, stop).unwrap();
                        let (back, s) = m.decode_op(word).unwrap();
                        let mut want = op.clone();
                        for (a, o) in want.args.iter_mut().zip(&ins.operands) {
                            *a = o.kind.canonical(*a);
                        }
                        assert_eq!((back, s), (want, stop), "{}: {}", m.name, ins.mnemonic);
                    }
                }
            }
        }
    }
}

#[test]
fn out_of_range_operands_and_corrupt_words_are_errors() {
    let m = Machine::load("ftm").unwrap();
    for (i, ins) in m.instrs.iter().enumerate() {
        for (k, o) in ins.operands.iter().enumerate() {
            let mut args = sample_args(&m, ins, true);
            args[k] = match o.kind {
                OperandKind::Reg(f) => m.regfile(f).count as i64,
                kind => kind.imm_range().unwrap().1 + 1,
            };
            let op = Op { instr: isa_tablegen::InstrId(i as u16), guard: None, args };
            assert!(m.encode_op(&op, true).is_err(), "{} operand {k}", ins.mnemonic);
        }
    }
    // An opcode no instruction uses.
    let unused = (0..=m.encoding.opcode.mask()).find(|&c| m.decode_table[c as usize].is_none()).unwrap();
    let word = m.encoding.opcode.set(0, unused);
    assert!(m.decode_op(word).is_err());
    // A bit outside every field of `nop`.
    let nop = m.instr_by_mnemonic("nop").unwrap();
    let word = m.encode_op(&Op { instr: nop, guard: None, args: vec![] }, true).unwrap();
    let spare = (0..64).find(|b| m.used_bits[nop.0 as usize] & (1u64 << b) == 0).unwrap();
    assert!(m.decode_op(word | (1u64 << spare)).is_err());
}

#[test]
fn relocated_operands_are_patched() {
    let m = Machine::load("ftm").unwrap();
    let li = m.instr_by_mnemonic("li").unwrap();
    let br = m.instr_by_mnemonic("br").unwrap();
    let w = m.encode_op(&Op { instr: li, guard: None, args: vec![5, 0] }, true).unwrap();
    let (op, stop) = m.decode_op(m.patch_op(w, 0x12345, false).unwrap()).unwrap();
    assert_eq!((op.args, stop), (vec![5, 0x12345], true));
    let w = m.encode_op(&Op { instr: br, guard: None, args: vec![0] }, false).unwrap();
    let step = m.op_bytes() as i64;
    let (op, _) = m.decode_op(m.patch_op(w, -4 * step, true).unwrap()).unwrap();
    assert_eq!(op.args, vec![-4]);
    assert!(m.patch_op(w, 3, true).is_err(), "misaligned branch distance");
    assert!(m.patch_op(w, 16, false).is_err(), "absolute relocation on a pc-relative operand");
}

#[test]
fn bundles_respect_units_slots_and_ports() {
    for m in shipped() {
        // Fill each unit beyond its count: the extra operation has no unit.
        for (u, unit) in m.units.iter().enumerate() {
            let uid = isa_tablegen::UnitId(u as u16);
            let Some(i) = m.instrs.iter().position(|ins| ins.units == vec![uid]) else { continue };
            let id = isa_tablegen::InstrId(i as u16);
            let fits = vec![id; unit.count as usize];
            assert!(m.place_bundle(&fits, &|_, _| false).is_ok(), "{}: {}", m.name, unit.name);
            let over = vec![id; unit.count as usize + 1];
            if over.len() <= m.bundle.max_ops as usize {
                let err = m.place_bundle(&over, &|_, _| false).unwrap_err();
                assert!(err.to_string().contains("no free slot and unit"), "{err}");
            }
            // A busy instance is not used.
            let busy = m.place_bundle(&[id], &|x, k| x == uid && k == 0);
            assert_eq!(busy.is_ok(), unit.count > 1);
        }
        let nop = m.instr_by_mnemonic("nop").unwrap();
        let many = vec![nop; m.bundle.max_ops as usize + 1];
        assert!(matches!(m.place_bundle(&many, &|_, _| false), Err(isa_tablegen::BundleError::TooManyOps { .. })));
    }
}

#[test]
fn bundle_checks_report_port_and_destination_conflicts() {
    let m = Machine::load("tests/good/tiny.isa").unwrap();
    let add = m.instr_by_mnemonic("add").unwrap();
    let ld = m.instr_by_mnemonic("ld").unwrap();
    // add and ld land in r1 at different cycles: fine; same cycle: not.
    let ok = [Op { instr: add, guard: None, args: vec![1, 2, 3] }, Op { instr: ld, guard: None, args: vec![1, 2, 0] }];
    assert!(m.check_bundle(&ok).is_ok());
    let addi = m.instr_by_mnemonic("addi").unwrap();
    let twice = [Op { instr: add, guard: None, args: vec![1, 2, 3] }, Op { instr: addi, guard: None, args: vec![1, 2, 0] }];
    assert!(m.check_bundle(&twice).is_err(), "two ALU ops on one ALU");
    // Reads beyond the read ports (tiny: 4).
    let st = m.instr_by_mnemonic("st").unwrap();
    let reads = [Op { instr: add, guard: None, args: vec![1, 2, 3] }, Op { instr: st, guard: None, args: vec![4, 5, 0] }];
    assert!(m.check_bundle(&reads).is_ok());
}

#[test]
fn semantics_use_the_vocabulary_consistently() {
    for m in shipped() {
        for ins in &m.instrs {
            assert_eq!(ins.sem.args.len(), ins.sem.op.arity(), "{}", ins.mnemonic);
            if ins.sem.op == SemOp::Br || ins.sem.op == SemOp::Call {
                assert!(matches!(ins.operands[ins.sem.args[0].0].kind, OperandKind::PcRel(_)));
            }
            for o in &ins.operands {
                if let OperandKind::Imm(ImmKind::Unsigned, b) = o.kind {
                    assert!(b <= 32);
                }
            }
        }
    }
}

fn tablegen() -> Command {
    Command::new(env!("CARGO_BIN_EXE_isa-tablegen"))
}

#[test]
fn cli_check_reports_errors_with_exit_2() {
    let bad = dir("malformed").join("unknown_unit_kind_does_not_exist.isa");
    let out = tablegen().arg("check").arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        stderr,
        format!("{}: error: no such machine or file (shipped machines: ftm, ftm8, ftm32)\n", bad.display())
    );
    let path = dir("malformed").join("bad_unit_kind.isa");
    let out = tablegen().arg("check").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.starts_with(&format!("{}:3:15: error: unknown unit kind 'float'", path.display())), "{stderr}");
    for name in builtin::names() {
        let out = tablegen().args(["check", name]).output().unwrap();
        assert!(out.status.success(), "{name}");
    }
}

#[test]
fn cli_doc_writes_a_manual() {
    let out = tablegen().args(["doc", "ftm"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("# ftm — ISA reference manual"));
    assert!(text.contains("## Instructions") && text.contains("| `vfmac` |"));
    let out = tablegen().args(["frobnicate"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "unknown subcommand");
}

#[test]
fn drop_removes_inherited_instructions() {
    let m = Machine::parse_str("base \"ftm.isa\"\nmachine nofadd\ndrop fadd dadd\n", "nofadd.isa").unwrap();
    let ftm = Machine::load("ftm").unwrap();
    assert_eq!(m.instrs.len(), ftm.instrs.len() - 2);
    assert!(m.instrs.iter().all(|i| i.mnemonic != "fadd" && i.mnemonic != "dadd"));
    assert_ne!(m.fingerprint, ftm.fingerprint);
    let err = Machine::parse_str("base \"ftm.isa\"\nmachine x\ndrop\n", "x.isa").unwrap_err();
    assert!(err.to_string().contains("expected instruction mnemonic"), "{err}");
}

/// Issue 14, item 5: a non-UTF-8 description is located; control
/// characters in messages are escaped.
#[test]
fn non_utf8_and_control_characters_are_reported_cleanly() {
    let dir = std::env::temp_dir().join(format!("isa-utf8-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.isa");
    std::fs::write(&path, b"machine x \"a\"\n\n  # \xff\n").unwrap();
    let e = isa_tablegen::Machine::parse_file(&path).unwrap_err();
    assert_eq!((e.line, e.col), (3, 5));
    assert_eq!(e.to_string(), format!("{}:3:5: error: invalid UTF-8 (byte 0xff)", path.display()));
    // A base file that is not UTF-8 is the same error, not "cannot find base".
    std::fs::write(dir.join("top.isa"), "base \"bad.isa\"\nmachine y \"b\"\n").unwrap();
    let e = isa_tablegen::Machine::parse_file(&dir.join("top.isa")).unwrap_err();
    assert!(e.to_string().ends_with("bad.isa:3:5: error: invalid UTF-8 (byte 0xff)"), "{e}");
    let e = isa_tablegen::Machine::parse_str("machine x\0 \"a\"\n", "nul.isa").unwrap_err();
    assert_eq!(e.to_string(), "nul.isa:1:10: error: unexpected character '\\x00'");
}

/// Issue 14, item 2: each declaration was looked up by a scan of all the
/// earlier ones (16,000 instructions took 8 s before the first error);
/// identities are indexed now, drops included.
#[test]
fn many_declarations_are_linear() {
    let mut text = String::from("base \"ftm.isa\"\nmachine many \"m\"\ndrop fadd dadd\n");
    for i in 0..16_000 {
        text.push_str(&format!("inst xadd{i} (rd:r, ra:r, imm:s32) units salu lat 1 sem rd = add.i32(ra, imm) enc RI\n"));
    }
    let e = isa_tablegen::Machine::parse_str(&text, "many.isa").unwrap_err();
    assert!(e.message.contains("opcode field is full"), "{e}");
    // Dropped and redeclared: the new declaration, at the end.
    let m = isa_tablegen::Machine::parse_str("base \"ftm.isa\"\nmachine re \"r\"\ndrop fadd\ninst fadd (rd:r, ra:r, rb:r) units salu lat 1 sem rd = add.i32(ra, rb) enc R3\n", "re.isa").unwrap();
    let id = m.instr_by_mnemonic("fadd").unwrap();
    assert_eq!(m.instr(id).units.len(), 1);
}

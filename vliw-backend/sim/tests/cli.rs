//! The dsp-sim command line: exit statuses, fault messages, statistics,
//! trace and the cycle limit, on an executable written to disk.

use std::path::PathBuf;
use std::process::Command;

use dsp_sim::build::Builder;
use isa_tablegen::Machine;

fn write_exe(name: &str, m: &Machine, text: &str, data: &[u8]) -> PathBuf {
    let mut b = Builder::new(m);
    b.asm(text);
    if !data.is_empty() {
        b.data("buf", data, 64);
    }
    let exe = b.build().unwrap();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("dsp-sim-cli");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.{}", m.name));
    std::fs::write(&path, dsp_obj::write_executable(&exe).unwrap()).unwrap();
    path
}

fn sim(args: &[&str], exe: &PathBuf) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_dsp-sim")).args(args).arg(exe).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn exit_status_output_stats_and_trace() {
    for name in isa_tablegen::builtin::names() {
        let m = Machine::load(name).unwrap();
        let prog = "main:\n{ li r4, 1 ; li r5, buf }\nli r6, 3\ntrap 1\nli r4, 263\ntrap 0\n";
        let exe = write_exe("hello", &m, prog, b"hi\n");
        let json = exe.with_extension("json");
        let (code, out, err) = sim(&["--strict", "--stats", "--trace", "--stats-json", json.to_str().unwrap()], &exe);
        assert_eq!(code, 7, "{err}");
        assert_eq!(out, "hi\n");
        assert!(err.contains("main+0x0"), "{err}");
        assert!(err.contains("trap 1"), "{err}");
        assert!(err.contains("cycles            5"), "{err}");
        let j = std::fs::read_to_string(&json).unwrap();
        assert!(j.contains("\"cycles\": 5,") && j.contains("\"name\": \"main\", \"cycles\": 5"), "{j}");
    }
}

#[test]
fn faults_exit_125_and_the_cycle_limit_124() {
    let m = Machine::load(isa_tablegen::builtin::DEFAULT).unwrap();
    let exe = write_exe("fault", &m, "main:\nli r5, 1\ndiv r6, r5, r0\ntrap 0\n", &[]);
    let (code, _, err) = sim(&[], &exe);
    assert_eq!(code, 125);
    let pc = m.memory.base + m.memory.null_guard + m.op_bytes();
    assert_eq!(
        err,
        format!("dsp-sim: error: integer divide by zero at pc {pc:#010x} (in main+{:#x}), cycle 1\n", m.op_bytes())
    );
    let spin = format!("main:\nbr main\n{}", "nop\n".repeat(m.control.delay_slots as usize));
    let exe = write_exe("spin", &m, &spin, &[]);
    let (code, _, err) = sim(&["--max-cycles", "50"], &exe);
    assert_eq!(code, 124);
    assert!(err.starts_with("dsp-sim: error: cycle limit 50 reached at pc"), "{err}");
    let (code, _, err) = sim(&[], &PathBuf::from("/nonexistent/exe"));
    assert_eq!(code, 125);
    assert!(err.starts_with("dsp-sim: error: /nonexistent/exe:"), "{err}");
}

#[test]
fn ideal_memory_and_cache_statistics() {
    for name in isa_tablegen::builtin::names() {
        let m = Machine::load(name).unwrap();
        let l1 = m.data_cache(1).unwrap();
        let miss = m.memory_miss_cycles();
        let prog = "main:\nli r5, buf\nldw r4, r5, 0\nnop\nnop\nnop\nnop\nnop\nnop\nnop\nnop\ntrap 0\n";
        let exe = write_exe("load", &m, prog, &[3, 0, 0, 0]);
        let json = exe.with_extension("json");
        let (code, _, err) = sim(&["--stats", "--stats-json", json.to_str().unwrap()], &exe);
        assert_eq!(code, 3, "{err}");
        assert!(err.contains(&format!("memory stalls     {miss} (")), "{err}");
        assert!(err.contains(&format!("{:<6} L1  hits            0  misses          1", l1.name)), "{err}");
        assert!(err.contains(&format!("  memory stalls {miss:>10}  {} 0/1", l1.name)), "{err}");
        let j = std::fs::read_to_string(&json).unwrap();
        assert!(j.contains(&format!("\"memory_stall_cycles\": {miss},")) && j.contains("\"issue_cycles\": 11,"), "{j}");
        assert!(j.contains(&format!("\"cycles\": {},", 11 + miss)), "{j}");
        let (code, _, err) = sim(&["--ideal-memory", "--stats", "--stats-json", json.to_str().unwrap()], &exe);
        assert_eq!(code, 3, "{err}");
        assert!(err.contains("cycles            11\n") && !err.contains("memory stalls"), "{err}");
        let j = std::fs::read_to_string(&json).unwrap();
        assert!(j.contains("\"memory_stall_cycles\": 0,") && j.contains("\"caches\": [],"), "{j}");
    }
}

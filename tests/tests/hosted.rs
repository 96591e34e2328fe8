//! Programs hosted by `dsp-sim` (tests/hosted/): argv and the environment,
//! file I/O in the root directory, confinement to it, a fault's buffered
//! output, deterministic time and the ENOSYS calls, compiled by `dspcc` for
//! every shipped machine and run under `dsp-sim --strict`. The differential
//! ones (args_env.c, files.c) must print what the host build (`cc -m32`)
//! prints when run the same way. Needs the C runtime (scripts/build-runtime).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use dsp_e2e_tests::{machines, root, run, run_ok, tool};

fn scratch(name: &str) -> PathBuf {
    dsp_e2e_tests::scratch(&format!("hosted/{name}"))
}

fn src(name: &str) -> PathBuf {
    root().join("tests/hosted").join(name)
}

fn dsp_build(machine: &str, opt: &str, name: &str, out: &Path) {
    run_ok(Command::new(tool("dspcc")).arg(format!("--isa={machine}")).arg(opt).arg(src(name)).arg("-o").arg(out));
}

fn host_build(name: &str, out: &Path) {
    let cc = std::env::var("HOST_CC").unwrap_or_else(|_| "cc".into());
    run_ok(Command::new(cc).args(["-m32", "-std=gnu11", "-O1", "-w"]).arg(src(name)).arg("-o").arg(out));
}

fn sim() -> Command {
    let mut c = Command::new(tool("dsp-sim"));
    c.arg("--strict");
    c
}

/// stdout, stderr and exit status as one text.
fn outcome(o: &Output) -> String {
    format!(
        "{}--- stderr\n{}--- exit {:?}\n",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
        o.status.code()
    )
}

const ARGS: &[&str] = &["-a", "-bval", "--", "x y", "", "-z", "ünïcode"];
const ENV: &[(&str, &str)] = &[("DSP_A", "1"), ("DSP_EMPTY", ""), ("DSP_SPACES", "a b  c")];

#[test]
fn argv_and_environment_match_the_host() {
    let dir = scratch("args");
    let host = dir.join("args.host");
    host_build("args_env.c", &host);
    let mut cmd = Command::new(&host);
    cmd.env_clear().envs(ENV.iter().copied()).args(ARGS);
    let want = outcome(&run(&mut cmd));
    assert!(want.contains("argc 8\n"), "{want}");
    for m in machines() {
        let exe = dir.join(format!("args.{m}"));
        dsp_build(m, "-O2", "args_env.c", &exe);
        let mut cmd = sim();
        for (k, v) in ENV {
            cmd.arg("--env").arg(format!("{k}={v}"));
        }
        cmd.arg(&exe).args(ARGS);
        assert_eq!(outcome(&run(&mut cmd)), want, "{m}");
    }
    // --host-env passes the host's environment; --env overrides it.
    let exe = dir.join("args.ftm");
    let out = run(sim().args(["--host-env", "--env", "DSP_A=over"]).arg(&exe).env("DSP_A", "host").env("DSP_SPACES", "from host"));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("DSP_A = \"over\"") && text.contains("DSP_SPACES = \"from host\""), "{text}");
    // Without options the environment is empty.
    let out = run(sim().arg(&exe).env("DSP_A", "host"));
    assert!(String::from_utf8_lossy(&out.stdout).contains("DSP_A unset"));
    let out = run(sim().args(["--env", "NOEQUALS"]).arg(&exe));
    assert_eq!(out.status.code(), Some(125));
    assert!(String::from_utf8_lossy(&out.stderr).contains("dsp-sim: error: --env NOEQUALS: expected NAME=VALUE"));
}

/// Runs `exe` in a fresh directory holding input.txt.
fn files_run(cmd: &mut Command, dir: &Path) -> String {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("input.txt"), "1\n2\n3\n40\n").unwrap();
    outcome(&run(cmd))
}

#[test]
fn file_io_matches_the_host() {
    let dir = scratch("files");
    let host = dir.join("files.host");
    host_build("files.c", &host);
    let work = dir.join("host-run");
    let want = files_run(Command::new(&host).current_dir(&work), &work);
    assert!(want.contains("4 lines, sum 46"), "{want}");
    for m in machines() {
        for opt in ["-O0", "-O2"] {
            if m != "ftm" && opt == "-O0" {
                continue;
            }
            let exe = dir.join(format!("files.{m}{opt}"));
            dsp_build(m, opt, "files.c", &exe);
            // Files relative to the current directory (the default root) ...
            let work = dir.join(format!("run-{m}{opt}"));
            let got = files_run(sim().arg(&exe).current_dir(&work), &work);
            assert_eq!(got, want, "{m} {opt}");
            // ... or to --root, from anywhere.
            let got = files_run(sim().arg("--root").arg(&work).arg(&exe).current_dir(&dir), &work);
            assert_eq!(got, want, "{m} {opt} --root");
            let left: Vec<_> = std::fs::read_dir(&work).unwrap().map(|e| e.unwrap().file_name()).collect();
            assert_eq!(left, ["input.txt"], "{m} {opt}: the program cleans up");
        }
    }
}

#[test]
fn files_cannot_leave_the_root() {
    let dir = scratch("escape");
    let rootdir = dir.join("root");
    std::fs::create_dir_all(rootdir.join("sub")).unwrap();
    std::fs::write(dir.join("outside.txt"), "secret\n").unwrap();
    std::fs::write(rootdir.join("inside.txt"), "ok\n").unwrap();
    std::os::unix::fs::symlink(dir.join("outside.txt"), rootdir.join("link_out")).unwrap();
    std::os::unix::fs::symlink(&dir, rootdir.join("dir_link")).unwrap();
    std::os::unix::fs::symlink("../nowhere.txt", rootdir.join("dangling")).unwrap();
    std::os::unix::fs::symlink("inside.txt", rootdir.join("link_in")).unwrap();
    let outside = dir.join("outside.txt");
    for m in machines() {
        let exe = dir.join(format!("escape.{m}"));
        dsp_build(m, "-O1", "escape.c", &exe);
        let out = run_ok(sim().arg("--root").arg(&rootdir).arg(&exe).arg(&outside));
        let text = String::from_utf8_lossy(&out.stdout);
        let denied = "Permission denied";
        for line in [
            "open ../outside.txt: ", "open ../created.txt: ", "open sub/../../outside.txt: ", "open /etc/passwd: ",
            "open link_out: ", "open dir_link/outside.txt: ", "open dangling: ", "stat ..: -1 ", "rename out: -1 ",
            "unlink out: -1 ", "mkdir out: -1 ",
        ] {
            let l = text.lines().find(|l| l.starts_with(line)).unwrap_or_else(|| panic!("{m}: no '{line}' in\n{text}"));
            assert!(l.ends_with(denied), "{m}: {l}");
        }
        assert!(text.contains(&format!("open {}: {denied}", outside.display())), "{text}");
        assert!(text.contains("open inside.txt: OPENED\nopen link_in: OPENED\n"), "{text}");
        assert_eq!(std::fs::read_to_string(&outside).unwrap(), "secret\n", "not truncated through the link");
        assert!(!dir.join("created.txt").exists() && !dir.join("nowhere.txt").exists() && !dir.join("newdir").exists());
        assert!(rootdir.join("inside.txt").exists());
        // --no-files: nothing at all.
        let out = run_ok(sim().arg("--no-files").arg(&exe).current_dir(&rootdir));
        assert!(String::from_utf8_lossy(&out.stdout).contains("open inside.txt: Permission denied"));
    }
}

#[test]
fn a_fault_writes_out_buffered_output_and_exits_125() {
    let dir = scratch("fault");
    for m in machines() {
        let exe = dir.join(format!("fault.{m}"));
        dsp_build(m, "-O2", "fault.c", &exe);
        let _ = std::fs::remove_file(dir.join("partial.txt"));
        let out = run(sim().arg(&exe).current_dir(&dir));
        assert_eq!(out.status.code(), Some(125), "{m}");
        assert_eq!(String::from_utf8_lossy(&out.stdout), "buffered on stdout\n", "{m}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("unbuffered on stderr\ndsp-sim: error: store of 4 bytes at 0x0 outside memory"), "{m}: {err}");
        assert_eq!(std::fs::read_to_string(dir.join("partial.txt")).unwrap(), "kept in the file\n", "{m}");
    }
}

#[test]
fn time_is_deterministic_unless_host_time() {
    let dir = scratch("clock");
    let exe = dir.join("clock.ftm");
    dsp_build("ftm", "-O2", "clock.c", &exe);
    let a = run_ok(sim().arg(&exe));
    let b = run_ok(sim().arg(&exe));
    assert_eq!(a.stdout, b.stdout);
    let text = String::from_utf8_lossy(&a.stdout);
    assert!(text.starts_with("time 0\nrealtime 0.000"), "{text}");
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
    let out = run_ok(sim().arg("--host-time").arg(&exe));
    let text = String::from_utf8_lossy(&out.stdout);
    let t: i64 = text.lines().next().unwrap().trim_start_matches("time ").parse().unwrap();
    assert!((t - now).abs() < 60, "{text}");
}

#[test]
fn impossible_calls_link_and_fail_with_enosys() {
    let dir = scratch("nosys");
    let exe = dir.join("nosys.ftm");
    // -lpthread -ldl -lrt are the C library itself.
    run_ok(Command::new(tool("dspcc")).arg("-O1").arg(src("nosys.c")).args(["-o"]).arg(&exe).args(["-lpthread", "-ldl", "-lrt", "-lm"]));
    let out = run_ok(sim().arg(&exe));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "fork -1 errno 38\nexecv -1 errno 38\npopen (nil) errno 38\npipe -1 errno 38\nwaitpid -1 errno 10\nsystem(NULL) 0\n\
         dlopen (nil): dlopen: dynamic loading is not supported on this static target\nsched_yield 0 nprocs 1\nsigaction 0\n\
         kill self 0 got 10\ngetrusage 0\nmmap failed 1 errno 38 munmap -1\nioctl -1 errno 25\nutime -1 errno 38\n\
         utimes -1 errno 38\nfchown -1 errno 38\npthread_create 38 pthread_join 3\ngetpwuid (nil) getpwnam (nil) getpwuid_r 0 (nil)\n"
    );
    let mode = std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&exe).unwrap().permissions());
    assert_eq!(mode & 0o111, 0o111, "executables are executable: {mode:o}");
}

#[test]
fn stack_protector_aborts_a_smashed_frame() {
    let dir = scratch("ssp");
    let want = "fits: 120\noverflows by 24\n*** stack smashing detected ***: terminated\n";
    for m in machines() {
        for (opt, flag) in [("-O0", "-fstack-protector-strong"), ("-O2", "-fstack-protector"), ("-O2", "-fstack-protector-all")] {
            let exe = dir.join(format!("smash.{m}{opt}{flag}"));
            run_ok(Command::new(tool("dspcc")).arg(format!("--isa={m}")).args([opt, flag]).arg(src("smash.c")).arg("-o").arg(&exe));
            let out = run(sim().arg(&exe));
            assert_eq!((out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned()), (Some(134), want.to_string()), "{m} {opt} {flag}");
        }
    }
    // The host's glibc says the same.
    let host = dir.join("smash.host");
    let cc = std::env::var("HOST_CC").unwrap_or_else(|_| "cc".into());
    run_ok(Command::new(cc).args(["-m32", "-O2", "-fstack-protector-strong"]).arg(src("smash.c")).arg("-o").arg(&host));
    let out = run(&mut Command::new(&host));
    assert_eq!(String::from_utf8_lossy(&out.stderr), want);
}

#[test]
fn undefined_behaviour_sanitizer_reports_file_line_and_check() {
    let dir = scratch("ubsan");
    let s = src("ubsan.c").display().to_string();
    let want = format!(
        "{s}:14:19: runtime error: signed integer overflow in addition of type 'int'\n\
         {s}:16:16: runtime error: shift exponent or result out of bounds\n\
         {s}:18:13: runtime error: index out of bounds for an array of type 'int[4]'\n"
    );
    for m in machines() {
        for opt in ["-O0", "-O2"] {
            let exe = dir.join(format!("ub.{m}{opt}"));
            run_ok(Command::new(tool("dspcc")).arg(format!("--isa={m}")).args([opt, "-fsanitize=undefined"]).arg(&s).arg("-o").arg(&exe));
            let out = run(sim().arg(&exe));
            assert_eq!(String::from_utf8_lossy(&out.stderr), want, "{m} {opt}");
            assert_eq!(out.status.code(), Some(0), "{m} {opt}: recoverable checks go on");
            assert!(String::from_utf8_lossy(&out.stdout).ends_with("end 1\n"));
        }
    }
    // Not recovering: the first report aborts; trapping: no report, abort.
    let exe = dir.join("ub.abort");
    run_ok(Command::new(tool("dspcc")).args(["-O1", "-fsanitize=undefined", "-fno-sanitize-recover=undefined"]).arg(&s).arg("-o").arg(&exe));
    let out = run(sim().arg(&exe));
    assert_eq!((out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned()), (Some(134), want.lines().next().unwrap().to_string() + "\n"));
    let exe = dir.join("ub.trap");
    run_ok(Command::new(tool("dspcc")).args(["-O1", "-fsanitize=undefined", "-fsanitize-trap=undefined"]).arg(&s).arg("-o").arg(&exe));
    let out = run(sim().arg(&exe));
    assert_eq!((out.status.code(), out.stderr.is_empty()), (Some(134), true));
    // Sanitizers and coverage without a runtime here are clear errors.
    for flag in ["-fsanitize=address", "--coverage", "-fprofile-arcs"] {
        let out = run(Command::new(tool("dspcc")).arg(flag).arg(&s).arg("-o").arg(dir.join("x")));
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.code() == Some(1) && err.starts_with("dspcc: error: '") && err.contains("not supported"), "{flag}: {err}");
    }
}

#[test]
fn output_is_written_as_the_program_writes_it() {
    use std::io::{BufRead, Write};
    use std::process::Stdio;
    let dir = scratch("interactive");
    let exe = dir.join("interactive");
    dsp_build("ftm", "-O2", "interactive.c", &exe);
    // stdout and stderr on one pipe: in the order written, not stdout first.
    let out = run(Command::new("sh").arg("-c").arg("\"$0\" --strict \"$1\" order 2>&1").arg(tool("dsp-sim")).arg(&exe));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "out 0\nerr 0\nout 1\nerr 1\nout 2\nerr 2\n");
    // Each prompt arrives before the answer to it is typed.
    let mut child = sim().arg(&exe).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        let mut r = std::io::BufReader::new(stdout);
        loop {
            let mut buf = Vec::new();
            match r.read_until(b'?', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => drop(tx.send(String::from_utf8_lossy(&buf).into_owned())),
            }
        }
    });
    let wait = std::time::Duration::from_secs(60);
    assert_eq!(rx.recv_timeout(wait).expect("first prompt before any input"), "question 1?");
    writeln!(input, "forty-two").unwrap();
    assert_eq!(rx.recv_timeout(wait).expect("second prompt"), " answer 1: forty-two\nquestion 2?");
    drop(input);
    assert!(child.wait().unwrap().success());
}

#[test]
fn stdout_is_line_buffered_on_a_terminal() {
    // `script` gives the program a terminal: the stdout line is written
    // before the stderr line although the program never flushes.
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: no `script` (util-linux) for a terminal");
        return;
    }
    let dir = scratch("tty");
    let exe = dir.join("interactive");
    dsp_build("ftm", "-O2", "interactive.c", &exe);
    let cmd = format!("{} --strict {} tty", tool("dsp-sim").display(), exe.display());
    let out = run(Command::new("script").args(["-qec", &cmd, "/dev/null"]).stdin(std::process::Stdio::null()));
    let text = String::from_utf8_lossy(&out.stdout).replace('\r', "");
    assert!(text.contains("line on stdout\nline on stderr\n"), "{text:?}");
}

/// Issue 14, item 6: runaway recursion stops at the first frame below the
/// stack (`__heap_end`), with the function and the call depth, on every
/// machine; it used to run until the stack reached .text, overwriting .bss
/// and .data on the way.
#[test]
fn runaway_recursion_stops_at_the_first_frame_below_the_stack() {
    let dir = scratch("recursion");
    for m in machines() {
        for opt in ["-O0", "-O2"] {
            let exe = dir.join(format!("recursion.{m}{opt}"));
            dsp_build(m, opt, "recursion.c", &exe);
            for strict in [true, false] {
                let mut cmd = Command::new(tool("dsp-sim"));
                if strict {
                    cmd.arg("--strict");
                }
                let out = run(cmd.arg(&exe));
                let err = String::from_utf8_lossy(&out.stderr);
                assert_eq!(out.status.code(), Some(125), "{m} {opt}: {err}");
                assert_eq!(String::from_utf8_lossy(&out.stdout), "recursing\n", "{m} {opt}");
                assert!(err.starts_with("dsp-sim: error: stack overflow: the stack pointer moved to 0x"), "{m} {opt}: {err}");
                assert!(err.contains("its lowest address from __heap_end) at call depth "), "{m} {opt}: {err}");
                assert!(err.contains("(in recurse+0x"), "{m} {opt}: {err}");
            }
        }
    }
}

/// Issue 14, item 6: --timeout and SIGINT stop an endless loop and print
/// where it was and the statistics so far.
#[test]
fn timeout_and_sigint_stop_an_endless_loop() {
    let dir = scratch("spin");
    let exe = dir.join("spin.ftm");
    dsp_build("ftm", "-O1", "spin.c", &exe);
    let out = run(Command::new(tool("dsp-sim")).args(["--timeout", "0.3"]).arg(&exe));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(124), "{err}");
    assert!(err.starts_with("dsp-sim: error: stopped: time limit reached at pc 0x"), "{err}");
    assert!(err.contains("(in main+0x") && err.contains("dsp-sim statistics (ftm)"), "{err}");
    let out = run(Command::new(tool("dsp-sim")).args(["--timeout=0"]).arg(&exe));
    assert_eq!(out.status.code(), Some(125));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--timeout 0: expected a positive number of seconds"));

    let child = Command::new(tool("dsp-sim"))
        .arg(&exe)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    run_ok(Command::new("kill").arg("-INT").arg(child.id().to_string()));
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.starts_with("dsp-sim: error: stopped: interrupted (SIGINT) at pc 0x"), "{err}");
    assert!(err.contains("(in main+0x") && err.contains("cycles per function:"), "{err}");
}

/// --timeout also ends a program that waits in a read past it (after a
/// short grace period, without statistics: the simulator is blocked).
#[test]
fn timeout_ends_a_program_blocked_in_a_read() {
    let dir = scratch("timeout-read");
    let exe = dir.join("interactive.ftm");
    dsp_build("ftm", "-O1", "interactive.c", &exe);
    let mut child = Command::new(tool("dsp-sim"))
        .args(["--timeout", "0.2"])
        .arg(&exe)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Kept open and never written: the program waits in fgets.
    let _stdin = child.stdin.take();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(124), "{err}");
    assert_eq!(err, "dsp-sim: error: stopped: time limit reached while the program waited in a system call\n");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "question 1? ");
}

/// Issue 14, item 6: a wild pc is outside any symbol (it was named after
/// the last function: "main+0x123445d0").
#[test]
fn a_wild_pc_is_outside_any_symbol() {
    let dir = scratch("wild");
    for m in machines() {
        let exe = dir.join(format!("wild.{m}"));
        dsp_build(m, "-O1", "wild.c", &exe);
        let out = run(sim().arg(&exe));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(125), "{m}: {err}");
        assert!(err.contains("executing outside text (pc 0x123456)") && err.contains("(outside any symbol)"), "{m}: {err}");
    }
}

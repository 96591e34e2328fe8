//! A killed dspcc takes the tool it is running with it: dspcc is started on
//! a C file with a fake, slow clang (`DSPCC_CLANG`: a script that records its
//! process id and then sleeps), ended by SIGTERM, SIGINT, SIGHUP or SIGKILL
//! while the fake clang runs, and the fake clang must be gone soon after
//! (no process, or a zombie waiting to be reaped).

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dspcc-children-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("runtime/include")).unwrap();
    dir
}

/// Whether process `pid` still runs (exists and is not a zombie).
fn running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the parenthesized command name.
        Ok(stat) => stat.rsplit_once(')').is_some_and(|(_, rest)| !rest.trim_start().starts_with(['Z', 'X'])),
        Err(_) => false,
    }
}

fn wait_for(what: &str, timeout: Duration, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < timeout, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn the_child_ends_with_dspcc(signal: libc::c_int, name: &str) {
    let dir = scratch(name);
    let pid_file = dir.join("clang.pid");
    let fake = dir.join("fake-clang");
    std::fs::write(&fake, format!("#!/bin/sh\necho $$ > '{}.tmp'\nmv '{0}.tmp' '{0}'\nexec sleep 300\n", pid_file.display()))
        .unwrap();
    let mut perms = std::fs::metadata(&fake).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&fake, perms).unwrap();
    let src = dir.join("x.c");
    std::fs::write(&src, "int x;\n").unwrap();
    let mut dspcc = Command::new(env!("CARGO_BIN_EXE_dspcc"))
        .env("DSPCC_CLANG", &fake)
        .env("DSPCC_PLUGIN", &fake)
        .env("DSPCC_RUNTIME", dir.join("runtime"))
        .arg("-c")
        .arg(&src)
        .arg("-o")
        .arg(dir.join("x.o"))
        .spawn()
        .unwrap();
    wait_for("the fake clang to start", Duration::from_secs(20), || pid_file.exists());
    let pid: u32 = std::fs::read_to_string(&pid_file).unwrap().trim().parse().unwrap();
    assert!(running(pid), "the fake clang is not running");
    // SAFETY: kill(2) on the dspcc this test started.
    assert_eq!(unsafe { libc::kill(dspcc.id() as libc::pid_t, signal) }, 0);
    let status = dspcc.wait().unwrap();
    assert!(!status.success(), "{name}: dspcc exited with {status}");
    wait_for(&format!("the fake clang (pid {pid}) to end after {name}"), Duration::from_secs(10), || !running(pid));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sigterm_ends_the_running_tool() {
    the_child_ends_with_dspcc(libc::SIGTERM, "SIGTERM");
}

#[test]
fn sigint_ends_the_running_tool() {
    the_child_ends_with_dspcc(libc::SIGINT, "SIGINT");
}

#[test]
fn sighup_ends_the_running_tool() {
    the_child_ends_with_dspcc(libc::SIGHUP, "SIGHUP");
}

#[test]
fn sigkill_ends_the_running_tool() {
    the_child_ends_with_dspcc(libc::SIGKILL, "SIGKILL");
}

//! Running one tool on one input under a time and memory limit, and telling
//! a finding (panic, death by signal, timeout, memory blow-up) from a clean
//! exit.

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What one run came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// Exit 0, or non-zero with an `error:` line: not a finding.
    Clean,
    /// A Rust panic ("panicked at"), in the tool or in a tool it ran.
    Panic,
    /// Killed by a signal (SIGSEGV, SIGABRT of a stack overflow, ...).
    Signal,
    /// Still running at the time limit (twice in a row).
    Timeout,
    /// Hit the memory limit (allocation failure, or RSS at the limit).
    Memory,
    /// Not counted as a finding: clang (inside dspcc) crashed or hung on
    /// its own; or a non-zero exit without any `error:` line.
    Clang,
    Quiet,
}

impl Kind {
    pub fn is_finding(self) -> bool {
        matches!(self, Kind::Panic | Kind::Signal | Kind::Timeout | Kind::Memory)
    }
    pub fn name(self) -> &'static str {
        match self {
            Kind::Clean => "clean",
            Kind::Panic => "panic",
            Kind::Signal => "signal",
            Kind::Timeout => "timeout",
            Kind::Memory => "memory",
            Kind::Clang => "clang",
            Kind::Quiet => "quiet",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Outcome {
    pub kind: Kind,
    /// What identifies the finding among others of its kind (the panic's
    /// location, the signal).
    pub signature: String,
    pub secs: f64,
    /// CPU seconds of the tool and what it ran.
    pub cpu: f64,
    pub max_rss_kb: u64,
    pub stderr: Vec<u8>,
    pub status: String,
    /// Exit status 0.
    pub ok: bool,
}

pub struct Limits {
    pub time: Duration,
    pub mem_bytes: u64,
}

/// Runs `program args` in `cwd` with stdin and stdout on /dev/null and
/// stderr into `cwd/stderr`, under the limits; classifies the result.
pub fn run(program: &Path, args: &[String], cwd: &Path, limits: &Limits, dspcc: bool) -> Outcome {
    let first = run_once(program, args, cwd, limits, dspcc);
    if first.kind == Kind::Timeout {
        // A loaded machine can make a slow run look hung: a timeout counts
        // only when it happens again.
        let second = run_once(program, args, cwd, limits, dspcc);
        if second.kind != Kind::Timeout {
            return second;
        }
    }
    first
}

pub fn run_once(program: &Path, args: &[String], cwd: &Path, limits: &Limits, dspcc: bool) -> Outcome {
    let err_path = cwd.join("stderr");
    let err_file = std::fs::File::create(&err_path).expect("scratch stderr file");
    let mem = limits.mem_bytes;
    let mut cmd = Command::new(program);
    cmd.args(args).current_dir(cwd).stdin(Stdio::null()).stdout(Stdio::null()).stderr(err_file);
    // The child's own process group (so that a timeout kills what it ran,
    // too), its address space and output files limited, no core files.
    unsafe {
        cmd.pre_exec(move || {
            libc::setpgid(0, 0);
            let lim = |r, v: u64| {
                let l = libc::rlimit { rlim_cur: v as libc::rlim_t, rlim_max: v as libc::rlim_t };
                libc::setrlimit(r, &l);
            };
            lim(libc::RLIMIT_AS, mem);
            lim(libc::RLIMIT_CORE, 0);
            lim(libc::RLIMIT_FSIZE, 1 << 30);
            Ok(())
        });
    }
    let start = Instant::now();
    let child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => panic!("cannot run {}: {e}", program.display()),
    };
    let pid = child.id() as libc::pid_t;
    let mut status: libc::c_int = 0;
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let mut timed_out = false;
    let mut stuck: Vec<String> = Vec::new();
    let mut group_cpu_at_kill = 0.0;
    let mut sleep = Duration::from_micros(200);
    loop {
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if r == pid {
            break;
        }
        if r < 0 {
            panic!("wait4: {}", std::io::Error::last_os_error());
        }
        // The limit is on CPU time (of the tool and what it runs), so that a
        // loaded machine does not make a slow run a finding; wall-clock
        // time is only a backstop (4 times the limit) for a tool that
        // hangs without using the CPU.
        let over = start.elapsed() > limits.time && {
            let (_, cpu) = group_info(pid);
            cpu >= limits.time.as_secs_f64() || start.elapsed() > limits.time * 4
        };
        if over {
            timed_out = true;
            let (names, cpu) = group_info(pid);
            stuck = names;
            group_cpu_at_kill = cpu;
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
                libc::kill(pid, libc::SIGKILL);
                libc::wait4(pid, &mut status, 0, &mut usage);
            }
            break;
        }
        std::thread::sleep(sleep);
        sleep = (sleep * 2).min(Duration::from_millis(10));
    }
    // Whatever the tool started and left behind goes too.
    unsafe {
        libc::kill(-pid, libc::SIGKILL);
    }
    drop(child);
    let secs = start.elapsed().as_secs_f64();
    let max_rss_kb = usage.ru_maxrss as u64;
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    let cpu = tv(usage.ru_utime) + tv(usage.ru_stime);
    let stderr = read_capped(&err_path, 256 * 1024);
    let text = String::from_utf8_lossy(&stderr);
    let signaled = libc::WIFSIGNALED(status);
    let sig = if signaled { libc::WTERMSIG(status) } else { 0 };
    let code = if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { -1 };
    let status_text = if timed_out {
        format!("killed after {:.1} s ({:.1} s of CPU)", start.elapsed().as_secs_f64(), group_cpu_at_kill)
    } else if signaled {
        format!("signal {sig} ({})", signal_name(sig))
    } else {
        format!("exit {code}")
    };
    let (mut kind, mut signature) = classify(&text, timed_out, sig, code, max_rss_kb, mem, dspcc);
    if kind == Kind::Timeout && dspcc {
        // Which of dspcc's children was still running: clang's own hangs
        // (typo correction over a 100 KB identifier...) are counted apart.
        let ours: Vec<&String> = stuck.iter().filter(|c| !c.starts_with("clang") && *c != "dspcc").collect();
        if stuck.iter().any(|c| c.starts_with("clang")) && ours.is_empty() {
            kind = Kind::Clang;
            signature = "clang hung".into();
        } else if let Some(c) = ours.first() {
            signature = format!("timeout in {c}");
        }
    }
    Outcome { kind, signature, secs, cpu, max_rss_kb, stderr, status: status_text, ok: !timed_out && !signaled && code == 0 }
}

fn classify(text: &str, timed_out: bool, sig: i32, code: i32, rss_kb: u64, mem: u64, dspcc: bool) -> (Kind, String) {
    let oom = text.contains("memory allocation of")
        || text.contains("out of memory")
        || text.contains("std::bad_alloc")
        || text.contains("Cannot allocate memory")
        || rss_kb * 1024 >= mem * 95 / 100
        || sig == libc::SIGXFSZ;
    if let Some(line) = text.lines().find(|l| l.contains("panicked at")) {
        // "thread 'main' panicked at src/x.rs:12:5:" → the location.
        let at = line.split("panicked at").nth(1).unwrap_or("").trim().trim_end_matches(':');
        return (Kind::Panic, format!("panic at {at}"));
    }
    if dspcc {
        // clang's own crash or hang is not ours; dspcc reports a child of
        // its own (backend, assembler, linker) that died by a signal.
        let clang_died = text.lines().any(|l| l.contains("clang command failed due to signal"))
            || text.contains("PLEASE submit a bug report");
        if clang_died && !text.contains("dsp-llc") {
            return (Kind::Clang, "clang crashed".into());
        }
        if let Some(l) = text.lines().find(|l| l.contains("command failed due to signal")) {
            if oom {
                return (Kind::Memory, "out of memory in a child".into());
            }
            return (Kind::Signal, l.trim().to_string());
        }
    }
    if timed_out {
        return (Kind::Timeout, "timeout".into());
    }
    if oom && (sig != 0 || code != 0) {
        return (Kind::Memory, "out of memory".into());
    }
    if sig != 0 {
        let what = if text.contains("has overflowed its stack") { " (stack overflow)" } else { "" };
        return (Kind::Signal, format!("signal {}{what}", signal_name(sig)));
    }
    if code != 0 && !text.contains("error") {
        return (Kind::Quiet, "non-zero exit without an error message".into());
    }
    (Kind::Clean, String::new())
}

pub fn signal_name(sig: i32) -> &'static str {
    match sig {
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGILL => "SIGILL",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGXFSZ => "SIGXFSZ",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGPIPE => "SIGPIPE",
        _ => "signal",
    }
}

fn read_capped(path: &Path, cap: usize) -> Vec<u8> {
    use std::io::Read;
    let mut out = Vec::new();
    if let Ok(f) = std::fs::File::open(path) {
        let _ = f.take(cap as u64).read_to_end(&mut out);
    }
    out
}

/// The command names of the processes of group `pgid` (the tool and what
/// it started) and the CPU seconds they have used (their own, and the
/// leader's reaped children's), read from /proc.
fn group_info(pgid: libc::pid_t) -> (Vec<String>, f64) {
    let mut names = Vec::new();
    let mut ticks = 0u64;
    let Ok(rd) = std::fs::read_dir("/proc") else { return (names, 0.0) };
    for e in rd.flatten() {
        let name = e.file_name();
        let Some(pid) = name.to_str().and_then(|s| s.parse::<i32>().ok()) else { continue };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { continue };
        // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt
        // majflt cmajflt utime stime cutime cstime ...
        let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else { continue };
        let comm = &stat[open + 1..close];
        let rest: Vec<&str> = stat[close + 1..].split_whitespace().collect();
        if rest.get(2).and_then(|g| g.parse::<i32>().ok()) == Some(pgid) {
            names.push(comm.to_string());
            let field = |i: usize| rest.get(i).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
            ticks += field(11) + field(12);
            if pid == pgid {
                ticks += field(13) + field(14);
            }
        }
    }
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    (names, ticks as f64 / hz)
}

//! A hard wall-clock cap for a solver call: the call runs in a forked child
//! process, which is killed at the deadline.
//!
//! CBC's own clock (`seconds`, checked by branch-and-bound) does not stop the
//! root LP relaxation: a 104-node loop at II = 47 spent 55 s there under a
//! 10 s cap, and CBC's C interface crashes on the LP actions that would obey
//! the clock. A thread cannot be stopped either (and CBC runs under one
//! global lock), so the ILP scheduler forks: the child builds and solves the
//! program and writes the result to a pipe; the parent waits for it until
//! the deadline and otherwise kills the child, freeing its CPU at once.
//! Linux (POSIX) only, like the rest of the toolchain's hosts.

use std::io::Read;
use std::os::fd::{FromRawFd, OwnedFd};
use std::time::{Duration, Instant};

/// A value that crosses the pipe as bytes.
pub trait Wire: Sized {
    fn encode(&self, out: &mut Vec<u8>);
    fn decode(bytes: &[u8]) -> Option<Self>;
}

/// How an isolated call ended without a value.
#[derive(Debug, PartialEq)]
pub enum Isolated {
    /// The deadline passed; the child was killed.
    TimedOut,
    /// The child died or wrote something undecodable (the text says how).
    Failed(String),
}

/// Runs `f` in a forked child and returns its value, or `TimedOut` once
/// `limit` has passed (the child is then killed).
///
/// The child only runs `f`, writes the encoded value and leaves with
/// `_exit` (no destructors, no atexit handlers, no flushing of the parent's
/// buffers). `f` must not rely on other threads of the parent: a forked
/// child has only the calling thread.
pub fn run<T: Wire>(limit: Duration, f: impl FnOnce() -> T) -> Result<T, Isolated> {
    let started = Instant::now();
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: `fds` has room for the two descriptors pipe2 writes.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(Isolated::Failed(format!("pipe: {}", std::io::Error::last_os_error())));
    }
    // SAFETY: pipe2 succeeded, so both descriptors are open and ours alone.
    let (read_end, write_end) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    // SAFETY: fork has no preconditions; the child below only computes,
    // writes to its pipe and calls _exit.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return Err(Isolated::Failed(format!("fork: {}", std::io::Error::last_os_error())));
    }
    if pid == 0 {
        drop(read_end);
        let mut bytes = Vec::new();
        f().encode(&mut bytes);
        let mut file = std::fs::File::from(write_end);
        let ok = std::io::Write::write_all(&mut file, &bytes).is_ok();
        // SAFETY: ends the child without unwinding into the parent's code.
        unsafe { libc::_exit(if ok { 0 } else { 1 }) }
    }
    drop(write_end);
    let outcome = collect(read_end, started, limit);
    if outcome.is_err() {
        // SAFETY: `pid` is our child, not yet reaped.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
    let mut status = 0;
    // SAFETY: reaps our own child (blocking only until the kill lands).
    unsafe { libc::waitpid(pid, &mut status, 0) };
    let bytes = outcome?;
    if libc::WIFSIGNALED(status) {
        return Err(Isolated::Failed(format!("the solver process died of signal {}", libc::WTERMSIG(status))));
    }
    if !libc::WIFEXITED(status) || libc::WEXITSTATUS(status) != 0 {
        return Err(Isolated::Failed("the solver process could not report its result".to_string()));
    }
    T::decode(&bytes).ok_or_else(|| Isolated::Failed("the solver process's result is malformed".to_string()))
}

/// Reads the pipe until end of file or the deadline.
fn collect(read_end: OwnedFd, started: Instant, limit: Duration) -> Result<Vec<u8>, Isolated> {
    use std::os::fd::AsRawFd;
    let fd = read_end.as_raw_fd();
    let mut file = std::fs::File::from(read_end);
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 1 << 16];
    loop {
        let left = limit.saturating_sub(started.elapsed());
        if left.is_zero() {
            return Err(Isolated::TimedOut);
        }
        let mut pfd = libc::pollfd { fd, events: libc::POLLIN, revents: 0 };
        let ms = left.as_millis().clamp(1, i32::MAX as u128) as libc::c_int;
        // SAFETY: one valid pollfd.
        let n = unsafe { libc::poll(&mut pfd, 1, ms) };
        if n < 0 {
            let e = std::io::Error::last_os_error();
            if e.kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return Err(Isolated::Failed(format!("poll: {e}")));
        }
        if n == 0 {
            continue;
        }
        match file.read(&mut chunk) {
            Ok(0) => return Ok(bytes),
            Ok(k) => bytes.extend_from_slice(&chunk[..k]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Isolated::Failed(format!("reading the solver's result: {e}"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Wire for Vec<u32> {
        fn encode(&self, out: &mut Vec<u8>) {
            for x in self {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        fn decode(bytes: &[u8]) -> Option<Self> {
            bytes.len().is_multiple_of(4).then(|| bytes.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect())
        }
    }

    #[test]
    fn value_comes_back() {
        let v = run(Duration::from_secs(10), || (0..100_000u32).collect::<Vec<u32>>()).unwrap();
        assert_eq!(v.len(), 100_000);
        assert_eq!(v[99_999], 99_999);
    }

    #[test]
    fn deadline_kills_the_child() {
        let t = Instant::now();
        let r = run(Duration::from_millis(300), || {
            std::thread::sleep(Duration::from_secs(30));
            vec![1u32]
        });
        assert_eq!(r, Err(Isolated::TimedOut));
        assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    }

    #[test]
    fn a_crash_is_reported() {
        let r = run(Duration::from_secs(10), || -> Vec<u32> { unsafe { libc::abort() } });
        assert!(matches!(r, Err(Isolated::Failed(ref s)) if s.contains("signal")), "{r:?}");
    }

    #[test]
    fn malformed_result_is_reported() {
        struct Odd;
        impl Wire for Odd {
            fn encode(&self, out: &mut Vec<u8>) {
                out.push(7);
            }
            fn decode(_: &[u8]) -> Option<Self> {
                None
            }
        }
        assert!(matches!(run(Duration::from_secs(10), || Odd), Err(Isolated::Failed(_))));
    }
}

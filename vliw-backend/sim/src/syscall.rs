//! System calls (`trap N`, SemOp::Syscall): arguments in `abi.args[0..]`,
//! results in `abi.rets[0..]`. Calls that can fail return a negative Linux
//! error number (`-errno`), like Linux's raw system calls; the C library
//! turns it into `errno` (`runtime/libc/syscalls.h`). Pointers outside
//! memory fault, as any access would.
//!
//! | N | call | result |
//! |---|---|---|
//! | 0 | exit(status) | the run ends after this bundle, status = low 8 bits |
//! | 1 | write(fd, buf, len) | bytes written; fd 1/2 go to the simulator's stdout/stderr (`Core::stdout`/`stderr`, or straight to the host's with `Sim::stream_output`) |
//! | 2 | cycle counter | rets[0] low, rets[1] high 32 bits of the cycles before the trap |
//! | 3 | read(fd, buf, len) | bytes read (one read, as POSIX); fd 0 is the simulator's stdin |
//! | 4 | args(top) | address of the argument block written below `top` (`Host::args_block`) |
//! | 5 | open(path, flags, mode) | descriptor (Linux `O_*` values) |
//! | 6 | close(fd) | 0 |
//! | 7 | lseek(fd, offset, whence) | new offset (32-bit `off_t`) |
//! | 8 | unlink(path) | 0 |
//! | 9 | rename(from, to) | 0 |
//! | 10 | stat(path, record) | 0; writes the 80-byte record of `host::stat_record` |
//! | 11 | fstat(fd, record) | 0 |
//! | 12 | isatty(fd) | 1 or 0 |
//! | 13 | access(path, mode) | 0 |
//! | 14 | opendir(path) | descriptor of a listing |
//! | 15 | readdir(fd, buf, len) | name length + 1 (buf: u32 inode, u32 d_type, name, NUL), 0 at the end |
//! | 16 | mkdir(path, mode) | 0 |
//! | 17 | rmdir(path) | 0 |
//! | 18 | host time(buf) | 0, writes i64 seconds and u32 nanoseconds since 1970; -ENOSYS unless `--host-time` |
//! | 19 | getcwd(buf, len) | length + 1 of the NUL-terminated working directory (the root) |
//! | 20 | ftruncate(fd, len) | 0 |
//! | 21 | lstat(path, record) | 0 |
//!
//! An unknown call number faults. Without a root directory (`--no-files`,
//! or the library's default) every path call fails with EACCES.

use std::io::Read;

use crate::decode::DOp;
use crate::errno::{self, Errno};
use crate::exec::Core;
use crate::state::Trap;

pub const SYS_EXIT: u64 = 0;
pub const SYS_WRITE: u64 = 1;
pub const SYS_CYCLES: u64 = 2;
pub const SYS_READ: u64 = 3;
pub const SYS_ARGS: u64 = 4;
pub const SYS_OPEN: u64 = 5;
pub const SYS_CLOSE: u64 = 6;
pub const SYS_LSEEK: u64 = 7;
pub const SYS_UNLINK: u64 = 8;
pub const SYS_RENAME: u64 = 9;
pub const SYS_STAT: u64 = 10;
pub const SYS_FSTAT: u64 = 11;
pub const SYS_ISATTY: u64 = 12;
pub const SYS_ACCESS: u64 = 13;
pub const SYS_OPENDIR: u64 = 14;
pub const SYS_READDIR: u64 = 15;
pub const SYS_MKDIR: u64 = 16;
pub const SYS_RMDIR: u64 = 17;
pub const SYS_HOST_TIME: u64 = 18;
pub const SYS_GETCWD: u64 = 19;
pub const SYS_FTRUNCATE: u64 = 20;
pub const SYS_LSTAT: u64 = 21;

/// Longest path a program may pass (PATH_MAX, with its NUL).
const PATH_MAX: u32 = 4096;

/// A call's result as the value returned: the result, or `-errno`.
fn ret(r: Result<u64, Errno>) -> u64 {
    match r {
        Ok(v) => v,
        Err(e) => (-(e as i64)) as u64,
    }
}

impl Core {
    pub(crate) fn syscall<const STRICT: bool>(&mut self, op: &DOp, cycle: u64, pc: u32) -> Result<(), Trap> {
        let number = self.vals[op.src[0] as usize];
        // The first three arguments (0 where the ABI has fewer registers).
        let x: [u32; 3] = [0, 1, 2].map(|k| self.sys.args.get(k).map_or(0, |&o| self.vals[o as usize] as u32));
        let a = |k: usize| -> Result<u32, Trap> { Ok(x[k]) };
        let result: u64 = match number {
            SYS_EXIT => {
                let status = self.sys_arg(0)? & 0xff;
                self.exit = Some(status as i32);
                return Ok(());
            }
            SYS_CYCLES => {
                // Issue cycles and memory stall cycles.
                let now = cycle + self.memsys.stall_total;
                self.sys_ret::<STRICT>(0, now & 0xffff_ffff, op, cycle, pc)?;
                if self.sys.rets.len() > 1 {
                    self.sys_ret::<STRICT>(1, now >> 32, op, cycle, pc)?;
                }
                return Ok(());
            }
            SYS_WRITE => {
                let (fd, buf, len) = (a(0)?, a(1)?, a(2)?);
                let off = if len > 0 { self.mem.check(buf, len, 1, false)? } else { 0 };
                let bytes = &self.mem.bytes[off..off + len as usize];
                ret(match fd {
                    1 => guest_output(self.stream_output, true, &mut self.stdout, bytes).map(|()| len as u64),
                    2 => guest_output(self.stream_output, false, &mut self.stderr, bytes).map(|()| len as u64),
                    0 => Err(errno::EBADF),
                    _ => self.host.write(fd, bytes).map(|n| n as u64),
                })
            }
            SYS_READ => {
                let (fd, buf, len) = (a(0)?, a(1)?, a(2)?);
                let off = if len > 0 { self.mem.check(buf, len, 1, true)? } else { 0 };
                let dst = &mut self.mem.bytes[off..off + len as usize];
                ret(match fd {
                    _ if len == 0 => Ok(0),
                    // Like POSIX read: one read of at most `len` bytes.
                    0 => loop {
                        match self.stdin.read(dst) {
                            Ok(k) => break Ok(k as u64),
                            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                            Err(e) => break Err(errno::from_io(&e)),
                        }
                    },
                    1 | 2 => Err(errno::EBADF),
                    _ => self.host.read(fd, dst).map(|n| n as u64),
                })
            }
            SYS_ARGS => {
                let top = a(0)?;
                let Some((start, bytes)) = self.host.args_block(top, self.mem.lo as u32, self.sys.stack_align) else {
                    return Err(Trap::Message(format!("the program's arguments and environment do not fit below {top:#x}")));
                };
                let off = self.mem.check(start, bytes.len() as u32, 1, true)?;
                self.mem.bytes[off..off + bytes.len()].copy_from_slice(&bytes);
                start as u64
            }
            SYS_OPEN => {
                let path = self.guest_str(a(0)?)?;
                ret(self.host.open(&path, a(1)?, a(2)?).map(u64::from))
            }
            SYS_CLOSE => ret(self.host.close(a(0)?).map(u64::from)),
            SYS_LSEEK => ret(self.host.lseek(a(0)?, a(1)? as i32, a(2)?).map(u64::from)),
            SYS_UNLINK => {
                let path = self.guest_str(a(0)?)?;
                ret(self.host.unlink(&path).map(u64::from))
            }
            SYS_RENAME => {
                let (from, to) = (self.guest_str(a(0)?)?, self.guest_str(a(1)?)?);
                ret(self.host.rename(&from, &to).map(u64::from))
            }
            SYS_STAT | SYS_LSTAT => {
                let path = self.guest_str(a(0)?)?;
                let r = self.host.stat(&path, number == SYS_STAT);
                ret(self.put_record(a(1)?, r)?)
            }
            SYS_FSTAT => {
                let r = self.host.fstat(a(0)?);
                ret(self.put_record(a(1)?, r)?)
            }
            SYS_ISATTY => ret(self.host.isatty(a(0)?).map(u64::from)),
            SYS_ACCESS => {
                let path = self.guest_str(a(0)?)?;
                ret(self.host.access(&path, a(1)?).map(u64::from))
            }
            SYS_OPENDIR => {
                let path = self.guest_str(a(0)?)?;
                ret(self.host.opendir(&path).map(u64::from))
            }
            SYS_READDIR => {
                let (fd, buf, len) = (a(0)?, a(1)?, a(2)?);
                match self.host.readdir(fd) {
                    Ok(Some((ino, kind, name))) => {
                        let mut rec = Vec::with_capacity(9 + name.len());
                        rec.extend_from_slice(&ino.to_le_bytes());
                        rec.extend_from_slice(&kind.to_le_bytes());
                        rec.extend_from_slice(&name);
                        rec.push(0);
                        if rec.len() > len as usize {
                            ret(Err(errno::EINVAL))
                        } else {
                            let off = self.mem.check(buf, rec.len() as u32, 1, true)?;
                            self.mem.bytes[off..off + rec.len()].copy_from_slice(&rec);
                            name.len() as u64 + 1
                        }
                    }
                    Ok(None) => 0,
                    Err(e) => ret(Err(e)),
                }
            }
            SYS_MKDIR => {
                let path = self.guest_str(a(0)?)?;
                ret(self.host.mkdir(&path, a(1)?).map(u64::from))
            }
            SYS_RMDIR => {
                let path = self.guest_str(a(0)?)?;
                ret(self.host.rmdir(&path).map(u64::from))
            }
            SYS_HOST_TIME => match self.host.host_time() {
                Ok((sec, nsec)) => {
                    let off = self.mem.check(a(0)?, 12, 1, true)?;
                    self.mem.bytes[off..off + 8].copy_from_slice(&sec.to_le_bytes());
                    self.mem.bytes[off + 8..off + 12].copy_from_slice(&nsec.to_le_bytes());
                    0
                }
                Err(e) => ret(Err(e)),
            },
            SYS_GETCWD => {
                let (buf, len) = (a(0)?, a(1)?);
                match self.host.getcwd() {
                    Ok(mut cwd) if cwd.len() < len as usize => {
                        cwd.push(0);
                        let off = self.mem.check(buf, cwd.len() as u32, 1, true)?;
                        self.mem.bytes[off..off + cwd.len()].copy_from_slice(&cwd);
                        cwd.len() as u64
                    }
                    Ok(_) => ret(Err(errno::ERANGE)),
                    Err(e) => ret(Err(e)),
                }
            }
            SYS_FTRUNCATE => ret(self.host.ftruncate(a(0)?, a(1)? as i32).map(u64::from)),
            n => return Err(Trap::Message(format!("unknown system call {n}"))),
        };
        self.sys_ret::<STRICT>(0, result, op, cycle, pc)
    }

    /// The NUL-terminated string at `addr` (without the NUL); a path longer
    /// than PATH_MAX is ENAMETOOLONG, returned to the program as such.
    fn guest_str(&self, addr: u32) -> Result<Vec<u8>, Trap> {
        let mut s = Vec::new();
        for i in 0..PATH_MAX {
            let off = self.mem.check(addr.wrapping_add(i), 1, 1, false)?;
            match self.mem.bytes[off] {
                0 => return Ok(s),
                c => s.push(c),
            }
        }
        // Longer than any path: the host call fails on it.
        s.truncate(PATH_MAX as usize);
        s.push(b'/');
        s.extend(std::iter::repeat_n(b'x', PATH_MAX as usize));
        Ok(s)
    }

    /// Writes a stat record to `addr` when the call succeeded: the call's result.
    fn put_record(&mut self, addr: u32, r: Result<[u8; crate::host::STAT_BYTES], Errno>) -> Result<Result<u64, Errno>, Trap> {
        Ok(match r {
            Ok(rec) => {
                let off = self.mem.check(addr, rec.len() as u32, 4, true)?;
                self.mem.bytes[off..off + rec.len()].copy_from_slice(&rec);
                Ok(0)
            }
            Err(e) => Err(e),
        })
    }

    /// On a fault or the cycle limit: writes out what the C library's
    /// streams still hold (`__dsp_stdio_files`, an array of
    /// `__dsp_stdio_nfiles` FILE pointers; a FILE starts with int fd, int
    /// flags (2 = writable), int mode, unsigned char *buf, size_t size,
    /// size_t wlen: `runtime/libc/stdio_impl.h`), as if the program had
    /// called fflush(NULL). Bad values are skipped.
    pub fn flush_guest_streams(&mut self) {
        let Some((table, count)) = self.stdio_files else { return };
        let word = |m: &crate::state::Mem, a: u32| m.slice(a, 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        let Some(n) = word(&self.mem, count) else { return };
        for i in 0..n.min(4096) {
            let Some(f) = word(&self.mem, table.wrapping_add(4 * i)) else { return };
            if f == 0 {
                continue;
            }
            let fields: Option<Vec<u32>> = (0..6).map(|k| word(&self.mem, f.wrapping_add(4 * k))).collect();
            let Some(v) = fields else { continue };
            let (fd, fl, buf, size, wlen) = (v[0], v[1], v[3], v[4], v[5]);
            if fl & 2 == 0 || wlen == 0 || wlen > size {
                continue;
            }
            let Some(bytes) = self.mem.slice(buf, wlen).map(<[u8]>::to_vec) else { continue };
            match fd {
                1 => drop(guest_output(self.stream_output, true, &mut self.stdout, &bytes)),
                2 => drop(guest_output(self.stream_output, false, &mut self.stderr, &bytes)),
                _ => {
                    let _ = self.host.write(fd, &bytes);
                }
            }
            if let Some(off) = self.mem.slice(f + 20, 4).map(|_| (f + 20 - self.mem.base) as usize) {
                self.mem.bytes[off..off + 4].fill(0);
            }
        }
    }
}

/// Output of the program on its fd 1 (`to_stdout`) or 2: kept in `buf`
/// (`Core::stdout` or `Core::stderr`, for library users and tests), or, when
/// `stream`, written to the host's stdout or stderr at once, as the `write`
/// system call of a native program would be.
fn guest_output(stream: bool, to_stdout: bool, buf: &mut Vec<u8>, bytes: &[u8]) -> Result<(), errno::Errno> {
    use std::io::Write;
    if !stream {
        buf.extend_from_slice(bytes);
        return Ok(());
    }
    let written = if to_stdout {
        let mut out = std::io::stdout().lock();
        out.write_all(bytes).and_then(|()| out.flush())
    } else {
        std::io::stderr().lock().write_all(bytes)
    };
    written.map_err(|e| errno::from_io(&e))
}

//! System calls (`trap N`, SemOp::Syscall): arguments in `abi.args[0..]`,
//! results in `abi.rets[0..]`.
//!
//! 0 = exit(status): the run ends after this bundle, status = low 8 bits;
//! 1 = write(fd, buf, len) -> bytes written (fd 1/2, buffered);
//! 2 = cycle counter: rets[0] = low, rets[1] = high 32 bits of the cycles
//!     elapsed before the trap issued;
//! 3 = read(fd, buf, len) -> bytes read (fd 0 only).
//! A bad file descriptor returns -1; an unknown call number faults.

use std::io::Read;

use crate::decode::DOp;
use crate::exec::Core;
use crate::state::Trap;

pub const SYS_EXIT: u64 = 0;
pub const SYS_WRITE: u64 = 1;
pub const SYS_CYCLES: u64 = 2;
pub const SYS_READ: u64 = 3;

impl Core {
    pub(crate) fn syscall<const STRICT: bool>(&mut self, op: &DOp, cycle: u64, pc: u32) -> Result<(), Trap> {
        let number = self.vals[op.src[0] as usize];
        match number {
            SYS_EXIT => {
                let status = self.sys_arg(0)? & 0xff;
                self.exit = Some(status as i32);
            }
            SYS_WRITE => {
                let fd = self.sys_arg(0)? as u32;
                let buf = self.sys_arg(1)? as u32;
                let len = self.sys_arg(2)? as u32;
                let result = if fd == 1 || fd == 2 {
                    if len > 0 {
                        let off = self.mem.check(buf, len, 1, false)?;
                        let bytes = &self.mem.bytes[off..off + len as usize];
                        if fd == 1 { &mut self.stdout } else { &mut self.stderr }.extend_from_slice(bytes);
                    }
                    len as u64
                } else {
                    u64::MAX
                };
                self.sys_ret::<STRICT>(0, result, op, cycle, pc)?;
            }
            SYS_CYCLES => {
                self.sys_ret::<STRICT>(0, cycle & 0xffff_ffff, op, cycle, pc)?;
                if self.sys.rets.len() > 1 {
                    self.sys_ret::<STRICT>(1, cycle >> 32, op, cycle, pc)?;
                }
            }
            SYS_READ => {
                let fd = self.sys_arg(0)? as u32;
                let buf = self.sys_arg(1)? as u32;
                let len = self.sys_arg(2)? as u32;
                let result = if fd == 0 {
                    if len > 0 {
                        let off = self.mem.check(buf, len, 1, true)?;
                        let dst = &mut self.mem.bytes[off..off + len as usize];
                        // Like POSIX read: one read of at most `len` bytes.
                        loop {
                            match self.stdin.read(dst) {
                                Ok(k) => break k as u64,
                                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                                Err(_) => break u64::MAX,
                            }
                        }
                    } else {
                        0
                    }
                } else {
                    u64::MAX
                };
                self.sys_ret::<STRICT>(0, result, op, cycle, pc)?;
            }
            n => return Err(Trap::Message(format!("unknown system call {n}"))),
        }
        Ok(())
    }
}

//! Executing one predecoded operation: reading its sources, applying its
//! semantics (scalar, lane-wise, memory, cross-lane, control) and queueing its
//! result to land `latency` cycles later.
//!
//! Stores are buffered and applied after the whole bundle has issued, so all
//! memory reads of a bundle see memory as it was before the bundle.

use std::io::Read;

use crate::decode::{DOp, FileKind, Kind, SrcKind, MAX_LANES, NONE};
use crate::stack::StackGuard;
use crate::state::{Mem, Queue, Strict, Trap};
use crate::alu::AluTrap;
use crate::memsys::MemSys;

/// What an operation asks of the control flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Next,
    /// Transfer to this address (bundle index if known, else NONE) after the delay slots.
    Jump { pc: u32, idx: u32 },
}

/// ABI registers the system calls use, as value offsets.
#[derive(Clone, Debug, Default)]
pub struct SysRegs {
    pub args: Vec<u32>,
    /// (value offset, register id, width mask, file index)
    pub rets: Vec<(u32, u32, u64, u32)>,
    /// The stack alignment (`abi stack_align`) the argument block keeps.
    pub stack_align: u32,
}

/// Everything an operation can touch.
pub struct Core {
    pub vals: Vec<u64>,
    pub mem: Mem,
    pub queue: Queue,
    pub strict: Strict,
    /// Buffered stores of the current bundle: (offset, length, value).
    pub stores: Vec<(usize, u32, u64)>,
    pub sys: SysRegs,
    /// The program's output on fd 1 and 2 (empty when `stream_output`).
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// Write fd 1 and 2 through to the host's stdout/stderr as the program
    /// writes them (`Sim::stream_output`).
    pub stream_output: bool,
    pub stdin: Box<dyn Read>,
    /// Set by the exit system call.
    pub exit: Option<i32>,
    /// Dummy register id (never pending).
    pub dummy_id: u32,
    /// Arguments, environment, files and clock from the host.
    pub host: crate::host::Host,
    /// Addresses of the C library's `__dsp_stdio_files` and
    /// `__dsp_stdio_nfiles`, if linked (flushed on a fault).
    pub stdio_files: Option<(u32, u32)>,
    /// The stack's bounds and the overflow checks.
    pub stack: StackGuard,
    /// Caches, on-chip memories, stall cycles.
    pub memsys: MemSys,
}

#[inline(always)]
fn ext(v: u64, sh: u32, mask: u64) -> u64 {
    ((((v << sh) as i64) >> sh) as u64) & mask
}

#[inline(always)]
fn alu_err(e: AluTrap) -> Trap {
    match e {
        AluTrap::DivideByZero => Trap::DivideByZero,
    }
}

impl Core {
    #[inline(always)]
    fn lane(&self, op: &DOp, k: usize, i: usize) -> u64 {
        let s = op.src[k] as usize;
        match op.src_kind[k] {
            SrcKind::Scalar => self.vals[s],
            SrcKind::Vector => self.vals[s + i],
            SrcKind::MaskLane => (self.vals[s] >> i) & 1,
        }
    }

    /// --strict checks of a result landing at `at` in the destination.
    #[cold]
    fn strict_write(&mut self, op: &DOp, at: u64, pc: u32) -> Result<(), Trap> {
        if op.dst_id == self.dummy_id {
            return Ok(());
        }
        let st = &mut self.strict;
        let p = self.queue.slot_of(at) * st.nfiles + op.dst_file as usize;
        st.ports[p] += 1;
        if st.ports[p] > st.write_ports[op.dst_file as usize] {
            return Err(Trap::WritePorts { file: op.dst_file, at });
        }
        let id = op.dst_id as usize;
        let r = st.ready[id];
        if r == at {
            return Err(Trap::SameCycle { id: op.dst_id, at });
        }
        if r > at {
            return Err(Trap::OutOfOrder { id: op.dst_id, at, pending: r });
        }
        st.record(id, at - op.lat as u64, at, pc);
        Ok(())
    }

    #[inline(always)]
    fn write<const STRICT: bool>(&mut self, op: &DOp, cycle: u64, pc: u32, v: u64) -> Result<(), Trap> {
        let at = cycle + op.lat as u64;
        if STRICT {
            self.strict_write(op, at, pc)?;
        }
        self.queue.push(at, op.dst, v);
        Ok(())
    }

    #[inline(always)]
    fn write_lanes<const STRICT: bool>(&mut self, op: &DOp, cycle: u64, pc: u32, lanes: &[u64]) -> Result<(), Trap> {
        let at = cycle + op.lat as u64;
        if STRICT {
            self.strict_write(op, at, pc)?;
        }
        self.queue.push_lanes(at, op.dst, lanes);
        Ok(())
    }

    /// Writes a lane-wise result to a vector (lanes) or mask (bit per lane) destination.
    #[inline(always)]
    fn write_vec<const STRICT: bool>(&mut self, op: &DOp, cycle: u64, pc: u32, buf: &[u64]) -> Result<(), Trap> {
        if op.dst_kind == FileKind::Mask {
            let mut bits = 0u64;
            for (i, v) in buf.iter().enumerate() {
                bits |= (v & 1) << i;
            }
            self.write::<STRICT>(op, cycle, pc, bits & op.mask)
        } else {
            self.write_lanes::<STRICT>(op, cycle, pc, buf)
        }
    }

    #[inline(always)]
    fn addr(&self, op: &DOp) -> u32 {
        (self.vals[op.src[0] as usize] as u32).wrapping_add(self.vals[op.src[1] as usize] as u32)
    }

    #[inline(always)]
    fn index(&self, op: &DOp, k: usize, i: usize) -> u32 {
        let raw = self.vals[op.src[k] as usize + i];
        let v = if op.idx_signed { ext(raw, op.idx_sh, u64::MAX) } else { raw };
        v as u32
    }

    /// Executes one operation issued in `cycle` at address `pc`.
    #[inline(always)]
    pub fn exec<const STRICT: bool>(&mut self, op: &DOp, cycle: u64, pc: u32) -> Result<Flow, Trap> {
        if STRICT {
            // The guard is read whatever its value.
            let id = op.reads[0];
            if let Some((writer, lands)) = self.strict.pending(id as usize, cycle) {
                return Err(Trap::NotReady { id, writer, lands });
            }
        }
        if (self.vals[op.guard as usize] ^ op.gneg) & 1 == 0 {
            return Ok(Flow::Next);
        }
        if STRICT {
            for &id in &op.reads[1..op.nreads as usize] {
                if let Some((writer, lands)) = self.strict.pending(id as usize, cycle) {
                    return Err(Trap::NotReady { id, writer, lands });
                }
            }
        }
        match op.kind {
            Kind::Alu => {
                let v = &self.vals;
                let r = (op.f)(v[op.src[0] as usize], v[op.src[1] as usize], v[op.src[2] as usize]).map_err(alu_err)?;
                self.write::<STRICT>(op, cycle, pc, ext(r, op.sh, op.mask))?;
            }
            Kind::Nop => {}
            Kind::Br | Kind::Call => {
                if op.kind == Kind::Call {
                    self.write::<STRICT>(op, cycle, pc, op.ret as u64 & op.mask)?;
                }
                return Ok(Flow::Jump { pc: op.aux, idx: op.target_idx });
            }
            Kind::BrCond { zero } => {
                if (self.vals[op.src[0] as usize] == 0) == zero {
                    return Ok(Flow::Jump { pc: op.aux, idx: op.target_idx });
                }
            }
            Kind::Jmp | Kind::CallR => {
                let target = self.vals[op.src[0] as usize] as u32;
                if op.kind == Kind::CallR {
                    self.write::<STRICT>(op, cycle, pc, op.ret as u64 & op.mask)?;
                }
                return Ok(Flow::Jump { pc: target, idx: NONE });
            }
            Kind::AluLanes => {
                let mut buf = [0u64; MAX_LANES];
                let n = op.lanes as usize;
                for (i, slot) in buf.iter_mut().enumerate().take(n) {
                    let r = (op.f)(self.lane(op, 0, i), self.lane(op, 1, i), self.lane(op, 2, i)).map_err(alu_err)?;
                    *slot = ext(r, op.sh, op.mask);
                }
                self.write_vec::<STRICT>(op, cycle, pc, &buf[..n])?;
            }
            Kind::MovToMask => {
                let r = (op.f)(self.vals[op.src[0] as usize], 0, 0).map_err(alu_err)?;
                self.write::<STRICT>(op, cycle, pc, r & op.mask)?;
            }
            Kind::Load { size } => {
                let a = self.addr(op);
                let off = self.mem.check(a, size, size, false)?;
                self.memsys.access(a, size, false, op.reach)?;
                let v = self.mem.read(off, size);
                self.write::<STRICT>(op, cycle, pc, ext(v, op.sh, op.mask))?;
            }
            Kind::Store { size } => {
                let a = self.addr(op);
                self.stack.store(op.src[0], a).map_err(Trap::Stack)?;
                let off = self.mem.check(a, size, size, true)?;
                self.memsys.access(a, size, true, op.reach)?;
                let v = self.vals[op.src[2] as usize];
                self.stores.push((off, size, v));
            }
            Kind::VLoad { size, align, strided, masked } => {
                let n = op.lanes as usize;
                let mut buf = [0u64; MAX_LANES];
                let mut addrs = [0u32; MAX_LANES];
                let mut na = 0;
                if masked {
                    let a = self.addr(op);
                    let mask = self.vals[op.src[2] as usize];
                    for (i, slot) in buf.iter_mut().enumerate().take(n) {
                        if (mask >> i) & 1 == 1 {
                            let ai = a.wrapping_add(i as u32 * size);
                            let off = self.mem.check(ai, size, align, false)?;
                            *slot = ext(self.mem.read(off, size), op.sh, op.mask);
                            addrs[na] = ai;
                            na += 1;
                        }
                    }
                    self.memsys.access_lanes(&addrs[..na], size, false, op.reach)?;
                } else if strided {
                    let base = self.vals[op.src[0] as usize] as u32;
                    let stride = self.vals[op.src[1] as usize] as u32;
                    for (i, slot) in buf.iter_mut().enumerate().take(n) {
                        let a = base.wrapping_add(stride.wrapping_mul(i as u32));
                        let off = self.mem.check(a, size, align, false)?;
                        *slot = ext(self.mem.read(off, size), op.sh, op.mask);
                        addrs[i] = a;
                    }
                    self.memsys.access_lanes(&addrs[..n], size, false, op.reach)?;
                } else {
                    let a = self.addr(op);
                    let off = self.mem.check(a, size * n as u32, align, false)?;
                    self.memsys.access(a, size * n as u32, false, op.reach)?;
                    for (i, slot) in buf.iter_mut().enumerate().take(n) {
                        *slot = ext(self.mem.read(off + i * size as usize, size), op.sh, op.mask);
                    }
                }
                self.write_lanes::<STRICT>(op, cycle, pc, &buf[..n])?;
            }
            Kind::VStore { size, align, strided, masked } => {
                let n = op.lanes as usize;
                let c = op.src[2] as usize;
                let mask = if masked { self.vals[op.src[3] as usize] } else { u64::MAX };
                let mut addrs = [0u32; MAX_LANES];
                let mut na = 0;
                if strided {
                    let base = self.vals[op.src[0] as usize] as u32;
                    let stride = self.vals[op.src[1] as usize] as u32;
                    for i in 0..n {
                        let a = base.wrapping_add(stride.wrapping_mul(i as u32));
                        let off = self.mem.check(a, size, align, true)?;
                        self.stores.push((off, size, self.vals[c + i]));
                        addrs[i] = a;
                    }
                    self.memsys.access_lanes(&addrs[..n], size, true, op.reach)?;
                } else {
                    let a = self.addr(op);
                    self.stack.store(op.src[0], a).map_err(Trap::Stack)?;
                    if masked {
                        for i in 0..n {
                            if (mask >> i) & 1 == 1 {
                                let ai = a.wrapping_add(i as u32 * size);
                                let off = self.mem.check(ai, size, align, true)?;
                                self.stores.push((off, size, self.vals[c + i]));
                                addrs[na] = ai;
                                na += 1;
                            }
                        }
                        self.memsys.access_lanes(&addrs[..na], size, true, op.reach)?;
                    } else {
                        let off = self.mem.check(a, size * n as u32, align, true)?;
                        self.memsys.access(a, size * n as u32, true, op.reach)?;
                        for i in 0..n {
                            self.stores.push((off + i * size as usize, size, self.vals[c + i]));
                        }
                    }
                }
            }
            Kind::Gather { size } => {
                let n = op.lanes as usize;
                let base = self.vals[op.src[0] as usize] as u32;
                let mut buf = [0u64; MAX_LANES];
                let mut addrs = [0u32; MAX_LANES];
                for (i, slot) in buf.iter_mut().enumerate().take(n) {
                    let a = base.wrapping_add(self.index(op, 1, i).wrapping_mul(size));
                    let off = self.mem.check(a, size, size, false)?;
                    *slot = ext(self.mem.read(off, size), op.sh, op.mask);
                    addrs[i] = a;
                }
                self.memsys.access_lanes(&addrs[..n], size, false, op.reach)?;
                self.write_lanes::<STRICT>(op, cycle, pc, &buf[..n])?;
            }
            Kind::Scatter { size } => {
                let base = self.vals[op.src[0] as usize] as u32;
                let c = op.src[2] as usize;
                let mut addrs = [0u32; MAX_LANES];
                for i in 0..op.lanes as usize {
                    let a = base.wrapping_add(self.index(op, 1, i).wrapping_mul(size));
                    let off = self.mem.check(a, size, size, true)?;
                    self.stores.push((off, size, self.vals[c + i]));
                    addrs[i] = a;
                }
                self.memsys.access_lanes(&addrs[..op.lanes as usize], size, true, op.reach)?;
            }
            Kind::Reduce { all } => {
                let s = op.src[0] as usize;
                let n = op.lanes as usize;
                let mut acc = self.vals[s];
                for i in 1..n {
                    acc = (op.f)(acc, self.vals[s + i], 0).map_err(alu_err)?;
                }
                let v = ext(acc, op.sh, op.mask);
                if all {
                    let buf = [v; MAX_LANES];
                    self.write_lanes::<STRICT>(op, cycle, pc, &buf[..op.lanes as usize])?;
                } else {
                    self.write::<STRICT>(op, cycle, pc, v)?;
                }
            }
            Kind::Extract => {
                let i = self.vals[op.src[1] as usize] % op.lanes as u64;
                let v = self.vals[op.src[0] as usize + i as usize];
                self.write::<STRICT>(op, cycle, pc, ext(v, op.sh, op.mask))?;
            }
            Kind::Insert => {
                let n = op.lanes as usize;
                let s = op.src[0] as usize;
                let mut buf = [0u64; MAX_LANES];
                buf[..n].copy_from_slice(&self.vals[s..s + n]);
                let i = (self.vals[op.src[2] as usize] % n as u64) as usize;
                buf[i] = ext(self.vals[op.src[1] as usize], op.sh, op.mask);
                self.write_lanes::<STRICT>(op, cycle, pc, &buf[..n])?;
            }
            Kind::Shuffle => {
                let n = op.lanes as usize;
                let a = op.src[0] as usize;
                let mut buf = [0u64; MAX_LANES];
                for (i, slot) in buf.iter_mut().enumerate().take(n) {
                    let j = (self.lane(op, 1, i) % n as u64) as usize;
                    *slot = self.vals[a + j];
                }
                self.write_lanes::<STRICT>(op, cycle, pc, &buf[..n])?;
            }
            Kind::Iota => {
                let n = op.lanes as usize;
                let mut buf = [0u64; MAX_LANES];
                for (i, slot) in buf.iter_mut().enumerate().take(n) {
                    *slot = i as u64 & op.mask;
                }
                self.write_lanes::<STRICT>(op, cycle, pc, &buf[..n])?;
            }
            Kind::Syscall => self.syscall::<STRICT>(op, cycle, pc)?,
            Kind::Bad => return Err(Trap::BadOp(op.aux)),
        }
        Ok(Flow::Next)
    }

    /// Applies the stores buffered by the bundle that just issued.
    #[inline(always)]
    pub fn flush_stores(&mut self) {
        if self.stores.is_empty() {
            return;
        }
        for &(off, len, v) in &self.stores {
            self.mem.write(off, len, v);
        }
        self.stores.clear();
    }

    /// Queues a system call result into `abi.rets[k]`.
    pub(crate) fn sys_ret<const STRICT: bool>(&mut self, k: usize, v: u64, op: &DOp, cycle: u64, pc: u32) -> Result<(), Trap> {
        let Some(&(off, id, mask, file)) = self.sys.rets.get(k) else {
            return Err(Trap::Message(format!("system call result {k} has no ABI return register")));
        };
        let mut d = *op;
        d.dst = off;
        d.dst_id = id;
        d.dst_file = file;
        self.write::<STRICT>(&d, cycle, pc, v & mask)
    }

    pub(crate) fn sys_arg(&self, k: usize) -> Result<u64, Trap> {
        self.sys
            .args
            .get(k)
            .map(|&o| self.vals[o as usize])
            .ok_or_else(|| Trap::Message(format!("system call argument {k} has no ABI argument register")))
    }
}

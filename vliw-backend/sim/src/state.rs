//! Machine state: the memory image, the pending-write queue and the
//! bookkeeping that `--strict` and unit occupancy need.
//!
//! Register values live in one flat `u64` array laid out by
//! [`crate::decode::Layout`]; this module holds what surrounds it.

use dsp_obj::Executable;
use isa_tablegen::Machine;

/// Why an operation could not complete (turned into a message by the run loop).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Trap {
    DivideByZero,
    OutOfRange { addr: u64, len: u32, store: bool },
    Misaligned { addr: u32, align: u32, store: bool },
    ReadOnly { addr: u32, segment: u32 },
    /// --strict: a source register's pending write (issued by the operation
    /// at `writer`, landing at `lands`) has not landed.
    NotReady { id: u32, writer: u32, lands: u64 },
    /// --strict: more results land in a file in one cycle than its write ports.
    WritePorts { file: u32, at: u64 },
    /// --strict: two results land in one register in the same cycle.
    SameCycle { id: u32, at: u64 },
    /// --strict: a write would land before an earlier-issued pending one.
    OutOfOrder { id: u32, at: u64, pending: u64 },
    /// An operation the decoder could not make executable (message index).
    BadOp(u32),
    Message(String),
    /// A store through the stack pointer below the stack.
    Stack(crate::stack::Overflow),
}

/// The simulated memory: one byte array covering the external memory
/// (`machine.memory`), followed by the on-chip memories.
pub struct Mem {
    pub bytes: Vec<u8>,
    pub base: u32,
    /// First accessible address (base + null_guard).
    pub lo: u64,
    /// One past the last address of the external memory.
    pub hi: u64,
    /// On-chip memories: [start, end) and offset of their bytes in `bytes`.
    pub onchip: Vec<(u64, u64, usize)>,
    /// Non-writable ranges [start, end), sorted (segments do not overlap),
    /// and segment names.
    pub read_only: Vec<(u64, u64)>,
    pub read_only_names: Vec<String>,
}

impl Mem {
    pub fn new(m: &Machine, exe: &Executable) -> Result<Mem, String> {
        let base = m.memory.base;
        let size = m.memory.size as usize;
        let mut onchip = Vec::new();
        let mut total = size;
        for o in &m.memory.onchip {
            onchip.push((o.base as u64, o.end(), total));
            total += o.size as usize;
        }
        let mut mem = Mem {
            bytes: vec![0u8; total],
            base,
            lo: base as u64 + m.memory.null_guard as u64,
            hi: base as u64 + size as u64,
            onchip,
            read_only: Vec::new(),
            read_only_names: Vec::new(),
        };
        for s in &exe.segments {
            let start = s.addr as u64;
            let end = start + (s.mem_size as u64).max(s.data.len() as u64);
            if start < base as u64 || end > mem.hi {
                return Err(format!(
                    "segment {} [{:#x}, {:#x}) lies outside the machine's memory [{:#x}, {:#x})",
                    s.name, start, end, base, mem.hi
                ));
            }
            let off = (start - base as u64) as usize;
            mem.bytes[off..off + s.data.len()].copy_from_slice(&s.data);
            if !s.flags.write && end > start {
                mem.read_only.push((start, end));
                mem.read_only_names.push(s.name.clone());
            }
        }
        let mut order: Vec<usize> = (0..mem.read_only.len()).collect();
        order.sort_by_key(|&i| mem.read_only[i].0);
        mem.read_only = order.iter().map(|&i| mem.read_only[i]).collect();
        mem.read_only_names = order.iter().map(|&i| mem.read_only_names[i].clone()).collect();
        Ok(mem)
    }

    /// Checks an access of `len` bytes at `addr` and returns its offset in `bytes`.
    #[inline(always)]
    pub fn check(&self, addr: u32, len: u32, align: u32, store: bool) -> Result<usize, Trap> {
        let a = addr as u64;
        if a < self.lo || a + len as u64 > self.hi {
            return self.check_onchip(addr, len, align, store);
        }
        if addr & (align.wrapping_sub(1)) != 0 {
            return Err(Trap::Misaligned { addr, align, store });
        }
        if store {
            if self.read_only.len() <= 8 {
                for (i, &(s, e)) in self.read_only.iter().enumerate() {
                    if a < e && a + len as u64 > s {
                        return Err(Trap::ReadOnly { addr, segment: i as u32 });
                    }
                }
            } else {
                // Many segments (a hostile file): the last one starting
                // before the end of the access is the one it can overlap.
                let i = self.read_only.partition_point(|&(s, _)| s < a + len as u64);
                if i > 0 && a < self.read_only[i - 1].1 {
                    return Err(Trap::ReadOnly { addr, segment: i as u32 - 1 });
                }
            }
        }
        Ok((a - self.base as u64) as usize)
    }

    /// An access outside the external memory: inside an on-chip memory, or a fault.
    #[cold]
    #[inline(never)]
    fn check_onchip(&self, addr: u32, len: u32, align: u32, store: bool) -> Result<usize, Trap> {
        let a = addr as u64;
        let Some(&(lo, _, off)) = self.onchip.iter().find(|&&(lo, hi, _)| a >= lo && a + len as u64 <= hi) else {
            return Err(Trap::OutOfRange { addr: a, len, store });
        };
        if addr & (align.wrapping_sub(1)) != 0 {
            return Err(Trap::Misaligned { addr, align, store });
        }
        Ok(off + (a - lo) as usize)
    }

    /// Reads `len` (1, 2, 4 or 8) bytes little-endian at a checked offset.
    #[inline(always)]
    pub fn read(&self, off: usize, len: u32) -> u64 {
        let b = &self.bytes;
        match len {
            1 => b[off] as u64,
            2 => u16::from_le_bytes([b[off], b[off + 1]]) as u64,
            4 => u32::from_le_bytes(b[off..off + 4].try_into().unwrap_or([0; 4])) as u64,
            _ => u64::from_le_bytes(b[off..off + 8].try_into().unwrap_or([0; 8])),
        }
    }

    #[inline(always)]
    pub fn write(&mut self, off: usize, len: u32, v: u64) {
        let bytes = v.to_le_bytes();
        self.bytes[off..off + len as usize].copy_from_slice(&bytes[..len as usize]);
    }

    /// A slice of memory, if `[addr, addr+len)` lies inside it.
    pub fn slice(&self, addr: u32, len: u32) -> Option<&[u8]> {
        let a = addr as u64;
        if a < self.base as u64 || a + len as u64 > self.hi {
            let &(lo, _, off) = self.onchip.iter().find(|&&(lo, hi, _)| a >= lo && a + len as u64 <= hi)?;
            let o = off + (a - lo) as usize;
            return Some(&self.bytes[o..o + len as usize]);
        }
        let off = (a - self.base as u64) as usize;
        Some(&self.bytes[off..off + len as usize])
    }
}

/// One pending register write: `n == 0`: `vals[off] = v`; else `n` lanes
/// from the slot's data starting at index `v`.
#[derive(Clone, Copy, Debug)]
struct Write {
    off: u32,
    n: u32,
    v: u64,
}

#[derive(Default)]
struct Slot {
    writes: Vec<Write>,
    data: Vec<u64>,
}

/// Pending register writes, as a ring indexed by landing cycle.
pub struct Queue {
    slots: Vec<Slot>,
    mask: u64,
}

impl Queue {
    /// A queue for results up to `max_latency` cycles ahead.
    pub fn new(max_latency: u32) -> Queue {
        let cap = (max_latency as u64 + 1).next_power_of_two();
        let slots = (0..cap)
            .map(|_| Slot { writes: Vec::with_capacity(16), data: Vec::with_capacity(256) })
            .collect();
        Queue { slots, mask: cap - 1 }
    }
    pub fn ring_len(&self) -> usize {
        self.slots.len()
    }
    #[inline(always)]
    pub fn slot_of(&self, cycle: u64) -> usize {
        (cycle & self.mask) as usize
    }
    #[inline(always)]
    pub fn push(&mut self, at: u64, off: u32, v: u64) {
        let s = &mut self.slots[(at & self.mask) as usize];
        s.writes.push(Write { off, n: 0, v });
    }
    #[inline(always)]
    pub fn push_lanes(&mut self, at: u64, off: u32, lanes: &[u64]) {
        let s = &mut self.slots[(at & self.mask) as usize];
        let start = s.data.len() as u64;
        s.data.extend_from_slice(lanes);
        s.writes.push(Write { off, n: lanes.len() as u32, v: start });
    }
    /// Applies the writes landing in `cycle`, in the order they were queued.
    #[inline(always)]
    pub fn drain(&mut self, cycle: u64, vals: &mut [u64]) {
        let s = &mut self.slots[(cycle & self.mask) as usize];
        if s.writes.is_empty() {
            return;
        }
        for w in &s.writes {
            if w.n == 0 {
                vals[w.off as usize] = w.v;
            } else {
                let (o, n, v) = (w.off as usize, w.n as usize, w.v as usize);
                vals[o..o + n].copy_from_slice(&s.data[v..v + n]);
            }
        }
        s.writes.clear();
        s.data.clear();
    }
    /// Whether any write is still pending.
    pub fn is_empty(&self) -> bool {
        self.slots.iter().all(|s| s.writes.is_empty())
    }
}

/// Per-register bookkeeping of `--strict`.
///
/// Every operation of a bundle reads its operands at issue, so a write
/// issued in the same bundle as a read is not yet pending for that read,
/// whichever comes first in the bundle: reads check the latest write
/// issued in an earlier cycle (`before_*` while the current cycle's write
/// is the latest).
pub struct Strict {
    /// Cycle at which the latest pending write of each register lands.
    pub ready: Vec<u64>,
    /// Address of the operation that issued it.
    pub writer: Vec<u32>,
    /// Cycle in which it issued.
    pub issued: Vec<u64>,
    /// `ready` and `writer` of the write before it.
    pub before_ready: Vec<u64>,
    pub before_writer: Vec<u32>,
    /// Results landing per (ring slot, register file).
    pub ports: Vec<u32>,
    pub nfiles: usize,
    pub write_ports: Vec<u32>,
}

impl Strict {
    pub fn new(m: &Machine, nids: u32, ring_len: usize) -> Strict {
        Strict {
            ready: vec![0; nids as usize + 1],
            writer: vec![0; nids as usize + 1],
            issued: vec![u64::MAX; nids as usize + 1],
            before_ready: vec![0; nids as usize + 1],
            before_writer: vec![0; nids as usize + 1],
            ports: vec![0; ring_len * m.regfiles.len()],
            nfiles: m.regfiles.len(),
            write_ports: m.regfiles.iter().map(|f| f.write_ports).collect(),
        }
    }

    /// Records a write of register `id` issued in `cycle` by the operation
    /// at `pc`, landing at `at`.
    #[inline(always)]
    pub fn record(&mut self, id: usize, cycle: u64, at: u64, pc: u32) {
        if self.issued[id] != cycle {
            self.before_ready[id] = self.ready[id];
            self.before_writer[id] = self.writer[id];
            self.issued[id] = cycle;
        }
        self.ready[id] = at;
        self.writer[id] = pc;
    }

    /// A read of register `id` issued in `cycle` whose write has not landed:
    /// that write's pc and landing cycle.
    #[inline(always)]
    pub fn pending(&self, id: usize, cycle: u64) -> Option<(u32, u64)> {
        let (ready, writer) = if self.issued[id] == cycle {
            (self.before_ready[id], self.before_writer[id])
        } else {
            (self.ready[id], self.writer[id])
        };
        (ready > cycle).then_some((writer, ready))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queue_orders_and_rings() {
        let mut q = Queue::new(5);
        assert_eq!(q.ring_len(), 8);
        let mut vals = vec![0u64; 8];
        q.push(3, 1, 10);
        q.push(3, 1, 11);
        q.push_lanes(4, 4, &[1, 2, 3]);
        q.drain(2, &mut vals);
        assert_eq!(vals[1], 0);
        q.drain(3, &mut vals);
        assert_eq!(vals[1], 11);
        q.drain(4, &mut vals);
        assert_eq!(&vals[4..7], &[1, 2, 3]);
        q.push(12, 0, 7); // same slot as cycle 4, next time round
        q.drain(12, &mut vals);
        assert_eq!(vals[0], 7);
        assert!(q.is_empty());
    }
}

//! The simulator and its cycle loop: one bundle issues per cycle, results land
//! through the pending-write queue, taken branches transfer control after the
//! delay slots, non-pipelined units stall issue (or, with `--strict`, are an
//! error), data-cache misses stall the whole machine (`memsys`: the cycle
//! loop counts issue cycles, the stall cycles are added apart) and faults
//! stop the run.

use std::io::Write;
use std::sync::atomic::{AtomicU8, Ordering};

use dsp_obj::Executable;
use isa_tablegen::{InstrId, Machine};

use crate::decode::{predecode, Program, NONE};
use crate::exec::{Core, Flow, SysRegs};
use crate::host::{Host, HostConfig};
use crate::stack::StackGuard;
use crate::state::{Mem, Queue, Strict, Trap};
use crate::trace;

/// How to run.
#[derive(Clone, Debug, Default)]
pub struct Config {
    pub strict: bool,
    pub trace: bool,
    /// Stop with [`Outcome::CycleLimit`] when this many cycles have elapsed.
    pub max_cycles: Option<u64>,
    /// Looked at every [`STOP_POLL`] cycles: a nonzero value ([`STOP_SIGINT`],
    /// [`STOP_TIMEOUT`]) stops the run with [`Outcome::Stopped`].
    pub stop: Option<&'static AtomicU8>,
    /// Every access at its instruction's latency, as if there were no caches
    /// (`--ideal-memory`).
    pub ideal_memory: bool,
}

/// Cycles between two looks at [`Config::stop`] (a few milliseconds).
pub const STOP_POLL: u64 = 1 << 16;
/// Why [`Config::stop`] was set.
pub const STOP_SIGINT: u8 = 1;
pub const STOP_TIMEOUT: u8 = 2;

/// The location of a pc in no function symbol.
pub const OUTSIDE: &str = crate::decode::OUTSIDE;

/// A fault (or the cycle limit): what, where and when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub message: String,
    pub pc: u32,
    /// `function+0xoff`, or [`OUTSIDE`].
    pub location: String,
    pub cycle: u64,
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.location == OUTSIDE {
            return write!(f, "{} at pc {:#010x} ({OUTSIDE}), cycle {}", self.message, self.pc, self.cycle);
        }
        write!(f, "{} at pc {:#010x} (in {}), cycle {}", self.message, self.pc, self.location, self.cycle)
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The program called exit with this status (0..=255).
    Exit(i32),
    Fault(Fault),
    CycleLimit(Fault),
    /// Stopped from outside ([`Config::stop`]: SIGINT, a time limit).
    Stopped(Fault),
    /// Reached the breakpoint at this pc ([`Sim::break_at`]), before issuing
    /// its bundle; [`Sim::run`] goes on from there.
    Break(u32),
}

/// A loaded program and its machine state.
pub struct Sim<'m> {
    pub machine: &'m Machine,
    pub prog: Program,
    pub core: Core,
    pub config: Config,
    /// Cycles elapsed (after a run: the cycle count of the run): issue
    /// cycles plus memory stall cycles.
    pub cycle: u64,
    /// The issue cycles of [`Sim::cycle`] (the cycles the pending-write
    /// queue counts; equal to it without memory stalls).
    pub issue_cycle: u64,
    /// Times each bundle issued, and stall cycles spent before it.
    pub issues: Vec<u64>,
    pub stalls: Vec<u64>,
    /// Busy instance-cycles per unit of bundles placed at issue.
    pub unit_busy_dyn: Vec<u64>,
    free_at: Vec<u64>,
    unit_first: Vec<usize>,
    busy_until: u64,
    /// Where `--trace` lines go (stderr in the command-line tool).
    pub trace_out: Option<Box<dyn Write>>,
    entry: u32,
    /// The next cycle at which to look at [`Config::stop`].
    poll_at: u64,
}

impl<'m> Sim<'m> {
    /// Loads `exe` into a fresh machine `m`.
    pub fn new(m: &'m Machine, exe: &Executable, config: Config) -> Result<Sim<'m>, String> {
        let prog = predecode(m, exe)?;
        let mem = Mem::new(m, exe)?;
        let mut vals = prog.layout.initial_values(m, &prog.consts);
        let layout = &prog.layout;
        // Like the linker's __stack_top: the end of memory, aligned down.
        let align = m.abi.stack_align.max(1) as u64;
        let top = ((m.memory.base as u64 + m.memory.size as u64) / align * align).min(u32::MAX as u64) as u32;
        let sym = |name: &str| exe.symbols.iter().find(|s| s.name == name).map(|s| s.addr);
        let mut sp_off = None;
        if let Some(sp) = m.abi.sp {
            if m.special(sp).is_none() {
                vals[layout.val_off(sp) as usize] = top as u64 & layout.file(sp.file).mask;
                sp_off = Some(layout.val_off(sp) as usize);
            }
        }
        let link_off = m.control.link.filter(|&r| m.special(r).is_none()).map(|r| layout.val_off(r));
        let initial_sp = sp_off.map_or(vals[layout.trash as usize], |o| vals[o]);
        let stack_top = sym("__stack_top").filter(|&t| t <= top).unwrap_or(top);
        let stack = StackGuard::new(exe, stack_top, sp_off, link_off, layout.trash as usize, initial_sp);
        let sys = SysRegs {
            args: m.abi.args.iter().map(|&r| layout.val_off(r)).collect(),
            rets: m
                .abi
                .rets
                .iter()
                .map(|&r| {
                    let (off, id) = if m.special(r).is_some() {
                        (layout.trash, layout.nids)
                    } else {
                        (layout.val_off(r), layout.id(r))
                    };
                    (off, id, layout.file(r.file).mask, r.file.0 as u32)
                })
                .collect(),
            stack_align: m.abi.stack_align.max(4),
        };
        let stdio_files = sym("__dsp_stdio_files").zip(sym("__dsp_stdio_nfiles"));
        let queue = Queue::new(m.max_latency().max(1));
        let strict = Strict::new(m, layout.nids, queue.ring_len());
        let mut unit_first = Vec::new();
        let mut n = 0usize;
        for u in &m.units {
            unit_first.push(n);
            n += u.count as usize;
        }
        let nb = prog.bundles.len();
        Ok(Sim {
            machine: m,
            core: Core {
                vals,
                mem,
                queue,
                strict,
                stores: Vec::with_capacity(256),
                sys,
                stdout: Vec::new(),
                stderr: Vec::new(),
                stream_output: false,
                stdin: Box::new(std::io::empty()),
                exit: None,
                dummy_id: layout.nids,
                host: Host::new(HostConfig::default())?,
                stdio_files,
                stack,
                memsys: crate::memsys::MemSys::new(m, nb, config.ideal_memory),
            },
            prog,
            config,
            cycle: 0,
            issue_cycle: 0,
            issues: vec![0; nb],
            stalls: vec![0; nb],
            unit_busy_dyn: vec![0; m.units.len()],
            free_at: vec![0; n],
            unit_first,
            busy_until: 0,
            trace_out: None,
            entry: exe.entry,
            poll_at: u64::MAX,
        })
    }

    /// Stops the next [`Sim::run`] with [`Outcome::Break`] when the bundle at
    /// `pc` is about to issue (once: the breakpoint is removed when hit).
    pub fn break_at(&mut self, pc: u32) -> Result<(), String> {
        let i = self.prog.lookup(pc).ok_or_else(|| format!("no bundle starts at {pc:#x}"))?;
        let b = &mut self.prog.bundles[i as usize];
        b.brk = true;
        b.update_rare();
        Ok(())
    }

    /// Runs the program from its entry point (or from the breakpoint it
    /// stopped at) to exit, fault, cycle limit or breakpoint.
    /// A fault or the cycle limit writes out what the C library's streams
    /// still buffer (as if the program had called `fflush(NULL)`).
    pub fn run(&mut self) -> Outcome {
        let outcome = if self.config.strict { self.run_loop::<true>() } else { self.run_loop::<false>() };
        if !matches!(outcome, Outcome::Exit(_) | Outcome::Break(_)) {
            self.core.flush_guest_streams();
        }
        outcome
    }

    /// Writes the program's stdout and stderr through to the host's as it
    /// writes them (what `dsp-sim` does: an interactive program's output
    /// appears in order with its input), instead of collecting them in
    /// `core.stdout`/`core.stderr` (the default).
    pub fn stream_output(&mut self, on: bool) {
        self.core.stream_output = on;
    }

    /// Gives the program its arguments, environment, files and clock (the
    /// default: argv = {"a.out"}, no environment, no files, cycle time).
    pub fn set_host(&mut self, config: HostConfig) -> Result<(), String> {
        self.core.host = Host::new(config)?;
        Ok(())
    }

    /// A fault at issue cycle `cycle` (reported with the stall cycles so far).
    fn fault(&self, message: String, pc: u32, cycle: u64) -> Fault {
        Fault { message, pc, location: self.prog.describe(pc), cycle: cycle + self.core.memsys.stall_total }
    }

    /// Records where the run stopped: issue cycle `cycle`, plus the stalls.
    fn set_cycle(&mut self, cycle: u64) {
        self.issue_cycle = cycle;
        self.cycle = cycle + self.core.memsys.stall_total;
    }

    fn run_loop<const STRICT: bool>(&mut self) -> Outcome {
        // The next cycle at which to look at the cycle limit, the stop flag
        // and the stack pointer ([`Sim::checkpoint`]).
        self.poll_at = if self.config.stop.is_some() { self.cycle.saturating_add(STOP_POLL) } else { u64::MAX };
        let stalled = self.core.memsys.stall_total;
        let mut check_at = self.config.max_cycles.unwrap_or(u64::MAX).saturating_sub(stalled).min(self.poll_at);
        let delay = self.machine.control.delay_slots;
        let tracing = self.config.trace;
        let caches = self.core.memsys.caches_on;
        let mut cycle = self.issue_cycle;
        let Some(mut cur) = self.prog.lookup(self.entry) else {
            return Outcome::Fault(self.fault(self.bad_pc_message(self.entry, None), self.entry, cycle));
        };
        // The taken branch in flight: bundles still to issue before it transfers, target, its pc.
        let mut br_active = false;
        let mut br_left = 0u32;
        let mut br_target = (0u32, NONE);
        let mut br_pc = 0u32;
        let nfiles = self.core.strict.nfiles;
        loop {
            self.core.queue.drain(cycle, &mut self.core.vals);
            if STRICT {
                let s = self.core.queue.slot_of(cycle) * nfiles;
                self.core.strict.ports[s..s + nfiles].fill(0);
            }
            let mut b = &self.prog.bundles[cur as usize];
            if cycle >= check_at {
                let pc = b.pc;
                match self.checkpoint(cycle, pc) {
                    Ok(next) => check_at = next,
                    Err(out) => return out,
                }
                b = &self.prog.bundles[cur as usize];
            }
            if b.bad != NONE {
                let (bad, pc) = (b.bad as usize, b.pc);
                self.set_cycle(cycle);
                let msg = self.prog.messages[bad].clone();
                return Outcome::Fault(self.fault(msg, pc, cycle));
            }
            // One test for the rare bundles: non-pipelined units, stack pointer
            // writes, a breakpoint (not inside a branch's delay slots: the run
            // would not go on from it as it was).
            if b.rare {
                if b.brk && !br_active {
                    let pc = b.pc;
                    let bk = &mut self.prog.bundles[cur as usize];
                    bk.brk = false;
                    bk.update_rare();
                    self.set_cycle(cycle);
                    self.entry = pc;
                    return Outcome::Break(pc);
                }
                let b = &self.prog.bundles[cur as usize];
                if b.sp_lat != 0 {
                    check_at = check_at.min(cycle + b.sp_lat as u64);
                }
                if b.dynamic {
                    if let Err(unit) = self.place_dynamic(cur, cycle) {
                        if STRICT {
                            self.set_cycle(cycle);
                            let u = unit as usize;
                            let name = &self.machine.units[u].name;
                            let until = (0..self.machine.units[u].count as usize)
                                .map(|i| self.free_at[self.unit_first[u] + i])
                                .min()
                                .unwrap_or(cycle);
                            let until = until + self.core.memsys.stall_total;
                            let msg = format!("resource conflict: unit {name} is still busy (until cycle {until})");
                            let pc = self.prog.bundles[cur as usize].pc;
                            return Outcome::Fault(self.fault(msg, pc, cycle));
                        }
                        self.stalls[cur as usize] += 1;
                        cycle += 1;
                        continue;
                    }
                }
            }
            if tracing {
                self.trace_bundle(cur, cycle);
            }
            let b = &self.prog.bundles[cur as usize];
            self.issues[cur as usize] += 1;
            if caches {
                self.core.memsys.cur = cur as usize;
            }
            let mut jump: Option<((u32, u32), u32)> = None;
            for k in b.first as usize..(b.first + b.n) as usize {
                let op = &self.prog.ops[k];
                let pc = self.prog.op_pc[k];
                match self.core.exec::<STRICT>(op, cycle, pc) {
                    Ok(Flow::Next) => {}
                    Ok(Flow::Jump { pc: t, idx }) => {
                        if br_active || jump.is_some() {
                            self.set_cycle(cycle);
                            let other = if br_active { br_pc } else { jump.map(|j| j.1).unwrap_or(0) };
                            let msg = format!("branch inside the delay slots of the branch at {other:#x}");
                            return Outcome::Fault(self.fault(msg, pc, cycle));
                        }
                        jump = Some(((t, idx), pc));
                        self.core.stack.transfer(op.kind, op.src[0]);
                    }
                    Err(trap) => {
                        self.core.stores.clear();
                        self.set_cycle(cycle);
                        let msg = self.trap_message(&trap, cycle);
                        return Outcome::Fault(self.fault(msg, pc, cycle));
                    }
                }
            }
            self.core.flush_stores();
            cycle += 1;
            if caches {
                // The machine stood still: the limit comes that much sooner.
                let stall = self.core.memsys.take_bundle_stall();
                check_at = check_at.saturating_sub(stall);
            }
            if let Some(status) = self.core.exit {
                self.set_cycle(cycle);
                return Outcome::Exit(status);
            }
            if let Some((t, pc)) = jump {
                br_active = true;
                br_left = delay;
                br_target = t;
                br_pc = pc;
            }
            if br_active {
                if br_left == 0 {
                    br_active = false;
                    let (t, idx) = br_target;
                    cur = if idx != NONE {
                        idx
                    } else if let Some(i) = self.prog.lookup(t) {
                        i
                    } else {
                        self.set_cycle(cycle);
                        return Outcome::Fault(self.fault(self.bad_pc_message(t, Some(br_pc)), t, cycle));
                    };
                    continue;
                }
                br_left -= 1;
            }
            let next = self.prog.bundles[cur as usize].next;
            if next == NONE {
                self.set_cycle(cycle);
                let end = self.prog.bundles[cur as usize].end;
                return Outcome::Fault(self.fault(self.bad_pc_message(end, None), end, cycle));
            }
            cur = next;
        }
    }

    /// The checks made every few cycles, out of the hot loop: the stack
    /// pointer (after a write of it has landed), the cycle limit, the stop
    /// flag. Ok: the next cycle to make them at.
    #[cold]
    #[inline(never)]
    fn checkpoint(&mut self, cycle: u64, pc: u32) -> Result<u64, Outcome> {
        let sp = self.core.vals[self.core.stack.sp_off];
        if sp != self.core.stack.last_sp {
            if let Err(o) = self.core.stack.sp_changed(sp) {
                self.set_cycle(cycle);
                let msg = self.core.stack.message(&o);
                return Err(Outcome::Fault(self.fault(msg, pc, cycle)));
            }
        }
        let max = self.config.max_cycles.unwrap_or(u64::MAX);
        let stalled = self.core.memsys.stall_total;
        if cycle + stalled >= max {
            self.set_cycle(cycle);
            let msg = format!("cycle limit {max} reached");
            return Err(Outcome::CycleLimit(self.fault(msg, pc, cycle)));
        }
        if cycle >= self.poll_at {
            if let Some(why) = self.config.stop.map(|s| s.load(Ordering::Relaxed)).filter(|&w| w != 0) {
                self.set_cycle(cycle);
                let msg = if why == STOP_TIMEOUT { "stopped: time limit reached" } else { "stopped: interrupted (SIGINT)" };
                return Err(Outcome::Stopped(self.fault(msg.into(), pc, cycle)));
            }
            self.poll_at = cycle.saturating_add(STOP_POLL);
        }
        Ok(max.saturating_sub(stalled).min(self.poll_at))
    }

    fn bad_pc_message(&self, pc: u32, from: Option<u32>) -> String {
        let what = if self.prog.in_text(pc) {
            format!("pc {pc:#x} is not at a bundle start")
        } else {
            format!("executing outside text (pc {pc:#x})")
        };
        match from {
            Some(b) => format!("{what}, reached by the branch at {b:#x}"),
            None => what,
        }
    }

    /// Places a bundle that uses units of non-pipelined operations, marking
    /// those units busy. Err: a unit whose busy instances keep it from issuing.
    fn place_dynamic(&mut self, cur: u32, cycle: u64) -> Result<(), u16> {
        let b = &self.prog.bundles[cur as usize];
        let (first, n) = (b.first as usize, b.n as usize);
        let placement: Vec<(u16, u16)> = if cycle >= self.busy_until {
            self.prog.place[first..first + n].to_vec()
        } else {
            let instrs: Vec<InstrId> = self.prog.src_ops[first..first + n].iter().map(|o| o.instr).collect();
            let free_at = &self.free_at;
            let unit_first = &self.unit_first;
            match self.machine.place_bundle(&instrs, &|u, i| free_at[unit_first[u.0 as usize] + i as usize] > cycle) {
                Ok(p) => p.iter().map(|p| (p.unit.0, p.instance as u16)).collect(),
                Err(_) => {
                    // Name a unit that some operation needs and that is busy.
                    for id in &instrs {
                        for u in &self.machine.instr(*id).units {
                            let base = self.unit_first[u.0 as usize];
                            let count = self.machine.unit(*u).count as usize;
                            if (0..count).any(|i| self.free_at[base + i] > cycle) {
                                return Err(u.0);
                            }
                        }
                    }
                    return Err(self.machine.instr(instrs[0]).units.first().map(|u| u.0).unwrap_or(0));
                }
            }
        };
        for (k, &(unit, inst)) in placement.iter().enumerate() {
            let busy = self.machine.instr(self.prog.src_ops[first + k].instr).busy.max(1) as u64;
            if !self.prog.ops[first + k].is_nop {
                self.unit_busy_dyn[unit as usize] += busy;
            }
            if busy > 1 {
                let until = cycle + busy;
                self.free_at[self.unit_first[unit as usize] + inst as usize] = until;
                self.busy_until = self.busy_until.max(until);
            }
        }
        Ok(())
    }

    #[cold]
    fn trace_bundle(&mut self, cur: u32, cycle: u64) {
        let b = &self.prog.bundles[cur as usize];
        let (first, n) = (b.first as usize, b.n as usize);
        let text = trace::format_bundle(self.machine, &self.prog.src_ops[first..first + n], &self.prog.op_pc[first..first + n]);
        let line = trace::trace_line(cycle + self.core.memsys.stall_total, b.pc, &self.prog.describe(b.pc), &text);
        if let Some(out) = self.trace_out.as_mut() {
            let _ = out.write_all(line.as_bytes());
        }
    }

    #[cold]
    fn trap_message(&self, trap: &Trap, cycle: u64) -> String {
        let m = self.machine;
        let reg_name = |id: u32| match self.prog.layout.reg_of_id(id) {
            Some(r) => m.reg_name(r),
            None => format!("register #{id}"),
        };
        let st = &self.core.strict;
        let kind = |store: bool| if store { "store" } else { "load" };
        // Cycles as reported: issue cycles plus the memory stalls so far
        // (a stall freezes results in flight too, so they land as late).
        let stall = self.core.memsys.stall_total;
        let cycle = cycle + stall;
        match trap {
            Trap::DivideByZero => "integer divide by zero".into(),
            Trap::OutOfRange { addr, len, store } => format!(
                "{} of {len} bytes at {addr:#x} outside memory [{:#x}, {:#x})",
                kind(*store),
                self.core.mem.lo,
                self.core.mem.hi
            ),
            Trap::Misaligned { addr, align, store } => {
                format!("misaligned {} at {addr:#x} (needs {align}-byte alignment)", kind(*store))
            }
            Trap::ReadOnly { addr, segment } => format!(
                "store to non-writable segment {} at {addr:#x}",
                self.core.mem.read_only_names[*segment as usize]
            ),
            Trap::NotReady { id, writer, lands } => format!(
                "read of {} before its pending write lands (written by the operation at pc {writer:#x}, lands at cycle {}; now {cycle})",
                reg_name(*id),
                lands + stall
            ),
            Trap::WritePorts { file, at } => {
                let f = &m.regfiles[*file as usize];
                format!(
                    "more than {} results land in register file '{}' in cycle {} (write ports exceeded)",
                    f.write_ports,
                    f.name,
                    at + stall
                )
            }
            Trap::SameCycle { id, at } => format!(
                "two results land in {} in cycle {} (the other from the operation at pc {:#x})",
                reg_name(*id),
                at + stall,
                st.writer[*id as usize]
            ),
            Trap::OutOfOrder { id, at, pending } => format!(
                "result for {} would land in cycle {}, before the pending write from the operation at pc {:#x} (lands at cycle {})",
                reg_name(*id),
                at + stall,
                st.writer[*id as usize],
                pending + stall
            ),
            Trap::BadOp(i) => self.prog.messages[*i as usize].clone(),
            Trap::Message(s) => s.clone(),
            Trap::Stack(o) => self.core.stack.message(o),
        }
    }

    /// Value of a scalar or mask register (tests, debugging).
    pub fn reg(&self, name: &str) -> Option<u64> {
        let r = self.machine.parse_reg(name)?;
        Some(self.core.vals[self.prog.layout.val_off(r) as usize])
    }
    /// Lanes of a vector register.
    pub fn vreg(&self, name: &str) -> Option<Vec<u64>> {
        let r = self.machine.parse_reg(name)?;
        let f = self.prog.layout.file(r.file);
        let o = self.prog.layout.val_off(r) as usize;
        Some(self.core.vals[o..o + f.stride as usize].to_vec())
    }
    /// Memory contents, if inside memory.
    pub fn mem(&self, addr: u32, len: u32) -> Option<&[u8]> {
        self.core.mem.slice(addr, len)
    }
    pub fn set_stdin(&mut self, input: Box<dyn std::io::Read>) {
        self.core.stdin = input;
    }
}

//! An independent checker of an allocation, used by the tests and (with
//! `RaOptions::check`) after every allocation: a forward data-flow analysis
//! over the function with virtual registers and the chosen assignment
//! tracks, for every physical register, the set of values it holds at every
//! point (a copy adds its destination to the source's set; any other
//! definition replaces it; call clobbers empty it; sets meet by
//! intersection at joins). Every read of a virtual register must find its
//! value in the register it was assigned, and every read of a physical
//! register (call arguments, results) must find that register's own value
//! (reads of virtual registers not written on every path are not checked) —
//! so no two simultaneously live values share a register, nothing live is
//! clobbered by a call, and argument registers survive until their call.
//! This reuses neither the allocator's liveness nor its intervals, only the
//! shared definition of reads and writes.

use dsp_mir::{Function, InstKind, PReg, Reg};

use crate::bitset::BitSet;
use crate::operands::{inst_regs, term_uses, Role};
use crate::target::{RegKeys, Target};

type Set = Vec<u32>;

fn inter(a: &Set, b: &Set) -> Set {
    a.iter().filter(|x| b.contains(x)).copied().collect()
}

struct Checker<'a, 'm> {
    t: &'a Target<'m>,
    keys: RegKeys,
    assign: &'a [Option<PReg>],
}

/// What is known at a program point.
#[derive(Clone, Debug, PartialEq)]
struct State {
    /// For every allocatable register, the values it holds.
    regs: Vec<Set>,
    /// Virtual registers written on every path so far (reads of others may
    /// be reads of undefined values and are not checked).
    defined: BitSet,
}

impl State {
    fn meet(&self, o: &State) -> State {
        let mut defined = BitSet::new(0);
        for k in self.defined.iter() {
            if o.defined.contains(k) {
                defined.insert(k);
            }
        }
        State { regs: self.regs.iter().zip(&o.regs).map(|(a, b)| inter(a, b)).collect(), defined }
    }
}

impl Checker<'_, '_> {
    /// Index into the state of the register holding `r`, if tracked.
    fn slot(&self, r: Reg) -> Result<Option<usize>, String> {
        match r {
            Reg::Virt(v) => match self.assign.get(v.0 as usize).copied().flatten() {
                Some(p) => Ok(Some(self.keys.pkey(p) - self.keys.nvregs)),
                None => Err(format!("%{} has no register", v.0)),
            },
            Reg::Phys(p) if self.t.is_allocatable(p) => Ok(Some(self.keys.pkey(p) - self.keys.nvregs)),
            Reg::Phys(_) => Ok(None),
        }
    }

    fn name(&self, f: &Function, r: Reg) -> String {
        dsp_mir::print::reg(self.t.m, f, r)
    }

    fn read(&self, f: &Function, state: &State, r: Reg) -> Result<(), String> {
        if let Reg::Virt(v) = r {
            if !state.defined.contains(v.0 as usize) {
                return Ok(());
            }
        }
        let Some(s) = self.slot(r)? else { return Ok(()) };
        if state.regs[s].contains(&(self.keys.key(r) as u32)) {
            return Ok(());
        }
        let holds: Vec<String> = state.regs[s].iter().map(|&k| self.name(f, self.keys.reg(k as usize))).collect();
        let loc = match r {
            Reg::Virt(v) => format!(" (in {})", self.t.m.reg_name(self.assign[v.0 as usize].unwrap_or(PReg { file: f.vreg_file(v), index: 0 }))),
            Reg::Phys(_) => String::new(),
        };
        Err(format!("{}{loc} is read but its register holds {{{}}}", self.name(f, r), holds.join(", ")))
    }

    fn write(&self, state: &mut State, r: Reg, value: Set) -> Result<(), String> {
        let k = self.keys.key(r) as u32;
        for s in state.regs.iter_mut() {
            s.retain(|&x| x != k);
        }
        if let Reg::Virt(_) = r {
            state.defined.insert(k as usize);
        }
        if let Some(s) = self.slot(r)? {
            let mut v = value;
            if !v.contains(&k) {
                v.push(k);
            }
            state.regs[s] = v;
        }
        Ok(())
    }

    /// Runs one block from `state`; with `check`, reports bad reads.
    fn block(&self, f: &Function, b: usize, state: &mut State, check: bool) -> Result<(), String> {
        for (i, inst) in f.blocks[b].insts.iter().enumerate() {
            let at = |e: String| format!("bb{b} inst {i}: {e}");
            let regs = inst_regs(self.t.m, inst, &self.t.clobbers);
            if check {
                for (r, role) in &regs {
                    if role.is_use() {
                        self.read(f, state, *r).map_err(at)?;
                    }
                }
            }
            if let InstKind::Copy { dst, src } = inst.kind {
                let value = match self.slot(src).map_err(at)? {
                    Some(s) => state.regs[s].clone(),
                    None => Vec::new(),
                };
                self.write(state, dst, value).map_err(at)?;
                continue;
            }
            let rets: Vec<PReg> = match &inst.kind {
                InstKind::Call { rets, .. } => rets.clone(),
                _ => Vec::new(),
            };
            for (r, role) in &regs {
                if role.is_def() {
                    let clobbered = matches!(inst.kind, InstKind::Call { .. })
                        && *role == Role::Def
                        && matches!(r, Reg::Phys(p) if !rets.contains(p));
                    if clobbered {
                        let k = self.keys.key(*r) as u32;
                        for s in state.regs.iter_mut() {
                            s.retain(|&x| x != k);
                        }
                        if let Some(s) = self.slot(*r).map_err(at)? {
                            state.regs[s].clear();
                        }
                    } else {
                        self.write(state, *r, Vec::new()).map_err(at)?;
                    }
                }
            }
        }
        if check {
            for r in term_uses(&f.blocks[b].term) {
                self.read(f, state, r).map_err(|e| format!("bb{b} terminator: {e}"))?;
            }
        }
        Ok(())
    }
}

/// Checks `assign` (register of every virtual register) on `f`.
pub fn check_assignment(t: &Target, f: &Function, assign: &[Option<PReg>]) -> Result<(), String> {
    let keys = RegKeys::new(t.m, f.vregs.len());
    for (v, a) in assign.iter().enumerate() {
        if let Some(p) = a {
            if p.file != f.vregs[v] {
                return Err(format!("%{v} got a register of another file"));
            }
            if !t.is_allocatable(*p) {
                return Err(format!("%{v} got {}, which is not allocatable", t.m.reg_name(*p)));
            }
        }
    }
    let nregs = keys.total - keys.nvregs;
    let c = Checker { t, keys, assign };
    let n = f.blocks.len();
    let mut entry: Vec<Option<State>> = vec![None; n];
    let mut init = State { regs: vec![Vec::new(); nregs], defined: BitSet::new(f.vregs.len()) };
    for (i, s) in init.regs.iter_mut().enumerate() {
        s.push((c.keys.nvregs + i) as u32);
    }
    if n == 0 {
        return Ok(());
    }
    entry[0] = Some(init);
    let rpo = crate::cfg::reverse_postorder(f);
    let mut changed = true;
    while changed {
        changed = false;
        for &bb in &rpo {
            let b = bb.0 as usize;
            let Some(mut state) = entry[b].clone() else { continue };
            c.block(f, b, &mut state, false)?;
            for s in f.blocks[b].term.successors() {
                let s = s.0 as usize;
                let new = match &entry[s] {
                    None => state.clone(),
                    Some(old) => old.meet(&state),
                };
                if entry[s].as_ref() != Some(&new) {
                    entry[s] = Some(new);
                    changed = true;
                }
            }
        }
    }
    for &bb in &rpo {
        let b = bb.0 as usize;
        if let Some(mut state) = entry[b].clone() {
            c.block(f, b, &mut state, true)?;
        }
    }
    Ok(())
}

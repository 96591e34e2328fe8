//! Control flow of vectorized code (seed 001 §2.1.1–2.1.3). Without a
//! divergent branch the region's CFG is kept (uniform branches stay
//! branches, every block runs under the entry mask). With one, the blocks
//! are laid out in `linearize::order`: each block's entry mask is the `or`
//! of its incoming edge masks (the entry mask itself for `by_all` blocks),
//! phis at joins become selects on the edge masks (§2.1.2), and each loop
//! stays a loop that runs while any lane is active: its header has a phi
//! of the entering mask and the continue mask; every exit edge has an
//! accumulated exit mask (lanes that left through it in some iteration);
//! every value used after the loop has a result vector (a phi and one
//! select in the latch: lanes leaving in this iteration take this
//! iteration's value), so exits in different iterations per lane work.
//! Returns of a linearized function become one select chain on their masks.

use std::collections::HashMap;

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMOpcode as O;

use super::attrs::Attr;
use super::mask::{self, Mask};
use super::widen::{nm, Emitter, VVal, R};
use crate::ir;

/// Whether block `bb` is worth a branch around it (the branch costs a mask
/// reduction and the machine's branch delay; masked arithmetic, masked and
/// gathered memory are cheap): it calls a function (run per lane or as a
/// variant), or computes sixteen or more instructions besides its phis and
/// terminator. Measured on bench-wfv: a lower bar (memory, eight
/// instructions) lost more on BitonicSort than it won anywhere.
fn worth_a_branch(bb: LLVMBasicBlockRef) -> bool {
    let insts: Vec<LLVMValueRef> = ir::instructions(bb)
        .into_iter()
        .filter(|&i| ir::opcode(i) != O::LLVMPHI && unsafe { LLVMIsATerminatorInst(i).is_null() })
        .collect();
    let calls = |i: &LLVMValueRef| ir::opcode(*i) == O::LLVMCall && ir::called_intrinsic(*i).is_none();
    insts.len() >= 16 || insts.iter().any(calls)
}

/// The block whose terminator uses operand `k` of `user` (for a phi: its
/// incoming block, unless that edge leaves a loop the phi is not in).
fn use_block(e: &Emitter, user: LLVMValueRef, k: u32) -> Option<usize> {
    let b = e.block_index(user)?;
    if ir::opcode(user) != O::LLVMPHI {
        return Some(b);
    }
    let from = e.r.cfg.index.get(&unsafe { LLVMGetIncomingBlock(user, k) }).copied()?;
    let leaves = e.r.nest.loops_of(from).iter().any(|&l| !e.r.nest.contains(l, b));
    Some(if leaves { b } else { from })
}

impl Emitter<'_> {
    fn phi_ty(&self, p: LLVMValueRef) -> (bool, LLVMTypeRef) {
        let t = unsafe { LLVMTypeOf(p) };
        let uni = self.r.attrs.of(p) == Attr::Uniform;
        (uni, if uni { t } else { self.cx.vty(t) })
    }

    /// `x` as the incoming value of a phi that is scalar (`uni`) or vector.
    fn phi_value(&mut self, x: VVal, t: LLVMTypeRef, uni: bool) -> R<LLVMValueRef> {
        match x {
            VVal::Uni(s) if uni => Ok(s),
            _ if uni => Err("internal: a uniform phi with a varying incoming value".into()),
            x => Ok(self.vector(x, t)),
        }
    }

    /// Branch on superword condition (seed 001 §2.2.1, BON): `b`'s body
    /// only when some lane of its mask `m` is active. Every effect in it is
    /// masked, and a later use of its values is either masked or in a block
    /// whose mask is within `m`, so the skipped path may carry any value: a
    /// zero, joined by a phi for each value the body made.
    fn body_on_superword(&mut self, b: usize, m: Mask) -> R<()> {
        let any = mask::any(self.cx, self.b, m);
        let before = self.cur();
        let then = self.new_block("wfv.boscc");
        let first_new = ir::blocks(self.f).len() - 1;
        let skip_ph = self.new_block("wfv.boscc.skip");
        unsafe { LLVMBuildCondBr(self.b, any, then, skip_ph) };
        self.at_end(then);
        if self.cx.multiversion && super::multiversion::eligible(self.r.cfg.blocks[b]) {
            self.body_multiversioned(b, m)?;
        } else {
            self.body(b, m)?;
        }
        let end = self.cur();
        let join = self.new_block("wfv.boscc.join");
        self.br(join);
        self.at_end(skip_ph);
        self.br(join);
        self.at_end(join);
        let made: Vec<LLVMBasicBlockRef> = ir::blocks(self.f).into_iter().skip(first_new).filter(|&x| x != skip_ph && x != join).collect();
        let inside = |v: LLVMValueRef| unsafe { !LLVMIsAInstruction(v).is_null() && made.contains(&LLVMGetInstructionParent(v)) };
        let join_value = |e: &mut Self, v: LLVMValueRef| -> LLVMValueRef {
            if !inside(v) {
                return v;
            }
            unsafe {
                let t = LLVMTypeOf(v);
                let phi = LLVMBuildPhi(e.b, t, nm());
                let mut vals = [v, LLVMConstNull(t)];
                let mut bbs = [end, skip_ph];
                LLVMAddIncoming(phi, vals.as_mut_ptr(), bbs.as_mut_ptr(), 2);
                phi
            }
        };
        for i in ir::instructions(self.r.cfg.blocks[b]) {
            let Some(&v) = self.map.get(&i) else { continue };
            let joined = match v {
                VVal::Uni(s) => VVal::Uni(join_value(self, s)),
                VVal::Vec(x) => VVal::Vec(join_value(self, x)),
                VVal::Lin { base, stride } => VVal::Lin { base: join_value(self, base), stride },
            };
            self.map.insert(i, joined);
        }
        let _ = before;
        self.boscc += 1;
        Ok(())
    }

    /// Emits `i`'s block's instructions (not phis, not the terminator).
    pub(super) fn body(&mut self, b: usize, m: Mask) -> R<()> {
        for i in ir::instructions(self.r.cfg.blocks[b]) {
            let op = ir::opcode(i);
            if op == O::LLVMPHI || unsafe { !LLVMIsATerminatorInst(i).is_null() } {
                continue;
            }
            self.inst(i, b, m)?;
        }
        Ok(())
    }

    fn ret_value(&mut self, t: LLVMValueRef, b: usize) -> R<Option<LLVMValueRef>> {
        if unsafe { LLVMGetNumOperands(t) } == 0 {
            return Ok(None);
        }
        let v = unsafe { LLVMGetOperand(t, 0) };
        let x = self.operand(v, b)?;
        Ok(Some(self.vector(x, unsafe { LLVMTypeOf(v) })))
    }

    /// The region with its CFG kept (no divergent branch), entered from the open block `start`.
    pub fn emit_cfg(&mut self, order: &[usize], m: Mask, start: LLVMBasicBlockRef) -> R<()> {
        for &b in order {
            let nb = self.new_block("wfv");
            self.first.insert(b, nb);
        }
        self.at_end(start);
        self.br(self.first[&self.r.entry]);
        let mut phis = Vec::new();
        for &b in order {
            self.at_end(self.first[&b]);
            for i in ir::instructions(self.r.cfg.blocks[b]) {
                if ir::opcode(i) != O::LLVMPHI || self.map.contains_key(&i) {
                    continue;
                }
                let (uni, t) = self.phi_ty(i);
                let p = unsafe { LLVMBuildPhi(self.b, t, nm()) };
                self.map.insert(i, if uni { VVal::Uni(p) } else { VVal::Vec(p) });
                phis.push((i, p, uni));
            }
            self.body(b, m)?;
            let t = unsafe { LLVMGetBasicBlockTerminator(self.r.cfg.blocks[b]) };
            unsafe { LLVMSetCurrentDebugLocation2(self.b, std::ptr::null_mut()) };
            if self.r.exits.contains(&b) {
                self.ends.push(self.cur());
                self.last.insert(b, self.cur());
                continue;
            }
            let target = |e: &Self, k: u32| -> R<LLVMBasicBlockRef> {
                let s = unsafe { LLVMGetSuccessor(t, k) };
                let si = e.r.cfg.index[&s];
                e.first.get(&si).copied().ok_or_else(|| "a branch out of the region".into())
            };
            match ir::opcode(t) {
                O::LLVMBr if unsafe { LLVMIsConditional(t) } != 0 => {
                    let VVal::Uni(c) = self.operand(unsafe { LLVMGetCondition(t) }, b)? else {
                        return Err("internal: a divergent branch in a uniform region".into());
                    };
                    let (x, y) = (target(self, 0)?, target(self, 1)?);
                    unsafe { LLVMBuildCondBr(self.b, c, x, y) };
                }
                O::LLVMBr => {
                    let x = target(self, 0)?;
                    self.br(x);
                }
                O::LLVMSwitch => {
                    let VVal::Uni(c) = self.operand(unsafe { LLVMGetOperand(t, 0) }, b)? else {
                        return Err("internal: a divergent switch in a uniform region".into());
                    };
                    let n = unsafe { LLVMGetNumSuccessors(t) };
                    let sw = unsafe { LLVMBuildSwitch(self.b, c, target(self, 0)?, n - 1) };
                    for k in 1..n {
                        let val = unsafe { LLVMGetOperand(t, 2 * k) };
                        unsafe { LLVMAddCase(sw, val, target(self, k)?) };
                    }
                }
                O::LLVMRet => {
                    let v = self.ret_value(t, b)?;
                    unsafe {
                        match v {
                            Some(v) => LLVMBuildRet(self.b, v),
                            None => LLVMBuildRetVoid(self.b),
                        }
                    };
                }
                O::LLVMUnreachable => {
                    unsafe { LLVMBuildUnreachable(self.b) };
                }
                op => return Err(format!("an unsupported terminator ({op:?})")),
            }
            self.last.insert(b, self.cur());
        }
        for (old, new, uni) in phis {
            let n = unsafe { LLVMCountIncoming(old) };
            for k in 0..n {
                let from = unsafe { LLVMGetIncomingBlock(old, k) };
                let Some(fi) = self.r.cfg.index.get(&from).copied().filter(|f| self.last.contains_key(f)) else { continue };
                let nb = self.last[&fi];
                unsafe { LLVMPositionBuilderBefore(self.b, LLVMGetBasicBlockTerminator(nb)) };
                let v = unsafe { LLVMGetIncomingValue(old, k) };
                let x = self.operand(v, fi)?;
                let pv = self.phi_value(x, unsafe { LLVMTypeOf(v) }, uni)?;
                let mut vals = [pv];
                let mut bbs = [nb];
                unsafe { LLVMAddIncoming(new, vals.as_mut_ptr(), bbs.as_mut_ptr(), 1) };
            }
        }
        Ok(())
    }

    /// Values defined in each loop and used outside it.
    fn live_out(&self, order: &[usize]) -> Vec<Vec<LLVMValueRef>> {
        let nest = self.r.nest;
        let mut out = vec![Vec::new(); nest.loops.len()];
        for &b in order {
            let loops = nest.loops_of(b);
            if loops.is_empty() {
                continue;
            }
            for i in ir::instructions(self.r.cfg.blocks[b]) {
                for u in ir::users(i) {
                    let n = unsafe { LLVMGetNumOperands(u) } as u32;
                    for k in (0..n).filter(|&k| unsafe { LLVMGetOperand(u, k) } == i) {
                        let Some(ub) = use_block(self, u, k) else { continue };
                        for &l in &loops {
                            if !nest.contains(l, ub) && !out[l].contains(&i) {
                                out[l].push(i);
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// The region linearized (seed §2.1.3), entered from the open block `start` with mask `m`.
    pub fn emit_linear(&mut self, order: &[usize], m: Mask, start: LLVMBasicBlockRef) -> R<()> {
        self.linearized = true;
        let cx = self.cx;
        let nest = self.r.nest;
        let cfg = self.r.cfg;
        for k in 0..nest.loops.len() {
            for (from, to) in nest.exits(cfg, k) {
                let inner = nest.loops_of(from);
                if nest.loops_of(to) != inner[inner.iter().position(|&x| x == k).unwrap_or(0) + 1..] {
                    return Err("a branch out of two nested loops at once".into());
                }
            }
        }
        let live = self.live_out(order);
        // Per loop: header mask phi, exit accumulators, result phis, this iteration's exit mask.
        let mut hmask: HashMap<usize, LLVMValueRef> = HashMap::new();
        let mut acc: HashMap<(usize, usize), LLVMValueRef> = HashMap::new();
        let mut res: HashMap<(usize, LLVMValueRef), LLVMValueRef> = HashMap::new();
        let mut now: HashMap<usize, Mask> = HashMap::new();
        let mut hphis: HashMap<usize, Vec<(LLVMValueRef, LLVMValueRef, bool)>> = HashMap::new();
        self.at_end(start);
        for &b in order {
            let bb = cfg.blocks[b];
            let header = nest.header_of(b);
            // Values entering a loop header: materialized in the block before it.
            let mut entering = Vec::new();
            if let Some(k) = header {
                let pre = nest.preheader[k];
                for i in ir::instructions(bb).into_iter().filter(|&i| ir::opcode(i) == O::LLVMPHI) {
                    let n = unsafe { LLVMCountIncoming(i) };
                    let v = (0..n)
                        .find(|&j| unsafe { LLVMGetIncomingBlock(i, j) } == cfg.blocks[pre])
                        .map(|j| unsafe { LLVMGetIncomingValue(i, j) })
                        .ok_or("internal: a header phi without its preheader's value")?;
                    let (uni, _) = self.phi_ty(i);
                    let x = self.operand(v, pre)?;
                    entering.push(self.phi_value(x, unsafe { LLVMTypeOf(v) }, uni)?);
                }
            }
            let entering_mask = header.map(|k| self.emask.get(&(nest.preheader[k], b)).copied().unwrap_or(Mask::V(cx.zeros())));
            let entering_mask = entering_mask.map(|em| em.value(cx));
            let before = self.cur();
            let nb = self.new_block("wfv");
            self.br(nb);
            self.at_end(nb);
            self.first.insert(b, nb);
            let bm = if b == self.r.entry || self.r.attrs.by_all[b] {
                m
            } else if let Some(k) = header {
                let phi = unsafe { LLVMBuildPhi(self.b, cx.mask_ty(), nm()) };
                let mut vals = [entering_mask.unwrap_or(cx.zeros())];
                let mut bbs = [before];
                unsafe { LLVMAddIncoming(phi, vals.as_mut_ptr(), bbs.as_mut_ptr(), 1) };
                hmask.insert(k, phi);
                Mask::V(phi)
            } else {
                let mut acc_m: Option<Mask> = None;
                for &p in &cfg.preds[b] {
                    if let Some(&em) = self.emask.get(&(p, b)) {
                        acc_m = Some(match acc_m {
                            None => em,
                            Some(x) => mask::or(self.b, x, em),
                        });
                    }
                }
                acc_m.unwrap_or(Mask::V(cx.zeros()))
            };
            self.bmask.insert(b, bm);
            // Phis.
            let mut ent = entering.into_iter();
            for i in ir::instructions(bb).into_iter().filter(|&i| ir::opcode(i) == O::LLVMPHI) {
                if self.map.contains_key(&i) {
                    continue;
                }
                if let Some(k) = header {
                    let (uni, t) = self.phi_ty(i);
                    let p = unsafe { LLVMBuildPhi(self.b, t, nm()) };
                    let mut vals = [ent.next().ok_or("internal: phi count")?];
                    let mut bbs = [before];
                    unsafe { LLVMAddIncoming(p, vals.as_mut_ptr(), bbs.as_mut_ptr(), 1) };
                    self.map.insert(i, if uni { VVal::Uni(p) } else { VVal::Vec(p) });
                    hphis.entry(k).or_default().push((i, p, uni));
                    continue;
                }
                let n = unsafe { LLVMCountIncoming(i) };
                let t = unsafe { LLVMTypeOf(i) };
                let mut sel: Option<VVal> = None;
                for j in 0..n {
                    let from = unsafe { LLVMGetIncomingBlock(i, j) };
                    let Some(fi) = cfg.index.get(&from).copied() else { continue };
                    let Some(&em) = self.emask.get(&(fi, b)) else { continue };
                    let x = self.operand(unsafe { LLVMGetIncomingValue(i, j) }, use_block(self, i, j).unwrap_or(b))?;
                    sel = Some(match sel {
                        None => x,
                        Some(prev) if prev == x => x,
                        Some(prev) => {
                            let (a, p) = (self.vector(x, t), self.vector(prev, t));
                            VVal::Vec(unsafe { LLVMBuildSelect(self.b, em.value(cx), a, p, nm()) })
                        }
                    });
                }
                let v = sel.unwrap_or(VVal::Uni(unsafe { LLVMGetPoison(t) }));
                self.map.insert(i, v);
            }
            if let Some(k) = header {
                // Exit accumulators and result vectors start empty on entry.
                for (from, to) in nest.exits(cfg, k) {
                    let p = unsafe { LLVMBuildPhi(self.b, cx.mask_ty(), nm()) };
                    let mut vals = [cx.zeros()];
                    let mut bbs = [before];
                    unsafe { LLVMAddIncoming(p, vals.as_mut_ptr(), bbs.as_mut_ptr(), 1) };
                    acc.insert((from, to), p);
                }
                for &v in &live[k] {
                    let t = cx.vty(unsafe { LLVMTypeOf(v) });
                    let p = unsafe { LLVMBuildPhi(self.b, t, nm()) };
                    let mut vals = [unsafe { LLVMGetPoison(t) }];
                    let mut bbs = [before];
                    unsafe { LLVMAddIncoming(p, vals.as_mut_ptr(), bbs.as_mut_ptr(), 1) };
                    res.insert((k, v), p);
                }
                now.insert(k, Mask::V(cx.zeros()));
            }
            let by_all = b == self.r.entry || self.r.attrs.by_all[b];
            if self.cx.level == super::Level::All && self.cx.boscc && header.is_none() && !by_all && worth_a_branch(bb) {
                self.body_on_superword(b, bm)?;
            } else {
                self.body(b, bm)?;
            }
            unsafe { LLVMSetCurrentDebugLocation2(self.b, std::ptr::null_mut()) };
            if self.r.exits.contains(&b) {
                self.last.insert(b, self.cur());
                continue;
            }
            self.edges(b, bm)?;
            // Exit edges: accumulate.
            for &k in &nest.loops_of(b) {
                for &s in &cfg.succs[b] {
                    if nest.contains(k, s) {
                        continue;
                    }
                    let Some(&em) = self.emask.get(&(b, s)) else { continue };
                    let n0 = now[&k];
                    now.insert(k, mask::or(self.b, n0, em));
                    if let Some(&a) = acc.get(&(b, s)) {
                        let upd = mask::or(self.b, Mask::V(a), em);
                        self.emask.insert((b, s), upd);
                    }
                }
            }
            if let Some(k) = nest.inner[b].filter(|&k| nest.latch[k] == b) {
                let h = nest.loops[k].header;
                let cont = self.emask.get(&(b, h)).copied().unwrap_or(Mask::V(cx.zeros()));
                let exits_now = now[&k].value(cx);
                for &v in &live[k] {
                    let t = unsafe { LLVMTypeOf(v) };
                    let x = self.operand(v, b)?;
                    let rep = self.vector(x, t);
                    let r = res[&(k, v)];
                    let upd = unsafe { LLVMBuildSelect(self.b, exits_now, rep, r, nm()) };
                    self.loop_out.insert((k, v), upd);
                }
                let mut incoming: Vec<(LLVMValueRef, LLVMValueRef)> = Vec::new();
                incoming.push((hmask[&k], cont.value(cx)));
                for (from, to) in nest.exits(cfg, k) {
                    let upd = self.emask.get(&(from, to)).map(|m| m.value(cx)).unwrap_or(cx.zeros());
                    incoming.push((acc[&(from, to)], upd));
                }
                for &v in &live[k] {
                    incoming.push((res[&(k, v)], self.loop_out[&(k, v)]));
                }
                for (old, new, uni) in hphis.remove(&k).unwrap_or_default() {
                    let n = unsafe { LLVMCountIncoming(old) };
                    let j = (0..n).find(|&j| unsafe { LLVMGetIncomingBlock(old, j) } == cfg.blocks[b]).ok_or("internal: latch value")?;
                    let v = unsafe { LLVMGetIncomingValue(old, j) };
                    let x = self.operand(v, b)?;
                    incoming.push((new, self.phi_value(x, unsafe { LLVMTypeOf(v) }, uni)?));
                }
                let any = mask::any(cx, self.b, cont);
                let end = self.cur();
                for (phi, v) in incoming {
                    let mut vals = [v];
                    let mut bbs = [end];
                    unsafe { LLVMAddIncoming(phi, vals.as_mut_ptr(), bbs.as_mut_ptr(), 1) };
                }
                let after = self.new_block("wfv.loop.exit");
                unsafe { LLVMBuildCondBr(self.b, any, self.first[&h], after) };
                self.at_end(after);
            }
            self.last.insert(b, self.cur());
        }
        self.ends.push(self.cur());
        Ok(())
    }

    /// The edge masks of `b`'s terminator (and its return, if it returns).
    fn edges(&mut self, b: usize, bm: Mask) -> R<()> {
        let cx = self.cx;
        let t = unsafe { LLVMGetBasicBlockTerminator(self.r.cfg.blocks[b]) };
        let succ = |k: u32| self.r.cfg.index[&unsafe { LLVMGetSuccessor(t, k) }];
        match ir::opcode(t) {
            O::LLVMBr if unsafe { LLVMIsConditional(t) } != 0 => {
                let (x, y) = (succ(0), succ(1));
                let c = self.operand(unsafe { LLVMGetCondition(t) }, b)?;
                let (mt, mf) = match c {
                    VVal::Uni(c) => (mask::and_uniform(cx, self.b, bm, c, true), mask::and_uniform(cx, self.b, bm, c, false)),
                    x => {
                        let v = self.vector(x, cx.i1());
                        (mask::and(self.b, bm, Mask::V(v)), mask::and_not(cx, self.b, bm, v))
                    }
                };
                if x == y {
                    self.emask.insert((b, x), bm);
                } else {
                    self.emask.insert((b, x), mt);
                    self.emask.insert((b, y), mf);
                }
            }
            O::LLVMBr => {
                self.emask.insert((b, succ(0)), bm);
            }
            O::LLVMSwitch => {
                let cond = unsafe { LLVMGetOperand(t, 0) };
                let ty = unsafe { LLVMTypeOf(cond) };
                let x = self.operand(cond, b)?;
                let xv = self.vector(x, ty);
                let n = unsafe { LLVMGetNumSuccessors(t) };
                let mut per: HashMap<usize, LLVMValueRef> = HashMap::new();
                let mut any_case = cx.zeros();
                for k in 1..n {
                    let val = unsafe { LLVMGetOperand(t, 2 * k) };
                    let eq = unsafe { LLVMBuildICmp(self.b, inkwell::llvm_sys::LLVMIntPredicate::LLVMIntEQ, xv, cx.splat_const(val), nm()) };
                    any_case = unsafe { LLVMBuildOr(self.b, any_case, eq, nm()) };
                    let s = succ(k);
                    let prev = per.get(&s).copied().unwrap_or(cx.zeros());
                    per.insert(s, unsafe { LLVMBuildOr(self.b, prev, eq, nm()) });
                }
                let d = succ(0);
                let not_any = unsafe { LLVMBuildXor(self.b, any_case, cx.ones(), nm()) };
                let prev = per.get(&d).copied().unwrap_or(cx.zeros());
                per.insert(d, unsafe { LLVMBuildOr(self.b, prev, not_any, nm()) });
                for (s, c) in per {
                    let em = mask::and(self.b, bm, Mask::V(c));
                    self.emask.insert((b, s), em);
                }
            }
            O::LLVMRet => {
                let v = self.ret_value(t, b)?;
                self.rets.push((bm, v));
            }
            O::LLVMUnreachable => {}
            op => return Err(format!("an unsupported terminator ({op:?})")),
        }
        Ok(())
    }

    /// Ends a linearized function: the return values selected by their masks.
    pub fn finish_returns(&mut self, void: bool) {
        let mut v: Option<LLVMValueRef> = None;
        for (m, r) in std::mem::take(&mut self.rets) {
            let Some(r) = r else { continue };
            v = Some(match v {
                None => r,
                Some(p) => unsafe { LLVMBuildSelect(self.b, m.value(self.cx), r, p, nm()) },
            });
        }
        unsafe {
            match v {
                Some(v) if !void => LLVMBuildRet(self.b, v),
                _ => LLVMBuildRetVoid(self.b),
            };
        }
    }
}

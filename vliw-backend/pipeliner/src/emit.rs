//! Building the few ordinary instructions the pipeliner adds (the trip-count
//! guard, the run-time overlap checks, the kernel's pass count), each found
//! in the `.isa` by its semantics.

use dsp_mir::builder::sem_inst;
use dsp_mir::{Guard, Inst, Machine, Operand, Reg, RegFileId};
use isa_tablegen::{ArgPat, InstrId, SemOp, Ty, Want};

pub struct Emit<'a> {
    pub m: &'a Machine,
    pub int: RegFileId,
    pub pred: RegFileId,
}

fn pat(o: &Operand, f: &dyn Fn(&Reg) -> RegFileId) -> ArgPat {
    match o {
        Operand::Reg(r) => ArgPat::Reg(f(r)),
        Operand::Imm(v) => ArgPat::Imm(*v),
        _ => ArgPat::SymImm,
    }
}

impl<'a> Emit<'a> {
    /// The instruction for `dst = op.ty(args)`; immediates that do not fit are
    /// the caller's to avoid (see [`Emit::op`]).
    fn find(&self, op: SemOp, tys: &[Ty], dst: RegFileId, args: &[ArgPat]) -> Option<InstrId> {
        tys.iter().find_map(|&ty| {
            self.m.find_instr(&Want { op, ty: Some(ty), ty2: None, dst: Some(dst), args })
        })
    }

    /// `dst = op(a, b)` over 32-bit values: registers, or immediates
    /// (loaded with `li` first when no immediate form takes them).
    pub fn op(
        &self,
        out: &mut Vec<Inst>,
        new_vreg: &mut dyn FnMut(RegFileId) -> Reg,
        file_of: &dyn Fn(&Reg) -> RegFileId,
        op: SemOp,
        tys: &[Ty],
        dst_file: RegFileId,
        args: &[Operand],
    ) -> Result<Reg, String> {
        let pats: Vec<ArgPat> = args.iter().map(|a| pat(a, file_of)).collect();
        let dst = new_vreg(dst_file);
        if let Some(id) = self.find(op, tys, dst_file, &pats) {
            out.push(sem_inst(self.m, id, Some(Operand::Reg(dst)), args, None));
            return Ok(dst);
        }
        // Registers for the immediates.
        let mut regs = Vec::new();
        for a in args {
            match a {
                Operand::Imm(v) => regs.push(Operand::Reg(self.li(out, new_vreg, *v)?)),
                o => regs.push(o.clone()),
            }
        }
        let pats: Vec<ArgPat> = regs.iter().map(|a| pat(a, file_of)).collect();
        let id = self
            .find(op, tys, dst_file, &pats)
            .ok_or_else(|| format!("the machine has no '{}' instruction for the loop guard", op.name()))?;
        out.push(sem_inst(self.m, id, Some(Operand::Reg(dst)), &regs, None));
        Ok(dst)
    }

    /// `dst = v` (a 32-bit constant).
    pub fn li(&self, out: &mut Vec<Inst>, new_vreg: &mut dyn FnMut(RegFileId) -> Reg, v: i64) -> Result<Reg, String> {
        let dst = new_vreg(self.int);
        let id = [Ty::I32, Ty::U32]
            .iter()
            .find_map(|&ty| self.m.find_instr(&Want { op: SemOp::Mov, ty: Some(ty), ty2: None, dst: Some(self.int), args: &[ArgPat::Imm(v)] }))
            .ok_or("the machine has no load-immediate")?;
        out.push(sem_inst(self.m, id, Some(Operand::Reg(dst)), &[Operand::Imm(v)], None));
        Ok(dst)
    }

    /// `(x div k, x mod k)` for an unsigned 32-bit `x`: a shift and a mask
    /// for a power of two, else the high half of a product by
    /// [`magic`]`(k)`, shifted, and `x − q·k` (`k` must pass [`divides_by`]).
    pub fn div_rem(
        &self,
        out: &mut Vec<Inst>,
        new_vreg: &mut dyn FnMut(RegFileId) -> Reg,
        file_of: &dyn Fn(&Reg) -> RegFileId,
        x: Reg,
        k: u32,
    ) -> Result<(Reg, Reg), String> {
        let int = self.int;
        if k == 1 {
            return Ok((x, self.li(out, new_vreg, 0)?));
        }
        if k.is_power_of_two() {
            let q = self.op(out, new_vreg, file_of, SemOp::Shr, &[Ty::U32], int, &[Operand::Reg(x), Operand::Imm(k.trailing_zeros() as i64)])?;
            let r = self.op(out, new_vreg, file_of, SemOp::And, &[Ty::I32, Ty::U32], int, &[Operand::Reg(x), Operand::Imm(k as i64 - 1)])?;
            return Ok((q, r));
        }
        let (mult, shift) = magic(k).ok_or_else(|| format!("no 32-bit reciprocal divides by {k}"))?;
        let mreg = self.li(out, new_vreg, mult as i32 as i64)?;
        let hi = self.op(out, new_vreg, file_of, SemOp::MulHi, &[Ty::U32], int, &[Operand::Reg(x), Operand::Reg(mreg)])?;
        let q = self.op(out, new_vreg, file_of, SemOp::Shr, &[Ty::U32], int, &[Operand::Reg(hi), Operand::Imm(shift as i64)])?;
        let qk = self.op(out, new_vreg, file_of, SemOp::Mul, &[Ty::I32, Ty::U32], int, &[Operand::Reg(q), Operand::Imm(k as i64)])?;
        let r = self.op(out, new_vreg, file_of, SemOp::Sub, &[Ty::I32, Ty::U32], int, &[Operand::Reg(x), Operand::Reg(qk)])?;
        Ok((q, r))
    }

    #[allow(dead_code)]
    pub fn guard(reg: Reg) -> Guard {
        Guard::new(reg, false)
    }
}

/// The multiplier `M` and shift `s` with `x div k = (x·M div 2^32) div 2^s`
/// for every unsigned 32-bit `x`, for `k` not a power of two
/// (Granlund and Montgomery, "Division by invariant integers using
/// multiplication", PLDI 1994, §4): `2^s < k`, `M = ⌈2^(32+s) / k⌉` fits
/// in 32 bits, and exact when `M·k − 2^(32+s) ≤ 2^s`. `None` where that
/// fails (7, for one) or `k` is 0, 1 or a power of two.
pub fn magic(k: u32) -> Option<(u32, u32)> {
    if k < 3 || k.is_power_of_two() {
        return None;
    }
    let s = 31 - k.leading_zeros();
    let p = 1u64 << (32 + s);
    let mult = p.div_ceil(k as u64);
    let err = mult * k as u64 - p;
    (mult <= u32::MAX as u64 && err <= 1u64 << s).then_some((mult as u32, s))
}

/// Whether [`Emit::div_rem`] can divide by `k` on `m`: a power of two, or
/// a [`magic`] multiplier with the machine's unsigned high multiply.
pub fn divides_by(m: &Machine, k: u32) -> bool {
    if k.is_power_of_two() {
        return true;
    }
    let Some(int) = m.scalar_file(Ty::I32) else { return false };
    let has = |op: SemOp, ty: Ty, args: &[ArgPat]| m.find_instr(&Want { op, ty: Some(ty), ty2: None, dst: Some(int), args }).is_some();
    let rr = [ArgPat::Reg(int), ArgPat::Reg(int)];
    magic(k).is_some()
        && has(SemOp::MulHi, Ty::U32, &rr)
        && (has(SemOp::Mul, Ty::I32, &rr) || has(SemOp::Mul, Ty::U32, &rr))
        && (has(SemOp::Sub, Ty::I32, &rr) || has(SemOp::Sub, Ty::U32, &rr))
        && has(SemOp::Shr, Ty::U32, &rr)
}

#[cfg(test)]
mod tests {
    use super::magic;

    #[test]
    fn magic_multipliers_divide_every_tested_32_bit_value() {
        for k in 3..=64u32 {
            let Some((mult, s)) = magic(k) else {
                assert!(![3, 5, 6, 10, 12].contains(&k), "{k}");
                continue;
            };
            let edge = [0u32, 1, k - 1, k, k + 1, u32::MAX, u32::MAX - 1, u32::MAX / k * k, u32::MAX / k * k - 1, 1 << 31];
            let mut x = 0x9e37_79b9u32;
            for v in edge.into_iter().chain((0..20_000).map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                x
            })) {
                let q = (((v as u64 * mult as u64) >> 32) >> s) as u32;
                assert_eq!(q, v / k, "{v} / {k}");
            }
        }
        assert_eq!(magic(3), Some((0xaaaa_aaab, 1)));
        assert_eq!(magic(7), None);
        assert_eq!(magic(8), None);
    }
}

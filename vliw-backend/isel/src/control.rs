//! Control flow: unconditional and conditional branches, `switch` as a
//! balanced tree of compares (equality tests at the leaves, an unsigned
//! less-than at each inner node), `indirectbr` (computed goto: an
//! `IndirectJump` through the address register, its destinations the
//! successors), `unreachable`, and `ret` (through `call`).

use dsp_mir::{Block, Reg, Terminator};
use isa_tablegen::SemOp;

use crate::emit::A;
use crate::function::{sext, Fx};
use crate::inst::{compare, zext_arg};
use crate::llvm::{Op, V};
use crate::types::Sc;

/// Cases tested one after another at a leaf of the switch tree.
const LEAF_CASES: usize = 3;

pub fn lower_terminator(fx: &mut Fx, i: V, op: Op) -> Result<(), String> {
    match op {
        Op::LLVMRet => crate::call::lower_ret(fx, i),
        Op::LLVMUnreachable => {
            fx.terminate(Terminator::Unreachable);
            Ok(())
        }
        Op::LLVMBr => {
            let succ = i.successors();
            if i.is_conditional() {
                let c = fx.reg(i.condition())?;
                let (t, f) = (fx.bmap[&succ[0]], fx.bmap[&succ[1]]);
                if t == f {
                    fx.terminate(Terminator::Jump(t));
                } else {
                    fx.terminate(Terminator::Branch { cond: c, negate: false, taken: t, not_taken: f });
                }
            } else {
                let t = fx.bmap[&succ[0]];
                fx.terminate(Terminator::Jump(t));
            }
            Ok(())
        }
        Op::LLVMSwitch => lower_switch(fx, i),
        _ => Err(format!("terminator '{op:?}' is not supported")),
    }
}

/// `indirectbr ptr %p, [label %a, ...]`: a jump through the register of
/// `%p` to one of the listed blocks (whose addresses `blockaddress` took).
pub fn lower_indirect_br(fx: &mut Fx, i: V) -> Result<(), String> {
    let target = fx.reg(i.operand(0))?;
    let mut targets: Vec<Block> = Vec::new();
    for s in i.successors() {
        let b = fx.bmap[&s];
        if !targets.contains(&b) {
            targets.push(b);
        }
    }
    if targets.is_empty() {
        fx.terminate(Terminator::Unreachable);
    } else {
        fx.terminate(Terminator::IndirectJump { target, targets });
    }
    Ok(())
}

impl<'a> Fx<'a> {
    pub fn terminate(&mut self, t: Terminator) {
        let cur = self.cur;
        self.f.block_mut(cur).term = t;
    }
}

fn lower_switch(fx: &mut Fx, i: V) -> Result<(), String> {
    let cond = i.operand(0);
    let bits = Fx::int_bits(cond.ty()).ok_or("switch on a non-integer")?;
    let sc = if bits == 1 { Sc::Int(8) } else { Sc::Int(bits) };
    let default = fx.bmap[&i.switch_default()];
    // Operands: cond, default, then (value, dest) pairs.
    let mut cases: Vec<(u64, Block)> = Vec::new();
    let ops = i.operands();
    let succ = i.successors();
    for (k, pair) in ops[2..].chunks(2).enumerate() {
        let (x, b) = pair[0].const_int().ok_or("switch case is not a constant")?;
        let mask = if b >= 64 { u64::MAX } else { (1u64 << b) - 1 };
        cases.push((x & mask, fx.bmap[&succ[k + 1]]));
    }
    if cases.is_empty() {
        fx.terminate(Terminator::Jump(default));
        return Ok(());
    }
    cases.sort_by_key(|c| c.0);
    // The value, zero-extended, in a register.
    let file = fx.sc_file(sc)?;
    let v = if bits == 1 {
        let p = fx.reg(cond)?;
        crate::inst::pred_to_int(fx, p)?
    } else {
        let a = fx.arg(cond)?;
        let a = zext_arg(fx, a, bits)?;
        crate::inst::as_reg(fx, a, file)?
    };
    let ty = sc.arith_ty(false);
    let width = if bits > 32 { 64 } else { 32 };
    tree(fx, v, ty, width, &cases, default)
}

/// The immediate for case value `x` (zero-extended) in a `width`-bit compare.
fn case_imm(x: u64, width: u32) -> A {
    A::I(if width == 64 { x as i64 } else { sext(x, 32) })
}

fn tree(fx: &mut Fx, v: Reg, ty: isa_tablegen::Ty, width: u32, cases: &[(u64, Block)], default: Block) -> Result<(), String> {
    if cases.len() <= LEAF_CASES {
        for (k, (x, dest)) in cases.iter().enumerate() {
            let p = compare(fx, SemOp::Eq, ty, A::R(v), case_imm(*x, width))?;
            let last = k + 1 == cases.len();
            let next = if last { default } else { fx.new_block("switch") };
            fx.terminate(Terminator::Branch { cond: p, negate: false, taken: *dest, not_taken: next });
            if last {
                break;
            }
            fx.cur = next;
        }
        return Ok(());
    }
    let mid = cases.len() / 2;
    let pivot = cases[mid].0;
    let p = compare(fx, SemOp::Lt, ty, A::R(v), A::I(pivot as i64))?;
    let lo = fx.new_block("switch");
    let hi = fx.new_block("switch");
    fx.terminate(Terminator::Branch { cond: p, negate: false, taken: lo, not_taken: hi });
    fx.cur = lo;
    tree(fx, v, ty, width, &cases[..mid], default)?;
    fx.cur = hi;
    tree(fx, v, ty, width, &cases[mid..], default)
}

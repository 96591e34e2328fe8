//! The bound the C semantics allow: a kernel's resource bound
//! ([`crate::bound`]) and, for strict IEEE floating point, the length of its
//! longest dependence chain, computed from the `.isa`'s latencies.
//!
//! C does not let the compiler reassociate floating-point arithmetic
//! (without `-ffast-math` / `-fassociative-math`): a float reduction kept in
//! source order, such as `dot_f32`'s `s = a[i] * b[i] + s` (a chain of N
//! fused MACs under clang's `-ffp-contract=on`), cannot finish in fewer
//! cycles than (chain length) × (latency of the operation on the chain), its
//! recurrence, however many units the machine has. The model:
//!
//! 1. Each kernel lists its candidate longest chains
//!    ([`crate::kernels::Kernel::chains`]): the operations on a dependence
//!    path and how many of each, as formulas of `SIZE`.
//! 2. A chain binds only when every operation on it is a floating-point one
//!    and the build keeps IEEE semantics ([`FpSemantics::Strict`]); integer
//!    sums may be reassociated (the compiler splits them into independent
//!    partial sums), so integer kernels have only the resource bound.
//! 3. Each operation on the chain costs the `.isa` latency of the scalar
//!    instruction the machine would use for it (the chain is sequential: one
//!    element at a time, so the scalar form; found by semantics like
//!    [`crate::bound::map_op`], over the scalar file of the type). A
//!    multiply-accumulate the machine lacks counts as its add alone (a path
//!    through the addend need not wait for the multiply).
//! 4. The chain bound is the longest chain's cycles; the kernel's bound is
//!    max(resource bound, chain bound) ([`KernelBound`]). Chains that are
//!    short and independent across outputs (`fir`'s 16-tap sums, `matmul`'s k
//!    sums) are listed too and simply never exceed the resource bound.
//!
//! Under [`FpSemantics::Reassociable`] (`-ffast-math` or
//! `-fassociative-math` among the build's flags) the chains are dropped and
//! only the resource bound applies. Not modelled: a reassociated
//! recurrence's own shorter chain (the IIR filter stays a recurrence even
//! then), loads and address arithmetic on the chain, branch delays.

use std::fmt::Write as _;

use isa_tablegen::{InstrId, Machine};

use crate::bound::{arith, bound, Bound};
use crate::kernels::{Kernel, OpCount};

/// Whether the build keeps C's floating-point semantics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FpSemantics {
    /// IEEE, source order: float chains bind.
    Strict,
    /// Reassociation allowed (`-ffast-math`, `-fassociative-math`): only
    /// the resource bound applies.
    Reassociable,
}

impl FpSemantics {
    /// The semantics of a build with these compiler flags (the last of
    /// `-f[no-]fast-math` / `-f[no-]associative-math` decides, like clang).
    pub fn of_flags<S: AsRef<str>>(flags: &[S]) -> FpSemantics {
        let mut sem = FpSemantics::Strict;
        for f in flags {
            match f.as_ref() {
                "-ffast-math" | "-fassociative-math" => sem = FpSemantics::Reassociable,
                "-fno-fast-math" | "-fno-associative-math" => sem = FpSemantics::Strict,
                _ => {}
            }
        }
        sem
    }

    /// Which bound applies, for the table's heading.
    pub fn describe(self) -> &'static str {
        match self {
            FpSemantics::Strict => {
                "bound = max(resource bound, longest strict-IEEE float chain × scalar latencies)"
            }
            FpSemantics::Reassociable => {
                "bound = resource bound only (-ffast-math/-fassociative-math: float chains may be reassociated)"
            }
        }
    }
}

/// One operation kind on a chain with the instruction it takes.
#[derive(Clone, Debug, PartialEq)]
pub struct ChainStep {
    pub op: OpCount,
    /// The scalar instruction(s) doing it (a multiply and an add for a
    /// multiply-accumulate the machine lacks).
    pub instrs: Vec<InstrId>,
    /// The cycles one operation adds to the chain.
    pub latency: u32,
}

/// The longest chain of a kernel on a machine.
#[derive(Clone, Debug, PartialEq)]
pub struct ChainBound {
    pub cycles: f64,
    pub steps: Vec<ChainStep>,
}

impl ChainBound {
    /// `256×fmac(4)`, `769×fmac(4)`, `8×fmul(3)+8×fmac(4)+8×fadd(3)`.
    pub fn describe(&self, m: &Machine) -> String {
        let mut s = String::new();
        for (i, st) in self.steps.iter().enumerate() {
            let names: Vec<&str> = st
                .instrs
                .iter()
                .map(|&i| m.instr(i).mnemonic.as_str())
                .collect();
            let _ = write!(
                s,
                "{}{}×{}({})",
                if i > 0 { "+" } else { "" },
                st.op.count,
                names.join("+"),
                st.latency
            );
        }
        s
    }
}

/// The cycles one `op` adds to a dependence chain on `m`: the latency of
/// its scalar instruction (for a multiply-accumulate made of a multiply and
/// an add, the add's).
pub fn chain_step(m: &Machine, op: OpCount) -> Result<ChainStep, String> {
    let missing = || {
        format!(
            "machine '{}' has no scalar instruction for {}.{}",
            m.name,
            op.kind.name(),
            op.ty
        )
    };
    let file = m.scalar_file(op.ty).ok_or_else(missing)?;
    let instrs = arith(m, op.kind, op.ty, file).ok_or_else(missing)?;
    let latency = instrs
        .last()
        .map(|&i| m.instr(i).latency)
        .ok_or_else(missing)?;
    Ok(ChainStep {
        op,
        instrs,
        latency,
    })
}

/// The longest of `chains` that binds under strict IEEE semantics (every
/// operation on it floating-point), or `None` when none does.
pub fn chain_bound(m: &Machine, chains: &[Vec<OpCount>]) -> Result<Option<ChainBound>, String> {
    let mut best: Option<ChainBound> = None;
    for chain in chains {
        if chain.is_empty() || !chain.iter().all(|o| o.ty.is_float()) {
            continue;
        }
        let steps = chain
            .iter()
            .map(|&o| chain_step(m, o))
            .collect::<Result<Vec<_>, _>>()?;
        let cycles: f64 = steps
            .iter()
            .map(|s| s.op.count as f64 * s.latency as f64)
            .sum();
        if best.as_ref().is_none_or(|b| cycles > b.cycles) {
            best = Some(ChainBound { cycles, steps });
        }
    }
    Ok(best)
}

/// A kernel's bounds on a machine: the resource bound and the chain bound
/// that applies (`None` when no chain binds or the semantics allow
/// reassociation).
#[derive(Clone, Debug, PartialEq)]
pub struct KernelBound {
    pub resource: Bound,
    pub chain: Option<ChainBound>,
}

impl KernelBound {
    /// The bound the semantics allow: max(resource, chain).
    pub fn cycles(&self) -> f64 {
        self.chain
            .as_ref()
            .map_or(self.resource.cycles, |c| c.cycles.max(self.resource.cycles))
    }

    /// Whether the chain sets the bound.
    pub fn chain_binds(&self) -> bool {
        self.chain
            .as_ref()
            .is_some_and(|c| c.cycles > self.resource.cycles)
    }

    /// What sets the bound: `chain` or the resource's name.
    pub fn limit(&self) -> String {
        if self.chain_binds() {
            "chain".to_string()
        } else {
            self.resource.limit.clone()
        }
    }
}

/// The bounds of `kernel` at `size` on `m` under `sem`.
pub fn kernel_bound(
    m: &Machine,
    kernel: &Kernel,
    size: u64,
    sem: FpSemantics,
) -> Result<KernelBound, String> {
    let resource = bound(m, &(kernel.ops)(size))?;
    let chain = match sem {
        FpSemantics::Strict => chain_bound(m, &(kernel.chains)(size))?,
        FpSemantics::Reassociable => None,
    };
    Ok(KernelBound { resource, chain })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::{find, OpKind, KERNELS};
    use isa_tablegen::{builtin, SemOp, Ty};

    /// The latency of the scalar instruction with this semantics writing
    /// the scalar file, by a direct scan of the machine.
    fn scalar_latency(m: &Machine, op: SemOp, ty: Ty) -> u32 {
        let f = m.scalar_file(ty).unwrap();
        m.instrs
            .iter()
            .filter(|i| i.sem.op == op && i.sem.ty == Some(ty))
            .filter(|i| {
                i.sem.dst.is_some_and(|d| {
                    i.operands[d.0].kind == isa_tablegen::OperandKind::Reg(f)
                }) && i.sem.args.iter().all(|a| {
                    i.operands[a.0].kind == isa_tablegen::OperandKind::Reg(f)
                })
            })
            .map(|i| i.latency)
            .min()
            .unwrap()
    }

    #[test]
    fn dot_f32_is_bound_by_its_mac_chain_on_every_machine() {
        for name in builtin::names() {
            let m = Machine::load(name).unwrap();
            let k = find("dot_f32").unwrap();
            let mac = scalar_latency(&m, SemOp::Mac, Ty::F32) as f64;
            for n in k.sizes {
                let b = kernel_bound(&m, k, n, FpSemantics::Strict).unwrap();
                assert_eq!(b.chain.as_ref().unwrap().cycles, n as f64 * mac, "{name}");
                assert!(b.chain_binds() && b.cycles() == n as f64 * mac);
                assert_eq!(b.limit(), "chain");
                // Reassociation allowed: the resource bound alone.
                let fast = kernel_bound(&m, k, n, FpSemantics::Reassociable).unwrap();
                assert_eq!(fast.chain, None);
                assert_eq!(fast.cycles(), b.resource.cycles);
            }
        }
    }

    #[test]
    fn ftm_figures() {
        let m = Machine::load("ftm").unwrap();
        // fmac has latency 4 on ftm.
        let b = kernel_bound(&m, find("dot_f32").unwrap(), 4096, FpSemantics::Strict).unwrap();
        assert_eq!(b.cycles(), 4.0 * 4096.0);
        assert_eq!(b.chain.unwrap().describe(&m), "4096×fmac(4)");
        // IIR: 3N + 1 MACs (the multiply path is shorter: fmul 3 < 2 × fmac).
        let b = kernel_bound(&m, find("iir").unwrap(), 256, FpSemantics::Strict).unwrap();
        assert_eq!(b.cycles(), 4.0 * (3.0 * 256.0 + 1.0));
        // FIR: a 16-MAC chain is far below the resource bound.
        let b = kernel_bound(&m, find("fir").unwrap(), 256, FpSemantics::Strict).unwrap();
        assert_eq!(b.chain.as_ref().unwrap().cycles, 64.0);
        assert!(!b.chain_binds());
        assert_eq!(b.cycles(), b.resource.cycles);
    }

    #[test]
    fn integer_kernels_have_no_chain_and_every_bound_is_at_least_the_resource_bound() {
        for name in builtin::names() {
            let m = Machine::load(name).unwrap();
            for k in KERNELS {
                for n in k.sizes {
                    let b = kernel_bound(&m, k, n, FpSemantics::Strict).unwrap();
                    assert!(b.cycles() >= b.resource.cycles, "{name} {}", k.name);
                    let float = (k.ops)(n).iter().any(|o| o.ty.is_float());
                    assert_eq!(b.chain.is_some(), float, "{name} {}", k.name);
                }
            }
        }
    }

    #[test]
    fn an_integer_chain_never_binds() {
        let m = Machine::load("ftm").unwrap();
        let chain = vec![vec![OpCount {
            kind: OpKind::Mac,
            ty: Ty::I32,
            count: 1000,
        }]];
        assert_eq!(chain_bound(&m, &chain).unwrap(), None);
    }

    #[test]
    fn a_machine_without_scalar_fmac_counts_the_add() {
        let (file, text) = builtin::source("ftm").unwrap();
        let stripped: String = text
            .lines()
            .filter(|l| !l.starts_with("inst fmac"))
            .map(|l| format!("{l}\n"))
            .collect();
        let m = Machine::parse_str(&stripped, file).unwrap();
        let b = kernel_bound(&m, find("dot_f32").unwrap(), 256, FpSemantics::Strict).unwrap();
        let add = scalar_latency(&m, SemOp::Add, Ty::F32) as f64;
        assert_eq!(b.chain.unwrap().cycles, 256.0 * add);
    }

    #[test]
    fn flags() {
        assert_eq!(FpSemantics::of_flags::<&str>(&[]), FpSemantics::Strict);
        assert_eq!(
            FpSemantics::of_flags(&["-O2", "-ffast-math"]),
            FpSemantics::Reassociable
        );
        assert_eq!(
            FpSemantics::of_flags(&["-fassociative-math"]),
            FpSemantics::Reassociable
        );
        assert_eq!(
            FpSemantics::of_flags(&["-ffast-math", "-fno-fast-math"]),
            FpSemantics::Strict
        );
    }
}

//! Lowering of allocated MIR to machine operations ready for scheduling.
//!
//! Pseudo instructions become the machine's own: a copy becomes the file's
//! copy instruction (found by semantics, `query::copy_instr`), a call the
//! pc-relative `call` (symbols) or `callr` (registers). Each block is cut at
//! its calls into *regions*; a region is a run of operations ended by a
//! control transfer with delay slots (a call, or the block's branches) or by
//! the end of the block (fallthrough). Terminators (with the layout's
//! threaded targets) become branches: `Jump` a `br` (none when the target is
//! the next block in layout), `Branch` a
//! guarded `br` (the guard is the condition, negated as needed; a second,
//! oppositely guarded `br` one bundle later when neither successor falls
//! through), `Return` a `jmp` through the link register, `IndirectJump` a
//! `jmp` through its register.
//!
//! Blocks with a fixed schedule are lowered by [`crate::fixed::lower_block`].
//!
//! Every operation records the registers it reads and writes, including the
//! implicit ones (the link register a call writes, the ABI registers a system
//! call reads and writes), and its memory access for the dependence graph.

use dsp_mir::{Block, Callee, Function, InstKind, Loc, Operand, Reg, Terminator};
use isa_tablegen::{InstrId, Machine, OperandKind, Reg as PReg, SemOp};

use crate::layout::Layout;
use crate::query;

/// An operand of a lowered operation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LOperand {
    Reg(PReg),
    Imm(i64),
    Sym {
        name: String,
        offset: i64,
    },
    /// A block label of the current function (pc-relative targets).
    Label(String),
}

/// What kind of operation, for the dependence graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpClass {
    Plain,
    /// `call`/`callr`: ends a region, has delay slots, writes the link register.
    Call,
    /// A system call: reads the ABI argument registers, writes the result
    /// registers, reads and writes memory; ordered against everything.
    Syscall,
    /// `br`/`jmp`: ends a region, has delay slots.
    Branch,
    /// The machine's `nop` (padding).
    Nop,
}

/// A memory access: `base + offset` covering `size` bytes, when known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemAccess {
    pub reads: bool,
    pub writes: bool,
    pub base: Option<PReg>,
    pub offset: Option<i64>,
    /// Bytes covered from `base + offset`; `None` when unknown (strided,
    /// gathers): such an access conflicts with every other of its object.
    pub size: Option<u32>,
    /// The identified object reached, when selection could tell
    /// ([`dsp_mir::Inst::object`]): accesses of different objects never
    /// overlap.
    pub object: Option<dsp_mir::MemObject>,
}

impl MemAccess {
    /// Whether the two accesses reach different objects, so never overlap:
    /// two identified objects that differ, or one of the compiler's own
    /// slots against anything else.
    pub fn distinct_objects(&self, other: &MemAccess) -> bool {
        match (self.object, other.object) {
            (Some(a), Some(b)) => a != b,
            (Some(o), None) | (None, Some(o)) => o.is_private(),
            (None, None) => false,
        }
    }
}

/// One machine operation.
#[derive(Clone, Debug, PartialEq)]
pub struct LOp {
    pub instr: InstrId,
    pub guard: Option<(PReg, bool)>,
    pub operands: Vec<LOperand>,
    /// Registers read (guard included; a guarded write also reads its
    /// destination, which may be left unchanged). Special registers excluded.
    pub uses: Vec<PReg>,
    /// Registers written, landing `latency` cycles after issue. Special
    /// registers excluded.
    pub defs: Vec<PReg>,
    /// Register files results land in (for write ports), specials included.
    pub port_writes: Vec<isa_tablegen::RegFileId>,
    pub class: OpClass,
    pub mem: Option<MemAccess>,
    pub loc: Option<Loc>,
}

/// The control transfer ending a region: its operations issue in
/// consecutive bundles (`ops[k]` `k` bundles after `ops[0]`), followed by the
/// machine's delay slots.
#[derive(Clone, Debug, PartialEq)]
pub struct Control {
    pub ops: Vec<LOp>,
    /// For liveness: every register the transfer reads, including the
    /// implicit ones (a call's arguments and the stack pointer; a return's
    /// results, the callee-saved registers and the stack pointer).
    pub live_uses: Vec<PReg>,
    /// For liveness: every register it writes (a call's results, the link
    /// register and every register the call clobbers).
    pub live_defs: Vec<PReg>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Region {
    pub body: Vec<LOp>,
    pub control: Option<Control>,
    /// Registers live after the body (before the transfer), from `liveness`.
    pub live_out: Vec<PReg>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LBlock {
    pub block: Block,
    pub label: String,
    pub regions: Vec<Region>,
    /// Successors (threaded jump targets).
    pub succs: Vec<Block>,
    /// For a block with a fixed schedule: the cycle of every operation of
    /// its first region (which then has no control transfer of its own;
    /// its branch is one of the operations), see [`crate::fixed`].
    pub fixed: Option<crate::fixed::FixedPlan>,
}

/// The label of a block in the assembly: `.L<function>_<block>`.
pub fn block_label(f: &Function, b: Block) -> String {
    dsp_mir::block_label(&f.name, b)
}

/// A lowering failure: message and the source location if known.
pub type LowerError = (String, Option<Loc>);

fn regs_of(m: &Machine, rs: impl IntoIterator<Item = PReg>) -> Vec<PReg> {
    let mut out: Vec<PReg> = Vec::new();
    for r in rs {
        if m.special(r).is_none() && !out.contains(&r) {
            out.push(r);
        }
    }
    out
}

/// Builds an operation from an instruction and its operands, deriving
/// uses, defs and the memory access from the instruction's semantics;
/// `object` is the object a memory access reaches, when known.
pub fn make_op(
    m: &Machine,
    instr: InstrId,
    guard: Option<(PReg, bool)>,
    operands: Vec<LOperand>,
    loc: Option<Loc>,
    object: Option<dsp_mir::MemObject>,
) -> LOp {
    let ins = m.instr(instr);
    let sem = &ins.sem;
    let reg_at = |i: usize| match operands.get(i) {
        Some(LOperand::Reg(r)) => Some(*r),
        _ => None,
    };
    let mut uses: Vec<PReg> = sem.sources().filter_map(reg_at).collect();
    let mut defs: Vec<PReg> = sem.dst.and_then(|d| reg_at(d.0)).into_iter().collect();
    let mut port_writes: Vec<_> = sem
        .dst
        .and_then(|d| match ins.operands[d.0].kind {
            OperandKind::Reg(f) => Some(f),
            _ => None,
        })
        .into_iter()
        .collect();
    if let Some((g, _)) = guard {
        uses.push(g);
        uses.extend(defs.iter().copied());
    }
    let class = match sem.op {
        SemOp::Call | SemOp::CallR => {
            if let Some(link) = m.control.link {
                defs.push(link);
                port_writes.push(link.file);
            }
            OpClass::Call
        }
        SemOp::Br | SemOp::BrNz | SemOp::BrZ | SemOp::Jmp => OpClass::Branch,
        SemOp::Syscall => {
            uses.extend(m.abi.args.iter().copied());
            defs.extend(m.abi.rets.iter().copied());
            port_writes.extend(m.abi.rets.iter().map(|r| r.file));
            OpClass::Syscall
        }
        SemOp::Nop => OpClass::Nop,
        _ => OpClass::Plain,
    };
    let mem = if sem.op == SemOp::Syscall {
        Some(MemAccess {
            reads: true,
            writes: true,
            base: None,
            offset: None,
            size: None,
            object: None,
        })
    } else if sem.reads_memory() || sem.writes_memory() {
        let base = sem.args.first().and_then(|a| reg_at(a.0));
        let contiguous = matches!(
            sem.op,
            SemOp::Load
                | SemOp::Store
                | SemOp::VLoad
                | SemOp::VLoadU
                | SemOp::VStore
                | SemOp::VStoreU
                | SemOp::VStoreM
        );
        let offset = match sem.args.get(1).and_then(|a| operands.get(a.0)) {
            Some(LOperand::Imm(v)) if contiguous => Some(*v),
            _ => None,
        };
        // The data register: the destination of a load, the value of a store.
        let data_file = if sem.reads_memory() {
            sem.dst.map(|d| ins.operands[d.0].kind)
        } else {
            sem.args.get(2).map(|a| ins.operands[a.0].kind)
        };
        let elem = sem.ty.map(|t| t.bits() / 8).unwrap_or(0);
        let lanes = match data_file {
            Some(OperandKind::Reg(f)) => m.regfile(f).lanes.map(|l| l.count).unwrap_or(1),
            _ => 1,
        };
        let size = (contiguous && elem > 0).then_some(elem * lanes);
        Some(MemAccess {
            reads: sem.reads_memory(),
            writes: sem.writes_memory(),
            base,
            offset,
            size,
            object,
        })
    } else {
        None
    };
    LOp {
        instr,
        guard,
        uses: regs_of(m, uses),
        defs: regs_of(m, defs),
        port_writes,
        operands,
        class,
        mem,
        loc,
    }
}

pub(crate) struct Ctx<'a> {
    pub(crate) m: &'a Machine,
    pub(crate) f: &'a Function,
}

impl Ctx<'_> {
    pub(crate) fn phys(&self, r: Reg, loc: &Option<Loc>) -> Result<PReg, LowerError> {
        match r {
            Reg::Phys(p) => Ok(p),
            Reg::Virt(v) => Err((
                format!("virtual register %{} after register allocation", v.0),
                loc.clone(),
            )),
        }
    }

    fn op(
        &self,
        instr: InstrId,
        guard: Option<(PReg, bool)>,
        operands: Vec<LOperand>,
        loc: Option<Loc>,
    ) -> LOp {
        make_op(self.m, instr, guard, operands, loc, None)
    }

    fn operand(&self, o: &Operand, loc: &Option<Loc>) -> Result<LOperand, LowerError> {
        Ok(match o {
            Operand::Reg(r) => LOperand::Reg(self.phys(*r, loc)?),
            Operand::Imm(v) => LOperand::Imm(*v),
            Operand::Sym { name, offset } => LOperand::Sym {
                name: name.clone(),
                offset: *offset,
            },
            Operand::Frame { index, .. } => {
                return Err((
                    format!("frame operand fi#{} after frame layout", index.0),
                    loc.clone(),
                ))
            }
        })
    }

    fn missing(&self, what: &str) -> LowerError {
        (format!("machine {} has no {what}", self.m.name), None)
    }

    pub(crate) fn branch_to(
        &self,
        target: Block,
        guard: Option<(PReg, bool)>,
    ) -> Result<LOp, LowerError> {
        let br =
            query::branch_instr(self.m).ok_or_else(|| self.missing("pc-relative branch (br)"))?;
        Ok(self.op(
            br,
            guard,
            vec![LOperand::Label(block_label(self.f, target))],
            None,
        ))
    }

    /// A branch to `target` taken when register `c` is nonzero (zero when
    /// `zero`).
    pub(crate) fn branch_on_reg(&self, c: PReg, zero: bool, target: Block) -> Result<LOp, LowerError> {
        let file = &self.m.regfile(c.file).name;
        let br = query::branch_on_reg_instr(self.m, c.file, zero).ok_or_else(|| {
            self.missing(&format!(
                "branch on a register of file '{file}' being {} ({})",
                if zero { "zero" } else { "nonzero" },
                if zero { "brz" } else { "brnz" }
            ))
        })?;
        Ok(self.op(br, None, vec![LOperand::Reg(c), LOperand::Label(block_label(self.f, target))], None))
    }

    fn jump_reg(&self, r: PReg) -> Result<LOp, LowerError> {
        let file = &self.m.regfile(r.file).name;
        let jmp = query::jump_reg_instr(self.m, r.file).ok_or_else(|| {
            self.missing(&format!("jump through a register of file '{file}' (jmp)"))
        })?;
        Ok(self.op(jmp, None, vec![LOperand::Reg(r)], None))
    }

    pub(crate) fn lower_inst(&self, inst: &dsp_mir::Inst) -> Result<Option<LOp>, LowerError> {
        let loc = inst.loc.clone();
        match &inst.kind {
            InstKind::Machine { instr, guard, ops } => {
                let ins = self.m.instr(*instr);
                if ins.sem.is_branch() {
                    return Err((
                        format!(
                            "control transfer '{}' inside a block (blocks end in terminators)",
                            ins.mnemonic
                        ),
                        loc,
                    ));
                }
                let operands = ops
                    .iter()
                    .map(|o| self.operand(o, &loc))
                    .collect::<Result<Vec<_>, _>>()?;
                let guard = match guard {
                    Some(g) => Some((self.phys(g.reg, &loc)?, g.negate)),
                    None => None,
                };
                Ok(Some(make_op(self.m, *instr, guard, operands, loc, inst.object)))
            }
            InstKind::Copy { dst, src } => {
                let (d, s) = (self.phys(*dst, &loc)?, self.phys(*src, &loc)?);
                if d == s {
                    return Ok(None);
                }
                let file = &self.m.regfile(d.file).name;
                let id = query::copy_instr(self.m, d.file).ok_or_else(|| {
                    (
                        format!(
                            "machine {} has no copy for register file '{file}'",
                            self.m.name
                        ),
                        loc.clone(),
                    )
                })?;
                let ins = self.m.instr(id);
                let mut operands = vec![LOperand::Imm(0); ins.operands.len()];
                for a in &ins.sem.args {
                    operands[a.0] = LOperand::Reg(s);
                }
                if let Some(dd) = ins.sem.dst {
                    operands[dd.0] = LOperand::Reg(d);
                }
                Ok(Some(self.op(id, None, operands, loc)))
            }
            InstKind::Phi { .. } => Err(("phi after register allocation".into(), loc)),
            InstKind::Call { callee, .. } => {
                let (id, target) = match callee {
                    Callee::Sym(name) => (
                        query::call_instr(self.m)
                            .ok_or_else(|| self.missing("pc-relative call"))?,
                        LOperand::Sym {
                            name: name.clone(),
                            offset: 0,
                        },
                    ),
                    Callee::Reg(r) => {
                        let p = self.phys(*r, &loc)?;
                        let file = &self.m.regfile(p.file).name;
                        let id = query::call_reg_instr(self.m, p.file).ok_or_else(|| {
                            self.missing(&format!(
                                "call through a register of file '{file}' (callr)"
                            ))
                        })?;
                        (id, LOperand::Reg(p))
                    }
                };
                let mut op = self.op(id, None, vec![target], loc);
                op.class = OpClass::Call;
                Ok(Some(op))
            }
        }
    }

    /// The control transfer of the terminator of block `cur`; `next` is the
    /// block laid out next.
    pub(crate) fn terminator(
        &self,
        cur: Block,
        term: &Terminator,
        next: Option<Block>,
    ) -> Result<Option<Control>, LowerError> {
        let ops = match term {
            Terminator::Jump(t) if Some(*t) == next => vec![],
            Terminator::Jump(t) => vec![self.branch_to(*t, None)?],
            Terminator::Branch {
                taken, not_taken, ..
            } if taken == not_taken => {
                return self.terminator(cur, &Terminator::Jump(*taken), next)
            }
            Terminator::Branch {
                cond,
                negate,
                taken,
                not_taken,
            } => {
                let c = self.phys(*cond, &None)?;
                if self.m.predicate_file() != Some(c.file) {
                    // A branch on a register being nonzero (brnz/brz).
                    let on = |t: Block, zero: bool| self.branch_on_reg(c, zero, t);
                    if Some(*not_taken) == next {
                        vec![on(*taken, *negate)?]
                    } else if Some(*taken) == next {
                        vec![on(*not_taken, !*negate)?]
                    } else {
                        vec![on(*taken, *negate)?, on(*not_taken, !*negate)?]
                    }
                } else if Some(*not_taken) == next {
                    vec![self.branch_to(*taken, Some((c, *negate)))?]
                } else if Some(*taken) == next {
                    vec![self.branch_to(*not_taken, Some((c, !*negate)))?]
                } else if *not_taken == cur {
                    // Two branches: the first reaches its target a bundle
                    // sooner, so a loop's back edge goes first.
                    vec![
                        self.branch_to(*not_taken, Some((c, !*negate)))?,
                        self.branch_to(*taken, Some((c, *negate)))?,
                    ]
                } else {
                    vec![
                        self.branch_to(*taken, Some((c, *negate)))?,
                        self.branch_to(*not_taken, Some((c, !*negate)))?,
                    ]
                }
            }
            Terminator::IndirectJump { target, .. } => {
                vec![self.jump_reg(self.phys(*target, &None)?)?]
            }
            Terminator::Return { .. } => {
                let link = self
                    .m
                    .control
                    .link
                    .ok_or_else(|| self.missing("link register (needed to return)"))?;
                vec![self.jump_reg(link)?]
            }
            Terminator::Unreachable => vec![],
        };
        let mut live_uses: Vec<PReg> = ops.iter().flat_map(|o| o.uses.iter().copied()).collect();
        if let Terminator::Return { rets } = term {
            live_uses.extend(rets.iter().copied());
            live_uses.extend(self.m.abi.callee_saved.iter().copied());
            live_uses.extend(self.m.abi.sp);
            live_uses.extend(self.m.abi.fp);
        }
        Ok((!ops.is_empty()).then_some(Control {
            ops,
            live_uses,
            live_defs: vec![],
        }))
    }
}

/// Lowers an allocated function into blocks of regions, in the layout's
/// order and with its threaded jump targets.
pub fn lower_function(
    m: &Machine,
    f: &Function,
    layout: &Layout,
) -> Result<Vec<LBlock>, LowerError> {
    let cx = Ctx { m, f };
    let mut out = Vec::with_capacity(f.blocks.len());
    for (i, &b) in layout.order.iter().enumerate() {
        let block = f.block(b);
        let next = layout.order.get(i + 1).copied();
        if let Some(fx) = &block.fixed {
            out.push(crate::fixed::lower_block(&cx, b, fx, next, layout)?);
            continue;
        }
        let mut regions = Vec::new();
        let mut body = Vec::new();
        for inst in &block.insts {
            let Some(op) = cx.lower_inst(inst)? else {
                continue;
            };
            // Only a call pseudo lowers to a call (call instructions inside
            // blocks are rejected by `lower_inst`).
            if let InstKind::Call { args, rets, .. } = &inst.kind {
                let mut live_uses: Vec<PReg> = op.uses.iter().chain(args).copied().collect();
                live_uses.extend(m.abi.sp);
                let mut live_defs: Vec<PReg> = op.defs.iter().chain(rets).copied().collect();
                live_defs.extend(dsp_mir::call_clobbers(m));
                let control = Control {
                    ops: vec![op],
                    live_uses,
                    live_defs,
                };
                regions.push(Region {
                    body: std::mem::take(&mut body),
                    control: Some(control),
                    live_out: vec![],
                });
            } else {
                body.push(op);
            }
        }
        let term = match &block.term {
            Terminator::Jump(t) => Terminator::Jump(layout.resolve(*t)),
            Terminator::Branch {
                cond,
                negate,
                taken,
                not_taken,
            } => Terminator::Branch {
                cond: *cond,
                negate: *negate,
                taken: layout.resolve(*taken),
                not_taken: layout.resolve(*not_taken),
            },
            other => other.clone(),
        };
        let control = cx.terminator(b, &term, next)?;
        regions.push(Region {
            body,
            control,
            live_out: vec![],
        });
        out.push(LBlock {
            block: b,
            label: block_label(f, b),
            regions,
            succs: layout.successors(f, b),
            fixed: None,
        });
    }
    Ok(out)
}

/// The machine's `nop` as an operation.
pub fn nop_op(m: &Machine) -> Option<LOp> {
    let id = m.nop_instr()?;
    Some(LOp {
        instr: id,
        guard: None,
        operands: vec![],
        uses: vec![],
        defs: vec![],
        port_writes: vec![],
        class: OpClass::Nop,
        mem: None,
        loc: None,
    })
}

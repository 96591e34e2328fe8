//! dsp-mir: the machine IR between instruction selection and bundles.
//!
//! A [`Module`] holds functions and data. A [`Function`] is a list of blocks
//! in layout order; each block is a list of [`Inst`] and one [`Terminator`].
//! Instructions are the `.isa`'s own instructions ([`InstKind::Machine`])
//! over virtual registers (before register allocation) and physical registers,
//! plus a few pseudo instructions every stage understands: copies, phis,
//! calls. Frame references ([`Operand::Frame`]) stay symbolic until frame
//! layout. Control flow is abstract ([`Terminator`]); the scheduler emits the
//! machine's branches, with their delay slots.
//!
//! Stages and what they consume and produce:
//! - instruction selection (`dsp-isel`): LLVM IR → MIR in SSA form (phis);
//! - register allocation (`dsp-regalloc`): phi elimination, allocation with
//!   spilling, frame layout, prologue/epilogue → MIR with physical registers
//!   only and no phis, no frame operands;
//! - scheduling (`dsp-sched`): MIR → bundles → assembly text.

pub mod builder;
pub mod print;
pub mod verify;

pub use isa_tablegen::{InstrId, Machine, Reg as PReg, RegFileId};

/// A virtual register; its register file is `Function::vregs[index]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VReg(pub u32);

/// A register operand: virtual or physical.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reg {
    Virt(VReg),
    Phys(PReg),
}

impl From<VReg> for Reg {
    fn from(v: VReg) -> Reg {
        Reg::Virt(v)
    }
}
impl From<PReg> for Reg {
    fn from(p: PReg) -> Reg {
        Reg::Phys(p)
    }
}

/// A block of a function; `Block(0)` is the entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Block(pub u32);

/// A stack object of a function (see [`FrameObject`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FrameIndex(pub u32);

/// An operand of a machine instruction, in the instruction's operand order
/// (the `.isa` operand list).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    Reg(Reg),
    Imm(i64),
    /// The address of a symbol plus an offset, in an immediate operand
    /// (assembled with an R_DSP_IMM relocation).
    Sym { name: String, offset: i64 },
    /// The offset of a stack object plus `offset` from the stack pointer
    /// (or frame pointer), in an immediate operand; frame layout replaces it
    /// with `Imm` and makes the instruction's base register `sp` or `fp`.
    Frame { index: FrameIndex, offset: i64 },
}

/// A guard: the instruction executes only if the predicate is true (or false).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Guard {
    pub reg: Reg,
    pub negate: bool,
    /// For a guarded definition: its destination is undefined where the
    /// guard is false (LLVM's masked load with an undefined pass-through),
    /// so the definition does not read the old value and is a plain
    /// definition for liveness. Whoever sets it guarantees that nothing uses
    /// the result on that path (if-conversion: the value only reaches
    /// guarded stores and selects on the same predicate). When false, a
    /// guarded definition keeps the old value where the guard is false, so
    /// it also reads its destination.
    pub undef_when_false: bool,
}

impl Guard {
    /// A guard on `reg` (negated or not) keeping the old value of a
    /// guarded destination where it is false.
    pub fn new(reg: Reg, negate: bool) -> Guard {
        Guard { reg, negate, undef_when_false: false }
    }

    /// Whether a guarded definition also reads its destination.
    pub fn keeps_old_value(self) -> bool {
        !self.undef_when_false
    }
}

/// The target of a call.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Callee {
    Sym(String),
    Reg(Reg),
}

#[derive(Clone, Debug, PartialEq)]
pub enum InstKind {
    /// An instruction of the `.isa`; operands in its operand order.
    Machine { instr: InstrId, guard: Option<Guard>, ops: Vec<Operand> },
    /// `dst = src`, both of one register file (lowered to that file's `mov`).
    Copy { dst: Reg, src: Reg },
    /// SSA join; removed by phi elimination before register allocation.
    Phi { dst: VReg, incoming: Vec<(Block, Reg)> },
    /// A call. `args` are the physical argument registers it reads (set by
    /// copies before it), `rets` the physical result registers it writes;
    /// every register the ABI does not preserve is clobbered. Stack arguments
    /// were stored before it into the `OutgoingArgs` frame object.
    Call { callee: Callee, args: Vec<PReg>, rets: Vec<PReg> },
}

/// A source location (from LLVM debug info), for diagnostics and `-S` comments.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Loc {
    pub file: String,
    pub line: u32,
    pub col: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Inst {
    pub kind: InstKind,
    pub loc: Option<Loc>,
    /// In a block with a fixed schedule ([`BlockData::fixed`]): the bundle,
    /// counted from the block's first, this instruction issues in. `None`
    /// everywhere else.
    pub cycle: Option<u32>,
    /// For a memory access: the object it reaches, when selection could
    /// tell (see [`MemObject`]); accesses of different objects never
    /// overlap. `None`: unknown, may touch anything.
    pub object: Option<MemObject>,
}

/// An identified memory object of a function (LLVM's "identified objects"):
/// a `noalias` (restrict) pointer argument, a global variable or a stack
/// object. Two different ones never overlap, so the dependence analyses can
/// drop the edges between their accesses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MemObject(pub u32);

impl MemObject {
    /// Objects numbered from here are the compiler's own (the scratch slot,
    /// spill slots): no pointer of the program reaches them, so they
    /// overlap nothing but themselves, even an access of unknown object.
    pub const PRIVATE: u32 = 1 << 24;

    /// The function's scratch slot (vectors built or taken apart through memory).
    pub const SCRATCH: MemObject = MemObject(MemObject::PRIVATE);

    /// The save area of the callee-saved registers and the link register.
    pub const SAVE_AREA: MemObject = MemObject(MemObject::PRIVATE + 1);

    /// The compiler's spill slot `fi` (the pipeliner's and the register
    /// allocator's): one object per frame object, so the same slot always
    /// gets the same object and two slots never share one.
    pub fn slot(fi: FrameIndex) -> MemObject {
        MemObject(MemObject::PRIVATE + 2 + fi.0)
    }

    pub fn is_private(self) -> bool {
        self.0 >= MemObject::PRIVATE
    }
}

impl Inst {
    pub fn new(kind: InstKind) -> Inst {
        Inst { kind, loc: None, cycle: None, object: None }
    }
}

/// A block whose bundles were fixed by an earlier stage (the software
/// pipeliner's prologue, kernel and epilogue). Every instruction has its
/// [`Inst::cycle`]; later stages must not add, move or reorder anything in
/// it (allocation only renames registers and may delete dead instructions;
/// it must fail with an error rather than put spill code or copies in it),
/// and the scheduler emits it as it is: bundle `c` holds the instructions
/// with cycle `c`, empty bundles are nops, the block is `len` bundles long.
///
/// Timing: values may be in flight across the edges between fixed blocks
/// (the modulo schedule accounts for them); a fixed block whose successor is
/// an ordinary block (`drains`) has every result landed and every unit free
/// by its end, as the timing rule of ABI.md requires of every block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixedBlock {
    /// Bundles in the block (at least 1 + the last cycle used).
    pub len: u32,
    /// The bundle of the block's branch, for a `Branch` terminator (the
    /// kernel's loop branch: `len - 1 - delay slots`, so that its delay
    /// slots are the block's last bundles). Its not-taken successor must be
    /// laid out right after the block. `None` for a `Jump` to the block that
    /// must follow in layout (a fallthrough, no branch emitted) or, when the
    /// block `drains`, to any block (an ordinary jump after the `len` bundles).
    pub branch_cycle: Option<u32>,
    /// Every result has landed and every unit is free by the end.
    pub drains: bool,
}

/// How control leaves a block.
#[derive(Clone, Debug, PartialEq)]
pub enum Terminator {
    Jump(Block),
    /// To `taken` if the predicate (xor `negate`) is true, else to `not_taken`.
    Branch { cond: Reg, negate: bool, taken: Block, not_taken: Block },
    /// To the address in `target`, one of `targets` (computed goto: the
    /// targets are in `Function::address_taken`).
    IndirectJump { target: Reg, targets: Vec<Block> },
    /// Return; `rets` are the physical result registers it reads.
    Return { rets: Vec<PReg> },
    /// Control never gets here (a `noreturn` call or `unreachable`).
    Unreachable,
}

impl Terminator {
    pub fn successors(&self) -> Vec<Block> {
        match self {
            Terminator::Jump(b) => vec![*b],
            Terminator::Branch { taken, not_taken, .. } => vec![*taken, *not_taken],
            Terminator::IndirectJump { targets, .. } => targets.clone(),
            Terminator::Return { .. } | Terminator::Unreachable => vec![],
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct BlockData {
    pub insts: Vec<Inst>,
    pub term: Terminator,
    /// Source label (LLVM block name), for printing.
    pub name: String,
    /// A fixed schedule (see [`FixedBlock`]); `None` for ordinary blocks.
    pub fixed: Option<FixedBlock>,
    /// Lines printed as `#` comments before the block in `-S` output (the
    /// software pipeliner's report before a pipelined loop).
    pub comments: Vec<String>,
    /// The block is a one-block loop whose iterations touch disjoint memory
    /// (the IR's `dsp.loop.independent`, proven by dsp-interchange under a
    /// run-time guard): the pipeliner needs no memory dependence from one
    /// iteration to a later one.
    pub independent: bool,
}

/// What a stack object is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameKind {
    /// A local variable (an LLVM `alloca` of constant size).
    Local,
    /// A spill slot made by the register allocator.
    Spill,
    /// An argument the caller passed on the stack, at `offset` bytes from the
    /// stack pointer at the call (the first stack argument is at 0).
    IncomingArg { offset: u32 },
    /// The area where this function stores stack arguments of its calls
    /// (at the bottom of the frame, so at offset 0 from sp at the call).
    OutgoingArgs,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FrameObject {
    pub size: u32,
    pub align: u32,
    pub kind: FrameKind,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub name: String,
    pub global: bool,
    pub blocks: Vec<BlockData>,
    /// Register file of each virtual register.
    pub vregs: Vec<RegFileId>,
    pub frame: Vec<FrameObject>,
    /// True when the function has dynamic stack allocation (needs a frame pointer).
    pub dynamic_stack: bool,
    /// True for variadic functions: `va_start` points at the first variadic
    /// argument, which callers pass on the stack right after the fixed stack
    /// arguments (see docs/ABI.md).
    pub variadic: bool,
    pub loc: Option<Loc>,
    /// Blocks whose address the program takes (GCC's `&&label`, LLVM's
    /// `blockaddress`): entered from indirect jumps or kept for tables in
    /// data. Layout emits them (with their [`block_label`]) even when no
    /// edge reaches them, and no stage may merge, remove or renumber them.
    pub address_taken: Vec<Block>,
}

/// The assembly label of block `b` of function `function`
/// (`.L<function>_<block>`): a local symbol of the object file, which
/// jumps, and relocations of block addresses (code and data), refer to.
pub fn block_label(function: &str, b: Block) -> String {
    format!(".L{}_{}", function, b.0)
}

impl Function {
    pub fn new(name: impl Into<String>) -> Function {
        Function {
            name: name.into(),
            global: true,
            blocks: Vec::new(),
            vregs: Vec::new(),
            frame: Vec::new(),
            dynamic_stack: false,
            variadic: false,
            loc: None,
            address_taken: Vec::new(),
        }
    }
    pub fn new_vreg(&mut self, file: RegFileId) -> VReg {
        self.vregs.push(file);
        VReg(self.vregs.len() as u32 - 1)
    }
    pub fn vreg_file(&self, v: VReg) -> RegFileId {
        self.vregs[v.0 as usize]
    }
    /// The register file of any register.
    pub fn reg_file(&self, r: Reg) -> RegFileId {
        match r {
            Reg::Virt(v) => self.vreg_file(v),
            Reg::Phys(p) => p.file,
        }
    }
    pub fn new_frame_object(&mut self, size: u32, align: u32, kind: FrameKind) -> FrameIndex {
        self.frame.push(FrameObject { size, align, kind });
        FrameIndex(self.frame.len() as u32 - 1)
    }
    pub fn new_block(&mut self, name: impl Into<String>) -> Block {
        self.blocks.push(BlockData {
            insts: Vec::new(),
            term: Terminator::Unreachable,
            name: name.into(),
            fixed: None,
            comments: Vec::new(),
            independent: false,
        });
        Block(self.blocks.len() as u32 - 1)
    }
    pub fn block(&self, b: Block) -> &BlockData {
        &self.blocks[b.0 as usize]
    }
    pub fn block_mut(&mut self, b: Block) -> &mut BlockData {
        &mut self.blocks[b.0 as usize]
    }
}

/// Where a data object goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataSection {
    ReadOnly,
    Data,
    Bss,
}

/// A global variable or constant.
#[derive(Clone, Debug, PartialEq)]
pub struct DataObject {
    pub name: String,
    pub global: bool,
    pub section: DataSection,
    pub align: u32,
    /// Contents (for `Bss`, all zero and only `size` matters).
    pub bytes: Vec<u8>,
    pub size: u32,
    /// 32-bit words at these offsets hold `symbol + addend`.
    pub relocs: Vec<DataReloc>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataReloc {
    pub offset: u32,
    pub symbol: String,
    pub addend: i64,
}

/// A translation unit.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Module {
    pub source_name: String,
    pub functions: Vec<Function>,
    pub data: Vec<DataObject>,
}

/// Registers an instruction reads and writes, from its `.isa` semantics:
/// the shared definition of uses and defs for liveness, allocation and
/// scheduling.
pub fn uses_defs(m: &Machine, inst: &Inst) -> (Vec<Reg>, Vec<Reg>) {
    let mut uses = Vec::new();
    let mut defs = Vec::new();
    match &inst.kind {
        InstKind::Machine { instr, guard, ops } => {
            let sem = &m.instr(*instr).sem;
            for a in sem.sources() {
                if let Some(Operand::Reg(r)) = ops.get(a) {
                    uses.push(*r);
                }
            }
            if let Some(g) = guard {
                uses.push(g.reg);
            }
            if let Some(d) = sem.dst {
                if let Some(Operand::Reg(r)) = ops.get(d.0) {
                    defs.push(*r);
                }
            }
            // A guarded definition may leave the old value: it is also a use
            // (unless that value is undefined where the guard is false).
            if guard.is_some_and(|g| g.keeps_old_value()) {
                uses.extend(defs.iter().copied());
            }
        }
        InstKind::Copy { dst, src } => {
            uses.push(*src);
            defs.push(*dst);
        }
        InstKind::Phi { dst, incoming } => {
            uses.extend(incoming.iter().map(|(_, r)| *r));
            defs.push(Reg::Virt(*dst));
        }
        InstKind::Call { callee, args, rets } => {
            if let Callee::Reg(r) = callee {
                uses.push(*r);
            }
            uses.extend(args.iter().map(|&p| Reg::Phys(p)));
            defs.extend(rets.iter().map(|&p| Reg::Phys(p)));
        }
    }
    (uses, defs)
}

/// Registers a call clobbers: every allocatable register the ABI does not
/// preserve, plus the link register.
pub fn call_clobbers(m: &Machine) -> Vec<PReg> {
    let mut out = Vec::new();
    for (f, file) in m.regfiles.iter().enumerate() {
        for index in 0..file.count {
            let r = PReg { file: RegFileId(f as u16), index };
            if m.special(r).is_some() || Some(r) == m.abi.sp || Some(r) == m.abi.fp {
                continue;
            }
            if !m.abi.callee_saved.contains(&r) {
                out.push(r);
            }
        }
    }
    out
}

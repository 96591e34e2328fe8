//! The typed machine model: what a parsed `.isa` file says, and nothing else.
//!
//! Every tool (assembler, linker, simulator, and later the compiler) reads the
//! machine through these types. No tool restates a fact that lives here: unit
//! counts, slots, latencies, register files, encodings and costs all come from
//! the `.isa` file (the "external ISA description file" of seed 004 §3.3).

use crate::sem::Sem;

/// Index of a register file in [`Machine::regfiles`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RegFileId(pub u16);
/// Index of a functional unit in [`Machine::units`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UnitId(pub u16);
/// Index of an issue slot in [`Machine::slots`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SlotId(pub u16);
/// Index of an instruction in [`Machine::instrs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InstrId(pub u16);
/// Index of an encoding format in [`Encoding::formats`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FormatId(pub u16);

/// A physical register: a file and an index in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Reg {
    pub file: RegFileId,
    pub index: u16,
}

/// A whole machine description.
#[derive(Clone, Debug)]
pub struct Machine {
    /// Short name (`ftm`), recorded in every object file built for this machine.
    pub name: String,
    pub description: String,
    /// FNV-1a hash of the source text: objects record it so that tools refuse
    /// to mix objects built from different descriptions under one name.
    pub fingerprint: u64,
    pub regfiles: Vec<RegFile>,
    pub units: Vec<Unit>,
    pub slots: Vec<Slot>,
    pub bundle: BundleRules,
    pub encoding: Encoding,
    pub instrs: Vec<Instr>,
    pub control: Control,
    pub abi: Abi,
    pub memory: Memory,
    /// Derived when parsing: opcode value → instruction.
    pub decode_table: Vec<Option<InstrId>>,
    /// Derived when parsing: the bits each instruction's encoding may set.
    pub used_bits: Vec<u64>,
}

/// A register file.
#[derive(Clone, Debug)]
pub struct RegFile {
    /// Name, also the assembly prefix of its registers (`r` → `r0`…`r31`).
    pub name: String,
    pub count: u16,
    /// Total bits of one register.
    pub width: u32,
    /// For vector files: lane count and bits per lane (`lanes × elem_bits == width`).
    pub lanes: Option<Lanes>,
    /// For mask files: the vector file whose lanes each bit stands for.
    pub mask_of: Option<RegFileId>,
    /// Register reads the file supports per cycle (over one bundle).
    pub read_ports: u32,
    /// Results that may land in the file in one cycle.
    pub write_ports: u32,
    /// Registers with a fixed value (`r0` reads zero, `p0` reads true).
    pub specials: Vec<SpecialReg>,
    pub line: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lanes {
    pub count: u32,
    pub elem_bits: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpecialReg {
    pub index: u16,
    pub kind: SpecialKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpecialKind {
    /// Always reads zero; writes are discarded.
    Zero,
    /// Always reads all ones (true); writes are discarded.
    True,
}

/// What a functional unit is for; used by documentation and by the compiler's
/// heuristics, never for legality (legality comes from each instruction's units).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitKind {
    Scalar,
    Vector,
    Memory,
    Control,
    /// Moves data between the scalar and the vector side.
    Cross,
}

/// A kind of functional unit with `count` identical instances.
#[derive(Clone, Debug)]
pub struct Unit {
    pub name: String,
    pub kind: UnitKind,
    pub count: u32,
    pub line: u32,
}

/// An issue slot of the bundle and the units it can feed.
#[derive(Clone, Debug)]
pub struct Slot {
    pub name: String,
    pub feeds: Vec<UnitId>,
    pub line: u32,
}

#[derive(Clone, Debug)]
pub struct BundleRules {
    /// Most operations one bundle may hold.
    pub max_ops: u32,
}

/// Binary encoding: every operation is one `width`-bit word; a bundle is a run
/// of words whose last has the stop bit set (like C6x's p-bit or Hexagon's
/// parse bits).
#[derive(Clone, Debug)]
pub struct Encoding {
    /// Bits per operation word: 32 or 64.
    pub width: u32,
    pub stop_bit: u32,
    /// The opcode field, shared by every format.
    pub opcode: BitField,
    /// The guard field (predicate register index plus negate bit), if the
    /// machine has guarded execution.
    pub guard: Option<GuardField>,
    pub formats: Vec<Format>,
}

/// An inclusive bit range `hi..lo` of an operation word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BitField {
    pub hi: u32,
    pub lo: u32,
}

impl BitField {
    pub fn bits(&self) -> u32 {
        self.hi - self.lo + 1
    }
    pub fn mask(&self) -> u64 {
        if self.bits() >= 64 {
            u64::MAX
        } else {
            (1u64 << self.bits()) - 1
        }
    }
    pub fn get(&self, word: u64) -> u64 {
        (word >> self.lo) & self.mask()
    }
    pub fn set(&self, word: u64, value: u64) -> u64 {
        (word & !(self.mask() << self.lo)) | ((value & self.mask()) << self.lo)
    }
    pub fn overlaps(&self, other: &BitField) -> bool {
        self.lo <= other.hi && other.lo <= self.hi
    }
}

/// The guard field: `negate` is one bit inside `field`, the rest is the
/// predicate register index; index of a register that reads true means "always".
#[derive(Clone, Copy, Debug)]
pub struct GuardField {
    pub field: BitField,
    pub negate_bit: u32,
    pub file: RegFileId,
}

/// A named layout of operand fields.
#[derive(Clone, Debug)]
pub struct Format {
    pub name: String,
    pub fields: Vec<(String, BitField)>,
    pub line: u32,
}

impl Format {
    pub fn field(&self, name: &str) -> Option<BitField> {
        self.fields.iter().find(|(n, _)| n == name).map(|(_, f)| *f)
    }
}

/// One machine instruction.
#[derive(Clone, Debug)]
pub struct Instr {
    pub mnemonic: String,
    pub operands: Vec<Operand>,
    /// Units it may run on (alternatives).
    pub units: Vec<UnitId>,
    /// Cycles after issue at which the result becomes visible (1 = the next bundle).
    pub latency: u32,
    /// Cycles the unit stays occupied (1 = fully pipelined).
    pub busy: u32,
    pub sem: Sem,
    pub format: FormatId,
    pub opcode: u32,
    /// Cost for the optimizers (egg, the vectorizer's cost model).
    pub cost: u32,
    pub line: u32,
}

#[derive(Clone, Debug)]
pub struct Operand {
    pub name: String,
    pub kind: OperandKind,
    /// Bit field of the instruction's format that holds this operand.
    pub field: BitField,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OperandKind {
    /// A register of a file.
    Reg(RegFileId),
    /// An immediate of `bits` bits (`s16`, `u5`, or `i32`: either signedness).
    Imm(ImmKind, u32),
    /// A pc-relative target: signed `bits`-bit count of operation words from
    /// the address of the operation itself.
    PcRel(u32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImmKind {
    Signed,
    Unsigned,
    /// Any value that fits as signed or as unsigned (`i32` takes -1 and 0xffffffff).
    Either,
}

impl OperandKind {
    /// The form the decoder returns an immediate in: `Either` immediates that
    /// were written unsigned (`0xffffffff`) come back signed (`-1`), with the
    /// same bits.
    pub fn canonical(&self, value: i64) -> i64 {
        match *self {
            OperandKind::Imm(ImmKind::Either, bits) if value >= 1i64 << (bits - 1) => value - (1i64 << bits),
            _ => value,
        }
    }
    /// Inclusive range of values an immediate operand accepts.
    pub fn imm_range(&self) -> Option<(i64, i64)> {
        match *self {
            OperandKind::Imm(kind, bits) => Some(match kind {
                ImmKind::Signed => (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1),
                ImmKind::Unsigned => (0, (1i64 << bits) - 1),
                ImmKind::Either => (-(1i64 << (bits - 1)), (1i64 << bits) - 1),
            }),
            OperandKind::PcRel(bits) => Some((-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)),
            OperandKind::Reg(_) => None,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Control {
    /// Bundles that issue after a taken branch before control transfers.
    pub delay_slots: u32,
    /// The register a call writes its return address into.
    pub link: Option<Reg>,
}

/// Calling-convention facts the compiler and the simulator's system calls share.
#[derive(Clone, Debug, Default)]
pub struct Abi {
    pub sp: Option<Reg>,
    pub fp: Option<Reg>,
    /// Argument registers in order (all files interleaved as written).
    pub args: Vec<Reg>,
    /// Return-value registers in order.
    pub rets: Vec<Reg>,
    pub callee_saved: Vec<Reg>,
    pub stack_align: u32,
}

/// The memory the simulator provides and the linker lays out into: the
/// external memory (behind the data caches, if any), plus on-chip memories.
#[derive(Clone, Debug)]
pub struct Memory {
    pub base: u32,
    pub size: u32,
    /// Accesses below `base + null_guard` fault (catches null pointers).
    pub null_guard: u32,
    /// The units whose accesses reach the external memory (empty: every unit).
    pub units: Vec<UnitId>,
    /// The data-cache hierarchy in front of the external memory, L1D first
    /// (empty: every access costs its instruction's latency, as on-chip).
    pub caches: Vec<Cache>,
    /// On-chip memories: address ranges outside the external memory, never
    /// cached, at the instruction's latency.
    pub onchip: Vec<OnChip>,
}

/// What a store does to a cache level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WritePolicy {
    /// Write-back with write-allocate: a store miss fetches the line (a
    /// stall, as a load miss), stores mark the line dirty, a dirty line is
    /// written to the next level when evicted.
    WriteBack,
    /// Write-through without write-allocate: a store updates the line if it
    /// is present and always goes on to the next level (through a write
    /// buffer: no stall); a store miss allocates nothing.
    WriteThrough,
}

/// One level of the data-cache hierarchy: set-associative, LRU replacement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cache {
    pub name: String,
    /// 1 for L1D, 2 for L2, …
    pub level: u32,
    /// Capacity in bytes (`sets × ways × line`).
    pub size: u32,
    /// Line size in bytes (a power of two).
    pub line: u32,
    pub ways: u32,
    /// Cycles from request to data when the line is present. At L1 these are
    /// inside the load instructions' `lat` (a hit never stalls); below L1,
    /// the level above's `miss` includes them.
    pub hit: u32,
    /// Stall cycles of a miss at this level: the whole machine waits while
    /// the line comes from the next level (or the external memory).
    pub miss: u32,
    pub policy: WritePolicy,
    /// Line of the `.isa` declaration.
    pub decl_line: u32,
}

impl Cache {
    /// Number of sets (a power of two).
    pub fn sets(&self) -> u32 {
        self.size / (self.line * self.ways)
    }
    /// Number of lines the level holds.
    pub fn lines(&self) -> u32 {
        self.size / self.line
    }
}

/// An on-chip memory (scratchpad): an address range reached by some units,
/// never cached, no stalls.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OnChip {
    pub name: String,
    pub base: u32,
    pub size: u32,
    /// The units whose accesses reach it.
    pub units: Vec<UnitId>,
    pub decl_line: u32,
}

impl OnChip {
    /// One past its last address.
    pub fn end(&self) -> u64 {
        self.base as u64 + self.size as u64
    }
    pub fn contains(&self, addr: u64) -> bool {
        addr >= self.base as u64 && addr < self.end()
    }
}

impl Machine {
    pub fn regfile(&self, id: RegFileId) -> &RegFile {
        &self.regfiles[id.0 as usize]
    }
    pub fn unit(&self, id: UnitId) -> &Unit {
        &self.units[id.0 as usize]
    }
    pub fn slot(&self, id: SlotId) -> &Slot {
        &self.slots[id.0 as usize]
    }
    pub fn instr(&self, id: InstrId) -> &Instr {
        &self.instrs[id.0 as usize]
    }
    pub fn format(&self, id: FormatId) -> &Format {
        &self.encoding.formats[id.0 as usize]
    }
    pub fn regfile_by_name(&self, name: &str) -> Option<RegFileId> {
        self.regfiles.iter().position(|f| f.name == name).map(|i| RegFileId(i as u16))
    }
    pub fn unit_by_name(&self, name: &str) -> Option<UnitId> {
        self.units.iter().position(|u| u.name == name).map(|i| UnitId(i as u16))
    }
    /// All instructions with this mnemonic (one, in a well-formed file).
    pub fn instr_by_mnemonic(&self, mnemonic: &str) -> Option<InstrId> {
        self.instrs.iter().position(|i| i.mnemonic == mnemonic).map(|i| InstrId(i as u16))
    }
    /// Bytes per operation word.
    pub fn op_bytes(&self) -> u32 {
        self.encoding.width / 8
    }
    /// Parses a register name such as `r7` or `v31`.
    pub fn parse_reg(&self, text: &str) -> Option<Reg> {
        // Longest file-name prefix wins, so files `v` and `vm` can coexist.
        let mut best: Option<(usize, RegFileId)> = None;
        for (i, f) in self.regfiles.iter().enumerate() {
            if text.starts_with(&f.name) && best.is_none_or(|(len, _)| f.name.len() > len) {
                let rest = &text[f.name.len()..];
                if !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()) {
                    best = Some((f.name.len(), RegFileId(i as u16)));
                }
            }
        }
        let (len, file) = best?;
        let rest = &text[len..];
        if rest.len() > 1 && rest.starts_with('0') {
            return None;
        }
        let index: u16 = rest.parse().ok()?;
        (index < self.regfile(file).count).then_some(Reg { file, index })
    }
    pub fn reg_name(&self, reg: Reg) -> String {
        format!("{}{}", self.regfile(reg.file).name, reg.index)
    }
    /// The fixed value of a special register, if it is one.
    pub fn special(&self, reg: Reg) -> Option<SpecialKind> {
        self.regfile(reg.file)
            .specials
            .iter()
            .find(|s| s.index == reg.index)
            .map(|s| s.kind)
    }
    /// The operand-less no-op instruction (pads code and fills delay slots).
    pub fn nop_instr(&self) -> Option<InstrId> {
        self.instrs
            .iter()
            .position(|i| i.sem.op == crate::sem::SemOp::Nop && i.operands.is_empty())
            .map(|i| InstrId(i as u16))
    }
    /// Largest latency of any instruction (sizes the simulator's write queue).
    pub fn max_latency(&self) -> u32 {
        self.instrs.iter().map(|i| i.latency).max().unwrap_or(1)
    }
}

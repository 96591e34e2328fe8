//! The fixed vocabulary of operations that instruction semantics are written in.
//!
//! An `.isa` file gives each instruction a semantics such as
//! `rd = add.i32(ra, rb)`: one vocabulary operation, an element type and the
//! instruction's operands. The vocabulary is implemented once, in the simulator
//! (and read by the compiler's instruction selector); a new machine combines it
//! but never extends it. Arithmetic applies lane by lane when the destination
//! is a vector (or mask) register, following the scalar/vector split of seed 004
//! §2 (FT-Matrix: scalar unit, SIMD unit, cooperation instructions).

use std::fmt;

/// Element types of the vocabulary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F32,
    F64,
}

impl Ty {
    pub const ALL: [Ty; 10] = [
        Ty::I8,
        Ty::U8,
        Ty::I16,
        Ty::U16,
        Ty::I32,
        Ty::U32,
        Ty::I64,
        Ty::U64,
        Ty::F32,
        Ty::F64,
    ];
    pub fn bits(self) -> u32 {
        match self {
            Ty::I8 | Ty::U8 => 8,
            Ty::I16 | Ty::U16 => 16,
            Ty::I32 | Ty::U32 | Ty::F32 => 32,
            Ty::I64 | Ty::U64 | Ty::F64 => 64,
        }
    }
    pub fn is_float(self) -> bool {
        matches!(self, Ty::F32 | Ty::F64)
    }
    pub fn is_signed(self) -> bool {
        matches!(self, Ty::I8 | Ty::I16 | Ty::I32 | Ty::I64)
    }
    pub fn name(self) -> &'static str {
        match self {
            Ty::I8 => "i8",
            Ty::U8 => "u8",
            Ty::I16 => "i16",
            Ty::U16 => "u16",
            Ty::I32 => "i32",
            Ty::U32 => "u32",
            Ty::I64 => "i64",
            Ty::U64 => "u64",
            Ty::F32 => "f32",
            Ty::F64 => "f64",
        }
    }
    pub fn from_name(s: &str) -> Option<Ty> {
        Ty::ALL.into_iter().find(|t| t.name() == s)
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which group of the vocabulary an operation belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SemClass {
    /// Element-wise arithmetic, logic, compares, conversions (lane-wise on vectors).
    Alu,
    /// Loads and stores, scalar and vector.
    Memory,
    /// Scalar–vector cooperation: broadcast, reduce, extract, insert, shuffle.
    Cross,
    /// Branches, calls, system calls, no-ops.
    Control,
}

/// How many element types an operation is written with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Typing {
    /// `nop`, `br(t)`: no type.
    None,
    /// `add.i32`: one type.
    One,
    /// `cvt.i32.f32`: source then destination type.
    Two,
}

macro_rules! vocabulary {
    ($($variant:ident $name:literal $arity:literal $dst:literal $typing:ident $class:ident $doc:literal;)*) => {
        /// One operation of the vocabulary.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum SemOp { $(#[doc = $doc] $variant,)* }

        impl SemOp {
            pub const ALL: &'static [SemOp] = &[$(SemOp::$variant,)*];
            /// The name used in `.isa` files.
            pub fn name(self) -> &'static str { match self { $(SemOp::$variant => $name,)* } }
            /// Number of source arguments.
            pub fn arity(self) -> usize { match self { $(SemOp::$variant => $arity,)* } }
            /// Whether it writes a destination operand.
            pub fn has_dst(self) -> bool { match self { $(SemOp::$variant => $dst,)* } }
            pub fn typing(self) -> Typing { match self { $(SemOp::$variant => Typing::$typing,)* } }
            pub fn class(self) -> SemClass { match self { $(SemOp::$variant => SemClass::$class,)* } }
            /// One-line meaning, for the generated manual.
            pub fn doc(self) -> &'static str { match self { $(SemOp::$variant => $doc,)* } }
            pub fn from_name(s: &str) -> Option<SemOp> {
                match s { $($name => Some(SemOp::$variant),)* _ => None }
            }
        }
    };
}

vocabulary! {
    Mov      "mov"      1 true  One  Alu "d = a (register copy or immediate)";
    Add      "add"      2 true  One  Alu "d = a + b (integers wrap)";
    Sub      "sub"      2 true  One  Alu "d = a - b";
    Mul      "mul"      2 true  One  Alu "d = a * b (low half for integers)";
    MulHi    "mulhi"    2 true  One  Alu "d = high half of the double-width product a * b";
    Div      "div"      2 true  One  Alu "d = a / b (integers truncate; divide by zero faults)";
    Rem      "rem"      2 true  One  Alu "d = a % b (sign of a; divide by zero faults)";
    Neg      "neg"      1 true  One  Alu "d = -a";
    Abs      "abs"      1 true  One  Alu "d = |a|";
    Min      "min"      2 true  One  Alu "d = min(a, b) (floats: IEEE minNum)";
    Max      "max"      2 true  One  Alu "d = max(a, b) (floats: IEEE maxNum)";
    Mac      "mac"      3 true  One  Alu "d = a * b + c (floats: fused, one rounding)";
    Sqrt     "sqrt"     1 true  One  Alu "d = sqrt(a), correctly rounded";
    And      "and"      2 true  One  Alu "d = a & b";
    Or       "or"       2 true  One  Alu "d = a | b";
    Xor      "xor"      2 true  One  Alu "d = a ^ b";
    Not      "not"      1 true  One  Alu "d = ~a";
    Shl      "shl"      2 true  One  Alu "d = a << (b mod bits)";
    Shr      "shr"      2 true  One  Alu "d = a >> (b mod bits): arithmetic for signed types, logical for unsigned";
    Clz      "clz"      1 true  One  Alu "d = count of leading zero bits of a";
    Ctz      "ctz"      1 true  One  Alu "d = count of trailing zero bits of a";
    Popcnt   "popcnt"   1 true  One  Alu "d = count of one bits of a";
    Bswap    "bswap"    1 true  One  Alu "d = a with its bytes reversed";
    Eq       "eq"       2 true  One  Alu "d = a == b (1/0, a predicate, or a lane mask)";
    Ne       "ne"       2 true  One  Alu "d = a != b (true when either float is NaN)";
    Lt       "lt"       2 true  One  Alu "d = a < b (signed or unsigned by type; false on NaN)";
    Le       "le"       2 true  One  Alu "d = a <= b";
    Gt       "gt"       2 true  One  Alu "d = a > b";
    Ge       "ge"       2 true  One  Alu "d = a >= b";
    Unord    "unord"    2 true  One  Alu "d = a or b is NaN";
    Select   "select"   3 true  One  Alu "d = c ? a : b (c a predicate, a register, or a lane mask)";
    Cvt      "cvt"      1 true  Two  Alu "d = a converted from the first type to the second (C conversion rules; float to int truncates, out-of-range saturates, NaN gives 0)";
    Pack     "pack"     2 true  None Alu "d = a | b << 32 (two 32-bit halves into a 64-bit register)";
    Hi       "hi"       1 true  None Alu "d = a >> 32 (high half of a 64-bit register)";
    Load     "load"     2 true  One  Memory "d = mem[a + b], extended to d's width by the type's signedness; natural alignment";
    Store    "store"    3 false One  Memory "mem[a + b] = c truncated to the type; natural alignment";
    VLoad    "vload"    2 true  One  Memory "d[i] = mem[a + b + i*size]; the address is aligned to the whole vector";
    VLoadU   "vloadu"   2 true  One  Memory "d[i] = mem[a + b + i*size]; element alignment only";
    VLoadS   "vloads"   2 true  One  Memory "d[i] = mem[a + i*b] (strided: b is a byte stride)";
    VStore   "vstore"   3 false One  Memory "mem[a + b + i*size] = c[i]; aligned to the whole vector";
    VStoreU  "vstoreu"  3 false One  Memory "mem[a + b + i*size] = c[i]; element alignment only";
    VStoreS  "vstores"  3 false One  Memory "mem[a + i*b] = c[i] (strided)";
    VLoadM   "vloadm"   3 true  One  Memory "d[i] = mem[a + b + i*size] for each lane i set in the mask (third argument), 0 in the other lanes, whose memory is not accessed; element alignment";
    VStoreM  "vstorem"  4 false One  Memory "mem[a + b + i*size] = c[i] for each lane i set in the mask (fourth argument); element alignment";
    Gather   "gather"   2 true  One  Memory "d[i] = mem[a + b[i]*size] (b a vector of element indices)";
    Scatter  "scatter"  3 false One  Memory "mem[a + b[i]*size] = c[i], lanes in increasing order";
    Broadcast "broadcast" 1 true One Cross "d[i] = a for every lane";
    ReduceAdd "reduce_add" 1 true One Cross "d = a[0] + a[1] + … in lane order";
    ReduceMin "reduce_min" 1 true One Cross "d = min over the lanes of a";
    ReduceMax "reduce_max" 1 true One Cross "d = max over the lanes of a";
    AllReduceAdd "allreduce_add" 1 true One Cross "d[i] = a[0] + a[1] + … for every lane";
    AllReduceMin "allreduce_min" 1 true One Cross "d[i] = min over the lanes of a";
    AllReduceMax "allreduce_max" 1 true One Cross "d[i] = max over the lanes of a";
    Extract  "extract"  2 true  One  Cross "d = a[b mod lanes]";
    Insert   "insert"   3 true  One  Cross "d = a with lane (c mod lanes) replaced by b";
    Shuffle  "shuffle"  2 true  One  Cross "d[i] = a[b[i] mod lanes] (a general permute; costly on purpose)";
    Iota     "iota"     0 true  One  Cross "d[i] = i";
    Br       "br"       1 false None Control "jump to the pc-relative target a after the delay slots";
    BrNz     "brnz"     2 false None Control "if register a is not zero, jump to the pc-relative target b after the delay slots";
    BrZ      "brz"      2 false None Control "if register a is zero, jump to the pc-relative target b after the delay slots";
    Jmp      "jmp"      1 false None Control "jump to the address in register a after the delay slots";
    Call     "call"     1 false None Control "link = return address; jump to the pc-relative target a after the delay slots";
    CallR    "callr"    1 false None Control "link = return address; jump to the address in register a after the delay slots";
    Syscall  "syscall"  1 false None Control "system call number a (arguments and results in the ABI registers)";
    Nop      "nop"      0 false None Control "do nothing";
}

/// A source argument of a semantics: one of the instruction's operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OperandRef(pub usize);

/// An instruction's semantics: `dst = op.ty(args…)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sem {
    pub op: SemOp,
    /// First type (`add.i32`: i32; `cvt.i32.f32`: the source type).
    pub ty: Option<Ty>,
    /// Second type (`cvt.i32.f32`: the destination type f32).
    pub ty2: Option<Ty>,
    /// Operand the result is written to.
    pub dst: Option<OperandRef>,
    pub args: Vec<OperandRef>,
}

impl Sem {
    /// Operands read by the operation (the destination is read too when it also
    /// appears among the arguments).
    pub fn sources(&self) -> impl Iterator<Item = usize> + '_ {
        self.args.iter().map(|a| a.0)
    }
    /// Whether the operation changes control flow.
    pub fn is_branch(&self) -> bool {
        matches!(self.op, SemOp::Br | SemOp::BrNz | SemOp::BrZ | SemOp::Jmp | SemOp::Call | SemOp::CallR)
    }
    pub fn is_call(&self) -> bool {
        matches!(self.op, SemOp::Call | SemOp::CallR)
    }
    /// Whether running the operation where its result is not needed is
    /// harmless: no memory access, no control transfer, no system call and
    /// no fault (a divide by zero faults).
    pub fn can_speculate(&self) -> bool {
        !(self.is_branch()
            || self.reads_memory()
            || self.writes_memory()
            || matches!(self.op, SemOp::Div | SemOp::Rem | SemOp::Syscall))
    }
    pub fn reads_memory(&self) -> bool {
        matches!(
            self.op,
            SemOp::Load | SemOp::VLoad | SemOp::VLoadU | SemOp::VLoadS | SemOp::VLoadM | SemOp::Gather
        )
    }
    pub fn writes_memory(&self) -> bool {
        matches!(
            self.op,
            SemOp::Store
                | SemOp::VStore
                | SemOp::VStoreU
                | SemOp::VStoreS
                | SemOp::VStoreM
                | SemOp::Scatter
        )
    }
}

/// Renders a semantics back in `.isa` syntax, given the operand names.
pub fn render(sem: &Sem, operand_names: &[String]) -> String {
    let mut s = String::new();
    if let Some(d) = sem.dst {
        s.push_str(&operand_names[d.0]);
        s.push_str(" = ");
    }
    s.push_str(sem.op.name());
    if let Some(t) = sem.ty {
        s.push('.');
        s.push_str(t.name());
    }
    if let Some(t) = sem.ty2 {
        s.push('.');
        s.push_str(t.name());
    }
    s.push('(');
    let args: Vec<&str> = sem.args.iter().map(|a| operand_names[a.0].as_str()).collect();
    s.push_str(&args.join(", "));
    s.push(')');
    s
}

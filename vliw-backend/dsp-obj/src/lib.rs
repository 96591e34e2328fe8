//! dsp-obj: the object formats shared by dsp-as, dsp-ld, dsp-objdump and dsp-sim.
//!
//! Relocatable objects and executables are ELF32 little-endian with our own
//! `e_machine` ([`EM_DSP`]); archives are ordinary `ar` archives. This crate
//! knows nothing of any instruction set: operation words are opaque bytes, and
//! the machine an object was built for is recorded by name and fingerprint in
//! the [`ISA_SECTION`] section so tools can refuse to mix machines.

mod archive;
mod elf;
mod error;
mod exe;
mod object;

pub use archive::{read_archive, write_archive, ArchiveMember};
pub use error::ObjError;
pub use exe::{read_executable, write_executable};
pub use object::{read_object, reloc_kind, reloc_name, reloc_type, write_object};

/// Our ELF `e_machine` value (unassigned by the ELF registry).
pub const EM_DSP: u16 = 0xD5D5;
/// Non-allocated section holding `name\0fingerprint-as-16-hex-digits\0`.
pub const ISA_SECTION: &str = ".dsp.isa";

/// ELF relocation type numbers (`ELF32_R_TYPE`).
pub const R_DSP_NONE: u32 = 0;
pub const R_DSP_32: u32 = 1;
pub const R_DSP_IMM: u32 = 2;
pub const R_DSP_PCREL: u32 = 3;

/// Which machine description an object was built for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MachineId {
    pub name: String,
    /// `isa_tablegen::Machine::fingerprint`.
    pub fingerprint: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SectionKind {
    /// Executable code (`.text*`): operation words.
    Text,
    /// Read-only data (`.rodata*`).
    ReadOnly,
    /// Initialised writable data (`.data*`).
    Data,
    /// Zero-initialised data (`.bss*`): no bytes in the file.
    Bss,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RelocKind {
    /// A 32-bit little-endian data word = S + A (`R_DSP_32`).
    Data32,
    /// The immediate operand of the operation word at the offset = S + A (`R_DSP_IMM`).
    Imm,
    /// The pc-relative operand of the operation word at the offset = S + A - P,
    /// in bytes, P the address of the operation (`R_DSP_PCREL`).
    PcRel,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reloc {
    /// Byte offset in the section of the patched word.
    pub offset: u32,
    pub kind: RelocKind,
    /// Index into [`ObjectFile::symbols`].
    pub symbol: usize,
    pub addend: i64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    pub name: String,
    pub kind: SectionKind,
    pub align: u32,
    /// Contents (empty for `Bss`).
    pub data: Vec<u8>,
    /// Size in bytes (for `Bss`, the only record of it).
    pub size: u32,
    pub relocs: Vec<Reloc>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    Func,
    Object,
    NoType,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    /// Defining section index into [`ObjectFile::sections`]; `None` = undefined.
    pub section: Option<usize>,
    /// Offset in the defining section.
    pub value: u32,
    pub size: u32,
    pub global: bool,
    pub kind: SymbolKind,
}

/// A relocatable object (`.o`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectFile {
    pub machine: MachineId,
    pub sections: Vec<Section>,
    pub symbols: Vec<Symbol>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SegmentFlags {
    pub read: bool,
    pub write: bool,
    pub exec: bool,
}

/// A loadable segment of an executable (one per output section).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    pub name: String,
    pub addr: u32,
    pub data: Vec<u8>,
    /// Size in memory; bytes past `data.len()` are zero.
    pub mem_size: u32,
    pub flags: SegmentFlags,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExeSymbol {
    pub name: String,
    pub addr: u32,
    pub size: u32,
    pub kind: SymbolKind,
    pub global: bool,
}

/// A linked executable (ET_EXEC).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Executable {
    pub machine: MachineId,
    pub entry: u32,
    pub segments: Vec<Segment>,
    pub symbols: Vec<ExeSymbol>,
}

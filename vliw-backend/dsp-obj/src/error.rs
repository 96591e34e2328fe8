//! The error type of reading and writing objects, executables and archives.

use std::fmt;

use crate::EM_DSP;

/// What went wrong reading (or, for `Invalid`, writing) a file. The messages
/// do not name the file: callers prefix it (`a.o: truncated file: …`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ObjError {
    /// No ELF magic number.
    NotElf,
    /// No `!<arch>` magic.
    NotArchive,
    /// `EI_CLASS` is not ELFCLASS32.
    WrongClass { class: u8 },
    /// `EI_DATA` is not little-endian.
    WrongEndian { data: u8 },
    /// `e_machine` is not [`EM_DSP`].
    WrongMachine { machine: u16 },
    /// `e_type` is not the expected one (`expected` names it).
    WrongType { expected: &'static str, found: u16 },
    /// Some structure extends past the end of the file.
    Truncated { what: String },
    /// A section index (in a symbol, relocation section or header) that does
    /// not name a usable section.
    BadSectionIndex { what: String, index: u32 },
    /// A relocation naming a symbol that does not exist.
    BadSymbolIndex {
        section: String,
        offset: u32,
        index: u32,
    },
    /// A relocation type that is not one of the `R_DSP_*`.
    UnknownRelocType {
        section: String,
        offset: u32,
        r_type: u32,
    },
    /// No [`crate::ISA_SECTION`]: not made by this toolchain.
    MissingIsa,
    /// The [`crate::ISA_SECTION`] does not hold `name\0hex\0`.
    BadIsa { reason: String },
    /// Any other inconsistency in the file.
    Malformed { reason: String },
    /// The in-memory value cannot be written as asked (writing only).
    Invalid { reason: String },
}

impl ObjError {
    pub(crate) fn malformed(reason: impl Into<String>) -> Self {
        ObjError::Malformed {
            reason: reason.into(),
        }
    }
    pub(crate) fn invalid(reason: impl Into<String>) -> Self {
        ObjError::Invalid {
            reason: reason.into(),
        }
    }
    pub(crate) fn truncated(what: impl Into<String>) -> Self {
        ObjError::Truncated { what: what.into() }
    }
}

impl fmt::Display for ObjError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ObjError::NotElf => write!(f, "not an ELF file (bad magic number)"),
            ObjError::NotArchive => write!(f, "not an ar archive (no '!<arch>' magic)"),
            ObjError::WrongClass { class } => {
                write!(f, "not a 32-bit ELF file (EI_CLASS is {class}, expected 1)")
            }
            ObjError::WrongEndian { data } => {
                write!(f, "not a little-endian ELF file (EI_DATA is {data}, expected 1)")
            }
            ObjError::WrongMachine { machine } => write!(
                f,
                "ELF file for another machine (e_machine {machine:#x}, expected {EM_DSP:#x} for the DSP)"
            ),
            ObjError::WrongType { expected, found } => {
                write!(f, "ELF file of the wrong type (e_type {found}, expected {expected})")
            }
            ObjError::Truncated { what } => {
                write!(f, "truncated file: {what} extends past the end of the file")
            }
            ObjError::BadSectionIndex { what, index } => {
                write!(f, "{what}: bad section index {index}")
            }
            ObjError::BadSymbolIndex { section, offset, index } => write!(
                f,
                "relocation at {section}+{offset:#x}: symbol index {index} out of range"
            ),
            ObjError::UnknownRelocType { section, offset, r_type } => {
                write!(f, "relocation at {section}+{offset:#x}: unknown relocation type {r_type}")
            }
            ObjError::MissingIsa => write!(
                f,
                "no {} section: not built by the dsp toolchain",
                crate::ISA_SECTION
            ),
            ObjError::BadIsa { reason } => {
                write!(f, "malformed {} section: {reason}", crate::ISA_SECTION)
            }
            ObjError::Malformed { reason } => write!(f, "malformed file: {reason}"),
            ObjError::Invalid { reason } => write!(f, "cannot write: {reason}"),
        }
    }
}

impl std::error::Error for ObjError {}

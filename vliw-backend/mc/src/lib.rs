//! dsp-mc: the assembler (`dsp-as`) and disassembler (`dsp-objdump`) for any
//! machine described by an `.isa` file.
//!
//! Assembly text goes through [`lexer`], [`parser`] and [`assembler`] (two
//! passes: layout, then encoding with `Machine::encode_op` and bundle checks
//! with `Machine::check_bundle`) into a [`dsp_obj::ObjectFile`]. [`disasm`]
//! prints objects and executables back as assembly that reassembles to the
//! same bytes, relocations and symbols; [`objdump`] adds the tool's headers
//! and tables. The assembly language is documented in this crate's README.md.

pub mod assembler;
pub mod directives;
pub mod disasm;
pub mod expr;
pub mod lexer;
pub mod objdump;
pub mod operands;
pub mod parser;

use std::fmt;

pub use assembler::assemble;
pub use disasm::{disassemble_executable, disassemble_object, write_executable_listing, write_object_listing};

/// A line and column (both 1-based; the column counts characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Pos {
    pub line: u32,
    pub col: u32,
}

/// An assembly error: `FILE:LINE:COL: error: MESSAGE`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsmError {
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub message: String,
}

impl fmt::Display for AsmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (file, message) = (isa_tablegen::text::shown(&self.file), isa_tablegen::text::shown(&self.message));
        write!(f, "{file}:{}:{}: error: {message}", self.line, self.col)
    }
}
impl std::error::Error for AsmError {}

/// Most errors reported for one file.
pub const MAX_ERRORS: usize = 20;

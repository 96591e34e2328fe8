//! isa-tablegen: the `.isa` machine description language.
//!
//! [`Machine::parse`] reads a description into the typed model of [`model`];
//! every other tool of the toolchain (assembler, linker, simulator, compiler)
//! uses that model as a library, so a new DSP is a new `.isa` file. The
//! language is documented in this crate's README.md.

pub mod builtin;
pub mod dispatch;
pub mod doc;
pub mod encoding;
pub mod lexer;
pub mod memsys;
pub mod model;
pub mod parse;
pub mod query;
pub mod resolve;
pub mod sem;
pub mod text;

pub use dispatch::{BundleError, PlaceFail, PlaceScratch, Placement};
pub use encoding::{DecodeError, EncodeError, Guard, Op, PatchError};
pub use memsys::Region;
pub use model::*;
pub use parse::Diagnostic;
pub use query::{ArgPat, Want};
pub use sem::{Sem, SemClass, SemOp, Ty};

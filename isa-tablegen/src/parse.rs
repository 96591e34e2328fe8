//! Parser for `.isa` files (WORK IN PROGRESS: being written now).
use std::fmt;
use std::path::Path;

use crate::model::Machine;

/// An error in a description, with its location: `FILE:LINE:COL: error: …`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: error: {}", self.file, self.line, self.col, self.message)
    }
}
impl std::error::Error for Diagnostic {}

impl Machine {
    pub fn parse_str(_text: &str, file: &str) -> Result<Machine, Diagnostic> {
        Err(Diagnostic { file: file.into(), line: 1, col: 1, message: "parser not written yet".into() })
    }
    pub fn parse_file(path: &Path) -> Result<Machine, Diagnostic> {
        Self::parse_str("", &path.display().to_string())
    }
    pub fn load(name_or_path: &str) -> Result<Machine, Diagnostic> {
        Self::parse_str("", name_or_path)
    }
}

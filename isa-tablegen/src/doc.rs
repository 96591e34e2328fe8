//! Markdown reference manual generation (`isa-tablegen doc`).
use crate::model::Machine;

pub fn manual(m: &Machine) -> String {
    format!("# {}\n", m.name)
}

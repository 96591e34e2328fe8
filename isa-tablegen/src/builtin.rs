//! The machine descriptions shipped with the toolchain, embedded at build time
//! so that every tool finds them by name (`--isa=ftm`) without a search path.
//! The `.isa` files in `machines/` stay the only place their facts are stated.

/// (name, file name, text) of every shipped machine; `ftm` is the default.
pub const MACHINES: &[(&str, &str, &str)] = &[
    ("ftm", "ftm.isa", include_str!("../machines/ftm.isa")),
    ("ftm8", "ftm8.isa", include_str!("../machines/ftm8.isa")),
    ("ftm32", "ftm32.isa", include_str!("../machines/ftm32.isa")),
];

/// The machine every tool uses when none is named.
pub const DEFAULT: &str = "ftm";

/// The text of a shipped machine, by name (`ftm`) or file name (`ftm.isa`).
pub fn source(name: &str) -> Option<(&'static str, &'static str)> {
    MACHINES
        .iter()
        .find(|(n, f, _)| *n == name || *f == name)
        .map(|(_, f, t)| (*f, *t))
}

/// Names of all shipped machines.
pub fn names() -> impl Iterator<Item = &'static str> {
    MACHINES.iter().map(|(n, _, _)| *n)
}

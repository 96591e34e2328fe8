//! End-to-end tests live in tests/*.rs; this crate only hosts them.

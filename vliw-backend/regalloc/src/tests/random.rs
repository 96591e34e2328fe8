//! Random SSA programs (straight-line code, diamonds, loops, calls,
//! predicates, 64-bit values), allocated on every machine and run before
//! and after allocation.

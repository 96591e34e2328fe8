//! Function-level SIMD vectorization (seed 001). For now only the input:
//! [`directives`] reads what the clang plugin (`frontend-plugin/`) left in
//! the IR — which functions want vector variants, with which clauses, and
//! which loops' calls are to be vectorized. The vectorizer itself (seed 001
//! §2) will live next to it and consume [`directives::Directives`].

pub mod directives;

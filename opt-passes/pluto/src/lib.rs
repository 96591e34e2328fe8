//! `dsp-pluto`: the polyhedral core of PLuTo (issue 12 item 2, seed 002),
//! independent of LLVM. Its input is a polyhedral program model ([`scop`]),
//! its output a transformed schedule ([`schedule`]), optionally tiled
//! ([`tile`]), and a loop AST ([`ast`]) with an interpreter.
//!
//! Pipeline: [`scop::Scop`] → [`deps::compute`] → [`schedule::schedule`] →
//! [`tile::tile`] (optional) → [`ast::generate`] → [`ast::Ast`].

pub mod ast;
pub mod deps;
pub mod error;
pub mod examples;
pub mod farkas;
pub mod ilp;
pub mod linalg;
pub mod poly;
pub mod schedule;
pub mod scop;
pub mod tile;
#[cfg(test)]
mod legality_tests;
#[cfg(test)]
mod testutil;

pub use error::{Error, Result};

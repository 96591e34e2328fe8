//! Test support: executing statement instances on concrete memory.
//!
//! Each instance computes a hash of its statement, its iterator values and
//! every value it reads, and writes a hash of that (and the access index)
//! to every element it writes — so the final memory depends on every
//! dependence being respected, and two execution orders give the same
//! memory iff (for these programs, with overwhelming probability) they
//! respect the same flow, anti and output dependences.

use crate::ast::Ast;
use crate::scop::{AccessKind, Instance, Scop};
use std::collections::BTreeMap;

fn mix(mut h: u64, v: u64) -> u64 {
    h ^= v.wrapping_add(0x9e37_79b9_7f4a_7c15).wrapping_add(h << 6).wrapping_add(h >> 2);
    h.wrapping_mul(0xff51_afd7_ed55_8ccd)
}

/// Memory: (array, subscripts) → value; absent elements read as their
/// initial value, a hash of their address.
pub type Memory = BTreeMap<(usize, Vec<i64>), u64>;

/// Runs the instances in order on a fresh memory.
pub fn execute(scop: &Scop, params: &[i64], order: &[Instance]) -> Memory {
    let mut mem = Memory::new();
    for inst in order {
        let s = &scop.stmts[inst.stmt];
        let mut x = inst.iters.clone();
        x.extend_from_slice(params);
        let mut h = mix(inst.stmt as u64, 17);
        for v in &inst.iters {
            h = mix(h, *v as u64);
        }
        for a in s.accesses.iter().filter(|a| a.kind == AccessKind::Read) {
            let idx: Vec<i64> = a.subscripts.iter().map(|e| e.eval(&x).unwrap()).collect();
            let v = mem.get(&(a.array, idx.clone())).copied().unwrap_or_else(|| idx.iter().fold(mix(a.array as u64, 99), |h, &i| mix(h, i as u64)));
            h = mix(h, v);
        }
        for (k, a) in s.accesses.iter().enumerate().filter(|(_, a)| a.kind == AccessKind::Write) {
            let idx: Vec<i64> = a.subscripts.iter().map(|e| e.eval(&x).unwrap()).collect();
            mem.insert((a.array, idx), mix(h, k as u64));
        }
    }
    mem
}

/// Asserts that the AST runs exactly the original instances and leaves
/// the same memory as the original order.
pub fn assert_equivalent(scop: &Scop, ast: &Ast, params: &[i64]) {
    let orig = scop.original_instances(params, 200_000).unwrap();
    let new = ast.execute(params, 200_000).unwrap();
    let (mut a, mut b) = (orig.clone(), new.clone());
    a.sort();
    b.sort();
    assert_eq!(a, b, "different instances for params {params:?}");
    assert_eq!(execute(scop, params, &orig), execute(scop, params, &new), "different results for params {params:?}");
}

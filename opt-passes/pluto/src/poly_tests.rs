//! Property tests of the polyhedra: random constraints inside a box,
//! checked against brute-force enumeration.

use super::*;
use proptest::prelude::*;

const BOX: i64 = 4;

/// A polyhedron over 3 dims and 1 parameter, inside `[-BOX, BOX]^3`, with
/// random extra constraints.
fn poly_gen() -> impl Strategy<Value = Polyhedron> {
    prop::collection::vec((prop::array::uniform4(-3i64..=3), -4i64..=4, prop::bool::weighted(0.2)), 0..5).prop_map(|rows| {
        let mut p = Polyhedron::universe(3, 1);
        for k in 0..3 {
            let mut lo = Aff::cst(4, BOX);
            lo.coeffs[k] = 1;
            p.add_ineq(lo).unwrap();
            let mut hi = Aff::cst(4, BOX);
            hi.coeffs[k] = -1;
            p.add_ineq(hi).unwrap();
        }
        for (c, k, eq) in rows {
            let a = Aff::new(c.to_vec(), k);
            if eq {
                p.add_eq(a).unwrap();
            } else {
                p.add_ineq(a).unwrap();
            }
        }
        p
    })
}

fn brute(p: &Polyhedron, n: i64) -> Vec<Vec<i64>> {
    let mut out = Vec::new();
    for x in -BOX..=BOX {
        for y in -BOX..=BOX {
            for z in -BOX..=BOX {
                if p.contains(&[x, y, z, n]).unwrap() {
                    out.push(vec![x, y, z]);
                }
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn points_match_brute_force(p in poly_gen(), n in -2i64..=2) {
        prop_assert_eq!(p.points(&[n], 10_000).unwrap(), brute(&p, n));
    }

    #[test]
    fn projection_contains_every_shadow(p in poly_gen(), n in -2i64..=2) {
        let q = p.eliminate(1).unwrap();
        for pt in brute(&p, n) {
            prop_assert!(q.contains(&[pt[0], pt[2], n]).unwrap());
        }
    }

    #[test]
    fn emptiness_matches_brute_force(p in poly_gen()) {
        let empty = (-2..=2).all(|n| brute(&p, n).is_empty());
        // Restrict the parameter to the range brute force looked at.
        let mut q = p.clone();
        q.add_ineq(Aff::new(vec![0, 0, 0, 1], 2)).unwrap();
        q.add_ineq(Aff::new(vec![0, 0, 0, -1], 2)).unwrap();
        prop_assert_eq!(q.is_empty().unwrap(), empty);
    }

    #[test]
    fn quick_emptiness_when_it_answers_matches_brute_force(p in poly_gen(), n in -2i64..=2) {
        let q = p.fix_params(&[n]).unwrap();
        if let Some(empty) = q.quick_emptiness() {
            prop_assert_eq!(empty, brute(&p, n).is_empty());
        }
    }
}

#[test]
fn quick_emptiness_decides_boxes_and_tiles_and_leaves_parity_to_the_solver() {
    // A box: a point at its lower corner.
    let mut b = Polyhedron::universe(2, 0);
    for (c, k) in [([1, 0], 0), ([-1, 0], 9), ([0, 1], -1), ([0, -1], 21)] {
        b.add_ineq(Aff::new(c.to_vec(), k)).unwrap();
    }
    assert_eq!(b.quick_emptiness(), Some(false));
    // A tile of 32: 32·T ≤ t ≤ 32·T + 31, 0 ≤ t ≤ 9, T ≥ 1: empty by propagation.
    let mut t = Polyhedron::universe(2, 0);
    for (c, k) in [([-32, 1], 0), ([32, -1], 31), ([0, 1], 0), ([0, -1], 9), ([1, 0], -1)] {
        t.add_ineq(Aff::new(c.to_vec(), k)).unwrap();
    }
    assert_eq!(t.quick_emptiness(), Some(true));
    assert!(t.is_empty().unwrap());
    // 2x = 2y + 1 with |x| ≤ 1000: no integer point. Propagation narrows
    // the bounds by one a round (it proves it for |x| ≤ 5) and the dive
    // finds no point, so the solver decides.
    let parity = |r: i64| {
        let mut e = Polyhedron::universe(2, 0);
        e.add_eq(Aff::new(vec![2, -2], -1)).unwrap();
        e.add_ineq(Aff::new(vec![1, 0], r)).unwrap();
        e.add_ineq(Aff::new(vec![-1, 0], r)).unwrap();
        e
    };
    assert_eq!(parity(5).quick_emptiness(), Some(true));
    assert_eq!(parity(1000).quick_emptiness(), None);
    assert!(parity(1000).is_empty().unwrap());
}

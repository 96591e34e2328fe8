//! Tests of tiling: the classic kernels tiled (and wavefronted) keep
//! their results; matmul's intra-tile order puts the parallel, stride-1
//! loop innermost.

use super::*;
use crate::ast::generate;
use crate::deps::compute;
use crate::examples;
use crate::schedule::{schedule, Options};
use crate::testutil::assert_equivalent;

fn tiled(scop: &Scop, opts: &TileOptions) -> Tiled {
    let deps = compute(scop, false).unwrap();
    let sch = schedule(scop, &deps, &Options::default()).unwrap();
    tile(scop, &deps, &sch, opts).unwrap()
}

#[test]
fn matmul_tiles_with_j_innermost() {
    let scop = examples::matmul();
    let t = tiled(&scop, &TileOptions { sizes: vec![2, 3, 2], ..TileOptions::default() });
    assert_eq!(t.bands.len(), 1);
    let b = &t.bands[0];
    // Point loops (i, k, j): j carries nothing and is stride-1 on C[i][j] and B[k][j].
    assert_eq!(b.point_order, vec![0, 2, 1]);
    assert!(b.innermost_parallel);
    assert_eq!(b.innermost_stride1, 3, "C[i][j] written and read, B[k][j]");
    // Tile loops (ti, tj, tk) then point loops (i, k, j): ti, tj, i, j parallel.
    assert_eq!(t.program.carries, vec![false, false, true, false, true, false]);
    let ast = generate(&t.program).unwrap();
    assert_equivalent(&scop, &ast, &[5]);
    assert_equivalent(&scop, &ast, &[1]);
}

#[test]
fn jacobi_1d_tiles_and_wavefront() {
    let scop = examples::jacobi_1d();
    let plain = tiled(&scop, &TileOptions { sizes: vec![2, 3], ..TileOptions::default() });
    // Without the wavefront the second tile loop carries dependences.
    assert!(plain.program.carries[1]);
    let ast = generate(&plain.program).unwrap();
    assert_equivalent(&scop, &ast, &[4, 9]);
    let wave = tiled(&scop, &TileOptions { sizes: vec![2, 3], wavefront: true, ..TileOptions::default() });
    assert!(wave.bands[0].wavefront && wave.bands[0].wavefront_parallel);
    assert!(wave.program.carries[0]);
    assert!(!wave.program.carries[1], "tiles of one wavefront are independent");
    let ast = generate(&wave.program).unwrap();
    assert_equivalent(&scop, &ast, &[4, 9]);
    assert_equivalent(&scop, &ast, &[1, 3]);
}

#[test]
fn seidel_2d_and_lu_tiled() {
    for (scop, params, sizes) in [(examples::seidel_2d(), vec![3, 6], vec![2, 2, 3]), (examples::lu(), vec![6], vec![2, 3, 2])] {
        for wavefront in [false, true] {
            let t = tiled(&scop, &TileOptions { sizes: sizes.clone(), wavefront, ..TileOptions::default() });
            let ast = generate(&t.program).unwrap();
            assert_equivalent(&scop, &ast, &params);
        }
    }
}

#[test]
fn default_tile_size_is_32() {
    let scop = examples::matmul();
    let t = tiled(&scop, &TileOptions::default());
    assert_eq!(t.bands[0].sizes, vec![32, 32, 32]);
    let ast = generate(&t.program).unwrap();
    assert_equivalent(&scop, &ast, &[3]);
}

#[test]
fn bad_tile_size_is_an_error() {
    let scop = examples::matmul();
    let deps = compute(&scop, false).unwrap();
    let sch = schedule(&scop, &deps, &Options::default()).unwrap();
    assert!(matches!(tile(&scop, &deps, &sch, &TileOptions { sizes: vec![0], ..TileOptions::default() }), Err(Error::Invalid(_))));
}

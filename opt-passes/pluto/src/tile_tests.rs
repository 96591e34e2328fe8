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
    let t = tiled(&scop, &TileOptions::default());
    let text = generate(&t.program).unwrap().pretty(&scop.params);
    let expected = "\
for (t0 = 0; t0 <= floord(N - 1, 32); t0++) /* parallel */
  for (t1 = 0; t1 <= floord(N - 1, 32); t1++) /* parallel */
    for (t2 = 0; t2 <= floord(N - 1, 32); t2++)
      for (t3 = max(0, 32*t0); t3 <= min(N - 1, 32*t0 + 31); t3++) /* parallel */
        for (t4 = max(0, 32*t2); t4 <= min(N - 1, 32*t2 + 31); t4++)
          for (t5 = max(0, 32*t1); t5 <= min(N - 1, 32*t1 + 31); t5++) /* parallel */
            S0(t3, t5, t4);
";
    assert_eq!(text, expected);
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
fn seidel_2d_lu_and_jacobi_2d_tiled() {
    for (scop, params, sizes) in [(examples::seidel_2d(), vec![3, 6], vec![2, 2, 3]), (examples::lu(), vec![6], vec![2, 3, 2]), (examples::jacobi_2d(), vec![3, 6], vec![2, 3, 3])] {
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

#[test]
fn seed_002_wavefront_of_tiles() {
    // Seed 002 图6–图10: dependences (1, 0) and (0, 1) point up and right;
    // the band (i, j) is permutable, so rectangular tiles are legal, and
    // tiles on one anti-diagonal (ti + tj constant) are independent: with
    // the wavefront the second tile loop carries nothing.
    let scop = crate::scop::ScopBuilder::new(&["N"])
        .context("N >= 2")
        .unwrap()
        .array("A", 2)
        .stmt("S", &["i", "j"], &["1 <= i <= N", "1 <= j <= N"], &[0, 0, 0], &["=A[i][j]", "A[i-1][j]", "A[i][j-1]"])
        .unwrap()
        .build()
        .unwrap();
    let plain = tiled(&scop, &TileOptions { sizes: vec![2, 2], ..TileOptions::default() });
    assert_eq!(plain.program.carries[..2], [true, true]);
    let wave = tiled(&scop, &TileOptions { sizes: vec![2, 2], wavefront: true, ..TileOptions::default() });
    assert_eq!(wave.program.carries[..2], [true, false]);
    assert!(wave.bands[0].wavefront_parallel);
    let ast = generate(&wave.program).unwrap();
    assert_equivalent(&scop, &ast, &[5]);
    // The tile loops: wavefront w = ti + tj outermost, then tj: tiles of one
    // wavefront run in increasing tj. Tile (ti, tj) = (0, 1) and (1, 0)
    // are in the same wavefront (w = 1).
    let order = ast.execute(&[4], 1000).unwrap();
    let pos = |i: i64, j: i64| order.iter().position(|x| x.iters == vec![i, j]).unwrap();
    // Point (1, 3) is in tile (0, 1), point (2, 1) in tile (1, 0): same
    // wavefront, tj = 0 first; point (3, 3) is in tile (1, 1): a later wavefront.
    assert!(pos(2, 1) < pos(1, 3));
    assert!(pos(1, 3) < pos(3, 3));
}

#[test]
#[ignore]
fn print_tiled_kernels() {
    for scop in [examples::matmul(), examples::jacobi_1d(), examples::lu()] {
        for wavefront in [false, true] {
            let t = tiled(&scop, &TileOptions { wavefront, ..TileOptions::default() });
            let ast = generate(&t.program).unwrap();
            eprintln!("{}", ast.pretty(&scop.params));
        }
    }
}

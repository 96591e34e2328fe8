//! The legality property at IR level (the core's `legality_tests.rs`, one
//! level up): random affine loop nests in C — rectangular and triangular
//! bounds, two or three loops, one to three statements reading and writing
//! two arrays at shifted subscripts, sibling nests — go through clang,
//! the canonical passes and `dsp-pluto` with small tiles, and the
//! transformed program must print exactly what the original prints.

use super::tests::{canonical_for_tests as canonical, lli_for_tests as lli, transform_for_tests as transform};

/// A small deterministic generator (no dependency for a test).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.next(xs.len() as u64) as usize]
    }
}

const N: usize = 9;

/// A subscript over the iterators `its`: one of them shifted by -1, 0 or 1.
fn sub(g: &mut Lcg, its: &[&str]) -> String {
    let it = g.pick(its);
    match g.next(3) {
        0 => format!("{it} - 1"),
        1 => it.to_string(),
        _ => format!("{it} + 1"),
    }
}

fn nest(g: &mut Lcg, out: &mut String) {
    let depth = 2 + g.next(2) as usize;
    let its = ["i", "j", "k"];
    let mut close = 0;
    for (d, it) in its.iter().enumerate().take(depth) {
        let (lo, hi) = match (d, g.next(4)) {
            (0, _) | (_, 0) | (_, 1) => ("1".to_string(), format!("{}", N - 1)),
            (_, 2) => (its[d - 1].to_string(), format!("{}", N - 1)),
            _ => ("1".to_string(), format!("{} + 1", its[d - 1])),
        };
        out.push_str(&format!("{}for (int {it} = {lo}; {it} < {hi}; {it}++) {{\n", "  ".repeat(d + 1)));
        close += 1;
    }
    let used = &its[..depth];
    for _ in 0..1 + g.next(2) {
        let (w, r1, r2) = (g.pick(&["A", "B"]), g.pick(&["A", "B"]), g.pick(&["A", "B"]));
        out.push_str(&format!(
            "{}{w}[{}][{}] = ({r1}[{}][{}] + 3 * {r2}[{}][{}] + {}) % 1009;\n",
            "  ".repeat(depth + 1),
            sub(g, used),
            sub(g, used),
            sub(g, used),
            sub(g, used),
            sub(g, used),
            sub(g, used),
            g.next(7)
        ));
    }
    for d in (0..close).rev() {
        out.push_str(&format!("{}}}\n", "  ".repeat(d + 1)));
    }
}

fn program(seed: u64) -> (String, String) {
    let mut g = Lcg(seed);
    let mut body = String::new();
    for _ in 0..1 + g.next(2) {
        nest(&mut g, &mut body);
    }
    let c = format!(
        "#include <stdio.h>\nstatic int A[{n}][{n}], B[{n}][{n}];\n__attribute__((noinline)) void kernel(void) {{\n{body}}}\n\
         int main(void) {{\n  for (int i = 0; i < {n}; i++) for (int j = 0; j < {n}; j++) {{ A[i][j] = (i * 7 + j * 3) % 11; B[i][j] = (i + j * 5) % 13; }}\n\
         kernel();\n  long s = 0;\n  for (int i = 0; i < {n}; i++) for (int j = 0; j < {n}; j++) s = (s * 31 + A[i][j] * 7 + B[i][j]) % 1000000007;\n\
         printf(\"%ld\\n\", s);\n  return 0;\n}}\n",
        n = N + 1
    );
    let t = 2 + g.next(3);
    (c, format!("sizes={t},{t},{t}"))
}

#[test]
fn random_affine_nests_print_what_they_printed() {
    let mut transformed = 0;
    for seed in 1..=20u64 {
        let (c, params) = program(seed);
        let before = canonical(&format!("random{seed}"), &c);
        let (after, remarks) = transform(&before, &params);
        if remarks.iter().any(|r| r.1.contains("in kernel transformed")) {
            transformed += 1;
        }
        assert_eq!(lli("random", &before), lli("random", &after), "seed {seed} ({params}):\n{c}\n{remarks:?}");
    }
    assert!(transformed >= 10, "only {transformed} of 20 random kernels transformed");
}

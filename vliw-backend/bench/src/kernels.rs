//! The benchmark kernels: where each one's C source is, which function is
//! the kernel, its two sizes, and its essential operation counts as formulas
//! of `SIZE` (what any implementation must do, whatever the compiler makes of
//! the loops: every multiply-accumulate of the algorithm, every input element
//! loaded once, every output element stored once).
//!
//! Each kernel also names its dependence chains ([`Kernel::chains`]): the
//! paths of floating-point operations that C keeps in source order (no
//! reassociation without `-ffast-math`), so that every schedule must run
//! their operations one after the other, with the operations on each path
//! counted as formulas of `SIZE` too. Integer reductions may be reassociated
//! and list no chain.
//!
//! The counts are machine-independent; [`crate::bound`] turns the
//! operation counts into a resource bound and [`crate::chain`] the chains
//! into a latency bound for a machine. Each formula here repeats the comment at the top of
//! the kernel's C file (`kernels/NAME.c`), and the C constants it depends on
//! (`TAPS`, `STAGES`, `LAGS`) are the `#define`s of those files.

use isa_tablegen::Ty;

/// What an essential operation does (the `.isa` vocabulary operation it
/// maps to is chosen by [`crate::bound`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpKind {
    /// `d = a * b + c` (fused for floats).
    Mac,
    Mul,
    Add,
    Sub,
    /// One element read from memory.
    Load,
    /// One element written to memory.
    Store,
}

impl OpKind {
    pub fn name(self) -> &'static str {
        match self {
            OpKind::Mac => "mac",
            OpKind::Mul => "mul",
            OpKind::Add => "add",
            OpKind::Sub => "sub",
            OpKind::Load => "load",
            OpKind::Store => "store",
        }
    }
}

/// `count` operations of one kind on elements of type `ty`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpCount {
    pub kind: OpKind,
    pub ty: Ty,
    pub count: u64,
}

/// How a kernel uses one of its arrays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Use {
    Read,
    Write,
    /// Read, and written (every element read before or after it is written).
    ReadWrite,
}

/// One benchmark kernel.
#[derive(Clone, Copy, Debug)]
pub struct Kernel {
    /// Short name, also the C file's stem (`kernels/NAME.c`).
    pub name: &'static str,
    /// The kernel function the C file's `main` calls (non-inlined).
    pub func: &'static str,
    /// `SIZE` for the small and the medium run.
    pub sizes: [u64; 2],
    /// What `SIZE` means.
    pub size_means: &'static str,
    /// The counts as text (for `dsp-bench bounds` and the documentation).
    pub formula: &'static str,
    /// The counts for a `SIZE`.
    pub ops: fn(u64) -> Vec<OpCount>,
    /// The longest dependence chains as text (`-` for none).
    pub chain_formula: &'static str,
    /// The candidate longest chains for a `SIZE`: each is one dependence
    /// path, given as the operations on it and how many of each (the order
    /// does not matter for its length); the bound takes the longest.
    pub chains: fn(u64) -> Vec<Vec<OpCount>>,
    /// The global arrays (symbols of the C file) the kernel reads or writes
    /// whole, with how: the memory any implementation must touch
    /// ([`crate::cold`] turns it into the stall cycles of its cold misses).
    pub data: &'static [(&'static str, Use)],
}

/// `TAPS` of `fir.c`.
pub const FIR_TAPS: u64 = 16;
/// `STAGES` of `iir.c`.
pub const IIR_STAGES: u64 = 4;
/// `LAGS` of `autocorr.c`.
pub const AUTOCORR_LAGS: u64 = 16;
/// `TAPS` of `fir_q15.c`.
pub const FIR_Q15_TAPS: u64 = 16;

fn op(kind: OpKind, ty: Ty, count: u64) -> OpCount {
    OpCount { kind, ty, count }
}

fn dot_i32(n: u64) -> Vec<OpCount> {
    vec![
        op(OpKind::Mac, Ty::I32, n),
        op(OpKind::Load, Ty::I32, 2 * n),
    ]
}

fn dot_f32(n: u64) -> Vec<OpCount> {
    vec![
        op(OpKind::Mac, Ty::F32, n),
        op(OpKind::Load, Ty::F32, 2 * n),
    ]
}

fn fir(n: u64) -> Vec<OpCount> {
    let t = FIR_TAPS;
    vec![
        op(OpKind::Mac, Ty::F32, n * t),
        op(OpKind::Load, Ty::F32, n + 2 * t - 1),
        op(OpKind::Store, Ty::F32, n),
    ]
}

fn iir(n: u64) -> Vec<OpCount> {
    let s = IIR_STAGES;
    vec![
        op(OpKind::Mac, Ty::F32, 4 * s * n),
        op(OpKind::Mul, Ty::F32, s * n),
        // Samples, 5 coefficients and 2 state words per section.
        op(OpKind::Load, Ty::F32, n + 7 * s),
        // Samples and the final state.
        op(OpKind::Store, Ty::F32, n + 2 * s),
    ]
}

fn matmul(n: u64) -> Vec<OpCount> {
    vec![
        op(OpKind::Mac, Ty::F32, n * n * n),
        op(OpKind::Load, Ty::F32, 2 * n * n),
        op(OpKind::Store, Ty::F32, n * n),
    ]
}

fn conv2d(w: u64) -> Vec<OpCount> {
    let o = w.saturating_sub(2);
    vec![
        op(OpKind::Mac, Ty::I32, 9 * o * o),
        op(OpKind::Load, Ty::I32, w * w + 9),
        op(OpKind::Store, Ty::I32, o * o),
    ]
}

fn autocorr(n: u64) -> Vec<OpCount> {
    let l = AUTOCORR_LAGS.min(n);
    vec![
        op(OpKind::Mac, Ty::I32, l * n - l * (l - 1) / 2),
        op(OpKind::Load, Ty::I32, n),
        op(OpKind::Store, Ty::I32, AUTOCORR_LAGS),
    ]
}

fn fft(n: u64) -> Vec<OpCount> {
    let log2 = if n > 1 {
        63 - n.leading_zeros() as u64
    } else {
        0
    };
    let b = n / 2 * log2;
    vec![
        op(OpKind::Mac, Ty::F32, 2 * b),
        op(OpKind::Mul, Ty::F32, 2 * b),
        op(OpKind::Add, Ty::F32, 2 * b),
        op(OpKind::Sub, Ty::F32, 2 * b),
        op(OpKind::Load, Ty::F32, 3 * n),
        op(OpKind::Store, Ty::F32, 2 * n),
    ]
}

fn saxpy(n: u64) -> Vec<OpCount> {
    vec![
        op(OpKind::Mac, Ty::F32, n),
        op(OpKind::Load, Ty::F32, 2 * n),
        op(OpKind::Store, Ty::F32, n),
    ]
}

fn fir_q15(n: u64) -> Vec<OpCount> {
    let t = FIR_Q15_TAPS;
    vec![
        // i16 samples times i16 taps, widened to the i32 accumulator.
        op(OpKind::Mac, Ty::I32, n * t),
        op(OpKind::Load, Ty::I16, n + 2 * t - 1),
        op(OpKind::Store, Ty::I16, n),
    ]
}

/// No chain binds: integer sums may be reassociated.
fn no_chain(_: u64) -> Vec<Vec<OpCount>> {
    Vec::new()
}

/// `s = a[i] * b[i] + s`: N fused MACs through the accumulator.
fn dot_f32_chain(n: u64) -> Vec<Vec<OpCount>> {
    vec![vec![op(OpKind::Mac, Ty::F32, n)]]
}

/// Each output's own TAPS-long MAC sum (outputs are independent).
fn fir_chain(_: u64) -> Vec<Vec<OpCount>> {
    vec![vec![op(OpKind::Mac, Ty::F32, FIR_TAPS)]]
}

/// Per section and sample (`w = k0 v + s1; t = k4 w; s1' = k1 v + (k3 w +
/// s2); s2' = k2 v + t`), two cycles through the state, and sections chained
/// forwards (section `st+1` reads `w` of section `st` of the same sample):
///
/// - `s1 → w → (k3 w + s2) → s1'`: 3 MACs per sample. Over all samples and
///   sections the longest such path is 3(N-1) MACs in the sections plus one
///   `w` per section: 3N - 3 + STAGES MACs.
/// - `w → t → s2' → (k3 w + s2) → s1' → w`, two samples: 4 MACs and a
///   multiply per two samples, then the last `w` and one `w` per further
///   section: longer than the first only where a multiply takes more than two
///   MACs.
fn iir_chain(n: u64) -> Vec<Vec<OpCount>> {
    let s = IIR_STAGES;
    if n == 0 {
        return Vec::new();
    }
    let pairs = (n - 1) / 2;
    vec![
        vec![op(OpKind::Mac, Ty::F32, 3 * n - 3 + s)],
        vec![
            op(OpKind::Mac, Ty::F32, 4 * pairs + s),
            op(OpKind::Mul, Ty::F32, pairs),
        ],
    ]
}

/// Each element's own k sum: N MACs (elements are independent).
fn matmul_chain(n: u64) -> Vec<Vec<OpCount>> {
    vec![vec![op(OpKind::Mac, Ty::F32, n)]]
}

/// Through the stages: per stage `w_i b_i` (mul), the MAC of the twiddle
/// product and the butterfly's add or subtract.
fn fft_chain(n: u64) -> Vec<Vec<OpCount>> {
    let log2 = if n > 1 {
        63 - n.leading_zeros() as u64
    } else {
        0
    };
    vec![vec![
        op(OpKind::Mul, Ty::F32, log2),
        op(OpKind::Mac, Ty::F32, log2),
        op(OpKind::Add, Ty::F32, log2),
    ]]
}

/// One MAC per element (elements are independent).
fn saxpy_chain(_: u64) -> Vec<Vec<OpCount>> {
    vec![vec![op(OpKind::Mac, Ty::F32, 1)]]
}

/// Every kernel, in table order.
pub const KERNELS: &[Kernel] = &[
    Kernel {
        name: "dot_i32",
        func: "dot_i32",
        sizes: [256, 4096],
        size_means: "elements",
        formula: "mac.i32 N; load 2N",
        ops: dot_i32,
        chain_formula: "-",
        chains: no_chain,
        data: &[("x", Use::Read), ("y", Use::Read)],
    },
    Kernel {
        name: "dot_f32",
        func: "dot_f32",
        sizes: [256, 4096],
        size_means: "elements",
        formula: "mac.f32 N; load 2N",
        ops: dot_f32,
        chain_formula: "mac.f32 N",
        chains: dot_f32_chain,
        data: &[("x", Use::Read), ("y", Use::Read)],
    },
    Kernel {
        name: "fir",
        func: "fir_f32",
        sizes: [256, 4096],
        size_means: "output samples (16 taps)",
        formula: "mac.f32 16N; load N+31; store N",
        ops: fir,
        chain_formula: "mac.f32 16",
        chains: fir_chain,
        data: &[("in", Use::Read), ("h", Use::Read), ("out", Use::Write)],
    },
    Kernel {
        name: "iir",
        func: "iir_biquad",
        sizes: [256, 4096],
        size_means: "samples (4 biquad sections)",
        formula: "mac.f32 16N; mul.f32 4N; load N+28; store N+8",
        ops: iir,
        chain_formula: "mac.f32 3N+1, or mac.f32 4((N-1)/2)+4 and mul.f32 (N-1)/2",
        chains: iir_chain,
        data: &[("in", Use::Read), ("out", Use::Write), ("coef", Use::Read), ("state", Use::ReadWrite)],
    },
    Kernel {
        name: "matmul",
        func: "matmul_f32",
        sizes: [16, 64],
        size_means: "matrix order",
        formula: "mac.f32 N^3; load 2N^2; store N^2",
        ops: matmul,
        chain_formula: "mac.f32 N",
        chains: matmul_chain,
        data: &[("a", Use::Read), ("b", Use::Read), ("c", Use::Write)],
    },
    Kernel {
        name: "conv2d",
        func: "conv3x3_i32",
        sizes: [16, 64],
        size_means: "image width = height (3x3 filter)",
        formula: "mac.i32 9(N-2)^2; load N^2+9; store (N-2)^2",
        ops: conv2d,
        chain_formula: "-",
        chains: no_chain,
        data: &[("img", Use::Read), ("filt", Use::Read), ("out", Use::Write)],
    },
    Kernel {
        name: "autocorr",
        func: "autocorr_i32",
        sizes: [256, 4096],
        size_means: "samples (16 lags)",
        formula: "mac.i32 16N-120; load N; store 16",
        ops: autocorr,
        chain_formula: "-",
        chains: no_chain,
        data: &[("sig", Use::Read), ("r", Use::Write)],
    },
    Kernel {
        name: "fft",
        func: "fft_f32",
        sizes: [256, 2048],
        size_means: "complex points",
        formula: "B = N/2 log2 N butterflies: mac.f32 2B; mul.f32 2B; add.f32 2B; sub.f32 2B; load 3N; store 2N",
        ops: fft,
        chain_formula: "log2 N x (mul.f32, mac.f32, add.f32)",
        chains: fft_chain,
        data: &[("re", Use::ReadWrite), ("im", Use::ReadWrite), ("wr", Use::Read), ("wi", Use::Read)],
    },
    Kernel {
        name: "saxpy",
        func: "saxpy",
        sizes: [256, 4096],
        size_means: "elements",
        formula: "mac.f32 N; load 2N; store N",
        ops: saxpy,
        chain_formula: "mac.f32 1",
        chains: saxpy_chain,
        data: &[("x", Use::Read), ("y", Use::ReadWrite)],
    },
    Kernel {
        name: "fir_q15",
        func: "fir_q15",
        sizes: [256, 4096],
        size_means: "output samples (16 taps, Q15)",
        formula: "mac.i32 (i16 x i16 widened) 16N; load.i16 N+31; store.i16 N",
        ops: fir_q15,
        chain_formula: "-",
        chains: no_chain,
        data: &[("in", Use::Read), ("h", Use::Read), ("out", Use::Write)],
    },
];

/// A kernel by name.
pub fn find(name: &str) -> Option<&'static Kernel> {
    KERNELS.iter().find(|k| k.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas() {
        let dot = (find("dot_i32").unwrap().ops)(256);
        assert_eq!(
            dot,
            vec![
                op(OpKind::Mac, Ty::I32, 256),
                op(OpKind::Load, Ty::I32, 512)
            ]
        );
        let mm = (find("matmul").unwrap().ops)(16);
        assert_eq!(mm[0].count, 4096);
        // 16 lags over 256 samples: 256 + 255 + ... + 241.
        let ac = (find("autocorr").unwrap().ops)(256);
        assert_eq!(ac[0].count, (241..=256).sum::<u64>());
        // 256 points: 8 stages of 128 butterflies.
        let f = (find("fft").unwrap().ops)(256);
        assert_eq!(f[0].count, 2 * 128 * 8);
        let c = (find("conv2d").unwrap().ops)(16);
        assert_eq!(c[0].count, 9 * 14 * 14);
        let q = (find("fir_q15").unwrap().ops)(256);
        assert_eq!(q[1], op(OpKind::Load, Ty::I16, 256 + 15 + 16));
    }

    #[test]
    fn chains() {
        // IIR over 4 samples, 4 sections: 3 MACs per sample in a section and
        // one w per further section: 3 * 3 + 4 = 13.
        let c = (find("iir").unwrap().chains)(4);
        assert_eq!(c[0], vec![op(OpKind::Mac, Ty::F32, 13)]);
        // The multiply path: one pair (4 MACs, 1 multiply), then w and 3 more sections.
        assert_eq!(c[1], vec![op(OpKind::Mac, Ty::F32, 8), op(OpKind::Mul, Ty::F32, 1)]);
        assert!((find("iir").unwrap().chains)(0).is_empty());
        for k in KERNELS {
            let float = (k.ops)(k.sizes[0]).iter().any(|o| o.ty.is_float());
            assert_eq!((k.chains)(k.sizes[0]).is_empty(), !float, "{}", k.name);
            assert_eq!(k.chain_formula == "-", !float, "{}", k.name);
        }
    }

    #[test]
    fn every_kernel_has_its_source() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels");
        for k in KERNELS {
            let src = std::fs::read_to_string(dir.join(format!("{}.c", k.name))).unwrap();
            assert!(src.contains("NOINLINE "), "{}", k.name);
            assert!(
                src.contains(&format!(" {}(", k.func)),
                "{}: no function {}",
                k.name,
                k.func
            );
            for (sym, _) in k.data {
                let arrays = src.lines().filter(|l| !l.starts_with(' ') && l.contains(&format!(" {sym}[")));
                assert_eq!(arrays.count(), 1, "{}: no global array {sym}", k.name);
            }
            assert!(!k.data.is_empty(), "{}", k.name);
        }
        let fir = std::fs::read_to_string(dir.join("fir.c")).unwrap();
        assert!(fir.contains(&format!("#define TAPS {FIR_TAPS}\n")));
        let iir = std::fs::read_to_string(dir.join("iir.c")).unwrap();
        assert!(iir.contains(&format!("#define STAGES {IIR_STAGES}\n")));
        let q15 = std::fs::read_to_string(dir.join("fir_q15.c")).unwrap();
        assert!(q15.contains(&format!("#define TAPS {FIR_Q15_TAPS}\n")));
        let ac = std::fs::read_to_string(dir.join("autocorr.c")).unwrap();
        assert!(ac.contains(&format!("#define LAGS {AUTOCORR_LAGS}\n")));
    }
}

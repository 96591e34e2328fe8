//! Where the toolchain's pieces are, and what the target machine means for
//! clang. Tools (`dsp-llc`, `dsp-as`, `dsp-ld`) and the pass plugin
//! (`libdsp_opt_passes.so`) sit next to `dspcc`'s executable
//! (`target/<profile>/`), and so does the clang plugin for the vectorization
//! directives (`libdsp_frontend_plugin.so`); clang is `$DSPCC_CLANG` or `clang-19` on `PATH`;
//! the runtime (headers in `include/`, `KEY/crt0.o`, `libc.a`, `libm.a`)
//! is `$DSPCC_RUNTIME` or `<dspcc's dir>/../runtime` (`target/runtime`).
//! The runtime of a machine is keyed by its fingerprint: `KEY` is the
//! machine's name for a shipped machine (or a file with the same text), and
//! `NAME-FINGERPRINT` (16 hex digits) for any other `.isa` file, so a
//! changed file never links a stale runtime (`scripts/build-runtime FILE.isa`
//! builds it).

use std::path::{Path, PathBuf};

use isa_tablegen::{Machine, SemOp, Ty};

/// The clang target: 32-bit, little-endian, with a C ABI close to ours (vliw-backend/ABI.md).
pub const CLANG_TARGET: &str = "hexagon-unknown-elf";

/// The target triple `dspcc -dumpmachine` reports.
pub const DUMP_MACHINE: &str = "dsp-unknown-elf";

/// Hexagon's predefined macros (from `clang-19 --target=hexagon-unknown-elf
/// [-mhvx -mhvx-length=64b|128b] -dM -E -`), undefined so that programs see
/// our machine, not Hexagon.
pub const HEXAGON_MACROS: &[&str] = &[
    "__hexagon__",
    "__HEXAGON_ARCH__",
    "__HEXAGON_PHYSICAL_SLOTS__",
    "__HEXAGON_V60__",
    "__QDSP6_ARCH__",
    "__QDSP6_V60__",
    "__qdsp6__",
    "__HVX__",
    "__HVX_ARCH__",
    "__HVX_LENGTH__",
    "__HVXDBL__",
];

/// Keeping Hexagon-specific IR out. clang runs the Hexagon target's IR
/// pipeline, which adds two Hexagon loop passes to LLVM's: the vector
/// loop-carried reuse pass (plain IR), and the loop idiom pass, which
/// (a) turns CRC and polynomial-multiply bit loops into
/// `llvm.hexagon.M4.pmpyw` (it has no switch; isel lowers the intrinsic
/// to the runtime's `__dsp_clmul32`) and (b) turns copy loops into
/// `memcpy`/`memmove`, or, for a volatile destination, into a call to
/// Hexagon's `hexagon_memcpy_forward_vp4cp4n2`: (b) is switched off here
/// (LLVM's own loop idiom pass still forms `memcpy`/`memmove`, and leaves
/// volatile stores alone). No other Hexagon IR pass runs before our backend
/// (Hexagon's code generator, with its HVX IR passes, is never used), and
/// `tests/tests/ir_coverage.rs` checks the IR of the corpus and the runtime.
pub const HEXAGON_IR_FLAGS: &[&str] = &["-mllvm", "-disable-memcpy-idiom", "-mllvm", "-disable-memmove-idiom"];

/// The CMake toolchain file (`dspcc -print-cmake-toolchain`), in this
/// crate's source tree.
pub fn cmake_toolchain() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("cmake").join("dsp-toolchain.cmake")
}

/// The installed pieces of the toolchain.
#[derive(Clone, Debug)]
pub struct Toolchain {
    /// The directory of `dspcc` (and of the other tools).
    pub bin_dir: PathBuf,
    pub clang: PathBuf,
    pub plugin: PathBuf,
    /// The clang plugin for the vectorization directives (frontend-plugin/).
    pub frontend_plugin: PathBuf,
    pub runtime: PathBuf,
}

impl Toolchain {
    /// Finds the pieces relative to the running executable and the environment.
    pub fn locate() -> Toolchain {
        let exe = std::env::current_exe().and_then(|p| p.canonicalize()).unwrap_or_else(|_| PathBuf::from("dspcc"));
        let bin_dir = exe.parent().map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("."));
        let env_path = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        Toolchain {
            clang: env_path("DSPCC_CLANG").unwrap_or_else(|| PathBuf::from("clang-19")),
            plugin: env_path("DSPCC_PLUGIN").unwrap_or_else(|| bin_dir.join("libdsp_opt_passes.so")),
            frontend_plugin: env_path("DSPCC_FRONTEND_PLUGIN").unwrap_or_else(|| bin_dir.join("libdsp_frontend_plugin.so")),
            runtime: env_path("DSPCC_RUNTIME").unwrap_or_else(|| bin_dir.join("..").join("runtime")),
            bin_dir,
        }
    }

    /// A tool of ours: next to `dspcc` when there, else found on `PATH`.
    pub fn tool(&self, name: &str) -> PathBuf {
        let p = self.bin_dir.join(name);
        if p.exists() {
            p
        } else {
            PathBuf::from(name)
        }
    }

    /// The runtime's header directory.
    pub fn include_dir(&self) -> PathBuf {
        self.runtime.join("include")
    }

    /// The runtime's library directory for a machine.
    pub fn lib_dir(&self, t: &Target) -> PathBuf {
        self.runtime.join(&t.runtime_key)
    }
}

/// The machine being compiled for, as the driver needs it.
#[derive(Clone, Debug)]
pub struct Target {
    /// `--isa` as given (a name or a path), passed on to every tool.
    pub isa: String,
    /// The machine's own name (`machine` statement).
    pub name: String,
    /// Lanes of the 32-bit vector file, if the machine has one.
    pub lanes: Option<u32>,
    /// The runtime's directory name (see the module comment).
    pub runtime_key: String,
    /// Whether the machine has square-root and fused multiply-add
    /// instructions for both f32 and f64 (`__DSP_HW_SQRT__`,
    /// `__DSP_HW_FMA__`: libm then uses them instead of its exact software
    /// versions, which it must use otherwise, since the compiler turns
    /// `llvm.sqrt`/`llvm.fma` into calls to `sqrt`/`fma` on such a machine).
    pub hw_sqrt: bool,
    pub hw_fma: bool,
}

impl Target {
    pub fn load(isa: &str) -> Result<Target, String> {
        let m = Machine::load(isa).map_err(|d| d.to_string())?;
        let shipped = isa_tablegen::builtin::source(&m.name)
            .and_then(|(file, text)| Machine::parse_str(text, file).ok())
            .is_some_and(|s| s.fingerprint == m.fingerprint);
        let runtime_key = if shipped { m.name.clone() } else { format!("{}-{:016x}", m.name, m.fingerprint) };
        let has = |op: SemOp| [Ty::F32, Ty::F64].iter().all(|&ty| m.instrs.iter().any(|i| i.sem.op == op && i.sem.ty == Some(ty)));
        Ok(Target {
            isa: isa.to_string(),
            name: m.name.clone(),
            lanes: m.vector_lanes(32),
            runtime_key,
            hw_sqrt: has(SemOp::Sqrt),
            hw_fma: has(SemOp::Mac),
        })
    }

    /// Predefined macros: Hexagon's removed, ours defined.
    pub fn macro_flags(&self) -> Vec<String> {
        let mut v: Vec<String> = HEXAGON_MACROS.iter().map(|m| format!("-U{m}")).collect();
        v.push("-D__dsp__".into());
        v.push(format!("-D__DSP_ISA__=\"{}\"", self.name));
        v.push(format!("-D__DSP_LANES__={}", self.lanes.unwrap_or(1)));
        if self.hw_sqrt {
            v.push("-D__DSP_HW_SQRT__".into());
        }
        if self.hw_fma {
            v.push("-D__DSP_HW_FMA__".into());
        }
        v
    }

    /// The flags that make LLVM's vectorizers target the machine's lane
    /// count (vliw-backend/ABI.md "Vectors"): HVX registers of 64 bytes for
    /// up to 16 lanes of 32 bits, 128 bytes beyond, and the vector width
    /// forced to the lane count. A forced width counts as a user hint, and
    /// LLVM then lets hints reorder floating-point reductions (it would sum
    /// a float loop in 16 partial sums without -ffast-math): reordering by
    /// hints is turned off, so results stay those of the C source.
    pub fn vector_flags(&self) -> Vec<String> {
        let Some(lanes) = self.lanes.filter(|&l| l > 1) else { return Vec::new() };
        let length = if lanes <= 16 { "64b" } else { "128b" };
        vec![
            "-mhvx".into(),
            format!("-mhvx-length={length}"),
            "-mllvm".into(),
            "-hexagon-autohvx".into(),
            "-mllvm".into(),
            format!("-force-vector-width={lanes}"),
            "-mllvm".into(),
            "-hints-allow-reordering=false".into(),
        ]
    }
}

impl Target {
    /// `-fmasked-tail` (the default from -O2): the plugin's `dsp-masked-tail`
    /// pass runs a vectorized loop's remainder as one masked vector
    /// iteration (`llvm.masked.load`/`store`, which isel lowers to the
    /// machine's `vloadm`/`vstorem`) instead of LLVM's scalar epilogue.
    /// (LLVM's own tail folding, `-prefer-predicate-over-epilogue`, is no
    /// use here: with the Hexagon target clang uses, LLVM 19 treats masked
    /// accesses as illegal and predicates the folded loop lane by lane with
    /// branches, 25 to 200 times slower than the scalar epilogue on ftm.)
    pub fn masked_tail_flags(&self, on: bool) -> Vec<String> {
        if !on || self.lanes.is_none_or(|l| l <= 1) {
            return Vec::new();
        }
        vec!["-mllvm".into(), "-dsp-masked-tail".into()]
    }

    /// clang's flags for unroll-and-jam (the plugin's `dsp-unroll-jam`), if on and the machine has vectors.
    pub fn unroll_jam_flags(&self, on: bool) -> Vec<String> {
        if !on || self.lanes.is_none_or(|l| l <= 1) {
            return Vec::new();
        }
        vec!["-mllvm".into(), "-dsp-unroll-jam".into()]
    }

    /// clang's flags for loop interchange (the plugin's `dsp-interchange`), if on and the machine has vectors.
    pub fn interchange_flags(&self, on: bool) -> Vec<String> {
        if !on || self.lanes.is_none_or(|l| l <= 1) {
            return Vec::new();
        }
        vec!["-mllvm".into(), "-dsp-interchange".into()]
    }

    /// clang's flags for strip-mining short vector loops (the plugin's
    /// `dsp-interchange` strip-mined form), if on and the machine has vectors.
    pub fn strip_mine_flags(&self, on: bool) -> Vec<String> {
        if !on || self.lanes.is_none_or(|l| l <= 1) {
            return Vec::new();
        }
        vec!["-mllvm".into(), "-dsp-strip-mine".into()]
    }

    /// clang's flags for flattening independent nests (the plugin's
    /// `dsp-flatten`), if on and the machine has vectors.
    pub fn flatten_flags(&self, on: bool) -> Vec<String> {
        if !on || self.lanes.is_none_or(|l| l <= 1) {
            return Vec::new();
        }
        vec!["-mllvm".into(), "-dsp-flatten".into()]
    }

    /// clang's flags for outer-loop vectorization (the plugin's `dsp-outer-vec`), if on and the machine has vectors.
    pub fn outer_vec_flags(&self, on: bool) -> Vec<String> {
        if !on || self.lanes.is_none_or(|l| l <= 1) {
            return Vec::new();
        }
        vec!["-mllvm".into(), "-dsp-outer-vec".into()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_of_the_shipped_machines() {
        let t = Target::load("ftm").unwrap();
        assert_eq!(t.lanes, Some(16));
        assert!(t.vector_flags().contains(&"-mhvx-length=64b".to_string()));
        assert!(t.vector_flags().contains(&"-force-vector-width=16".to_string()));
        assert!(t.vector_flags().contains(&"-hints-allow-reordering=false".to_string()));
        assert!(t.macro_flags().contains(&"-D__DSP_ISA__=\"ftm\"".to_string()));
        assert!(t.macro_flags().contains(&"-U__hexagon__".to_string()));
        let t = Target::load("ftm32").unwrap();
        assert!(t.vector_flags().contains(&"-mhvx-length=128b".to_string()));
        assert!(t.macro_flags().contains(&"-D__DSP_LANES__=32".to_string()));
        let t = Target::load("ftm8").unwrap();
        assert!(t.vector_flags().contains(&"-force-vector-width=8".to_string()));
        assert!(Target::load("nosuch").is_err());
        assert_eq!(Target::load("ftm").unwrap().runtime_key, "ftm");
        assert!(t.hw_sqrt && t.hw_fma && t.macro_flags().contains(&"-D__DSP_HW_SQRT__".to_string()));
    }

    #[test]
    fn a_machine_file_has_its_own_runtime_key_and_features() {
        let dir = std::env::temp_dir().join(format!("dspcc-tools-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let same = dir.join("ftm.isa");
        std::fs::write(&same, isa_tablegen::builtin::source("ftm").unwrap().1).unwrap();
        assert_eq!(Target::load(same.to_str().unwrap()).unwrap().runtime_key, "ftm");
        let nofpu = dir.join("nofpu.isa");
        std::fs::write(&nofpu, "base \"ftm.isa\"\nmachine nofpu\ndrop fsqrt dmac\n").unwrap();
        let t = Target::load(nofpu.to_str().unwrap()).unwrap();
        assert!(t.runtime_key.starts_with("nofpu-") && t.runtime_key.len() == "nofpu-".len() + 16, "{}", t.runtime_key);
        assert!(!t.hw_sqrt && !t.hw_fma);
        assert!(!t.macro_flags().iter().any(|f| f.starts_with("-D__DSP_HW_")));
        let _ = std::fs::remove_dir_all(&dir);
    }
}

//! Command-line parsing with clang's conventions: joined or separate values
//! (`-Iinc`, `-I inc`, `-o out`, `-oout`), the last phase flag deciding how
//! far to go (`-E` < `-S` < `-c` < link), `-x LANG` applying to the inputs
//! after it, `-l`/`-L` keeping their position among the inputs, and
//! clang-style errors (`unknown argument: '-foo'`) for anything else.
//!
//! Flags that only shape the C compilation (`-D`, `-W…`, `-f…`, `-std=`, …)
//! are collected in order and handed to clang unchanged. The software
//! pipeliner's flags (`--modulo-scheduler=`, `-fmodulo-sched`,
//! `-fno-modulo-sched`, `--ilp-time-limit=`, `--pipeline-report=`) go to
//! every `dsp-llc`; clang's remark flags (`-Rpass=`, `-Rpass-missed=`,
//! `-Rpass-analysis=`) go to clang and to every `dsp-llc`. `-fmasked-tail`
//! and `-fno-masked-tail` choose how a vectorized loop ends (the plugin's
//! `dsp-masked-tail` pass); `-fouter-loop-vectorize` and
//! `-fno-outer-loop-vectorize` whether outer loops of nests are vectorized
//! whole (its `dsp-outer-vec` pass); `-funroll-and-jam` and
//! `-fno-unroll-and-jam` whether the loop around a reduction nest is
//! unrolled and jammed first (its `dsp-unroll-jam` pass);
//! `-floop-interchange` and `-fno-loop-interchange` whether a loop holding
//! a short inner loop is interchanged with it for egg (its
//! `dsp-interchange` pass); `-floop-strip-mine` and `-fno-loop-strip-mine`
//! whether a short vector loop inside a long loop is strip-mined and its
//! strips put around the long loop (the same pass's second form);
//! `-floop-flatten` and `-fno-loop-flatten` whether those nests, once
//! vectorized, are flattened into one loop (its `dsp-flatten` pass);
//! `-freverse-carry` and `-fno-reverse-carry` whether a bit-reversed
//! counter's carry loop gets its closed form (its `dsp-reverse-carry` pass);
//! `-fvectorize-bitrev` and `-fno-vectorize-bitrev` whether the swaps of a
//! bit-reversal permutation then run on the vector unit (`dsp-bitrev-vec`);
//! `-fno-vector-fdiv` leaves vector
//! float division to the scalar divider (its `dsp-vector-fdiv` pass);
//! `-fno-predictive-commoning` keeps every load a loop makes, even those
//! that read what an earlier iteration read (GCC's flag; its
//! `dsp-predcom` pass, on from -O2).
//! `-fvec-function` (the default) and
//! `-fno-vec-function` say whether the vectorization directives (`#pragma
//! simd`, `#pragma omp declare simd`/`simd`; the clang plugin) reach the IR.

use std::fmt;

/// How far to take the inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Phase {
    /// `-E` (or `-M`/`-MM`): preprocess only.
    Preprocess,
    /// `-fsyntax-only`: parse and check, no output.
    SyntaxOnly,
    /// `-S`: assembly (or textual IR with `-emit-llvm`).
    Compile,
    /// `-c`: objects (or bitcode with `-emit-llvm`).
    Assemble,
    /// No phase flag: link an executable.
    Link,
}

/// The language of an input, from `-x` or its extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    C,
    /// `.i`: preprocessed C.
    CppOutput,
    /// `.ll`: textual LLVM IR.
    IrText,
    /// `.bc`: LLVM bitcode.
    Bitcode,
    /// `.s`: our assembly.
    Asm,
    /// `.o` and anything unrecognised: a linker input.
    Object,
    /// `.a`: an archive.
    Archive,
}

impl Lang {
    /// The language of a file name, by extension (clang's table, restricted to ours).
    pub fn from_path(path: &str) -> Lang {
        let ext = std::path::Path::new(path).extension().and_then(|e| e.to_str()).unwrap_or("");
        match ext {
            "c" | "h" => Lang::C,
            "i" => Lang::CppOutput,
            "ll" => Lang::IrText,
            "bc" => Lang::Bitcode,
            "s" => Lang::Asm,
            "a" => Lang::Archive,
            _ => Lang::Object,
        }
    }

    /// The language named by `-x NAME` (`None` for `-x none`).
    pub fn from_x(name: &str) -> Result<Option<Lang>, ArgError> {
        Ok(Some(match name {
            "none" => return Ok(None),
            "c" | "c-header" => Lang::C,
            "cpp-output" => Lang::CppOutput,
            "ir" => Lang::IrText,
            "assembler" => Lang::Asm,
            _ => return Err(ArgError(format!("language not recognized: '{name}'"))),
        }))
    }

    /// Whether clang reads it (C, preprocessed C, IR).
    pub fn is_clang_input(self) -> bool {
        matches!(self, Lang::C | Lang::CppOutput | Lang::IrText | Lang::Bitcode)
    }

    /// The `-x` name clang takes for it.
    pub fn clang_x(self) -> &'static str {
        match self {
            Lang::C => "c",
            Lang::CppOutput => "cpp-output",
            Lang::IrText | Lang::Bitcode => "ir",
            Lang::Asm => "assembler",
            Lang::Object | Lang::Archive => "none",
        }
    }
}

/// One input file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    pub path: String,
    pub lang: Lang,
}

/// An item of the link line, in command-line order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkItem {
    /// Index into [`Options::inputs`].
    Input(usize),
    /// `-lNAME`.
    Lib(String),
    /// A linker option whose place among the inputs matters
    /// (`-Wl,--start-group`, `-Wl,--end-group`).
    Flag(String),
}

/// Linker options that act on the inputs around them.
const POSITIONAL_LINKER_FLAGS: &[&str] = &["--start-group", "--end-group", "-(", "-)"];

/// Adds a linker option: in place among the inputs, or with the others.
fn linker_flag(o: &mut Options, f: &str) {
    if POSITIONAL_LINKER_FLAGS.contains(&f) {
        o.link.push(LinkItem::Flag(f.to_string()));
    } else {
        o.linker_flags.push(f.to_string());
    }
}

/// `-M`-family options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DepOptions {
    /// `-MD` (`true`) or `-MMD` (`true` with `user_only`).
    pub side_file: bool,
    pub user_only: bool,
    /// `-M`/`-MM`: dependencies instead of preprocessed output.
    pub only: bool,
    pub file: Option<String>,
    /// `-MT`/`-MQ` as given (flag, target).
    pub targets: Vec<(String, String)>,
    /// `-MP`, `-MG`.
    pub extra: Vec<String>,
}

/// Everything the command line says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub phase: Phase,
    pub emit_llvm: bool,
    pub output: Option<String>,
    /// `0`…`3`, `s`, `z` (`-O` alone is 1, like clang's; `-Ofast` is 3).
    pub opt: char,
    pub isa: String,
    pub inputs: Vec<Input>,
    pub link: Vec<LinkItem>,
    pub lib_dirs: Vec<String>,
    /// Flags for clang's compilation of C, in order.
    pub clang_flags: Vec<String>,
    /// `-mllvm` values.
    pub mllvm: Vec<String>,
    pub deps: DepOptions,
    /// Extra linker arguments (`-Wl,…`, `-Xlinker`).
    pub linker_flags: Vec<String>,
    pub verbose: bool,
    /// `-###`: print the commands, run nothing.
    pub dry_run: bool,
    pub version: bool,
    pub help: bool,
    pub save_temps: bool,
    pub no_start_files: bool,
    pub no_default_libs: bool,
    pub no_std_inc: bool,
    /// `-dumpmachine`, `-dumpversion`, `-print-…`: answer and stop.
    pub query: Option<String>,
    /// Warnings to print (clang's "argument unused" kind).
    pub warnings: Vec<String>,
    /// `-Rpass=REGEX`, `-Rpass-missed=REGEX`, `-Rpass-analysis=REGEX`, in
    /// order: for clang (its own remarks, and source locations in the IR)
    /// and for `dsp-llc` (the software pipeliner's remarks).
    pub remarks: Vec<String>,
    /// Software pipelining: `-fmodulo-sched` (`Some(true)`) or
    /// `-fno-modulo-sched` (`Some(false)`), the last one given; `None`: the
    /// optimization level decides (on from -O2).
    pub modulo_sched: Option<bool>,
    /// `-fmodulo-sched-all-loops`: also pipeline loops the profitability
    /// test leaves alone (`dsp-llc --pipeline-unprofitable`);
    /// `-fno-modulo-sched-all-loops` (the default) undoes it.
    pub modulo_sched_all: bool,
    /// Loop strength reduction before selection: `-floop-strength-reduce` /
    /// `-fno-loop-strength-reduce`, the last one given; `None`: on from -O1.
    pub lsr: Option<bool>,
    /// Loop-invariant code motion (and value numbering, dead-code
    /// elimination) on the machine IR: `-fmove-loop-invariants` /
    /// `-fno-move-loop-invariants`; `None`: on from -O1.
    pub licm: Option<bool>,
    /// Branch delay slots filled from the branch target:
    /// `-fbranch-target-fill` / `-fno-branch-target-fill`; `None`: on from -O1.
    pub target_fill: Option<bool>,
    /// A conditional branch's delay slots filled from the block it falls
    /// through to: `-fbranch-fallthrough-fill` /
    /// `-fno-branch-fallthrough-fill`; `None`: on from -O1.
    pub fallthrough_fill: Option<bool>,
    /// The software pipeliner's address rebasing (an access reads a later
    /// iteration's address where the schedule allows):
    /// `-fmodulo-sched-rebase` / `-fno-modulo-sched-rebase`; `None`: on.
    pub sms_rebase: Option<bool>,
    /// Reloads into registers that hold the spill slot already deleted:
    /// `-freload-cse` / `-fno-reload-cse`; `None`: on from -O1.
    pub reload_cse: Option<bool>,
    /// Values that pass through a software pipeline split around it, not
    /// spilled everywhere: `-fsplit-around-pipelines` /
    /// `-fno-split-around-pipelines`; `None`: on from -O1.
    pub split_passing: Option<bool>,
    /// Branches on a register instead of on its compare with 0:
    /// `-fbranch-on-register` / `-fno-branch-on-register`; `None`: on from -O1.
    pub branch_on_reg: Option<bool>,
    /// Vectorized loops' tails as one masked iteration: `-fmasked-tail`
    /// (`Some(true)`) or `-fno-masked-tail` (`Some(false)`), the last one
    /// given; `None`: on from -O2 (see `Target::masked_tail_flags`).
    pub masked_tail: Option<bool>,
    /// Outer loops of nests vectorized whole: `-fouter-loop-vectorize`
    /// (`Some(true)`) or `-fno-outer-loop-vectorize`, the last one given;
    /// `None`: on from -O2 unless `-fno-vectorize`.
    pub outer_vec: Option<bool>,
    /// The loop around a reduction nest unrolled and jammed:
    /// `-funroll-and-jam` (`Some(true)`) or `-fno-unroll-and-jam`, the last
    /// one given; `None`: with outer-loop vectorization.
    pub unroll_jam: Option<bool>,
    /// A loop interchanged with the short inner loop it holds:
    /// `-floop-interchange` (`Some(true)`) or `-fno-loop-interchange`, the
    /// last one given; `None`: with egg's instruction selection.
    pub interchange: Option<bool>,
    /// A short inner loop strip-mined by the lane count, its strips around
    /// the outer loop: `-floop-strip-mine` (`Some(true)`) or
    /// `-fno-loop-strip-mine`, the last one given; `None`: with egg's
    /// instruction selection.
    pub strip_mine: Option<bool>,
    /// A nest whose iterations are all independent flattened into one
    /// loop after vectorization: `-floop-flatten` (`Some(true)`) or
    /// `-fno-loop-flatten`, the last one given; `None`: with egg's
    /// instruction selection.
    pub flatten: Option<bool>,
    /// A bit-reversed counter's carry loop in closed form: `-freverse-carry`
    /// (`Some(true)`) or `-fno-reverse-carry`; `None`: on from -O2.
    pub reverse_carry: Option<bool>,
    /// A bit-reversal permutation's swaps on the vector unit:
    /// `-fvectorize-bitrev` (`Some(true)`) or `-fno-vectorize-bitrev`;
    /// `None`: on from -O2 unless clang's loop vectorizer is off.
    pub bitrev_vec: Option<bool>,
    /// PLuTo's polyhedral scheduling and tiling (`dsp-pluto`):
    /// `-fpolyhedral` (`Some(true)`) or `-fno-polyhedral`, the last one
    /// given; `None`: on at -O3 only (see `Target::polyhedral_flags`).
    pub polyhedral: Option<bool>,
    /// `dsp-pluto`'s interchange-only schedules when its own schedule is not
    /// worth it: `-fpolyhedral-interchange` (the default, `true`) or
    /// `-fno-polyhedral-interchange`.
    pub polyhedral_interchange: bool,
    /// `dsp-pluto`'s tile sizes refined by the machine model's cost (seed
    /// 004's Algorithm 1): `-ftile-size-feedback` (the default, `true`) or
    /// `-fno-tile-size-feedback`.
    pub tile_size_feedback: bool,
    /// `--tile-sizes=N,N,…`, as given (checked).
    pub tile_sizes: Option<String>,
    /// `--polyhedral-report=FILE`: what `dsp-pluto` did, as JSON.
    pub polyhedral_report: Option<String>,
    /// Vector float division and square root on the vector units
    /// (`-fvector-fdiv`, the default) or lane by lane on the scalar divider
    /// (`-fno-vector-fdiv`), the last one given.
    pub vector_fdiv: bool,
    /// Loads that read what an earlier iteration loaded kept in registers
    /// (`-fpredictive-commoning`, the default from -O2) or made again
    /// (`-fno-predictive-commoning`), the last one given.
    pub predcom: bool,
    /// The vectorization directives honoured (`-fvec-function`, the
    /// default) or ignored (`-fno-vec-function`: still checked, nothing
    /// reaches the IR), the last one given.
    pub vec_function: bool,
    /// `-fvec-function=auto`: also candidates found without directives.
    pub vec_function_auto: bool,
    /// `-fvec-function-opt=naive|mem|all` (seed 001's configurations), as given.
    pub vec_function_opt: Option<String>,
    /// `-fno-vec-function-boscc`: no branches on superword conditions.
    pub no_boscc: bool,
    /// `-fno-vec-function-multiversion`: no scalar versions of those blocks
    /// for one active lane (seed 001 §2.2.2).
    pub no_multiversion: bool,
    /// Instruction selection by equality saturation on innermost loops:
    /// `-fegg-isel` (`Some(true)`) or `-fno-egg-isel`, the last one given.
    pub egg_isel: Option<bool>,
    /// `--egg-limits=NODES,ITERATIONS,MS`, as given.
    pub egg_limits: Option<String>,
    /// `-fno-egg-cooperation`: egg without its scalar–vector cooperation
    /// rules (the benchmark's Diospyros-like configuration).
    pub no_egg_cooperation: bool,
    /// `-fno-vec-function-restructure`: no instance restructuring of
    /// `vec-function` loops (seed 001 §2.2.3).
    pub no_restructure: bool,
    /// `--modulo-scheduler=sms|ims|ilp`.
    pub modulo_scheduler: Option<String>,
    /// `--ilp-time-limit=SECONDS`, as given.
    pub ilp_time_limit: Option<String>,
    /// `--pipeline-report=FILE.json`.
    pub pipeline_report: Option<String>,
    /// `-ffunction-sections`/`-fdata-sections`: each function and data
    /// object in its own section, for `dsp-ld --gc-sections`.
    pub sections: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            phase: Phase::Link,
            emit_llvm: false,
            output: None,
            opt: '0',
            isa: isa_tablegen::builtin::DEFAULT.to_string(),
            inputs: Vec::new(),
            link: Vec::new(),
            lib_dirs: Vec::new(),
            clang_flags: Vec::new(),
            mllvm: Vec::new(),
            deps: DepOptions::default(),
            linker_flags: Vec::new(),
            verbose: false,
            dry_run: false,
            version: false,
            help: false,
            save_temps: false,
            no_start_files: false,
            no_default_libs: false,
            no_std_inc: false,
            query: None,
            warnings: Vec::new(),
            remarks: Vec::new(),
            modulo_sched: None,
            lsr: None,
            modulo_sched_all: false,
            licm: None,
            target_fill: None,
            fallthrough_fill: None,
            reload_cse: None,
            split_passing: None,
            sms_rebase: None,
            branch_on_reg: None,
            masked_tail: None,
            outer_vec: None,
            unroll_jam: None,
            interchange: None,
            strip_mine: None,
            flatten: None,
            reverse_carry: None,
            bitrev_vec: None,
            polyhedral: None,
            polyhedral_interchange: true,
            tile_size_feedback: true,
            tile_sizes: None,
            polyhedral_report: None,
            vector_fdiv: true,
            predcom: true,
            vec_function: true,
            vec_function_auto: false,
            vec_function_opt: None,
            no_boscc: false,
            no_multiversion: false,
            no_restructure: false,
            egg_isel: None,
            egg_limits: None,
            no_egg_cooperation: false,
            modulo_scheduler: None,
            ilp_time_limit: None,
            pipeline_report: None,
            sections: false,
        }
    }
}

/// Coverage and profiling need a runtime that writes their data at exit,
/// which the DSP's C library does not have.
fn not_supported_coverage(flag: &str) -> ArgError {
    ArgError(format!("'{flag}' is not supported: target 'dsp' has no coverage or profiling runtime (gcov/profile data cannot be written)"))
}

/// The sanitizers with a runtime here: UndefinedBehaviorSanitizer's checks
/// (the runtime's `libc/ubsan.c`, or none with `-fsanitize-trap`).
const UBSAN_CHECKS: &[&str] = &[
    "undefined", "alignment", "bool", "builtin", "bounds", "array-bounds", "local-bounds", "enum", "float-cast-overflow",
    "float-divide-by-zero", "function", "implicit-conversion", "implicit-integer-conversion", "implicit-integer-truncation",
    "implicit-integer-sign-change", "implicit-signed-integer-truncation", "implicit-unsigned-integer-truncation",
    "implicit-bitfield-conversion", "integer", "integer-divide-by-zero", "nonnull-attribute", "null", "nullability",
    "nullability-arg", "nullability-assign", "nullability-return", "object-size", "pointer-overflow", "return",
    "returns-nonnull-attribute", "shift", "shift-base", "shift-exponent", "signed-integer-overflow", "unreachable",
    "unsigned-integer-overflow", "unsigned-shift-base", "vla-bound", "vptr",
];

/// `-fsanitize=LIST`: only UndefinedBehaviorSanitizer's checks.
fn check_sanitizers(list: &str) -> Result<(), ArgError> {
    match list.split(',').find(|s| !UBSAN_CHECKS.contains(s)) {
        None => Ok(()),
        Some(s) => Err(ArgError(format!(
            "'-fsanitize={s}' is not supported on target 'dsp' (only -fsanitize=undefined and its checks, with or without -fsanitize-trap=undefined)"
        ))),
    }
}

/// A command-line error, printed as `dspcc: error: MESSAGE`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgError(pub String);

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Flags with a value, joined (`-Ifoo`) or separate (`-I foo`), passed to clang as `FLAGvalue`.
const CLANG_VALUE_FLAGS: &[&str] = &["-I", "-D", "-U"];
/// Flags with a separate value passed to clang as two arguments.
const CLANG_PAIR_FLAGS: &[&str] = &["-include", "-imacros", "-isystem", "-iquote", "-idirafter", "-iprefix", "-isysroot"];
/// Flags without a value passed to clang unchanged.
const CLANG_PLAIN_FLAGS: &[&str] = &["-w", "-ansi", "-pedantic", "-pedantic-errors", "-P", "-C", "-CC", "-dM", "-dD", "-dI", "-H", "-trigraphs", "-undef", "-Qunused-arguments", "-ftrapv"];
/// Accepted and ignored (every link is static; there is no PIC on the DSP,
/// and the data model is always ILP32, which is what `-m32` asks for).
const IGNORED_FLAGS: &[&str] = &[
    "-pipe", "-static", "-s", "-rdynamic", "-pthread", "-no-pie", "-nopie", "-pie", "-static-pie", "-m32", "-fPIC", "-fpic",
    "-fPIE", "-fpie", "-fno-PIC", "-fno-pic", "-fno-PIE", "-fno-pie", "-fno-plt", "-fplt",
];
/// Libraries the C library already contains (`-lpthread`, ...): accepted, nothing to link.
const BUILTIN_LIBS: &[&str] = &["pthread", "dl", "rt", "util", "xnet", "resolv", "crypt"];

/// Whether `-lNAME` names a library the C library already contains.
fn builtin_lib(name: &str) -> bool {
    BUILTIN_LIBS.contains(&name)
}

fn value<'a>(args: &'a [String], i: &mut usize, flag: &str) -> Result<&'a str, ArgError> {
    *i += 1;
    args.get(*i)
        .map(String::as_str)
        .ok_or_else(|| ArgError(format!("argument to '{flag}' is missing (expected 1 value)")))
}

/// Parses the arguments after the program name.
pub fn parse(args: &[String]) -> Result<Options, ArgError> {
    let mut o = Options::default();
    let mut lang: Option<Lang> = None;
    let mut phase_flags: Vec<Phase> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        match a {
            "-c" => phase_flags.push(Phase::Assemble),
            "-S" => phase_flags.push(Phase::Compile),
            "-E" => phase_flags.push(Phase::Preprocess),
            "-fsyntax-only" => phase_flags.push(Phase::SyntaxOnly),
            "-emit-llvm" => o.emit_llvm = true,
            "-o" => o.output = Some(value(args, &mut i, a)?.to_string()),
            "-v" => o.verbose = true,
            "-###" => o.dry_run = true,
            "--version" => o.version = true,
            "-help" | "--help" => o.help = true,
            "-save-temps" | "-save-temps=cwd" | "-save-temps=obj" => o.save_temps = true,
            "-nostdlib" => {
                o.no_start_files = true;
                o.no_default_libs = true;
            }
            "-nostartfiles" => o.no_start_files = true,
            "-nodefaultlibs" => o.no_default_libs = true,
            "-nostdinc" | "-nostdlibinc" => o.no_std_inc = true,
            "-x" => lang = Lang::from_x(value(args, &mut i, a)?)?,
            "-l" => {
                let name = value(args, &mut i, a)?;
                if !builtin_lib(name) {
                    o.link.push(LinkItem::Lib(name.to_string()));
                }
            }
            "--coverage" | "-coverage" | "-fprofile-arcs" | "-ftest-coverage" | "-fprofile-instr-generate" | "-fcoverage-mapping"
            | "-fprofile-generate" => return Err(not_supported_coverage(a)),
            _ if a.starts_with("-fprofile-generate=") || a.starts_with("-fprofile-instr-generate=") => {
                return Err(not_supported_coverage(a))
            }
            "-shared" => return Err(ArgError("-shared is not supported: 'dsp' is a static target (no shared libraries)".into())),
            "-ffunction-sections" | "-fdata-sections" => o.sections = true,
            "-fno-function-sections" | "-fno-data-sections" => {}
            "--sysroot" => {
                value(args, &mut i, a)?;
            }
            "-print-cmake-toolchain" => o.query = Some(a.to_string()),
            "-L" => o.lib_dirs.push(value(args, &mut i, a)?.to_string()),
            "--isa" => o.isa = value(args, &mut i, a)?.to_string(),
            "-mllvm" => o.mllvm.push(value(args, &mut i, a)?.to_string()),
            "-Xclang" => {
                let v = value(args, &mut i, a)?.to_string();
                o.clang_flags.extend(["-Xclang".to_string(), v]);
            }
            "-Xlinker" => {
                let v = value(args, &mut i, a)?.to_string();
                linker_flag(&mut o, &v);
            }
            "-M" | "-MM" => {
                o.deps.only = true;
                o.deps.user_only = a == "-MM";
                phase_flags.push(Phase::Preprocess);
            }
            "-MD" | "-MMD" => {
                o.deps.side_file = true;
                o.deps.user_only = a == "-MMD";
            }
            "-MF" => o.deps.file = Some(value(args, &mut i, a)?.to_string()),
            "-MT" | "-MQ" => o.deps.targets.push((a.to_string(), value(args, &mut i, a)?.to_string())),
            "-MP" | "-MG" => o.deps.extra.push(a.to_string()),
            "-fmodulo-sched" => o.modulo_sched = Some(true),
            "-fno-modulo-sched" => o.modulo_sched = Some(false),
            "-fmodulo-sched-all-loops" => o.modulo_sched_all = true,
            "-fno-modulo-sched-all-loops" => o.modulo_sched_all = false,
            "-floop-strength-reduce" => o.lsr = Some(true),
            "-fno-loop-strength-reduce" => o.lsr = Some(false),
            "-fmove-loop-invariants" => o.licm = Some(true),
            "-fno-move-loop-invariants" => o.licm = Some(false),
            "-fbranch-target-fill" => o.target_fill = Some(true),
            "-fno-branch-target-fill" => o.target_fill = Some(false),
            "-fbranch-fallthrough-fill" => o.fallthrough_fill = Some(true),
            "-fno-branch-fallthrough-fill" => o.fallthrough_fill = Some(false),
            "-fmodulo-sched-rebase" => o.sms_rebase = Some(true),
            "-fno-modulo-sched-rebase" => o.sms_rebase = Some(false),
            "-freload-cse" => o.reload_cse = Some(true),
            "-fno-reload-cse" => o.reload_cse = Some(false),
            "-fsplit-around-pipelines" => o.split_passing = Some(true),
            "-fno-split-around-pipelines" => o.split_passing = Some(false),
            "-fbranch-on-register" => o.branch_on_reg = Some(true),
            "-fno-branch-on-register" => o.branch_on_reg = Some(false),
            "-fmasked-tail" => o.masked_tail = Some(true),
            "-fno-masked-tail" => o.masked_tail = Some(false),
            "-fouter-loop-vectorize" => o.outer_vec = Some(true),
            "-fno-outer-loop-vectorize" => o.outer_vec = Some(false),
            "-funroll-and-jam" => o.unroll_jam = Some(true),
            "-fno-unroll-and-jam" => o.unroll_jam = Some(false),
            "-floop-interchange" => o.interchange = Some(true),
            "-fno-loop-interchange" => o.interchange = Some(false),
            "-floop-strip-mine" => o.strip_mine = Some(true),
            "-fno-loop-strip-mine" => o.strip_mine = Some(false),
            "-floop-flatten" => o.flatten = Some(true),
            "-fno-loop-flatten" => o.flatten = Some(false),
            "-freverse-carry" => o.reverse_carry = Some(true),
            "-fno-reverse-carry" => o.reverse_carry = Some(false),
            "-fvectorize-bitrev" => o.bitrev_vec = Some(true),
            "-fno-vectorize-bitrev" => o.bitrev_vec = Some(false),
            "-fpolyhedral" => o.polyhedral = Some(true),
            "-fno-polyhedral" => o.polyhedral = Some(false),
            "-fpolyhedral-interchange" => o.polyhedral_interchange = true,
            "-fno-polyhedral-interchange" => o.polyhedral_interchange = false,
            "-ftile-size-feedback" => o.tile_size_feedback = true,
            "-fno-tile-size-feedback" => o.tile_size_feedback = false,
            "-fvector-fdiv" => o.vector_fdiv = true,
            "-fno-vector-fdiv" => o.vector_fdiv = false,
            "-fpredictive-commoning" => o.predcom = true,
            "-fno-predictive-commoning" => o.predcom = false,
            "-fvec-function" => o.vec_function = true,
            "-fno-vec-function" => o.vec_function = false,
            "-fvec-function-boscc" => o.no_boscc = false,
            "-fno-vec-function-boscc" => o.no_boscc = true,
            "-fvec-function-multiversion" => o.no_multiversion = false,
            "-fno-vec-function-multiversion" => o.no_multiversion = true,
            "-fegg-isel" => o.egg_isel = Some(true),
            "-fno-egg-isel" => o.egg_isel = Some(false),
            "-fegg-cooperation" => o.no_egg_cooperation = false,
            "-fno-egg-cooperation" => o.no_egg_cooperation = true,
            "-fvec-function-restructure" => o.no_restructure = false,
            "-fno-vec-function-restructure" => o.no_restructure = true,
            "-fvec-function=auto" => {
                o.vec_function = true;
                o.vec_function_auto = true;
            }
            _ if a.starts_with("-fvec-function=") => {
                return Err(ArgError(format!("invalid value '{}' in '{a}' (expected auto)", &a["-fvec-function=".len()..])))
            }
            _ if a.starts_with("-fvec-function-opt=") => {
                let v = &a["-fvec-function-opt=".len()..];
                if !matches!(v, "naive" | "mem" | "all") {
                    return Err(ArgError(format!("invalid value '{v}' in '{a}' (expected naive, mem or all)")));
                }
                o.vec_function_opt = Some(v.to_string());
            }
            "--modulo-scheduler" => o.modulo_scheduler = Some(scheduler(a, value(args, &mut i, a)?)?),
            "--ilp-time-limit" => o.ilp_time_limit = Some(seconds(a, value(args, &mut i, a)?)?),
            "--pipeline-report" => o.pipeline_report = Some(value(args, &mut i, a)?.to_string()),
            "-dumpmachine" | "-dumpversion" | "-print-libgcc-file-name" | "-print-search-dirs" => o.query = Some(a.to_string()),
            "-" => add_input(&mut o, "-", lang.or(Some(Lang::C))),
            _ if IGNORED_FLAGS.contains(&a) => {}
            _ if CLANG_PLAIN_FLAGS.contains(&a) => o.clang_flags.push(a.to_string()),
            _ if CLANG_PAIR_FLAGS.contains(&a) => {
                let v = value(args, &mut i, a)?.to_string();
                o.clang_flags.extend([a.to_string(), v]);
            }
            _ if CLANG_VALUE_FLAGS.contains(&a) => {
                let v = value(args, &mut i, a)?;
                o.clang_flags.push(format!("{a}{v}"));
            }
            _ if CLANG_VALUE_FLAGS.iter().any(|f| a.starts_with(f)) => o.clang_flags.push(a.to_string()),
            _ if a.starts_with("--isa=") => o.isa = a["--isa=".len()..].to_string(),
            _ if ["-Rpass=", "-Rpass-missed=", "-Rpass-analysis="].iter().any(|f| a.starts_with(f)) => o.remarks.push(a.to_string()),
            _ if a.starts_with("--modulo-scheduler=") => o.modulo_scheduler = Some(scheduler(a, &a["--modulo-scheduler=".len()..])?),
            _ if a.starts_with("--ilp-time-limit=") => o.ilp_time_limit = Some(seconds(a, &a["--ilp-time-limit=".len()..])?),
            _ if a.starts_with("--polyhedral-report=") => o.polyhedral_report = Some(a["--polyhedral-report=".len()..].to_string()),
            _ if a.starts_with("--tile-sizes=") => o.tile_sizes = Some(tile_sizes(a, &a["--tile-sizes=".len()..])?),
            _ if a.starts_with("--egg-limits=") => o.egg_limits = Some(egg_limits(a, &a["--egg-limits=".len()..])?),
            _ if a.starts_with("--pipeline-report=") => o.pipeline_report = Some(a["--pipeline-report=".len()..].to_string()),
            _ if a.starts_with("-o") => o.output = Some(a[2..].to_string()),
            _ if a.starts_with("-x") => lang = Lang::from_x(&a[2..])?,
            _ if a.starts_with("-l") => {
                if !builtin_lib(&a[2..]) {
                    o.link.push(LinkItem::Lib(a[2..].to_string()))
                }
            }
            _ if a.starts_with("--sysroot=") => {}
            _ if a.starts_with("-print-file-name=") || a.starts_with("-print-prog-name=") => o.query = Some(a.to_string()),
            _ if a.starts_with("-march=") || a.starts_with("-mtune=") || a.starts_with("-mcpu=") => {
                o.warnings.push(format!("argument '{a}' has no effect on target 'dsp' (the machine is chosen with --isa)"))
            }
            _ if a.starts_with("-L") => o.lib_dirs.push(a[2..].to_string()),
            _ if a.starts_with("-MF") => o.deps.file = Some(a[3..].to_string()),
            _ if a.starts_with("-MT") || a.starts_with("-MQ") => o.deps.targets.push((a[..3].to_string(), a[3..].to_string())),
            _ if a.starts_with("-O") => o.opt = opt_level(a)?,
            _ if a.starts_with("-Wl,") => {
                for f in a[4..].split(',').filter(|s| !s.is_empty()) {
                    linker_flag(&mut o, f);
                }
            }
            _ if a.starts_with("-Wa,") => o.warnings.push(format!("argument unused during compilation: '{a}'")),
            _ if a.starts_with("-W") => o.clang_flags.push(a.to_string()),
            _ if a.starts_with("-std=") => o.clang_flags.push(a.to_string()),
            _ if a == "-g" || a.starts_with("-g") && is_debug_flag(a) => o.clang_flags.push(a.to_string()),
            _ if a.starts_with("-fsanitize=") => {
                check_sanitizers(&a["-fsanitize=".len()..])?;
                o.clang_flags.push(a.to_string())
            }
            _ if a.starts_with("-f") => o.clang_flags.push(a.to_string()),
            _ if a.starts_with("-m") || a.starts_with("--target") || a == "-target" || a.starts_with("-march") => {
                return Err(ArgError(format!("unsupported option '{a}' for target 'dsp'")))
            }
            _ if a.starts_with('-') => return Err(ArgError(format!("unknown argument: '{a}'"))),
            _ => add_input(&mut o, a, lang),
        }
        i += 1;
    }
    o.phase = phase_flags.iter().copied().min().unwrap_or(Phase::Link);
    Ok(o)
}

/// The value of `--modulo-scheduler`.
fn scheduler(flag: &str, v: &str) -> Result<String, ArgError> {
    match v {
        "sms" | "ims" | "ilp" => Ok(v.to_string()),
        _ => Err(ArgError(format!("invalid value '{v}' in '{flag}' (expected sms, ims or ilp)"))),
    }
}

/// The value of `--ilp-time-limit`: a positive number of seconds.
fn seconds(flag: &str, v: &str) -> Result<String, ArgError> {
    match v.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(v.to_string()),
        _ => Err(ArgError(format!("invalid value '{v}' in '{flag}' (expected a positive number of seconds)"))),
    }
}

/// `NODES,ITERATIONS,MS`, three positive numbers.
/// `--tile-sizes=N,N,…`: positive integers.
fn tile_sizes(flag: &str, v: &str) -> Result<String, ArgError> {
    let ok = !v.is_empty() && v.split(',').all(|n| n.parse::<u32>().is_ok_and(|n| n >= 1));
    if !ok {
        return Err(ArgError(format!("invalid value '{v}' in '{flag}' (expected tile sizes N,N,...: positive numbers)")));
    }
    Ok(v.to_string())
}

fn egg_limits(flag: &str, v: &str) -> Result<String, ArgError> {
    let parts: Vec<&str> = v.split(',').collect();
    if parts.len() == 3 && parts.iter().all(|p| p.trim().parse::<u64>().is_ok_and(|x| x > 0)) {
        Ok(v.to_string())
    } else {
        Err(ArgError(format!("invalid value '{v}' in '{flag}' (expected NODES,ITERATIONS,MS: three positive numbers)")))
    }
}

fn add_input(o: &mut Options, path: &str, lang: Option<Lang>) {
    let lang = lang.unwrap_or_else(|| Lang::from_path(path));
    o.link.push(LinkItem::Input(o.inputs.len()));
    o.inputs.push(Input { path: path.to_string(), lang });
}

fn opt_level(a: &str) -> Result<char, ArgError> {
    Ok(match &a[2..] {
        "" | "1" | "g" => '1',
        "0" => '0',
        "2" => '2',
        "3" | "fast" => '3',
        "s" => 's',
        "z" => 'z',
        n if n.parse::<u32>().is_ok() => '3',
        _ => return Err(ArgError(format!("invalid integral value '{}' in '{a}'", &a[2..]))),
    })
}

fn is_debug_flag(a: &str) -> bool {
    matches!(a, "-g0" | "-g1" | "-g2" | "-g3" | "-ggdb" | "-gline-tables-only" | "-gline-directives-only" | "-gno-column-info" | "-gcolumn-info" | "-gdwarf" | "-gfull" | "-gno-inline-line-tables")
        || a.starts_with("-gdwarf-")
        || a.starts_with("-ggdb")
}


#[cfg(test)]
#[path = "args_tests.rs"]
mod tests;

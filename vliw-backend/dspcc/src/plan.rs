//! From options to commands: which tool runs on which file, with which
//! arguments, in which order. Planning runs nothing, so `-###` prints the
//! plan and the unit tests check it without any tool installed.
//!
//! Per input, by language and phase:
//! - C (`.c`), preprocessed C (`.i`) and IR (`.ll`, `.bc`): clang-19 with the
//!   Hexagon triple, our macros, the vector flags, the directives' clang
//!   plugin (C and `.i`) and the pass plugin →
//!   bitcode (`-emit-llvm -c`), then `dsp-llc` → `.s` (`-S`) or `.o`; with
//!   `-emit-llvm`, clang's `.ll`/`.bc` is the result; `-E` stops after
//!   clang's preprocessor;
//! - assembly (`.s`): `dsp-as` → `.o`;
//! - objects and archives: linker inputs.
//!
//! Every `dsp-llc` gets the software pipeliner's flags and the remark flags
//! (`-Rpass=…`, which clang gets too: it then keeps source locations in the
//! IR, so the backend's remarks have FILE:LINE:COL). With
//! `--pipeline-report=FILE`, a single `dsp-llc` writes FILE itself; with
//! several, each writes a temporary file and the driver merges the arrays
//! into FILE in input order ([`ReportMerge`]).
//!
//! Linking runs `dsp-ld` with the runtime's `crt0.o`, the inputs and `-l`
//! libraries in command-line order, then the runtime's `libm.a` and
//! `libc.a` (twice, so that each may use the other).

use std::path::{Path, PathBuf};

use crate::args::{ArgError, Input, Lang, LinkItem, Options, Phase};
use crate::tools::{Target, Toolchain, CLANG_TARGET};

/// Which program a job runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    Clang,
    Llc,
    As,
    Ld,
}

impl Tool {
    /// The name clang-style failure messages use.
    pub fn role(self) -> &'static str {
        match self {
            Tool::Clang => "clang",
            Tool::Llc => "backend",
            Tool::As => "assembler",
            Tool::Ld => "linker",
        }
    }
}

/// One command to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    pub tool: Tool,
    pub program: PathBuf,
    pub args: Vec<String>,
    /// The input this job works for (`None`: the link). When a job fails,
    /// the other inputs are still compiled (clang does the same), but
    /// nothing further is done with this one and nothing is linked.
    pub input: Option<usize>,
}

/// The commands for one invocation.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    pub jobs: Vec<Job>,
    /// Clang-style warnings (`x.o: 'linker' input unused …`).
    pub warnings: Vec<String>,
    /// Whether any job writes into the temporary directory.
    pub uses_temp_dir: bool,
    /// `--pipeline-report` with several backend runs: the files to merge.
    pub report: Option<ReportMerge>,
}

/// The pipeline reports of several `dsp-llc` runs, to merge into one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportMerge {
    /// The file the user named.
    pub output: String,
    /// Each run's report, in input order.
    pub parts: Vec<String>,
}

struct Planner<'a> {
    o: &'a Options,
    tc: &'a Toolchain,
    t: &'a Target,
    temp_dir: &'a Path,
    plan: Plan,
    serial: usize,
    current: Option<usize>,
}

/// Plans the jobs; temporary files go to `temp_dir` (created by the caller when
/// [`Plan::uses_temp_dir`]).
pub fn plan(o: &Options, tc: &Toolchain, t: &Target, temp_dir: &Path) -> Result<Plan, ArgError> {
    if o.inputs.is_empty() {
        return Err(ArgError("no input files".into()));
    }
    if o.emit_llvm && o.phase == Phase::Link {
        return Err(ArgError("-emit-llvm cannot be used when linking".into()));
    }
    let producing = o
        .inputs
        .iter()
        .filter(|i| match o.phase {
            Phase::Preprocess | Phase::SyntaxOnly => i.lang == Lang::C || i.lang == Lang::CppOutput,
            Phase::Compile => i.lang.is_clang_input(),
            Phase::Assemble => i.lang.is_clang_input() || i.lang == Lang::Asm,
            Phase::Link => false,
        })
        .count();
    if o.output.is_some() && producing > 1 && o.phase != Phase::Link {
        return Err(ArgError("cannot specify -o when generating multiple output files".into()));
    }
    let mut p = Planner { o, tc, t, temp_dir, plan: Plan::default(), serial: 0, current: None };
    let mut objects: Vec<Option<String>> = vec![None; o.inputs.len()];
    for (k, input) in o.inputs.iter().enumerate() {
        p.current = Some(k);
        objects[k] = p.input(input)?;
    }
    p.current = None;
    if o.phase == Phase::Link {
        p.link(&objects);
    }
    p.pipeline_report();
    Ok(p.plan)
}

impl Planner<'_> {
    /// Plans one input; returns the object it contributes to the link.
    fn input(&mut self, input: &Input) -> Result<Option<String>, ArgError> {
        let o = self.o;
        let unused = |what: &str| format!("{}: '{what}' input unused{}", input.path, match o.phase {
            Phase::Link => String::new(),
            _ => " because linking not done".into(),
        });
        match (o.phase, input.lang) {
            (_, Lang::Object | Lang::Archive) => {
                if o.phase != Phase::Link {
                    self.plan.warnings.push(unused("linker"));
                }
                Ok(Some(input.path.clone()))
            }
            (Phase::Preprocess, Lang::C | Lang::CppOutput) => {
                let mut args = self.clang_base(input.lang);
                args.push("-E".into());
                self.dep_flags(&mut args, input, None);
                if let Some(out) = &o.output {
                    args.extend(["-o".into(), out.clone()]);
                }
                self.clang(args, input);
                Ok(None)
            }
            (Phase::SyntaxOnly, Lang::C | Lang::CppOutput) => {
                let mut args = self.clang_base(input.lang);
                args.extend(self.frontend_flags(input.lang));
                args.push("-fsyntax-only".into());
                self.clang(args, input);
                Ok(None)
            }
            (Phase::Preprocess | Phase::SyntaxOnly, lang) => {
                self.plan.warnings.push(unused(if lang == Lang::Asm { "assembler" } else { "ir" }));
                Ok(None)
            }
            (Phase::Compile, Lang::Asm) => {
                self.plan.warnings.push(unused("assembler"));
                Ok(None)
            }
            (Phase::Compile | Phase::Assemble, _) if o.emit_llvm && input.lang.is_clang_input() => {
                let (flag, ext) = if o.phase == Phase::Compile { ("-S", "ll") } else { ("-c", "bc") };
                let out = self.final_output(input, ext);
                let mut args = self.clang_base(input.lang);
                args.extend(self.frontend_flags(input.lang));
                args.extend(self.plugin_flags());
                args.extend([flag.into(), "-emit-llvm".into()]);
                self.dep_flags(&mut args, input, Some(&out));
                args.extend(["-o".into(), out]);
                self.clang(args, input);
                Ok(None)
            }
            (Phase::Assemble, Lang::Asm) => {
                let out = self.final_output(input, "o");
                self.assemble(&input.path, &out);
                Ok(None)
            }
            (Phase::Link, Lang::Asm) => {
                let obj = self.temp(input, "o");
                self.assemble(&input.path, &obj);
                Ok(Some(obj))
            }
            (_, _) => {
                // C or IR through clang to bitcode, then the backend.
                let final_out = match o.phase {
                    Phase::Compile => Some(self.final_output(input, "s")),
                    Phase::Assemble => Some(self.final_output(input, "o")),
                    _ => None,
                };
                let obj_target = final_out.clone().unwrap_or_else(|| format!("{}.o", stem(&input.path)));
                let bc = self.temp(input, "bc");
                let mut args = self.clang_base(input.lang);
                args.extend(self.frontend_flags(input.lang));
                args.extend(self.plugin_flags());
                args.extend(self.location_flags());
                args.extend(["-emit-llvm".into(), "-c".into()]);
                self.dep_flags(&mut args, input, Some(&obj_target));
                args.extend(["-o".into(), bc.clone()]);
                self.clang(args, input);
                match o.phase {
                    Phase::Compile => {
                        let out = final_out.unwrap_or_default();
                        self.llc(&bc, &out, true);
                        Ok(None)
                    }
                    _ => {
                        let obj = final_out.unwrap_or_else(|| self.temp(input, "o"));
                        if o.save_temps {
                            let s = self.temp(input, "s");
                            self.llc(&bc, &s, true);
                            self.assemble(&s, &obj);
                        } else {
                            self.llc(&bc, &obj, false);
                        }
                        Ok(if o.phase == Phase::Link { Some(obj) } else { None })
                    }
                }
            }
        }
    }

    /// The clang arguments every use of clang shares, for an input of `lang`.
    fn clang_base(&self, lang: Lang) -> Vec<String> {
        let o = self.o;
        let mut a: Vec<String> = vec![format!("--target={CLANG_TARGET}"), "-fsigned-char".into()];
        if lang == Lang::C {
            a.push("-nostdinc".into());
            if !o.no_std_inc {
                a.extend(["-isystem".into(), self.tc.include_dir().display().to_string()]);
            }
            a.extend(self.t.macro_flags());
        }
        a.extend(self.t.vector_flags());
        a.extend(crate::tools::HEXAGON_IR_FLAGS.iter().map(|f| f.to_string()));
        let unroll_asked = o.clang_flags.iter().any(|f| f == "-funroll-loops");
        if self.pipelining() && !unroll_asked && !o.mllvm.iter().any(|m| m.starts_with("-unroll-runtime")) {
            // The software pipeliner overlaps a loop's iterations itself;
            // LLVM's runtime unrolling (a body of several iterations and a
            // remainder loop) would only multiply its register pressure.
            a.extend(["-mllvm".into(), "-unroll-runtime=false".into()]);
        }
        if self.pipelining() && !unroll_asked && !o.mllvm.iter().any(|m| m.starts_with("-unroll-allow-partial")) {
            // Likewise partial unrolling of a loop with a known trip count
            // (full unrolling stays): DCT's 8-iteration row loop, unrolled
            // by 4, grew past the pipeliner's size limit (122k cycles
            // against 46k pipelined).
            a.extend(["-mllvm".into(), "-unroll-allow-partial=false".into()]);
        }
        a.push(format!("-O{}", o.opt));
        a.extend(o.clang_flags.iter().cloned());
        for m in &o.mllvm {
            a.extend(["-mllvm".into(), m.clone()]);
        }
        a
    }

    /// Whether the backend will software-pipeline loops (`-fmodulo-sched`,
    /// or -O2 and above without `-fno-modulo-sched`).
    fn pipelining(&self) -> bool {
        let level = match self.o.opt {
            's' | 'z' => 2,
            c => c.to_digit(10).unwrap_or(0),
        };
        match self.o.modulo_sched {
            Some(on) => on && level >= 1,
            None => level >= 2,
        }
    }

    /// For C: the clang plugin for the vectorization directives
    /// (frontend-plugin/), and OpenMP's simd constructs parsed
    /// (`-fopenmp-simd`, so that the plugin finds `#pragma omp declare
    /// simd` and `#pragma omp simd` in clang's attributes). With
    /// `-fno-vec-function` the plugin still checks `#pragma simd` but
    /// attaches nothing (`-fplugin-arg-dspvec-ignore`), and OpenMP's
    /// pragmas are left unparsed, as clang does without `-fopenmp`.
    fn frontend_flags(&self, lang: Lang) -> Vec<String> {
        if !matches!(lang, Lang::C | Lang::CppOutput) {
            return Vec::new();
        }
        let mut v = vec![format!("-fplugin={}", self.tc.frontend_plugin.display())];
        if self.o.vec_function {
            v.push("-fopenmp-simd".into());
        } else {
            v.push("-fplugin-arg-dspvec-ignore".into());
        }
        v
    }

    /// Loads our pass plugin into clang (early, so `-mllvm -dsp-isa` parses) and selects the machine.
    fn plugin_flags(&self) -> Vec<String> {
        let p = self.tc.plugin.display().to_string();
        vec![
            "-Xclang".into(),
            "-load".into(),
            "-Xclang".into(),
            p.clone(),
            format!("-fpass-plugin={p}"),
            "-mllvm".into(),
            format!("-dsp-isa={}", self.t.isa),
        ]
        .into_iter()
        .chain(self.o.remarks.iter().cloned())
        .chain(self.t.masked_tail_flags(self.masked_tail()))
        .chain(self.t.unroll_jam_flags(self.o.unroll_jam.unwrap_or(self.outer_vec())))
        .chain(self.t.outer_vec_flags(self.outer_vec()))
        .chain(self.wfv_flags())
        .chain(self.t.interchange_flags(self.o.interchange.unwrap_or(self.egg_isel())))
        .chain(self.t.strip_mine_flags(self.o.strip_mine.unwrap_or(self.egg_isel())))
        .chain(self.t.flatten_flags(self.o.flatten.unwrap_or(self.egg_isel())))
        .chain(self.reverse_carry_flags())
        .chain(self.bitrev_vec_flags())
        .chain(self.egg_flags())
        .chain(self.polyhedral_flags())
        .chain((!self.o.vector_fdiv).then(|| ["-mllvm".to_string(), "-dsp-vector-fdiv=false".to_string()]).into_iter().flatten())
        .chain((!self.o.predcom).then(|| ["-mllvm".to_string(), "-dsp-predcom=false".to_string()]).into_iter().flatten())
        .collect()
    }

    /// PLuTo's scheduling and tiling (the plugin's `dsp-pluto`, at the
    /// pipeline-start point): `-fpolyhedral`, on at -O3 (issue 12; measured
    /// on bench-poly: see README "Status"), off at -O2 (1.85× the compile time
    /// there for 1.66× at bench-poly's medium size), never at -O0; `--tile-sizes=`,
    /// `--polyhedral-report=`, `-fno-polyhedral-interchange` and
    /// `-fno-tile-size-feedback` passed on.
    /// clang's flags for `dsp-reverse-carry`: `-freverse-carry` /
    /// `-fno-reverse-carry`, else on from -O2.
    fn reverse_carry_flags(&self) -> Vec<String> {
        if self.o.opt == '0' || !self.o.reverse_carry.unwrap_or(matches!(self.o.opt, '2' | '3' | 's' | 'z')) {
            return Vec::new();
        }
        vec!["-mllvm".to_string(), "-dsp-reverse-carry".to_string()]
    }

    /// clang's flags for `dsp-bitrev-vec`: `-fvectorize-bitrev` /
    /// `-fno-vectorize-bitrev`, else on from -O2 unless the last of clang's
    /// `-fvectorize` / `-fno-vectorize` turned loop vectorization off.
    fn bitrev_vec_flags(&self) -> Vec<String> {
        let loop_vectorizer = self.o.clang_flags.iter().rev().find(|f| *f == "-fvectorize" || *f == "-fno-vectorize");
        let default = matches!(self.o.opt, '2' | '3' | 's' | 'z') && loop_vectorizer.is_none_or(|f| f == "-fvectorize");
        if self.o.opt == '0' || !self.o.bitrev_vec.unwrap_or(default) {
            return Vec::new();
        }
        vec!["-mllvm".to_string(), "-dsp-bitrev-vec".to_string()]
    }

    fn polyhedral_flags(&self) -> Vec<String> {
        if !self.o.polyhedral.unwrap_or(self.o.opt == '3') || matches!(self.o.opt, '0') {
            return Vec::new();
        }
        let mut v = vec!["-mllvm".to_string(), "-dsp-polyhedral".to_string()];
        if let Some(t) = &self.o.tile_sizes {
            v.extend(["-mllvm".to_string(), format!("-dsp-tile-sizes={t}")]);
        }
        if let Some(r) = &self.o.polyhedral_report {
            v.extend(["-mllvm".to_string(), format!("-dsp-pluto-report={r}")]);
        }
        if !self.o.polyhedral_interchange {
            v.extend(["-mllvm".to_string(), "-dsp-pluto-interchange=false".to_string()]);
        }
        if !self.o.tile_size_feedback {
            v.extend([
                "-mllvm".to_string(),
                "-dsp-tile-size-feedback=false".to_string(),
            ]);
        }
        v
    }

    /// The function vectorizer's options (`-fvec-function-opt=`, `-fvec-function=auto`).
    fn wfv_flags(&self) -> Vec<String> {
        let mut v = Vec::new();
        if let Some(opt) = &self.o.vec_function_opt {
            v.extend(["-mllvm".to_string(), format!("-dsp-wfv-opt={opt}")]);
        }
        if self.o.vec_function_auto {
            v.extend(["-mllvm".to_string(), "-dsp-wfv-auto".to_string()]);
        }
        if self.o.no_boscc {
            v.extend(["-mllvm".to_string(), "-dsp-wfv-boscc=false".to_string()]);
        }
        if self.o.no_multiversion {
            v.extend(["-mllvm".to_string(), "-dsp-wfv-multiversion=false".to_string()]);
        }
        if self.o.no_restructure {
            v.extend(["-mllvm".to_string(), "-dsp-wfv-restructure=false".to_string()]);
        }
        v
    }

    /// Whether loops go through instruction selection by equality
    /// saturation: `-fegg-isel` / `-fno-egg-isel`, else on from -O2 unless
    /// the last of clang's `-fvectorize` / `-fno-vectorize` turned loop
    /// vectorization off (as the outer-loop vectorizer).
    fn egg_isel(&self) -> bool {
        if matches!(self.o.opt, '0') {
            return false;
        }
        let loop_vectorizer = self.o.clang_flags.iter().rev().find(|f| *f == "-fvectorize" || *f == "-fno-vectorize");
        self.o.egg_isel.unwrap_or(matches!(self.o.opt, '2' | '3' | 's' | 'z') && loop_vectorizer.is_none_or(|f| f == "-fvectorize"))
    }

    /// Instruction selection by equality saturation ([`Self::egg_isel`])
    /// and its parameters: the limits, the cooperation rules, and the float
    /// rewrites `-ffast-math` / `-ffp-contract=fast` allow.
    fn egg_flags(&self) -> Vec<String> {
        if !self.egg_isel() {
            return Vec::new();
        }
        let mut params: Vec<String> = Vec::new();
        if let Some(l) = &self.o.egg_limits {
            params.push(format!("limits={l}"));
        }
        if self.o.no_egg_cooperation {
            params.push("no-coop".into());
        }
        let has = |f: &str| self.o.clang_flags.iter().any(|x| x == f);
        if has("-ffast-math") || has("-fassociative-math") {
            params.push("fast-math".into());
        } else if has("-ffp-contract=fast") {
            params.push("contract".into());
        }
        let mut v = vec!["-mllvm".to_string(), "-dsp-egg-isel".to_string()];
        if !params.is_empty() {
            v.extend(["-mllvm".to_string(), format!("-dsp-egg-params={}", params.join(";"))]);
        }
        v
    }

    /// Whether outer loops are vectorized whole: `-fouter-loop-vectorize` /
    /// `-fno-outer-loop-vectorize`, else on from -O2 unless the last of
    /// clang's `-fvectorize` / `-fno-vectorize` turned loop vectorization off.
    fn outer_vec(&self) -> bool {
        let loop_vectorizer = self.o.clang_flags.iter().rev().find(|f| *f == "-fvectorize" || *f == "-fno-vectorize");
        self.o.outer_vec.unwrap_or(matches!(self.o.opt, '2' | '3' | 's' | 'z') && loop_vectorizer.is_none_or(|f| f == "-fvectorize"))
    }

    /// Whether vectorized loops end in a masked iteration: `-fmasked-tail`
    /// / `-fno-masked-tail`, else on from -O2.
    fn masked_tail(&self) -> bool {
        self.o.masked_tail.unwrap_or(matches!(self.o.opt, '2' | '3' | 's' | 'z'))
    }

    /// For a compilation that goes on to the backend: with a pipeline report
    /// but no remark flags (which make clang track source locations as for
    /// its own remarks) and no `-g` level chosen, line tables, so that the
    /// report's records have FILE:LINE.
    fn location_flags(&self) -> Vec<String> {
        let o = self.o;
        let has_g = o.clang_flags.iter().any(|f| f.starts_with("-g"));
        if o.remarks.is_empty() && o.pipeline_report.is_some() && !has_g {
            vec!["-gline-tables-only".into()]
        } else {
            Vec::new()
        }
    }

    /// `--pipeline-report`: one backend run writes the file itself, several
    /// write temporary files that [`ReportMerge`] joins; with no backend
    /// run, the pipeliner's flags are unused (warned, like clang).
    fn pipeline_report(&mut self) {
        let o = self.o;
        let llc: Vec<usize> = (0..self.plan.jobs.len()).filter(|&k| self.plan.jobs[k].tool == Tool::Llc).collect();
        if llc.is_empty() {
            let mut unused: Vec<String> = Vec::new();
            if let Some(s) = &o.modulo_scheduler {
                unused.push(format!("--modulo-scheduler={s}"));
            }
            if let Some(t) = &o.ilp_time_limit {
                unused.push(format!("--ilp-time-limit={t}"));
            }
            if let Some(r) = &o.pipeline_report {
                unused.push(format!("--pipeline-report={r}"));
            }
            match o.modulo_sched {
                Some(true) => unused.push("-fmodulo-sched".into()),
                Some(false) => unused.push("-fno-modulo-sched".into()),
                None => {}
            }
            for f in unused {
                self.plan.warnings.push(format!("argument unused during compilation: '{f}'"));
            }
            return;
        }
        let Some(out) = o.pipeline_report.clone() else { return };
        if llc.len() == 1 {
            self.add_report(llc[0], out);
            return;
        }
        let mut parts = Vec::new();
        for k in llc {
            let name = match self.plan.jobs[k].input {
                Some(i) => stem(&o.inputs[i].path),
                None => "report".into(),
            };
            self.serial += 1;
            let part = self.temp_dir.join(format!("{name}-{}.json", self.serial)).display().to_string();
            self.add_report(k, part.clone());
            parts.push(part);
        }
        self.plan.uses_temp_dir = true;
        self.plan.report = Some(ReportMerge { output: out, parts });
    }

    /// Gives backend job `k` `--pipeline-report=FILE` (before its `-S`/`-o`).
    fn add_report(&mut self, k: usize, file: String) {
        let args = &mut self.plan.jobs[k].args;
        let at = args.iter().position(|a| a == "-S" || a == "-o").unwrap_or(args.len());
        args.insert(at, format!("--pipeline-report={file}"));
    }

    /// `-M…` flags for a compilation of `input` whose object is `object`.
    fn dep_flags(&self, args: &mut Vec<String>, input: &Input, object: Option<&str>) {
        let d = &self.o.deps;
        if input.lang != Lang::C || !(d.side_file || d.only) {
            return;
        }
        args.push(match (d.only, d.user_only) {
            (true, false) => "-M",
            (true, true) => "-MM",
            (false, false) => "-MD",
            (false, true) => "-MMD",
        }
        .into());
        let file = match &d.file {
            Some(f) => Some(f.clone()),
            None if d.only => None,
            None => Some(match (&self.o.output, self.o.phase) {
                (Some(out), Phase::Assemble) => with_extension(out, "d"),
                _ => format!("{}.d", stem(&input.path)),
            }),
        };
        if let Some(f) = file {
            args.extend(["-MF".into(), f]);
        }
        if d.targets.is_empty() {
            if let Some(obj) = object {
                args.extend(["-MT".into(), obj.to_string()]);
            }
        }
        for (flag, t) in &d.targets {
            args.extend([flag.clone(), t.clone()]);
        }
        args.extend(d.extra.iter().cloned());
    }

    fn clang(&mut self, mut args: Vec<String>, input: &Input) {
        args.extend(["-x".into(), input.lang.clang_x().into(), input.path.clone()]);
        self.plan.jobs.push(Job { tool: Tool::Clang, program: self.tc.clang.clone(), args, input: self.current });
    }

    /// `dsp-llc`: bitcode to an object, or to assembly when `asm`.
    fn llc(&mut self, input: &str, out: &str, asm: bool) {
        let opt = match self.o.opt {
            's' | 'z' => '2',
            c => c,
        };
        let o = self.o;
        let mut args = vec!["--isa".into(), self.t.isa.clone(), format!("-O{opt}")];
        match o.modulo_sched {
            Some(true) => args.push("--pipeline".into()),
            Some(false) => args.push("--no-pipeline".into()),
            None => {}
        }
        if o.modulo_sched_all {
            args.push("--pipeline-unprofitable".into());
        }
        if o.lsr == Some(false) {
            args.push("--no-lsr".into());
        }
        if o.licm == Some(false) {
            args.push("--no-licm".into());
        }
        if o.target_fill == Some(false) {
            args.push("--no-branch-target-fill".into());
        }
        if o.fallthrough_fill == Some(false) {
            args.push("--no-branch-fallthrough-fill".into());
        }
        if o.sms_rebase == Some(false) {
            args.push("--no-pipeline-rebase".into());
        }
        if o.reload_cse == Some(false) {
            args.push("--no-reload-cse".into());
        }
        if o.split_passing == Some(false) {
            args.push("--no-split-around-pipelines".into());
        }
        if o.branch_on_reg == Some(false) {
            args.push("--no-branch-on-register".into());
        }
        if o.sections {
            args.push("--function-sections".into());
        }
        if let Some(s) = &o.modulo_scheduler {
            args.push(format!("--modulo-scheduler={s}"));
        }
        if let Some(t) = &o.ilp_time_limit {
            args.push(format!("--ilp-time-limit={t}"));
        }
        args.extend(o.remarks.iter().cloned());
        if asm {
            args.push("-S".into());
        }
        args.extend(["-o".into(), out.into(), input.into()]);
        self.plan.jobs.push(Job { tool: Tool::Llc, program: self.tc.tool("dsp-llc"), args, input: self.current });
    }

    fn assemble(&mut self, input: &str, out: &str) {
        let args = vec!["--isa".into(), self.t.isa.clone(), "-o".into(), out.into(), input.into()];
        self.plan.jobs.push(Job { tool: Tool::As, program: self.tc.tool("dsp-as"), args, input: self.current });
    }

    fn link(&mut self, objects: &[Option<String>]) {
        let o = self.o;
        let lib_dir = self.tc.lib_dir(&self.t);
        let rt = |f: &str| lib_dir.join(f).display().to_string();
        let mut args: Vec<String> = vec!["--isa".into(), self.t.isa.clone()];
        args.extend(["-o".into(), o.output.clone().unwrap_or_else(|| "a.out".into())]);
        args.extend(o.linker_flags.iter().cloned());
        for d in &o.lib_dirs {
            args.extend(["-L".into(), d.clone()]);
        }
        // The runtime's directory last, so `-lm` and `-lc` find its libraries.
        args.extend(["-L".into(), lib_dir.display().to_string()]);
        if !o.no_start_files {
            args.push(rt("crt0.o"));
        }
        for item in &o.link {
            match item {
                LinkItem::Input(k) => args.extend(objects[*k].iter().cloned()),
                LinkItem::Lib(name) => args.extend(["-l".into(), name.clone()]),
                LinkItem::Flag(f) => args.push(f.clone()),
            }
        }
        if !o.no_default_libs {
            for lib in ["libm.a", "libc.a", "libm.a", "libc.a"] {
                args.push(rt(lib));
            }
        }
        self.plan.jobs.push(Job { tool: Tool::Ld, program: self.tc.tool("dsp-ld"), args, input: self.current });
    }

    /// The file a phase writes for `input`: `-o`, else `STEM.EXT` in the current directory.
    fn final_output(&self, input: &Input, ext: &str) -> String {
        self.o.output.clone().unwrap_or_else(|| format!("{}.{ext}", stem(&input.path)))
    }

    /// An intermediate file: `STEM.EXT` here with `-save-temps`, else in the temporary directory.
    fn temp(&mut self, input: &Input, ext: &str) -> String {
        if self.o.save_temps {
            return format!("{}.{ext}", stem(&input.path));
        }
        self.plan.uses_temp_dir = true;
        self.serial += 1;
        self.temp_dir.join(format!("{}-{}.{ext}", stem(&input.path), self.serial)).display().to_string()
    }
}

/// The file name of `path` without directory and extension (`-` is `stdin`).
pub fn stem(path: &str) -> String {
    if path == "-" {
        return "stdin".into();
    }
    Path::new(path).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "a".into())
}

fn with_extension(path: &str, ext: &str) -> String {
    PathBuf::from(path).with_extension(ext).display().to_string()
}

/// A command as `-v` and `-###` print it: every argument quoted, like clang.
pub fn render(job: &Job) -> String {
    let quote = |s: &str| {
        let mut q = String::from("\"");
        for c in s.chars() {
            if matches!(c, '"' | '\\' | '$') {
                q.push('\\');
            }
            q.push(c);
        }
        q.push('"');
        q
    };
    let mut line = format!(" {}", quote(&job.program.display().to_string()));
    for a in &job.args {
        line.push(' ');
        line.push_str(&quote(a));
    }
    line
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;

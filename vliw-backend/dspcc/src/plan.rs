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
        if self.pipelining() && !o.clang_flags.iter().any(|f| f == "-funroll-loops") && !o.mllvm.iter().any(|m| m.starts_with("-unroll-runtime")) {
            // The software pipeliner overlaps a loop's iterations itself;
            // LLVM's runtime unrolling (a body of several iterations and a
            // remainder loop) would only multiply its register pressure.
            a.extend(["-mllvm".into(), "-unroll-runtime=false".into()]);
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
        .chain(self.t.outer_vec_flags(self.outer_vec()))
        .chain(self.wfv_flags())
        .collect()
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
mod tests {
    use super::*;
    use crate::args::parse;

    fn toolchain() -> Toolchain {
        Toolchain {
            bin_dir: "/bin".into(),
            clang: "clang-19".into(),
            plugin: "/bin/libdsp_opt_passes.so".into(),
            frontend_plugin: "/bin/libdsp_frontend_plugin.so".into(),
            runtime: "/rt".into(),
        }
    }

    fn plan_for(cmd: &str) -> Result<Plan, ArgError> {
        let o = parse(&cmd.split_whitespace().map(String::from).collect::<Vec<_>>())?;
        let t = Target::load(&o.isa).unwrap();
        plan(&o, &toolchain(), &t, Path::new("/tmp/d"))
    }

    fn jobs(cmd: &str) -> Vec<(Tool, Vec<String>)> {
        plan_for(cmd).unwrap().jobs.into_iter().map(|j| (j.tool, j.args)).collect()
    }

    fn has(args: &[String], seq: &[&str]) -> bool {
        args.windows(seq.len()).any(|w| w.iter().zip(seq).all(|(a, b)| a == b))
    }

    #[test]
    fn compile_to_object_runs_clang_then_the_backend() {
        let j = jobs("-c -O2 x.c");
        assert_eq!(j.len(), 2);
        let (tool, clang) = &j[0];
        assert_eq!(*tool, Tool::Clang);
        for seq in [
            &["--target=hexagon-unknown-elf", "-fsigned-char", "-nostdinc", "-isystem", "/rt/include"][..],
            &["-U__hexagon__"],
            &["-D__dsp__", "-D__DSP_ISA__=\"ftm\"", "-D__DSP_LANES__=16"],
            &["-mhvx", "-mhvx-length=64b", "-mllvm", "-hexagon-autohvx", "-mllvm", "-force-vector-width=16", "-mllvm", "-hints-allow-reordering=false"],
            &["-O2"],
            &["-fpass-plugin=/bin/libdsp_opt_passes.so", "-mllvm", "-dsp-isa=ftm"],
            &["-emit-llvm", "-c", "-o", "/tmp/d/x-1.bc", "-x", "c", "x.c"],
        ] {
            assert!(has(clang, seq), "{seq:?} in {clang:?}");
        }
        assert_eq!(j[1], (Tool::Llc, vec!["--isa".into(), "ftm".into(), "-O2".into(), "-o".into(), "x.o".into(), "/tmp/d/x-1.bc".into()]));
    }

    #[test]
    fn link_puts_crt0_inputs_libraries_and_runtime_in_order() {
        let j = jobs("--isa=ftm8 a.c b.s c.o -lfoo -L lib d.a -o prog");
        let tools: Vec<Tool> = j.iter().map(|x| x.0).collect();
        assert_eq!(tools, [Tool::Clang, Tool::Llc, Tool::As, Tool::Ld]);
        let ld = &j[3].1;
        assert!(has(ld, &["--isa", "ftm8", "-o", "prog", "-L", "lib", "-L", "/rt/ftm8", "/rt/ftm8/crt0.o", "/tmp/d/a-2.o", "/tmp/d/b-3.o", "c.o", "-l", "foo", "d.a", "/rt/ftm8/libm.a", "/rt/ftm8/libc.a"]), "{ld:?}");
        let ld = &jobs("-nostdlib x.o")[0].1;
        assert!(!ld.iter().any(|a| a.starts_with("/rt/") && (a.ends_with(".o") || a.ends_with(".a"))), "{ld:?}");
    }

    #[test]
    fn emit_llvm_and_preprocess_stop_at_clang() {
        let j = jobs("-S -emit-llvm x.c");
        assert_eq!(j.len(), 1);
        assert!(has(&j[0].1, &["-S", "-emit-llvm", "-o", "x.ll"]));
        let j = jobs("-c -emit-llvm x.c -o y.bc");
        assert!(has(&j[0].1, &["-c", "-emit-llvm", "-o", "y.bc"]));
        let j = jobs("-E x.c");
        assert_eq!(j.len(), 1);
        assert!(j[0].1.contains(&"-E".to_string()) && !j[0].1.iter().any(|a| a.contains("pass-plugin")));
        let j = jobs("-S x.ll --isa=ftm32");
        assert!(has(&j[0].1, &["-x", "ir", "x.ll"]) && !j[0].1.contains(&"-D__dsp__".to_string()));
        assert!(has(&j[0].1, &["-mhvx-length=128b"]));
        assert_eq!(j[1].0, Tool::Llc);
        assert!(has(&j[1].1, &["-S", "-o", "x.s"]), "{:?}", j[1].1);
    }

    #[test]
    fn save_temps_keeps_bitcode_and_assembly() {
        let j = jobs("-save-temps -c x.c");
        assert_eq!(j.iter().map(|x| x.0).collect::<Vec<_>>(), [Tool::Clang, Tool::Llc, Tool::As]);
        assert!(has(&j[0].1, &["-o", "x.bc"]));
        assert!(has(&j[1].1, &["-S", "-o", "x.s", "x.bc"]));
        assert!(has(&j[2].1, &["-o", "x.o", "x.s"]));
    }

    #[test]
    fn dependency_files() {
        let j = jobs("-MD -c src/x.c -o obj/x.o");
        assert!(has(&j[0].1, &["-MD", "-MF", "obj/x.d", "-MT", "obj/x.o"]), "{:?}", j[0].1);
        let j = jobs("-MMD -MF deps.d -MT t1 -MQ t2 -MP -c x.c");
        assert!(has(&j[0].1, &["-MMD", "-MF", "deps.d", "-MT", "t1", "-MQ", "t2", "-MP"]), "{:?}", j[0].1);
        let j = jobs("-MD x.c");
        assert!(has(&j[0].1, &["-MD", "-MF", "x.d", "-MT", "x.o"]), "{:?}", j[0].1);
        let j = jobs("-M x.c");
        assert!(has(&j[0].1, &["-E", "-M"]) && !j[0].1.contains(&"-MF".to_string()), "{:?}", j[0].1);
    }

    #[test]
    fn driver_errors_and_warnings() {
        assert_eq!(plan_for("-c").unwrap_err().0, "no input files");
        assert_eq!(plan_for("-c a.c b.c -o x.o").unwrap_err().0, "cannot specify -o when generating multiple output files");
        assert!(plan_for("-c a.c b.c").is_ok());
        assert_eq!(plan_for("-emit-llvm a.c").unwrap_err().0, "-emit-llvm cannot be used when linking");
        let p = plan_for("-c x.o y.c").unwrap();
        assert_eq!(p.warnings, ["x.o: 'linker' input unused because linking not done"]);
    }

    #[test]
    fn vectorizer_switches_reach_clang() {
        // dsp-bench's naive scalar build: LLVM's vectorizers off in clang,
        // software pipelining off in dsp-llc.
        let j = jobs("-O2 -fno-vectorize -fno-slp-vectorize -fno-modulo-sched -c x.c");
        assert!(has(&j[0].1, &["-fno-vectorize", "-fno-slp-vectorize"]), "{:?}", j[0].1);
        assert!(has(&j[1].1, &["--no-pipeline"]), "{:?}", j[1].1);
    }

    #[test]
    fn pipeliner_and_remark_flags_reach_every_backend_run() {
        let j = jobs("-O2 -Rpass=sms -Rpass-missed=.* --modulo-scheduler=ims --ilp-time-limit=2 -fno-modulo-sched -c x.c");
        assert!(has(&j[0].1, &["-dsp-isa=ftm", "-Rpass=sms", "-Rpass-missed=.*", "-mllvm", "-dsp-masked-tail", "-mllvm", "-dsp-outer-vec", "-emit-llvm"]), "{:?}", j[0].1);
        assert!(!j[0].1.iter().any(|a| a.contains("modulo") || a.contains("ilp") || a.starts_with("-g")), "{:?}", j[0].1);
        assert_eq!(
            j[1].1,
            ["--isa", "ftm", "-O2", "--no-pipeline", "--modulo-scheduler=ims", "--ilp-time-limit=2", "-Rpass=sms", "-Rpass-missed=.*", "-o", "x.o", "/tmp/d/x-1.bc"]
        );
        // In full links and -S too; -fmodulo-sched turns it on (also at -O1).
        let j = jobs("-O1 -fmodulo-sched -Rpass-analysis=sms a.c b.c -o prog");
        let llc: Vec<&Vec<String>> = j.iter().filter(|x| x.0 == Tool::Llc).map(|x| &x.1).collect();
        assert_eq!(llc.len(), 2);
        assert!(llc.iter().all(|a| has(a, &["-O1", "--pipeline", "-Rpass-analysis=sms"])), "{llc:?}");
        let j = jobs("-S -Rpass=sms x.c");
        assert!(has(&j[1].1, &["-Rpass=sms", "-S", "-o", "x.s"]), "{:?}", j[1].1);
        // Nothing by default.
        let j = jobs("-O2 -c x.c");
        assert_eq!(j[1].1.len(), 6);
    }

    #[test]
    fn pipeline_report_of_one_or_several_inputs() {
        let p = plan_for("-O2 -c x.c --pipeline-report=r.json").unwrap();
        assert_eq!(p.report, None);
        assert!(has(&p.jobs[1].args, &["--pipeline-report=r.json", "-o", "x.o"]), "{:?}", p.jobs[1].args);
        // Line tables for the records' FILE:LINE, unless -g or -Rpass given.
        assert!(p.jobs[0].args.contains(&"-gline-tables-only".to_string()));
        for cmd in ["-g0 -c x.c --pipeline-report=r.json", "-Rpass=sms -c x.c --pipeline-report=r.json", "-c x.c"] {
            assert!(!plan_for(cmd).unwrap().jobs[0].args.contains(&"-gline-tables-only".to_string()), "{cmd}");
        }
        let p = plan_for("-O2 a.c b.s c.ll d.o --pipeline-report out.json -o prog").unwrap();
        let m = p.report.clone().unwrap();
        assert_eq!(m.output, "out.json");
        assert_eq!(m.parts, ["/tmp/d/a-6.json", "/tmp/d/c-7.json"]);
        let llc: Vec<&Job> = p.jobs.iter().filter(|j| j.tool == Tool::Llc).collect();
        assert!(has(&llc[0].args, &["--pipeline-report=/tmp/d/a-6.json"]), "{:?}", llc[0].args);
        assert!(has(&llc[1].args, &["--pipeline-report=/tmp/d/c-7.json"]), "{:?}", llc[1].args);
        assert!(p.uses_temp_dir);
    }

    #[test]
    fn pipeliner_flags_without_a_backend_run_are_unused() {
        let p = plan_for("-E --pipeline-report=r.json --modulo-scheduler=ilp -fmodulo-sched x.c").unwrap();
        assert_eq!(
            p.warnings,
            [
                "argument unused during compilation: '--modulo-scheduler=ilp'",
                "argument unused during compilation: '--pipeline-report=r.json'",
                "argument unused during compilation: '-fmodulo-sched'"
            ]
        );
        assert!(!p.jobs[0].args.iter().any(|a| a.starts_with("-g")));
        let p = plan_for("-S -emit-llvm -Rpass=sms --pipeline-report=r.json x.c").unwrap();
        assert_eq!(p.warnings, ["argument unused during compilation: '--pipeline-report=r.json'"]);
        assert!(has(&p.jobs[0].args, &["-Rpass=sms", "-S", "-emit-llvm"]), "{:?}", p.jobs[0].args);
        assert!(plan_for("-c x.s --ilp-time-limit=1").unwrap().warnings[0].contains("--ilp-time-limit=1"));
    }

    #[test]
    fn masked_tail_runs_the_plugin_pass_from_o2() {
        let flag = "-dsp-masked-tail".to_string();
        assert!(has(&jobs("-O2 -c x.c")[0].1, &["-dsp-isa=ftm", "-mllvm", "-dsp-masked-tail", "-mllvm", "-dsp-outer-vec", "-emit-llvm"]));
        assert!(!jobs("-O1 -c x.c")[0].1.contains(&flag));
        assert!(jobs("-O1 -fmasked-tail -c x.c")[0].1.contains(&flag));
        assert!(!jobs("-O3 -fmasked-tail -fno-masked-tail -c x.c")[0].1.contains(&flag));
        assert!(!jobs("-O2 -c x.c")[1].1.iter().any(|a| a.contains("masked")));
        assert!(!jobs("-O2 -E x.c")[0].1.contains(&flag));
    }

    #[test]
    fn outer_loop_vectorization_runs_the_plugin_pass_from_o2() {
        let flag = "-dsp-outer-vec".to_string();
        assert!(has(&jobs("-O2 -c x.c")[0].1, &["-mllvm", "-dsp-outer-vec", "-emit-llvm"]));
        assert!(!jobs("-O1 -c x.c")[0].1.contains(&flag));
        assert!(jobs("-O1 -fouter-loop-vectorize -c x.c")[0].1.contains(&flag));
        assert!(!jobs("-O3 -fouter-loop-vectorize -fno-outer-loop-vectorize -c x.c")[0].1.contains(&flag));
        assert!(!jobs("-O2 -E x.c")[0].1.contains(&flag));
        assert!(!jobs("-O2 -fno-vectorize -c x.c")[0].1.contains(&flag));
        assert!(jobs("-O2 -fno-vectorize -fvectorize -c x.c")[0].1.contains(&flag));
        assert!(jobs("-O2 -fno-vectorize -fouter-loop-vectorize -c x.c")[0].1.contains(&flag));
    }

    #[test]
    fn function_vectorizer_options_reach_the_plugin() {
        assert!(has(&jobs("-O2 -fvec-function-opt=naive -c x.c")[0].1, &["-mllvm", "-dsp-wfv-opt=naive"]));
        assert!(has(&jobs("-O2 -fvec-function=auto -c x.c")[0].1, &["-mllvm", "-dsp-wfv-auto"]));
        assert!(!jobs("-O2 -c x.c")[0].1.iter().any(|a| a.starts_with("-dsp-wfv")));
        assert!(has(&jobs("-O2 -fno-vec-function-boscc -c x.c")[0].1, &["-mllvm", "-dsp-wfv-boscc=false"]));
        assert!(plan_for("-fvec-function-opt=fast -c x.c").is_err());
        assert!(plan_for("-fvec-function=manual -c x.c").is_err());
    }

    #[test]
    fn the_directives_plugin_is_loaded_for_c() {
        for cmd in ["-O2 -c x.c", "-S -emit-llvm x.c", "-fsyntax-only x.c", "-c x.i", "x.c"] {
            let j = jobs(cmd);
            assert!(has(&j[0].1, &["-fplugin=/bin/libdsp_frontend_plugin.so", "-fopenmp-simd"]), "{cmd}: {:?}", j[0].1);
            assert!(!j[0].1.iter().any(|a| a.contains("dspvec-ignore")), "{cmd}");
        }
        let j = jobs("-O2 -fvec-function -fno-vec-function -c x.c");
        assert!(has(&j[0].1, &["-fplugin=/bin/libdsp_frontend_plugin.so", "-fplugin-arg-dspvec-ignore"]), "{:?}", j[0].1);
        assert!(!j[0].1.contains(&"-fopenmp-simd".to_string()));
        assert!(jobs("-O2 -fno-vec-function -fvec-function -c x.c")[0].1.contains(&"-fopenmp-simd".to_string()));
        for cmd in ["-E x.c", "-c x.ll", "-c x.s"] {
            assert!(!jobs(cmd)[0].1.iter().any(|a| a.starts_with("-fplugin")), "{cmd}");
        }
        assert!(!jobs("-O2 -c x.c")[1].1.iter().any(|a| a.contains("plugin")), "not for the backend");
    }

    #[test]
    fn rendering_quotes_like_clang() {
        let j = Job { tool: Tool::Clang, program: "clang-19".into(), args: vec!["-D__DSP_ISA__=\"ftm\"".into(), "a b".into()], input: None };
        assert_eq!(render(&j), r#" "clang-19" "-D__DSP_ISA__=\"ftm\"" "a b""#);
    }
}

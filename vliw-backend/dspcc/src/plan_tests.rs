//! Unit tests of the driver's plans: the commands each flag leads to.

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
fn backend_switches_reach_dsp_llc() {
    let j = jobs("-O2 -fno-loop-strength-reduce -fno-move-loop-invariants -fno-branch-target-fill -fno-branch-fallthrough-fill -fno-reload-cse -fno-branch-on-register -fno-modulo-sched-rebase -fno-split-around-pipelines -c x.c");
    assert!(has(&j[1].1, &["--no-lsr", "--no-licm", "--no-branch-target-fill", "--no-branch-fallthrough-fill", "--no-pipeline-rebase", "--no-reload-cse", "--no-split-around-pipelines", "--no-branch-on-register"]), "{:?}", j[1].1);
    // On by default: nothing to pass.
    let j = jobs("-O2 -fbranch-target-fill -fbranch-on-register -c x.c");
    assert!(!j[1].1.iter().any(|a| a.contains("branch")), "{:?}", j[1].1);
}

#[test]
fn pipeliner_and_remark_flags_reach_every_backend_run() {
    let j = jobs("-O2 -Rpass=sms -Rpass-missed=.* --modulo-scheduler=ims --ilp-time-limit=2 -fno-modulo-sched -c x.c");
    assert!(has(&j[0].1, &["-dsp-isa=ftm", "-Rpass=sms", "-Rpass-missed=.*", "-mllvm", "-dsp-masked-tail", "-mllvm", "-dsp-unroll-jam", "-mllvm", "-dsp-outer-vec", "-mllvm", "-dsp-interchange", "-mllvm", "-dsp-strip-mine", "-mllvm", "-dsp-flatten", "-mllvm", "-dsp-reverse-carry", "-mllvm", "-dsp-bitrev-vec", "-mllvm", "-dsp-egg-isel", "-emit-llvm"]), "{:?}", j[0].1);
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
    assert!(has(&jobs("-O2 -c x.c")[0].1, &["-dsp-isa=ftm", "-mllvm", "-dsp-masked-tail", "-mllvm", "-dsp-unroll-jam", "-mllvm", "-dsp-outer-vec", "-mllvm", "-dsp-interchange", "-mllvm", "-dsp-strip-mine", "-mllvm", "-dsp-flatten", "-mllvm", "-dsp-reverse-carry", "-mllvm", "-dsp-bitrev-vec", "-mllvm", "-dsp-egg-isel", "-emit-llvm"]));
    assert!(!jobs("-O1 -c x.c")[0].1.contains(&flag));
    assert!(jobs("-O1 -fmasked-tail -c x.c")[0].1.contains(&flag));
    assert!(!jobs("-O3 -fmasked-tail -fno-masked-tail -c x.c")[0].1.contains(&flag));
    assert!(!jobs("-O2 -c x.c")[1].1.iter().any(|a| a.contains("masked")));
    assert!(!jobs("-O2 -E x.c")[0].1.contains(&flag));
}

#[test]
fn outer_loop_vectorization_runs_the_plugin_pass_from_o2() {
    let flag = "-dsp-outer-vec".to_string();
    assert!(has(&jobs("-O2 -c x.c")[0].1, &["-mllvm", "-dsp-outer-vec", "-mllvm", "-dsp-interchange", "-mllvm", "-dsp-strip-mine", "-mllvm", "-dsp-flatten", "-mllvm", "-dsp-reverse-carry", "-mllvm", "-dsp-bitrev-vec", "-mllvm", "-dsp-egg-isel", "-emit-llvm"]));
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
    assert!(has(&jobs("-O2 -fno-vec-function-multiversion -c x.c")[0].1, &["-mllvm", "-dsp-wfv-multiversion=false"]));
    assert!(has(&jobs("-O2 -fno-vec-function-restructure -c x.c")[0].1, &["-mllvm", "-dsp-wfv-restructure=false"]));
    assert!(has(&jobs("-O2 -fegg-isel -c x.c")[0].1, &["-mllvm", "-dsp-egg-isel"]));
    // On from -O2; off at -O1, with -fno-egg-isel, and with -fno-vectorize (the naive scalar build).
    assert!(has(&jobs("-O2 -c x.c")[0].1, &["-mllvm", "-dsp-egg-isel"]));
    assert!(has(&jobs("-O3 -c x.c")[0].1, &["-mllvm", "-dsp-egg-isel"]));
    assert!(!has(&jobs("-O1 -c x.c")[0].1, &["-mllvm", "-dsp-egg-isel"]));
    assert!(has(&jobs("-O1 -fegg-isel -c x.c")[0].1, &["-mllvm", "-dsp-egg-isel"]));
    assert!(!has(&jobs("-O2 -fno-egg-isel -c x.c")[0].1, &["-mllvm", "-dsp-egg-isel"]));
    assert!(!has(&jobs("-O2 -fno-vectorize -c x.c")[0].1, &["-mllvm", "-dsp-egg-isel"]));
    assert!(!has(&jobs("-O0 -fegg-isel -c x.c")[0].1, &["-mllvm", "-dsp-egg-isel"]));
    assert!(has(&jobs("-O2 -fegg-isel --egg-limits=1000,5,20 -fno-egg-cooperation -ffast-math -c x.c")[0].1, &["-mllvm", "-dsp-egg-params=limits=1000,5,20;no-coop;fast-math"]));
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

#[test]
fn llvm_unrolling_leaves_loops_to_the_pipeliner() {
    let o2 = &jobs("-O2 -c x.c")[0].1;
    assert!(has(o2, &["-mllvm", "-unroll-runtime=false"]) && has(o2, &["-mllvm", "-unroll-allow-partial=false"]), "{o2:?}");
    for cmd in ["-O1 -c x.c", "-O2 -fno-modulo-sched -c x.c", "-O2 -funroll-loops -c x.c"] {
        let a = &jobs(cmd)[0].1;
        assert!(!a.iter().any(|x| x.starts_with("-unroll-")), "{cmd}: {a:?}");
    }
    let own = &jobs("-O2 -mllvm -unroll-allow-partial=true -c x.c")[0].1;
    assert!(!has(own, &["-mllvm", "-unroll-allow-partial=false"]), "{own:?}");
}

#[test]
fn vector_fdiv_switch_reaches_the_plugin() {
    assert!(!jobs("-O2 -c x.c")[0].1.iter().any(|a| a.starts_with("-dsp-vector-fdiv")));
    assert!(has(&jobs("-O2 -fno-vector-fdiv -c x.c")[0].1, &["-mllvm", "-dsp-vector-fdiv=false"]));
    assert!(!jobs("-O2 -fno-vector-fdiv -fvector-fdiv -c x.c")[0].1.iter().any(|a| a.starts_with("-dsp-vector-fdiv")));
}

#[test]
fn predictive_commoning_switch_reaches_the_plugin() {
    assert!(!jobs("-O2 -c x.c")[0].1.iter().any(|a| a.starts_with("-dsp-predcom")));
    assert!(has(&jobs("-O2 -fno-predictive-commoning -c x.c")[0].1, &["-mllvm", "-dsp-predcom=false"]));
    assert!(!jobs("-O2 -fno-predictive-commoning -fpredictive-commoning -c x.c")[0].1.iter().any(|a| a.starts_with("-dsp-predcom")));
}

#[test]
fn unroll_and_jam_runs_with_outer_loop_vectorization_unless_told() {
    let flag = "-dsp-unroll-jam".to_string();
    assert!(has(&jobs("-O2 -c x.c")[0].1, &["-mllvm", "-dsp-unroll-jam", "-mllvm", "-dsp-outer-vec"]));
    assert!(!jobs("-O1 -c x.c")[0].1.contains(&flag));
    assert!(!jobs("-O2 -fno-unroll-and-jam -c x.c")[0].1.contains(&flag));
    assert!(!jobs("-O2 -fno-outer-loop-vectorize -c x.c")[0].1.contains(&flag));
    assert!(jobs("-O1 -funroll-and-jam -c x.c")[0].1.contains(&flag));
    assert!(!jobs("-O2 -funroll-and-jam -fno-unroll-and-jam -c x.c")[0].1.contains(&flag));
}

#[test]
fn loop_strip_mining_runs_with_egg_unless_told() {
    let flag = "-dsp-strip-mine".to_string();
    assert!(has(&jobs("-O2 -c x.c")[0].1, &["-mllvm", "-dsp-interchange", "-mllvm", "-dsp-strip-mine"]));
    assert!(!jobs("-O1 -c x.c")[0].1.contains(&flag));
    assert!(!jobs("-O2 -fno-loop-strip-mine -c x.c")[0].1.contains(&flag));
    assert!(jobs("-O2 -fno-loop-interchange -c x.c")[0].1.contains(&flag));
    assert!(!jobs("-O2 -fno-egg-isel -c x.c")[0].1.contains(&flag));
    assert!(jobs("-O1 -floop-strip-mine -c x.c")[0].1.contains(&flag));
    assert!(!jobs("-O2 -floop-strip-mine -fno-loop-strip-mine -c x.c")[0].1.contains(&flag));
}

#[test]
fn loop_flattening_runs_with_egg_unless_told() {
    let flag = "-dsp-flatten".to_string();
    assert!(has(&jobs("-O2 -c x.c")[0].1, &["-mllvm", "-dsp-strip-mine", "-mllvm", "-dsp-flatten"]));
    assert!(!jobs("-O1 -c x.c")[0].1.contains(&flag));
    assert!(!jobs("-O2 -fno-loop-flatten -c x.c")[0].1.contains(&flag));
    assert!(!jobs("-O2 -fno-egg-isel -c x.c")[0].1.contains(&flag));
    assert!(jobs("-O1 -floop-flatten -c x.c")[0].1.contains(&flag));
    assert!(!jobs("-O2 -floop-flatten -fno-loop-flatten -c x.c")[0].1.contains(&flag));
}

#[test]
fn bitrev_vec_runs_from_o2_unless_told_or_the_vectorizer_is_off() {
    let flag = "-dsp-bitrev-vec".to_string();
    assert!(has(&jobs("-O2 -c x.c")[0].1, &["-mllvm", "-dsp-reverse-carry", "-mllvm", "-dsp-bitrev-vec"]));
    assert!(!jobs("-O1 -c x.c")[0].1.contains(&flag));
    assert!(!jobs("-O2 -fno-vectorize-bitrev -c x.c")[0].1.contains(&flag));
    assert!(!jobs("-O2 -fno-vectorize -c x.c")[0].1.contains(&flag));
    assert!(jobs("-O2 -fno-vectorize -fvectorize-bitrev -c x.c")[0].1.contains(&flag));
    assert!(jobs("-O1 -fvectorize-bitrev -c x.c")[0].1.contains(&flag));
    assert!(!jobs("-O0 -fvectorize-bitrev -c x.c")[0].1.contains(&flag));
}

#[test]
fn reverse_carry_runs_from_o2_unless_told() {
    let flag = "-dsp-reverse-carry".to_string();
    assert!(has(&jobs("-O2 -c x.c")[0].1, &["-mllvm", "-dsp-reverse-carry"]));
    assert!(jobs("-O3 -fno-egg-isel -c x.c")[0].1.contains(&flag), "not tied to egg");
    assert!(!jobs("-O1 -c x.c")[0].1.contains(&flag));
    assert!(!jobs("-O2 -fno-reverse-carry -c x.c")[0].1.contains(&flag));
    assert!(jobs("-O1 -freverse-carry -c x.c")[0].1.contains(&flag));
    assert!(!jobs("-O0 -freverse-carry -c x.c")[0].1.contains(&flag));
}

#[test]
fn loop_interchange_runs_with_egg_unless_told() {
    let flag = "-dsp-interchange".to_string();
    assert!(has(&jobs("-O2 -c x.c")[0].1, &["-mllvm", "-dsp-interchange"]));
    assert!(!jobs("-O1 -c x.c")[0].1.contains(&flag));
    assert!(!jobs("-O2 -fno-loop-interchange -c x.c")[0].1.contains(&flag));
    assert!(!jobs("-O2 -fno-egg-isel -c x.c")[0].1.contains(&flag));
    assert!(jobs("-O1 -floop-interchange -c x.c")[0].1.contains(&flag));
    assert!(!jobs("-O2 -floop-interchange -fno-loop-interchange -c x.c")[0].1.contains(&flag));
}

#[test]
fn polyhedral_tiling_is_on_at_o3_only_and_passes_its_tile_sizes() {
    let flag = "-dsp-polyhedral".to_string();
    assert!(jobs("-O3 -c x.c")[0].1.contains(&flag));
    assert!(!jobs("-O3 -fno-polyhedral -c x.c")[0].1.contains(&flag));
    assert!(!jobs("-O2 -c x.c")[0].1.contains(&flag) && !jobs("-Os -c x.c")[0].1.contains(&flag));
    assert!(has(&jobs("-O3 -fpolyhedral -c x.c")[0].1, &["-mllvm", "-dsp-polyhedral"]));
    assert!(has(&jobs("-O2 -fpolyhedral --tile-sizes=16,8,64 -c x.c")[0].1, &["-mllvm", "-dsp-polyhedral", "-mllvm", "-dsp-tile-sizes=16,8,64"]));
    assert!(!jobs("-O3 -fpolyhedral -fno-polyhedral -c x.c")[0].1.contains(&flag));
    assert!(!jobs("-O0 -fpolyhedral -c x.c")[0].1.contains(&flag));
    assert!(plan_for("-fpolyhedral --tile-sizes=0,4 -c x.c").is_err());
    assert!(plan_for("-fpolyhedral --tile-sizes=a -c x.c").is_err());
    assert!(plan_for("-fpolyhedral --tile-sizes= -c x.c").is_err());
    assert!(has(&jobs("-O3 -fpolyhedral --polyhedral-report=r.json -c x.c")[0].1, &["-mllvm", "-dsp-pluto-report=r.json"]));
    let no_ic = "-dsp-pluto-interchange=false".to_string();
    assert!(!jobs("-O3 -fpolyhedral -c x.c")[0].1.contains(&no_ic));
    assert!(has(&jobs("-O3 -fpolyhedral -fno-polyhedral-interchange -c x.c")[0].1, &["-mllvm", "-dsp-pluto-interchange=false"]));
    assert!(!jobs("-O3 -fpolyhedral -fno-polyhedral-interchange -fpolyhedral-interchange -c x.c")[0].1.contains(&no_ic));
    assert!(has(&jobs("-O3 -fno-tile-size-feedback -c x.c")[0].1, &["-mllvm", "-dsp-tile-size-feedback=false"]));
    assert!(!jobs("-O3 -fno-tile-size-feedback -ftile-size-feedback -c x.c")[0].1.iter().any(|a| a.contains("feedback")));
}

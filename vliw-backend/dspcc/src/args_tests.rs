//! Tests of dspcc's argument parsing (`args`).

use super::*;

fn p(s: &str) -> Result<Options, ArgError> {
    parse(&s.split_whitespace().map(String::from).collect::<Vec<_>>())
}

#[test]
fn phases_and_outputs() {
    let o = p("-c x.c -o x.o").unwrap();
    assert_eq!(o.phase, Phase::Assemble);
    assert_eq!(o.output.as_deref(), Some("x.o"));
    assert_eq!(o.inputs, vec![Input { path: "x.c".into(), lang: Lang::C }]);
    assert_eq!(p("-c -S x.c").unwrap().phase, Phase::Compile);
    assert_eq!(p("-S -E x.c").unwrap().phase, Phase::Preprocess);
    assert_eq!(p("x.c").unwrap().phase, Phase::Link);
    assert_eq!(p("-ofoo x.c").unwrap().output.as_deref(), Some("foo"));
    assert!(p("-S -emit-llvm x.c").unwrap().emit_llvm);
}

#[test]
fn optimization_levels() {
    for (flag, want) in [("-O0", '0'), ("-O", '1'), ("-O1", '1'), ("-O2", '2'), ("-O3", '3'), ("-Os", 's'), ("-Oz", 'z'), ("-Ofast", '3'), ("-Og", '1')] {
        assert_eq!(p(&format!("{flag} x.c")).unwrap().opt, want, "{flag}");
    }
    assert_eq!(p("-O2 -O0 x.c").unwrap().opt, '0');
    assert!(p("-Ox x.c").is_err());
}

#[test]
fn clang_flags_keep_their_order_and_join_values() {
    let o = p("-I inc -Iinc2 -D A=1 -DB -U C -std=c99 -Wall -Wno-unused -Werror=format -w -g -ffp-contract=off -fno-inline -include pre.h -isystem sys x.c").unwrap();
    assert_eq!(
        o.clang_flags,
        ["-Iinc", "-Iinc2", "-DA=1", "-DB", "-UC", "-std=c99", "-Wall", "-Wno-unused", "-Werror=format", "-w", "-g", "-ffp-contract=off", "-fno-inline", "-include", "pre.h", "-isystem", "sys"]
    );
}

#[test]
fn languages_by_extension_and_x() {
    let o = p("a.c b.i c.ll d.bc e.s f.o g.a h.unknown -x c i.txt -x none j.s").unwrap();
    let langs: Vec<Lang> = o.inputs.iter().map(|i| i.lang).collect();
    use Lang::*;
    assert_eq!(langs, [C, CppOutput, IrText, Bitcode, Asm, Object, Archive, Object, C, Asm]);
    assert_eq!(p("-x fortran a.f").unwrap_err().0, "language not recognized: 'fortran'");
    assert_eq!(p("-E -").unwrap().inputs[0], Input { path: "-".into(), lang: C });
}

#[test]
fn libraries_keep_their_place_among_inputs() {
    let o = p("a.o -lfoo -L dir b.o -l bar -Ldir2").unwrap();
    assert_eq!(o.link, vec![LinkItem::Input(0), LinkItem::Lib("foo".into()), LinkItem::Input(1), LinkItem::Lib("bar".into())]);
    assert_eq!(o.lib_dirs, ["dir", "dir2"]);
}

#[test]
fn isa_and_dependency_flags() {
    assert_eq!(p("--isa=ftm8 x.c").unwrap().isa, "ftm8");
    assert_eq!(p("--isa ftm32 x.c").unwrap().isa, "ftm32");
    assert_eq!(p("x.c").unwrap().isa, "ftm");
    let o = p("-MMD -MF x.d -MT tgt -MP -c x.c").unwrap();
    assert!(o.deps.side_file && o.deps.user_only && !o.deps.only);
    assert_eq!(o.deps.file.as_deref(), Some("x.d"));
    assert_eq!(o.deps.targets, [("-MT".to_string(), "tgt".to_string())]);
    assert_eq!(o.deps.extra, ["-MP"]);
    let o = p("-M x.c").unwrap();
    assert!(o.deps.only);
    assert_eq!(o.phase, Phase::Preprocess);
}

#[test]
fn linker_and_misc_flags() {
    let o = p("-Wl,--map=m.txt,--stack-size=64K -Xlinker -e -Xlinker start -nostdlib -v -### x.o").unwrap();
    assert_eq!(o.linker_flags, ["--map=m.txt", "--stack-size=64K", "-e", "start"]);
    assert!(o.no_start_files && o.no_default_libs && o.verbose && o.dry_run);
    assert_eq!(p("-Wa,-x x.c").unwrap().warnings.len(), 1);
    assert!(p("-pipe -static x.c").unwrap().clang_flags.is_empty());
}

#[test]
fn pipeliner_and_remark_flags() {
    let o = p("-Rpass=sms -O2 -Rpass-missed=.* -Rpass-analysis=sms|x -c x.c").unwrap();
    assert_eq!(o.remarks, ["-Rpass=sms", "-Rpass-missed=.*", "-Rpass-analysis=sms|x"]);
    assert!(o.clang_flags.is_empty(), "{:?}", o.clang_flags);
    assert_eq!(p("-fmodulo-sched x.c").unwrap().modulo_sched, Some(true));
    assert_eq!(p("-fmodulo-sched -fno-modulo-sched x.c").unwrap().modulo_sched, Some(false));
    assert_eq!(p("-fno-modulo-sched -fmodulo-sched x.c").unwrap().modulo_sched, Some(true));
    assert_eq!(p("x.c").unwrap().modulo_sched, None);
    let o = p("--modulo-scheduler=ilp --ilp-time-limit=0.5 --pipeline-report=r.json x.c").unwrap();
    assert_eq!(o.modulo_scheduler.as_deref(), Some("ilp"));
    assert_eq!(o.ilp_time_limit.as_deref(), Some("0.5"));
    assert_eq!(o.pipeline_report.as_deref(), Some("r.json"));
    let o = p("--modulo-scheduler ims --ilp-time-limit 3 --pipeline-report r2.json x.c").unwrap();
    assert_eq!((o.modulo_scheduler.as_deref(), o.ilp_time_limit.as_deref(), o.pipeline_report.as_deref()), (Some("ims"), Some("3"), Some("r2.json")));
    assert_eq!(p("--modulo-scheduler=list x.c").unwrap_err().0, "invalid value 'list' in '--modulo-scheduler=list' (expected sms, ims or ilp)");
    assert!(p("--ilp-time-limit=-1 x.c").is_err());
    assert!(p("--ilp-time-limit=soon x.c").is_err());
    assert_eq!(p("-Rfoo x.c").unwrap_err().0, "unknown argument: '-Rfoo'");
    assert_eq!(p("-Rpass x.c").unwrap_err().0, "unknown argument: '-Rpass'");
    assert_eq!(p("--pipeline-report").unwrap_err().0, "argument to '--pipeline-report' is missing (expected 1 value)");
}

#[test]
fn build_system_flags() {
    let o = p("-m32 -pie -fPIC -fPIE -fpie --sysroot=/x --sysroot /y -pthread -lpthread -ldl -lrt -lm -l dl x.c").unwrap();
    assert!(o.clang_flags.is_empty(), "{:?}", o.clang_flags);
    assert_eq!(o.link, vec![LinkItem::Lib("m".into()), LinkItem::Input(0)]);
    assert!(o.warnings.is_empty());
    let o = p("a.o -Wl,--start-group -la -Xlinker -lb -Wl,--end-group,--gc-sections").unwrap();
    assert_eq!(o.link, vec![LinkItem::Input(0), LinkItem::Flag("--start-group".into()), LinkItem::Lib("a".into()), LinkItem::Flag("--end-group".into())]);
    assert_eq!(o.linker_flags, ["-lb", "--gc-sections"]);
    let o = p("-march=native -mtune=generic x.c").unwrap();
    assert_eq!(o.warnings.len(), 2);
    assert!(o.warnings[0].contains("'-march=native' has no effect"), "{:?}", o.warnings);
    assert!(p("-ffunction-sections -c x.c").unwrap().sections);
    assert_eq!(p("-print-prog-name=ld").unwrap().query.as_deref(), Some("-print-prog-name=ld"));
    assert_eq!(p("-print-cmake-toolchain").unwrap().query.as_deref(), Some("-print-cmake-toolchain"));
}

#[test]
fn errors_are_clang_style() {
    assert!(p("-foo").is_ok(), "-f flags go to clang, which rejects unknown ones");
    assert_eq!(p("--foo x.c").unwrap_err().0, "unknown argument: '--foo'");
    assert_eq!(p("-bar x.c").unwrap_err().0, "unknown argument: '-bar'");
    assert_eq!(p("-mavx x.c").unwrap_err().0, "unsupported option '-mavx' for target 'dsp'");
    assert!(p("--coverage x.c").unwrap_err().0.starts_with("'--coverage' is not supported: target 'dsp' has no coverage"));
    assert!(p("-fprofile-instr-generate=x x.c").unwrap_err().0.contains("not supported"));
    assert!(p("-fsanitize=undefined,integer x.c").is_ok());
    assert!(p("-fsanitize=undefined,address x.c").unwrap_err().0.starts_with("'-fsanitize=address' is not supported on target 'dsp'"));
    assert_eq!(p("-shared x.c").unwrap_err().0, "-shared is not supported: 'dsp' is a static target (no shared libraries)");
    assert_eq!(p("--target=x86_64 x.c").unwrap_err().0, "unsupported option '--target=x86_64' for target 'dsp'");
    assert_eq!(p("x.c -o").unwrap_err().0, "argument to '-o' is missing (expected 1 value)");
    assert_eq!(p("-I").unwrap_err().0, "argument to '-I' is missing (expected 1 value)");
}

//! Counted loops: at -O2 a countable loop reaches the machine IR in counter
//! form (the shape the software pipeliner matches: a counter phi in the
//! header, `counter - 1`, a predicate `counter != 0`, and the back branch on
//! it), at -O1 it keeps its own compare; either way the program computes
//! the same results on every shipped machine under `dsp-sim --strict`,
//! at trip counts 0, 1, 2, … and with a step of 3 (whose trip count the
//! preheader computes with a division).

use dsp_llc::{assemble_object, compile_module, LlcOptions};
use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use isa_tablegen::Machine;

const CRT0: &str = include_str!("../../runtime/crt0.s");

/// `sum(a, n)`: a[0] + … + a[n-1]; `step(a, lo, hi)`: a[lo] + a[lo+3] + …
/// below hi. main adds sum(data, n) for n = 0..=8 (120) and step(data, lo, 8)
/// for lo = 0, 1, 2 (12 + 15 + 9) and step(data, 5, 2) (0): 156.
const LL: &str = r#"
target datalayout = "e-m:e-p:32:32:32-a:0-n16:32-i64:64:64-i32:32:32-i16:16:16-i1:8:8-f32:32:32-f64:64:64-v32:32:32-v64:64:64-v512:512:512-v1024:1024:1024-v2048:2048:2048"
target triple = "hexagon-unknown-unknown-elf"

@data = internal global [8 x i32] [i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 8], align 4

define i32 @sum(ptr %a, i32 %n) noinline {
entry:
  %pos = icmp sgt i32 %n, 0
  br i1 %pos, label %loop, label %exit
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %s = phi i32 [ 0, %entry ], [ %s1, %loop ]
  %p = getelementptr inbounds i32, ptr %a, i32 %i
  %x = load i32, ptr %p, align 4
  %s1 = add i32 %s, %x
  %i1 = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i1, %n
  br i1 %done, label %exit, label %loop
exit:
  %r = phi i32 [ 0, %entry ], [ %s1, %loop ]
  ret i32 %r
}

define i32 @step(ptr %a, i32 %lo, i32 %hi) noinline {
entry:
  %c = icmp slt i32 %lo, %hi
  br i1 %c, label %loop, label %exit
loop:
  %i = phi i32 [ %lo, %entry ], [ %i1, %loop ]
  %s = phi i32 [ 0, %entry ], [ %s1, %loop ]
  %p = getelementptr inbounds i32, ptr %a, i32 %i
  %x = load i32, ptr %p, align 4
  %s1 = add i32 %s, %x
  %i1 = add nsw i32 %i, 3
  %more = icmp slt i32 %i1, %hi
  br i1 %more, label %loop, label %exit
exit:
  %r = phi i32 [ 0, %entry ], [ %s1, %loop ]
  ret i32 %r
}

define i32 @main() {
  %s0 = call i32 @sum(ptr @data, i32 0)
  %s1 = call i32 @sum(ptr @data, i32 1)
  %s2 = call i32 @sum(ptr @data, i32 2)
  %s3 = call i32 @sum(ptr @data, i32 3)
  %s4 = call i32 @sum(ptr @data, i32 4)
  %s5 = call i32 @sum(ptr @data, i32 5)
  %s6 = call i32 @sum(ptr @data, i32 6)
  %s7 = call i32 @sum(ptr @data, i32 7)
  %s8 = call i32 @sum(ptr @data, i32 8)
  %t0 = call i32 @step(ptr @data, i32 0, i32 8)
  %t1 = call i32 @step(ptr @data, i32 1, i32 8)
  %t2 = call i32 @step(ptr @data, i32 2, i32 8)
  %t3 = call i32 @step(ptr @data, i32 5, i32 2)
  %a1 = add i32 %s0, %s1
  %a2 = add i32 %a1, %s2
  %a3 = add i32 %a2, %s3
  %a4 = add i32 %a3, %s4
  %a5 = add i32 %a4, %s5
  %a6 = add i32 %a5, %s6
  %a7 = add i32 %a6, %s7
  %a8 = add i32 %a7, %s8
  %b1 = add i32 %a8, %t0
  %b2 = add i32 %b1, %t1
  %b3 = add i32 %b2, %t2
  %b4 = add i32 %b3, %t3
  ret i32 %b4
}
"#;

/// Compiles `LL` for `m` at `level`: the machine IR after selection and the
/// assembly.
fn compile(m: &Machine, level: u8) -> (String, String) {
    let ctx = Context::create();
    let buf = MemoryBuffer::create_from_memory_range_copy(LL.as_bytes(), "counted.ll");
    let module = ctx.create_module_from_ir(buf).unwrap();
    let opts = LlcOptions {
        print_mir: true,
        ..LlcOptions::at_level(level)
    };
    let mut mir = Vec::new();
    let compiled = compile_module(m, &module, &opts, &mut mir)
        .unwrap_or_else(|e| panic!("{} -O{level}: {}", m.name, e.join("\n")));
    (String::from_utf8(mir).unwrap(), compiled.asm)
}

/// The lines of function `name` after instruction selection.
fn selected<'a>(mir: &'a str, name: &str) -> Vec<&'a str> {
    let head = format!("# after instruction selection\nfunction {name}:\n");
    let start = mir.find(&head).unwrap_or_else(|| panic!("no {name} in\n{mir}")) + head.len();
    let rest = &mir[start..];
    let end = rest.find("\n\n").unwrap_or(rest.len());
    rest[..end].lines().collect()
}

/// The blocks of a function's lines: (label, instructions and terminator).
fn blocks<'a>(lines: &[&'a str]) -> Vec<(&'a str, Vec<&'a str>)> {
    let mut out: Vec<(&str, Vec<&str>)> = Vec::new();
    for l in lines {
        if !l.starts_with(' ') {
            out.push((l.split_whitespace().next().unwrap(), Vec::new()));
        } else if let Some(b) = out.last_mut() {
            b.1.push(l.trim());
        }
    }
    out
}

/// The counter loop of a function: a block `bbH` with
/// `%c = phi [.. bbH: %n ..]`, `addi %n, %c, -1`, `pnei %p, %n, 0` and
/// `branch %p bbH else bbE` as its terminator. Returns bbH's label.
fn counter_loop(lines: &[&str]) -> Option<String> {
    for (label, body) in blocks(lines) {
        let Some(term) = body.last() else { continue };
        let t: Vec<&str> = term.split_whitespace().collect();
        let [_, p, h, _, _] = t[..] else { continue };
        if t[0] != "branch" || h != label || t[3] != "else" {
            continue;
        }
        let found = body.iter().any(|l| {
            let w: Vec<&str> = l.split([' ', ',']).filter(|s| !s.is_empty()).collect();
            w.len() == 4 && w[0] == "pnei" && w[1] == p && w[3] == "0" && {
                let n = w[2];
                body.iter().any(|d| {
                    let v: Vec<&str> = d.split([' ', ',']).filter(|s| !s.is_empty()).collect();
                    v.len() == 4 && v[0] == "addi" && v[1] == n && v[3] == "-1" && {
                        let c = v[2];
                        let back = format!("{label}: {n}]");
                        body.iter().any(|x| x.starts_with(&format!("{c} = phi")) && x.contains(&back))
                    }
                })
            }
        });
        if found {
            return Some(label.to_string());
        }
    }
    None
}

fn run(m: &Machine, asm: &str) -> i32 {
    let obj = assemble_object(m, asm, "counted.s").unwrap_or_else(|e| panic!("{}: {}", m.name, e.join("\n")));
    let inputs = [
        dsp_ld::Input::object("crt0.o", dsp_mc::assemble(m, CRT0, "crt0.s").unwrap()),
        dsp_ld::Input::object("counted.o", dsp_obj::read_object(&obj).unwrap()),
    ];
    let opts = dsp_ld::LinkOptions { machine: Some(m.clone()), ..dsp_ld::LinkOptions::default() };
    let exe = dsp_ld::link(&inputs, &opts).unwrap_or_else(|e| panic!("{}: {e}", m.name));
    let config = dsp_sim::Config { strict: true, max_cycles: Some(1_000_000), ..dsp_sim::Config::default() };
    let mut sim = dsp_sim::Sim::new(m, &exe, config).unwrap();
    match sim.run() {
        dsp_sim::Outcome::Exit(s) => s,
        other => panic!("{}: {other:?}", m.name),
    }
}

#[test]
fn counter_form_at_o2_only() {
    let m = Machine::load("ftm").unwrap();
    let (mir, _) = compile(&m, 2);
    for f in ["sum", "step"] {
        let lines = selected(&mir, f);
        assert!(counter_loop(&lines).is_some(), "-O2 {f}: no counter loop in\n{}", lines.join("\n"));
    }
    // The trip count of the step-3 loop is computed before the loop.
    let step = selected(&mir, "step").join("\n");
    assert!(step.contains("preheader)"), "{step}");
    let (mir, _) = compile(&m, 1);
    for f in ["sum", "step"] {
        let lines = selected(&mir, f);
        assert!(counter_loop(&lines).is_none(), "-O1 {f}: a counter loop in\n{}", lines.join("\n"));
        // No trip count computed (loop strength reduction, on from -O1,
        // may still have given the loop a preheader).
        assert!(!lines.join("\n").contains("divu"), "-O1 {f}");
    }
}

#[test]
fn counted_loops_compute_the_same_on_every_machine_and_level() {
    for name in isa_tablegen::builtin::names() {
        let m = Machine::load(name).unwrap();
        for level in 0..=3 {
            let (_, asm) = compile(&m, level);
            assert_eq!(run(&m, &asm), 156, "{name} -O{level}");
        }
    }
}

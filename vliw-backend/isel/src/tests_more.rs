//! More selection tests: floats, varargs, byval, dynamic stack, intrinsics,
//! vectors, memory shapes, wide integers, and the fallbacks of a machine
//! stripped of its divider and 64-bit multiplier.

use dsp_mir::{FrameKind, InstKind, Operand, Reg};
use isa_tablegen::{Machine, SemOp, Ty};

use crate::tests::{calls_to, clang, count_sem, func, machines, select_c, select_file, vector_flags};
use crate::IselOptions;

fn ir_file(tag: &str, ir: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("dsp-isel-tests-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join(format!("{tag}.ll"));
    std::fs::write(&p, ir).unwrap();
    p
}

#[test]
fn floats_and_conversions() {
    let src = r#"
        float f(float a, float b) { return a * b + a / b - (a < b ? a : b); }
        double d(double a, int i, unsigned u, long long l) { return a * i + u - (double)l; }
        int cmp(double a, double b) { return (a < b) + (a <= b) * 2 + (a != b) * 4 + (a == a) * 8 + (a > b) * 16; }
        long long tol(float x) { return (long long)x; }
        unsigned tou(double x) { return (unsigned)x; }
        float fneg(float x) { return -x; }
        double fmodd(double a, double b) { return __builtin_fmod(a, b); }
    "#;
    for m in machines() {
        for opt in ["-O0", "-O2"] {
            let module = select_c(&m, "float", src, opt, &["-ffp-contract=off"]);
            let f = func(&module, "f");
            assert!(count_sem(&m, f, SemOp::Mul) >= 1 && count_sem(&m, f, SemOp::Div) >= 1);
            assert_eq!(count_sem(&m, f, SemOp::Mac), 0, "no contraction with -ffp-contract=off");
            let c = func(&module, "cmp");
            assert!(count_sem(&m, c, SemOp::Lt) + count_sem(&m, c, SemOp::Le) >= 2);
            assert!(count_sem(&m, func(&module, "tol"), SemOp::Cvt) >= 1);
            assert_eq!(calls_to(func(&module, "fmodd"), "fmod"), 1);
        }
    }
}

#[test]
fn fmuladd_contracts_only_when_asked() {
    let src = "float mac(float a, float b, float c) { return a * b + c; }";
    for m in machines() {
        let ll = clang(&format!("contract-{}", m.name), src, "-O2", &["-ffp-contract=on"]);
        let on = select_file(&m, &ll, &IselOptions { contract: true, ..Default::default() }).unwrap();
        let off = select_file(&m, &ll, &IselOptions { contract: false, ..Default::default() }).unwrap();
        assert_eq!(count_sem(&m, func(&on, "mac"), SemOp::Mac), 1);
        assert_eq!(count_sem(&m, func(&off, "mac"), SemOp::Mac), 0);
        assert_eq!(count_sem(&m, func(&off, "mac"), SemOp::Mul), 1);
    }
}

#[test]
fn variadic_calls_put_variadic_arguments_on_the_stack() {
    let src = r#"
        #include <stdarg.h>
        int sum(int n, ...) { va_list ap; va_start(ap, n); int s = 0; for (int i = 0; i < n; i++) s += va_arg(ap, int); double d = va_arg(ap, double); va_end(ap); return s + (int)d; }
        int call(void) { return sum(3, 1, 2, 3, 4.0); }
    "#;
    for m in machines() {
        for opt in ["-O0", "-O2"] {
            let module = select_c(&m, "varargs", src, opt, &["-fno-inline"]);
            let s = func(&module, "sum");
            assert!(s.variadic);
            assert!(
                s.frame.iter().any(|o| o.kind == FrameKind::IncomingArg { offset: 0 }),
                "va_start points at the first variadic argument"
            );
            let c = func(&module, "call");
            let out = c.frame.iter().find(|o| o.kind == FrameKind::OutgoingArgs).expect("outgoing area");
            // 1, 2, 3 at 0, 4, 8; the double 8-aligned at 16.
            assert_eq!(out.size, 24, "{opt}");
            let args = c.blocks.iter().flat_map(|b| &b.insts).find_map(|i| match &i.kind {
                InstKind::Call { args, .. } => Some(args.len()),
                _ => None,
            });
            assert_eq!(args, Some(1), "only the fixed argument in a register");
        }
    }
}

#[test]
fn byval_structs_and_sret() {
    let src = r#"
        struct Big { int a[20]; };
        __attribute__((noinline)) int take(struct Big b) { return b.a[3] + b.a[19]; }
        int give(struct Big *p) { return take(*p); }
        __attribute__((noinline)) struct Big make(int x) { struct Big b; for (int i = 0; i < 20; i++) b.a[i] = x + i; return b; }
        int use(void) { struct Big b = make(3); return b.a[5]; }
    "#;
    for m in machines() {
        for opt in ["-O0", "-O2"] {
            let module = select_c(&m, "byval", src, opt, &[]);
            let g = func(&module, "give");
            let out = g.frame.iter().find(|o| o.kind == FrameKind::OutgoingArgs).expect("outgoing area");
            assert_eq!(out.size, 80);
            assert_eq!(calls_to(g, "memcpy"), 1, "the 80-byte copy calls memcpy");
            let t = func(&module, "take");
            assert!(t.frame.iter().any(|o| o.kind == FrameKind::IncomingArg { offset: 0 } && o.size == 80));
            let u = func(&module, "use");
            assert_eq!(calls_to(u, "make"), 1);
        }
    }
}

#[test]
fn dynamic_alloca_moves_the_stack_pointer() {
    let src = "int f(int n) { int a[n]; for (int i = 0; i < n; i++) a[i] = i; return a[n / 2]; }";
    for m in machines() {
        for opt in ["-O0", "-O2"] {
            let module = select_c(&m, "vla", src, opt, &[]);
            let f = func(&module, "f");
            assert!(f.dynamic_stack);
            let sp = m.abi.sp.unwrap();
            assert!(f.blocks.iter().flat_map(|b| &b.insts).any(|i| matches!(i.kind, InstKind::Copy { dst: Reg::Phys(p), .. } if p == sp)));
        }
    }
}

#[test]
fn bit_intrinsics_use_the_machine() {
    let src = r#"
        int pc(unsigned x) { return __builtin_popcount(x); }
        int lz(unsigned x) { return __builtin_clz(x); }
        int tz(unsigned long long x) { return __builtin_ctzll(x); }
        unsigned bs(unsigned x) { return __builtin_bswap32(x); }
        int ab(int x) { return __builtin_abs(x); }
        int mn(int a, int b) { return a < b ? a : b; }
        int ov(int a, int b, int *r) { return __builtin_add_overflow(a, b, r); }
        int mv(unsigned a, unsigned b, unsigned *r) { return __builtin_mul_overflow(a, b, r); }
        unsigned rot(unsigned x, unsigned s) { return (x << (s & 31)) | (x >> ((32 - s) & 31)); }
        unsigned short bs16(unsigned short x) { return __builtin_bswap16(x); }
        int pc8(unsigned char c) { return __builtin_popcount(c); }
    "#;
    for m in machines() {
        let module = select_c(&m, "bits", src, "-O2", &[]);
        assert_eq!(count_sem(&m, func(&module, "pc"), SemOp::Popcnt), 1);
        assert_eq!(count_sem(&m, func(&module, "lz"), SemOp::Clz), 1);
        assert_eq!(count_sem(&m, func(&module, "tz"), SemOp::Ctz), 1);
        assert_eq!(count_sem(&m, func(&module, "bs"), SemOp::Bswap), 1);
        assert_eq!(count_sem(&m, func(&module, "ab"), SemOp::Abs), 1);
        assert_eq!(count_sem(&m, func(&module, "mn"), SemOp::Min), 1);
        assert_eq!(count_sem(&m, func(&module, "mv"), SemOp::MulHi), 1);
        assert!(count_sem(&m, func(&module, "rot"), SemOp::Shl) >= 1);
    }
}

#[test]
fn packed_and_volatile_accesses() {
    let src = r#"
        struct __attribute__((packed)) P { char c; int x; short h; };
        int get(struct P *p) { return p->x + p->h; }
        void put(struct P *p, int v) { p->x = v; }
        int vol(volatile int *p) { *p = 1; return *p; }
    "#;
    for m in machines() {
        for opt in ["-O0", "-O2"] {
            let module = select_c(&m, "packed", src, opt, &[]);
            let g = func(&module, "get");
            // Bytes, not a misaligned word.
            let word_loads = g
                .blocks
                .iter()
                .flat_map(|b| &b.insts)
                .filter(|i| matches!(&i.kind, InstKind::Machine { instr, .. } if m.instr(*instr).sem.op == SemOp::Load && m.instr(*instr).sem.ty.map(|t| t.bits()) == Some(32)))
                .count();
            let byte_loads = count_sem(&m, g, SemOp::Load) - word_loads;
            if opt == "-O2" {
                assert_eq!(word_loads, 0, "{}", dsp_mir::print::function(&m, g));
                assert!(byte_loads >= 6);
            }
            let p = func(&module, "put");
            assert!(count_sem(&m, p, SemOp::Store) >= 4);
            let v = func(&module, "vol");
            assert!(count_sem(&m, v, SemOp::Store) >= 1 && count_sem(&m, v, SemOp::Load) >= 1);
        }
    }
}

#[test]
fn switch_becomes_a_compare_tree() {
    let src = r#"
        int sw(int x) {
            switch (x) { case 0: return 5; case 1: return 7; case 2: return 11; case 3: return 13; case 4: return 17;
                         case 10: return 19; case 20: return 23; case 30: return 29; case 100: return 31; default: return -1; }
        }
    "#;
    for m in machines() {
        for opt in ["-O0", "-O2"] {
            let module = select_c(&m, "switch", src, opt, &["-fno-jump-tables"]);
            let f = func(&module, "sw");
            assert!(f.blocks.len() >= 5);
        }
    }
}

#[test]
fn i1_phis_join_through_the_integer_file() {
    let ir = r#"
define i32 @f(i32 %a, i32 %b) {
entry:
  %c = icmp slt i32 %a, %b
  br i1 %c, label %t, label %e
t:
  %d = icmp eq i32 %a, 7
  br label %e
e:
  %p = phi i1 [ %c, %entry ], [ %d, %t ]
  %q = phi i1 [ true, %entry ], [ false, %t ]
  %x = and i1 %p, %q
  %r = zext i1 %x to i32
  ret i32 %r
}
"#;
    let path = ir_file("i1phi", ir);
    for m in machines() {
        let module = select_file(&m, &path, &IselOptions::default()).unwrap();
        let f = func(&module, "f");
        dsp_mir::verify::verify(&m, f, dsp_mir::verify::Stage::Selected).unwrap();
        let p = m.predicate_file().unwrap();
        let phis: Vec<_> = f
            .blocks
            .iter()
            .flat_map(|b| &b.insts)
            .filter_map(|i| match &i.kind {
                InstKind::Phi { dst, .. } => Some(f.vreg_file(*dst)),
                _ => None,
            })
            .collect();
        assert_eq!(phis.len(), 2);
        assert!(phis.iter().all(|file| *file != p));
    }
}

#[test]
fn wide_bitfield_units() {
    let ir = r#"
@g = global i72 0, align 4
define i32 @get() {
  %v = load i72, ptr @g, align 4
  %s = lshr i72 %v, 40
  %t = trunc i72 %s to i32
  ret i32 %t
}
define void @set(i32 %x) {
  %v = load i72, ptr @g, align 4
  %m = and i72 %v, -4722366482869645213441
  %z = zext i32 %x to i72
  %sh = shl i72 %z, 40
  %n = or i72 %m, %sh
  store i72 %n, ptr @g, align 4
  ret void
}
"#;
    let path = ir_file("wide", ir);
    for m in machines() {
        let module = select_file(&m, &path, &IselOptions::default()).unwrap();
        for f in &module.functions {
            dsp_mir::verify::verify(&m, f, dsp_mir::verify::Stage::Selected).unwrap();
        }
        let s = func(&module, "set");
        // 9 bytes: two words and a byte.
        assert_eq!(count_sem(&m, s, SemOp::Store), 3, "{}", dsp_mir::print::function(&m, s));
        assert_eq!(module.data[0].size, 12);
    }
}

#[test]
fn vector_reduction_and_mac() {
    let src = r#"
        int dot(const int *a, const int *b, int n) { int s = 0; for (int i = 0; i < n; i++) s += a[i] * b[i]; return s; }
        void saxpy(float *restrict y, const float *restrict x, float a, int n) { for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i]; }
        void cond(int *restrict a, const int *restrict b, int n) { for (int i = 0; i < n; i++) a[i] = b[i] > 0 ? b[i] : -b[i]; }
        void bytes(unsigned char *restrict a, const unsigned char *restrict b, int n) { for (int i = 0; i < n; i++) a[i] = b[i] + 1; }
    "#;
    for m in machines() {
        let flags = vector_flags(&m);
        let flags: Vec<&str> = flags.iter().map(|s| s.as_str()).collect();
        for opt in ["-O2", "-O3"] {
            let module = select_c(&m, "vred", src, opt, &flags);
            let d = func(&module, "dot");
            assert!(count_sem(&m, d, SemOp::ReduceAdd) >= 1, "{}", dsp_mir::print::function(&m, d));
            let s = func(&module, "saxpy");
            assert!(count_sem(&m, s, SemOp::Mac) >= 1, "{}", dsp_mir::print::function(&m, s));
            assert!(count_sem(&m, s, SemOp::Broadcast) >= 1);
        }
    }
}

/// ftm without a divider, 64-bit multiplier or float divide: runtime calls.
fn stripped_machine() -> Machine {
    let (_, text) = isa_tablegen::builtin::source("ftm").unwrap();
    let kept: Vec<&str> = text
        .lines()
        .filter(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            !(w.first() == Some(&"inst")
                && matches!(
                    w.get(1).copied(),
                    Some(
                        "div"
                            | "divu"
                            | "rem"
                            | "remu"
                            | "div64"
                            | "divu64"
                            | "rem64"
                            | "remu64"
                            | "mul64"
                            | "fdiv"
                            | "ddiv"
                            | "popc"
                            | "mulhu"
                            | "mulhi"
                    )
                ))
        })
        .collect();
    Machine::parse_str(&kept.join("\n"), "stripped.isa").unwrap()
}

#[test]
fn missing_operations_call_the_runtime() {
    let m = stripped_machine();
    let src = r#"
        int d(int a, int b) { return a / b; }
        unsigned u(unsigned a, unsigned b) { return a % b; }
        long long l(long long a, long long b) { return a * b + a / b; }
        double fd(double a, double b) { return a / b; }
        int pc(unsigned x) { return __builtin_popcount(x); }
    "#;
    for opt in ["-O0", "-O2"] {
        let module = select_c(&m, "stripped", src, opt, &[]);
        assert_eq!(calls_to(func(&module, "d"), "__divsi3"), 1);
        assert_eq!(calls_to(func(&module, "u"), "__umodsi3"), 1);
        assert_eq!(calls_to(func(&module, "l"), "__muldi3"), 1);
        assert_eq!(calls_to(func(&module, "l"), "__divdi3"), 1);
        assert_eq!(calls_to(func(&module, "fd"), "__divdf3"), 1);
        assert_eq!(calls_to(func(&module, "pc"), "__popcountsi2"), 1);
        let f = func(&module, "l");
        // 64-bit arguments go in the 64-bit argument registers.
        let d = m.scalar_file(Ty::I64).unwrap();
        let call_args = f.blocks.iter().flat_map(|b| &b.insts).find_map(|i| match &i.kind {
            InstKind::Call { args, .. } => Some(args.clone()),
            _ => None,
        });
        assert!(call_args.unwrap().iter().all(|r| r.file == d));
    }
}

#[test]
fn every_runtime_routine_name_is_listed() {
    for n in ["__divsi3", "__udivdi3", "__floatdisf", "__fixdfdi", "memcpy", "floorf"] {
        assert!(crate::runtime::ROUTINES.contains(&n));
    }
    assert_eq!(crate::runtime::libm("sqrt", Ty::F32), Some("sqrtf"));
    assert_eq!(crate::runtime::libm("floor", Ty::F64), Some("floor"));
}

#[test]
fn global_addresses_fold_into_loads() {
    let src = "int a[10]; int get(void) { return a[3]; }";
    for m in machines() {
        let module = select_c(&m, "fold", src, "-O2", &[]);
        let f = func(&module, "get");
        let folded = f.blocks.iter().flat_map(|b| &b.insts).any(|i| match &i.kind {
            InstKind::Machine { ops, .. } => ops.iter().any(|o| matches!(o, Operand::Sym { name, offset: 12 } if name == "a")),
            _ => false,
        });
        assert!(folded, "{}", dsp_mir::print::function(&m, f));
    }
}

#[test]
fn atomics_are_plain_memory_operations() {
    let src = r#"
        int counter;
        int add(int x) { return __atomic_fetch_add(&counter, x, __ATOMIC_SEQ_CST); }
        int swap(int x) { return __atomic_exchange_n(&counter, x, __ATOMIC_SEQ_CST); }
        int cas(int e, int x) { return __atomic_compare_exchange_n(&counter, &e, x, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); }
        int nand(int x) { return __sync_fetch_and_nand(&counter, x); }
    "#;
    for m in machines() {
        for opt in ["-O0", "-O2"] {
            let module = select_c(&m, "atomic", src, opt, &[]);
            for f in ["add", "swap", "cas", "nand"] {
                let f = func(&module, f);
                assert!(count_sem(&m, f, SemOp::Load) >= 1 && count_sem(&m, f, SemOp::Store) >= 1);
            }
        }
    }
}

#[test]
fn dynamic_alloca_reserves_the_outgoing_area() {
    let src = r#"
        int g(int, int, int, int, int, int, int, int, int, int *);
        int f(int n) { int a[n]; return g(1, 2, 3, 4, 5, 6, 7, 8, 9, a); }
    "#;
    for m in machines() {
        let module = select_c(&m, "vla-out", src, "-O2", &[]);
        let f = func(&module, "f");
        let out = f.frame.iter().find(|o| o.kind == FrameKind::OutgoingArgs).map(|o| o.size).unwrap_or(0);
        assert!(out > 0);
        let reserved = (out.div_ceil(m.abi.stack_align) * m.abi.stack_align) as i64;
        // The sp adjustment adds the reserved area; the block starts above it.
        let imms: Vec<i64> = f
            .blocks
            .iter()
            .flat_map(|b| &b.insts)
            .filter_map(|i| match &i.kind {
                InstKind::Machine { instr, ops, .. } if m.instr(*instr).sem.op == SemOp::Add => ops.iter().find_map(|o| match o {
                    Operand::Imm(v) => Some(*v),
                    _ => None,
                }),
                _ => None,
            })
            .collect();
        assert!(imms.iter().filter(|v| **v == reserved).count() >= 2, "{imms:?}\n{}", dsp_mir::print::function(&m, f));
        assert!(!imms.contains(&crate::memory::DYN_PLACEHOLDER));
    }
}

#[test]
fn switches_on_narrow_and_wide_values() {
    let src = r#"
        int s8(signed char c) { switch (c) { case -1: return 1; case 5: return 2; case 100: return 3; case -100: return 4; default: return 0; } }
        int s64(long long x) { switch (x) { case 1LL << 40: return 1; case -7: return 2; case 3: return 3; case 4: return 4; case 5: return 5; default: return 0; } }
    "#;
    for m in machines() {
        for opt in ["-O0", "-O2"] {
            select_c(&m, "switch-widths", src, opt, &["-fno-jump-tables"]);
        }
    }
}

#[test]
fn boolean_results_compare_straight_into_integers() {
    let src = "int lt(int a, int b) { return a < b; }\nint geu(unsigned a, unsigned b) { return a >= b; }";
    for m in machines() {
        let module = select_c(&m, "bool-int", src, "-O2", &[]);
        let p = m.predicate_file().unwrap();
        for name in ["lt", "geu"] {
            let f = func(&module, name);
            // One compare writing the integer file, no predicate.
            assert!(f.vregs.iter().all(|file| *file != p), "{}", dsp_mir::print::function(&m, f));
            let cmps =
                count_sem(&m, f, SemOp::Lt) + count_sem(&m, f, SemOp::Le) + count_sem(&m, f, SemOp::Gt) + count_sem(&m, f, SemOp::Ge);
            assert_eq!(cmps, 1);
        }
    }
}

#[test]
fn reversal_shuffles_use_the_machine_shuffle() {
    let src = "int a[512], b[512];\nvoid rev(int n) { for (int i = 0; i < n; i++) a[i] = b[n - 1 - i]; }";
    for m in machines() {
        let flags = vector_flags(&m);
        let flags: Vec<&str> = flags.iter().map(|s| s.as_str()).collect();
        let module = select_c(&m, "rev", src, "-O2", &flags);
        let f = func(&module, "rev");
        assert!(count_sem(&m, f, SemOp::Shuffle) >= 1, "{}", dsp_mir::print::function(&m, f));
        assert!(count_sem(&m, f, SemOp::Iota) >= 1);
        assert_eq!(count_sem(&m, f, SemOp::Extract), 0);
    }
}

/// The reciprocal sequence of unsigned division by a constant, simulated:
/// exact for every divisor class and the edges of the dividend.
#[test]
fn unsigned_division_by_constants_is_exact() {
    let sim = |n: u32, d: u32| -> u32 {
        let (m, l) = crate::inst::udiv_magic(d);
        let t = ((n as u64 * m as u64) >> 32) as u32;
        let sum = t.wrapping_add((n - t) >> 1);
        if l > 1 { sum >> (l - 1) } else { sum }
    };
    let mut seed = 0x2545_f491u32;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        seed
    };
    let mut divisors: Vec<u32> = vec![3, 5, 6, 7, 9, 10, 11, 12, 25, 100, 641, 1000, 6700417, 65535, 65537, 0x7fff_ffff, 0x8000_0001, 0xffff_fffe, 0xffff_ffff];
    divisors.extend((0..200).map(|_| next() | 3));
    for &d in &divisors {
        let mut ns: Vec<u32> = vec![0, 1, d - 1, d, d.wrapping_add(1), u32::MAX, u32::MAX - 1, 0x8000_0000, 0x7fff_ffff];
        ns.extend((0..2000).map(|_| next()));
        ns.extend((1..50u32).map(|k| d.wrapping_mul(k)).chain((1..50u32).map(|k| d.wrapping_mul(k).wrapping_sub(1))));
        for &n in &ns {
            assert_eq!(sim(n, d), n / d, "{n} / {d}");
        }
    }
}

/// A machine that can move registers but has no instruction loading a
/// constant or an address (`li` dropped from ftm): selection reports it.
/// Found by scripts/fuzz-tools (varied machines as dsp-llc's --isa):
/// materializing the constant, or the symbol's address, asked for the same
/// one in the same file again, until the stack overflowed.
#[test]
fn machine_without_constant_loads_is_an_error() {
    let (_, text) = isa_tablegen::builtin::source("ftm").unwrap();
    let kept: Vec<&str> = text.lines().filter(|l| !l.starts_with("inst li ")).collect();
    let m = Machine::parse_str(&kept.join("\n"), "no_li.isa").unwrap();
    let ll = crate::tests::clang("no-li", "int k(void) { return 123456; }\n", "-O2", &[]);
    let errs = crate::tests::select_file(&m, &ll, &IselOptions::default()).err().expect("selection fails");
    let text = errs.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n");
    assert!(text.contains("cannot lower 'ret i32 123456': the machine has no instruction 'r = mov.i32(imm)'"), "{text}");
    // Symbol addresses the same way (`li` also moves them).
    let ll = crate::tests::clang("no-li-sym", "int g;\nint *p(void) { return &g; }\n", "-O2", &[]);
    let errs = crate::tests::select_file(&m, &ll, &IselOptions::default()).err().expect("selection fails");
    let text = errs.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n");
    assert!(text.contains("in function 'p'") && text.contains("the machine has no move of a 32-bit symbol address"), "{text}");
}

/// Division and remainder by a positive power of two, signed or not, 8 to
/// 64 bits (what our own IR passes and clang -O0 leave): shifts, never the
/// divider or a runtime routine. (Their results: tests/c/divmod_pow2.c.)
#[test]
fn division_by_powers_of_two_shifts() {
    let ir = r#"
define i64 @sd64(i64 %x) {
  %q = sdiv i64 %x, 16
  %r = srem i64 %x, 1073741824
  %s = add i64 %q, %r
  ret i64 %s
}
define i64 @ud64(i64 %x) {
  %q = udiv i64 %x, 4611686018427387904
  %r = urem i64 %x, 32
  %s = add i64 %q, %r
  ret i64 %s
}
define i32 @sd32(i32 %x) {
  %q = sdiv i32 %x, 8
  %r = srem i32 %x, 2
  %s = add i32 %q, %r
  ret i32 %s
}
define i16 @sd16(i16 %x) {
  %q = sdiv i16 %x, 64
  %r = urem i16 %x, 4
  %s = add i16 %q, %r
  ret i16 %s
}
"#;
    let path = ir_file("pow2div", ir);
    for m in machines() {
        let module = select_file(&m, &path, &IselOptions::default()).unwrap();
        for name in ["sd64", "ud64", "sd32", "sd16"] {
            let f = func(&module, name);
            let text = dsp_mir::print::function(&m, f);
            assert_eq!(count_sem(&m, f, SemOp::Div) + count_sem(&m, f, SemOp::Rem), 0, "{text}");
            assert!(f.blocks.iter().flat_map(|b| &b.insts).all(|i| !matches!(i.kind, InstKind::Call { .. })), "{text}");
        }
    }
}

/// Divisors that are not constant but known to be powers of two (or zero,
/// a division by which is undefined) select shifts: a doubling counter for
/// unsigned division, with its sign bit known clear for signed division
/// (`shl nsw`, or the arm of `x > 0 ? sext x : 1`); a counter that may reach
/// the sign bit keeps the divider for signed division. (Results:
/// tests/c/divmod_pow2_loop.c.)
#[test]
fn division_by_doubling_counters_shifts() {
    let ir = r#"
define i32 @udiv_loop(i32 %n) {
entry:
  br label %loop
loop:
  %len = phi i32 [ 2, %entry ], [ %next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %sum, %loop ]
  %q = udiv i32 %n, %len
  %r = urem i32 %n, %len
  %t = add i32 %q, %r
  %sum = add i32 %acc, %t
  %next = shl i32 %len, 1
  %c = icmp ule i32 %next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret i32 %sum
}
define i64 @sdiv_loop(i64 %n) {
entry:
  br label %loop
loop:
  %len = phi i32 [ 1, %entry ], [ %next, %loop ]
  %acc = phi i64 [ 0, %entry ], [ %sum, %loop ]
  %pos = icmp sgt i32 %len, 0
  %w = sext i32 %len to i64
  %d = select i1 %pos, i64 %w, i64 1
  %q = sdiv i64 %n, %d
  %r = srem i64 %n, %d
  %t = add i64 %q, %r
  %sum = add i64 %acc, %t
  %next = shl i32 %len, 1
  %c = icmp ne i32 %next, 0
  br i1 %c, label %loop, label %exit
exit:
  ret i64 %sum
}
define i32 @sdiv_nsw(i32 %n) {
entry:
  br label %loop
loop:
  %len = phi i32 [ 4, %entry ], [ %next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %sum, %loop ]
  %q = sdiv i32 %n, %len
  %sum = add i32 %acc, %q
  %next = shl nsw i32 %len, 2
  %c = icmp slt i32 %next, 100000
  br i1 %c, label %loop, label %exit
exit:
  ret i32 %sum
}
define i32 @sdiv_may_be_negative(i32 %n) {
entry:
  br label %loop
loop:
  %len = phi i32 [ 2, %entry ], [ %next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %sum, %loop ]
  %q = sdiv i32 %n, %len
  %sum = add i32 %acc, %q
  %next = shl i32 %len, 1
  %c = icmp ne i32 %next, 0
  br i1 %c, label %loop, label %exit
exit:
  ret i32 %sum
}
define i32 @udiv_by_sum(i32 %n, i32 %a) {
  %d = add i32 %a, 2
  %q = udiv i32 %n, %d
  ret i32 %q
}
"#;
    let path = ir_file("pow2div_loop", ir);
    for m in machines() {
        let module = select_file(&m, &path, &IselOptions::default()).unwrap();
        let divides = |name: &str| {
            let f = func(&module, name);
            let calls = f.blocks.iter().flat_map(|b| &b.insts).filter(|i| matches!(i.kind, InstKind::Call { .. })).count();
            count_sem(&m, f, SemOp::Div) + count_sem(&m, f, SemOp::Rem) + calls
        };
        for name in ["udiv_loop", "sdiv_loop", "sdiv_nsw"] {
            assert_eq!(divides(name), 0, "{}", dsp_mir::print::function(&m, func(&module, name)));
        }
        assert!(divides("sdiv_may_be_negative") > 0);
        assert!(divides("udiv_by_sum") > 0);
    }
}

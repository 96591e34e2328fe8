//! dsp-reverse-carry on clang's -O2 IR of the Gold–Rader bit reversal: the
//! closed form's arithmetic against the loop it replaces (every counter
//! value, every power-of-two bit), the versioned nest, and the carry loops
//! left alone with their reasons. The C programs of `tests/c/bit_reverse.c`
//! check the compiled result against the host at every -O level.

use super::*;
use crate::testutil::TestModule;

/// The carry loop as clang leaves it: `b = n; do { b >>= 1; t = j & b; j ^= b; } while (t)`.
fn carry_loop(j0: u32, n: u32, arithmetic: bool) -> u32 {
    let (mut b, mut j) = (n, j0);
    loop {
        b = if arithmetic { ((b as i32) >> 1) as u32 } else { b >> 1 };
        let t = j & b;
        j ^= b;
        if t == 0 {
            return j;
        }
    }
}

/// The closed form, step for step as [`closed_form`] builds it.
fn closed(j0: u32, n: u32, arithmetic: bool) -> u32 {
    let h = if arithmetic { ((n as i32) >> 1) as u32 } else { n >> 1 };
    let walked = if h == 0 { 0 } else { (h << 1).wrapping_add(u32::MAX) };
    let a = j0 ^ walked;
    let z = (a & walked) | 1;
    a ^ (0x7fff_ffffu32 >> z.leading_zeros())
}

#[test]
fn the_closed_form_is_the_carry_for_every_counter_and_power_of_two() {
    for arithmetic in [false, true] {
        // n >> 1 zero or a power of two (the guard), odd n included.
        let mut ns = vec![0u32, 1];
        for p in 1..32 {
            ns.push(1 << p);
            ns.push((1 << p) | 1);
        }
        for &n in &ns {
            let h = if arithmetic { ((n as i32) >> 1) as u32 } else { n >> 1 };
            if h & h.wrapping_sub(1) != 0 {
                // The guard sends these to the loop (a negative n, shifted arithmetically).
                assert!(arithmetic && (n as i32) < 0, "n={n:#x}");
                continue;
            }
            let mut js: Vec<u32> = (0..4096).collect();
            js.extend([u32::MAX, 0x8000_0000, 0x7fff_ffff, 0xdead_beef, n, n.wrapping_sub(1), h, h.wrapping_sub(1)]);
            for &j in &js {
                assert_eq!(closed(j, n, arithmetic), carry_loop(j, n, arithmetic), "j={j:#x} n={n:#x} ashr={arithmetic}");
            }
        }
    }
    // The bit-reversed count itself: 0, n/2, n/4, 3n/4, ... for n = 16.
    let mut j = 0;
    let seq: Vec<u32> = (1..16)
        .map(|_| {
            j = closed(j, 16, false);
            j
        })
        .collect();
    assert_eq!(seq, [8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15]);
}

/// clang -O2's IR of the bit reversal of a complex array (two float arrays).
pub(crate) const BITREV: &str = r#"
target datalayout = "e-p:32:32-i64:64-n32"
define void @bitrev(ptr noalias %xr, ptr noalias %xi, i32 %n) {
entry:
  %go = icmp sgt i32 %n, 1
  br i1 %go, label %o.ph, label %done
o.ph:
  br label %o
o:
  %i = phi i32 [ %i1, %o.l ], [ 1, %o.ph ]
  %j = phi i32 [ %jn, %o.l ], [ 0, %o.ph ]
  br label %c
c:
  %b = phi i32 [ %bn, %c ], [ %n, %o ]
  %jc = phi i32 [ %jn, %c ], [ %j, %o ]
  %bn = lshr i32 %b, 1
  %t = and i32 %jc, %bn
  %z = icmp eq i32 %t, 0
  %jn = xor i32 %jc, %bn
  br i1 %z, label %c.x, label %c
c.x:
  %lt = icmp slt i32 %i, %jn
  br i1 %lt, label %sw, label %o.l
sw:
  %pi = getelementptr inbounds float, ptr %xr, i32 %i
  %a = load float, ptr %pi, align 4
  %pj = getelementptr inbounds float, ptr %xr, i32 %jn
  %bv = load float, ptr %pj, align 4
  store float %bv, ptr %pi, align 4
  store float %a, ptr %pj, align 4
  %qi = getelementptr inbounds float, ptr %xi, i32 %i
  %c1 = load float, ptr %qi, align 4
  %qj = getelementptr inbounds float, ptr %xi, i32 %jn
  %d1 = load float, ptr %qj, align 4
  store float %d1, ptr %qi, align 4
  store float %c1, ptr %qj, align 4
  br label %o.l
o.l:
  %i1 = add nuw nsw i32 %i, 1
  %e = icmp eq i32 %i1, %n
  br i1 %e, label %o.x, label %o
o.x:
  br label %done
done:
  ret void
}
"#;

fn run_on(src: &str, isa: &str) -> (bool, Vec<Remark>, String) {
    let t = TestModule::parse(src);
    let m = isa_tablegen::Machine::load(isa).unwrap();
    let (changed, remarks) = run(t.m, &Caps::new(&m));
    let text = t.text();
    ir::verify(t.m).unwrap_or_else(|e| panic!("{e}\n{text}"));
    (changed, remarks, text)
}

#[test]
fn the_bit_reversal_loop_is_versioned_with_the_closed_form() {
    let (changed, remarks, text) = run_on(BITREV, "ftm");
    assert!(changed, "{text}");
    assert_eq!(remarks.len(), 1);
    assert_eq!(remarks[0].kind, RemarkKind::Passed, "{}", remarks[0].msg);
    // One carry loop left (the original, for other n), one closed form.
    assert_eq!(text.matches("call i32 @llvm.ctlz.i32").count(), 1, "{text}");
    assert_eq!(text.matches("= lshr i32 %b, 1").count(), 1, "{text}");
    // The guard: (n >> 1) & ((n >> 1) - 1) == 0 picks the clone.
    assert!(text.contains("br i1 %") && text.contains(".cf"), "{text}");
    // The clone is one loop whose body branches only around the swap: no inner loop.
    assert!(text.lines().any(|l| l.starts_with("o.cf:")), "no clone of the outer header:\n{text}");
    assert!(!text.contains("c.cf:"), "the carry loop is not cloned:\n{text}");
}

#[test]
fn carry_loops_of_other_shapes_are_left_alone_with_reasons() {
    // Not the carry's shape: no remark. The loop sets the bit (j |= b), or
    // leaves while the bit is set.
    let or = BITREV.replace("%jn = xor i32 %jc, %bn", "%jn = or i32 %jc, %bn");
    let ne = BITREV.replace("br i1 %z, label %c.x, label %c", "br i1 %z, label %c, label %c.x");
    for other in [or, ne] {
        let (changed, remarks, _) = run_on(&other, "ftm");
        assert!(!changed && remarks.is_empty(), "{remarks:?}");
    }
    // The first bit changes from one outer iteration to the next.
    let moving = BITREV.replace("[ %n, %o ]", "[ %i, %o ]");
    let (changed, remarks, _) = run_on(&moving, "ftm");
    assert!(!changed);
    assert!(remarks[0].msg.contains("first bit changes"), "{}", remarks[0].msg);
    // The counter is used after the outer loop: a phi of both versions in its exit.
    let after = BITREV.replace("o.x:\n  br label %done\ndone:\n  ret void", "o.x:\n  br label %done\ndone:\n  %r = phi i32 [ %jn, %o.x ], [ 0, %entry ]\n  ret void");
    let after = after.replace("define void @bitrev", "define i32 @bitrev").replace("  ret void", "  ret i32 %r");
    let (changed, remarks, text) = run_on(&after, "ftm");
    assert!(changed, "{text}");
    assert_eq!(remarks[0].kind, RemarkKind::Passed, "{}", remarks[0].msg);
    // A phi of the loop (a count of the swaps) used after it, through a
    // block after its exit: the clone's phi, rebuilt, is what the exit's
    // merging phi takes (a freed first clone made it take itself).
    let count = BITREV
        .replace("  %j = phi i32 [ %jn, %o.l ], [ 0, %o.ph ]\n", "  %j = phi i32 [ %jn, %o.l ], [ 0, %o.ph ]\n  %s = phi i32 [ %s1, %o.l ], [ 0, %o.ph ]\n")
        .replace("  br label %o.l\no.l:\n", "  %s0 = add nsw i32 %s, 1\n  br label %o.l\no.l:\n  %s1 = phi i32 [ %s0, %sw ], [ %s, %c.x ]\n")
        .replace("done:\n  ret void", "done:\n  %r = phi i32 [ %s1, %o.x ], [ 0, %entry ]\n  ret i32 %r")
        .replace("define void @bitrev", "define i32 @bitrev");
    let (changed, remarks, text) = run_on(&count, "ftm");
    assert!(changed, "{text}");
    assert_eq!(remarks[0].kind, RemarkKind::Passed, "{}", remarks[0].msg);
    let merge = text.lines().find(|l| l.contains("= phi i32 [ %s1,")).unwrap_or_else(|| panic!("no merging phi:\n{text}"));
    assert!(!merge.contains("%s1, ") || merge.matches("%s1").count() == 1, "{merge}\n{text}");
    // The shifted bit is used after the carry loop.
    let used = BITREV.replace("%lt = icmp slt i32 %i, %jn", "%lt = icmp slt i32 %i, %bn");
    let (changed, remarks, _) = run_on(&used, "ftm");
    assert!(!changed);
    assert!(remarks[0].msg.contains("used after it"), "{}", remarks[0].msg);
}

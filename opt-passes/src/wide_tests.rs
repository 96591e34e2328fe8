//! Tests of `dsp-split-wide-ints`: the limb arithmetic against `u128`, and
//! the loads and stores it produces.

use crate::testutil::*;

/// IR building `%NAME` of type iW from a u128 (as two i64 halves).
fn make(name: &str, w: u32, v: u128) -> String {
    let (lo, hi) = (v as u64 as i64, (v >> 64) as u64 as i64);
    format!(
        "  %{name}.lo = zext i64 {lo} to i{w}\n  %{name}.hx = zext i64 {hi} to i{w}\n  %{name}.hi = shl i{w} %{name}.hx, 64\n  %{name} = or i{w} %{name}.lo, %{name}.hi\n"
    )
}

/// Returns `%r` (iW) as its two 64-bit halves.
fn ret_pair(w: u32) -> String {
    format!(
        "  %r.lo = trunc i{w} %r to i64\n  %r.s = lshr i{w} %r, 64\n  %r.hi = trunc i{w} %r.s to i64\n  %p0 = insertvalue {{i64, i64}} poison, i64 %r.lo, 0\n  %p1 = insertvalue {{i64, i64}} %p0, i64 %r.hi, 1\n  ret {{i64, i64}} %p1\n"
    )
}

fn pair(v: Vec<i64>) -> u128 {
    (v[0] as u64 as u128) | ((v[1] as u64 as u128) << 64)
}

fn mask(w: u32) -> u128 {
    if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}

fn sext(v: u128, w: u32) -> i128 {
    ((v << (128 - w)) as i128) >> (128 - w)
}

const SAMPLES: [u128; 6] = [
    0,
    1,
    0x8000_0000_0000_0000_0000_0000_0000_0000,
    0x0123_4567_89ab_cdef_fedc_ba98_7654_3210,
    u128::MAX,
    0xffff_ffff_0000_0001_8000_0000_7fff_ffff,
];

#[test]
fn arithmetic_logic_and_shifts_match_u128() {
    for w in [72u32, 80, 100, 127] {
        for &x in &SAMPLES {
            for &y in &SAMPLES[2..] {
                let (a, b) = (x & mask(w), (y.rotate_left(w)) & mask(w));
                let mut cases: Vec<(String, u128)> = vec![
                    ("and".into(), a & b),
                    ("or".into(), a | b),
                    ("xor".into(), a ^ b),
                    ("add".into(), a.wrapping_add(b) & mask(w)),
                    ("sub".into(), a.wrapping_sub(b) & mask(w)),
                ];
                for c in [0u32, 1, 31, 32, 33, 64, w - 1] {
                    cases.push((format!("shl:{c}"), (a << c) & mask(w)));
                    cases.push((format!("lshr:{c}"), a >> c));
                    cases.push((format!("ashr:{c}"), ((sext(a, w) >> c) as u128) & mask(w)));
                }
                for (op, want) in cases {
                    let body = match op.split_once(':') {
                        Some((sh, c)) => format!("  %r = {sh} i{w} %a, {c}\n"),
                        None => format!("  %r = {op} i{w} %a, %b\n"),
                    };
                    let src = format!(
                        "define {{i64, i64}} @f() {{\n{}{}{body}{}}}\n",
                        make("a", w, a),
                        make("b", w, b),
                        ret_pair(w)
                    );
                    let got = pair(eval_ret("dsp-split-wide-ints", &src, "ftm"));
                    assert_eq!(got, want, "i{w} {op} {a:#x} {b:#x}");
                }
            }
        }
    }
}

#[test]
fn compares_extensions_and_truncations_match_u128() {
    let w = 80;
    for &x in &SAMPLES {
        for &y in &SAMPLES {
            let (a, b) = (x & mask(w), (y >> 3) & mask(w));
            let (sa, sb) = (sext(a, w), sext(b, w));
            for (pred, want) in [
                ("eq", a == b),
                ("ne", a != b),
                ("ult", a < b),
                ("ule", a <= b),
                ("ugt", a > b),
                ("uge", a >= b),
                ("slt", sa < sb),
                ("sle", sa <= sb),
                ("sgt", sa > sb),
                ("sge", sa >= sb),
            ] {
                let src = format!(
                    "define i1 @f() {{\n{}{}  %r = icmp {pred} i{w} %a, %b\n  ret i1 %r\n}}\n",
                    make("a", w, a),
                    make("b", w, b)
                );
                assert_eq!(
                    eval_ret("dsp-split-wide-ints", &src, "ftm")[0] != 0,
                    want,
                    "icmp {pred} {a:#x} {b:#x}"
                );
            }
        }
        // trunc to 17, 32, 40 and 64 bits; sext/zext from i40 and i64; wide-to-wide.
        let a = x & mask(w);
        for to in [17u32, 32, 40, 64] {
            let src = format!(
                "define i{to} @f() {{\n{}  %r = trunc i{w} %a to i{to}\n  ret i{to} %r\n}}\n",
                make("a", w, a)
            );
            let got = eval_ret("dsp-split-wide-ints", &src, "ftm")[0] as u64 as u128;
            assert_eq!(got & mask(to), a & mask(to), "trunc to i{to}");
        }
        let v40 = (x as u64) & ((1 << 40) - 1);
        let src = format!(
            "define {{i64, i64}} @f() {{\n  %r = sext i40 {} to i{w}\n{}}}\n",
            v40 as i64,
            ret_pair(w)
        );
        assert_eq!(
            pair(eval_ret("dsp-split-wide-ints", &src, "ftm")),
            (sext(v40 as u128, 40) as u128) & mask(w)
        );
        let src = format!(
            "define {{i64, i64}} @f() {{\n  %r = zext i64 {} to i{w}\n{}}}\n",
            x as u64 as i64,
            ret_pair(w)
        );
        assert_eq!(
            pair(eval_ret("dsp-split-wide-ints", &src, "ftm")),
            (x as u64) as u128
        );
        let src = format!("define {{i64, i64}} @f() {{\n{}  %t = trunc i{w} %a to i72\n  %r = sext i72 %t to i{w}\n{}}}\n", make("a", w, a), ret_pair(w));
        assert_eq!(
            pair(eval_ret("dsp-split-wide-ints", &src, "ftm")),
            (sext(a & mask(72), 72) as u128) & mask(w)
        );
    }
}

#[test]
fn loads_and_stores_touch_exactly_the_store_size() {
    // A packed i72 bit-field unit: 9 bytes, byte accesses at align 1.
    let src = "define i32 @g(ptr %p, i32 %v) {\n  %x = load i72, ptr %p, align 1\n  %s = lshr i72 %x, 40\n  %t = trunc i72 %s to i32\n  %z = zext i32 %v to i72\n  %m = and i72 %x, -1099511627776\n  %o = or i72 %m, %z\n  store i72 %o, ptr %p, align 1\n  ret i32 %t\n}\n";
    let out = run_pass_on("dsp-split-wide-ints", src, "ftm");
    assert!(!out.contains("i72"), "{out}");
    assert_eq!(out.matches("load i8").count(), 9, "{out}");
    assert_eq!(out.matches("store i8").count(), 9, "{out}");
    // Aligned i80: two words and a half-word each way.
    let src = "define void @g(ptr %p, ptr %q) {\n  %x = load volatile i80, ptr %p, align 8\n  store volatile i80 %x, ptr %q, align 8\n  ret void\n}\n";
    let out = run_pass_on("dsp-split-wide-ints", src, "ftm");
    check_in_order(
        &out,
        &[
            "load volatile i32, ptr %p, align 8",
            "load volatile i32",
            "align 4",
            "load volatile i16",
            "align 8",
            "store volatile i32",
            "store volatile i32",
            "store volatile i16",
        ],
    );
    assert!(!out.contains("i80"), "{out}");
}

#[test]
fn values_survive_memory_and_phis() {
    for &x in &SAMPLES {
        let w = 100;
        let a = x & mask(w);
        let src = format!(
            "define {{i64, i64}} @f(i1 %c) {{\nentry:\n  %m = alloca [16 x i8], align 4\n{}  store i{w} %a, ptr %m, align 4\n  br i1 %c, label %l, label %e\nl:\n  %x = load i{w}, ptr %m, align 4\n  br label %j\ne:\n  br label %j\nj:\n  %r = phi i{w} [ %x, %l ], [ 5, %e ]\n{}}}\n",
            make("a", w, a),
            ret_pair(w)
        )
        .replace("@f(i1 %c)", "@h(i1 %c)");
        let caller = "define {i64, i64} @f() {\n  %v = call {i64, i64} @h(i1 true)\n  ret {i64, i64} %v\n}\n";
        let got = pair(eval_ret_after(
            "dsp-split-wide-ints",
            &format!("{src}{caller}"),
            "ftm",
            "inline,sroa,instcombine,simplifycfg,instcombine",
        ));
        assert_eq!(got, a, "{a:#x}");
    }
}

#[test]
fn unsupported_uses_leave_the_function_alone() {
    let src = "define i80 @g(i80 %a, i80 %b) {\n  %m = mul i80 %a, %b\n  ret i80 %m\n}\n";
    let t = TestModule::parse(src);
    assert!(!super::run(t.m));
    let src = "define void @g(ptr %p, i80 %n) {\n  %x = load i80, ptr %p\n  %s = shl i80 %x, %n\n  store i80 %s, ptr %p\n  ret void\n}\n";
    let t = TestModule::parse(src);
    assert!(!super::run(t.m));
}

//! Unit tests of fixed-point vector selection (`fuse`: widening loads,
//! narrowing stores, multiply-accumulate) and of masked vector memory
//! (`masked`), on every shipped machine.

use dsp_mir::{Function, InstKind};
use isa_tablegen::{Machine, SemOp, Ty};

use crate::tests::{count_sem, func, machines, select_c, select_file, vector_flags};
use crate::IselOptions;

/// Machine instructions of `f` with semantics `op.ty`.
fn count_typed(m: &Machine, f: &Function, op: SemOp, ty: Ty) -> usize {
    f.blocks
        .iter()
        .flat_map(|b| &b.insts)
        .filter(|i| matches!(&i.kind, InstKind::Machine { instr, .. } if m.instr(*instr).sem.op == op && m.instr(*instr).sem.ty == Some(ty)))
        .count()
}

const FIR: &str = r#"
typedef short int16_t;
typedef signed char int8_t;
void fir_q15(const int16_t *restrict x, const int16_t *restrict h, int16_t *restrict y, int n) {
    for (int i = 0; i < n; i++) {
        int acc = 0;
        for (int k = 0; k < 16; k++) acc += x[i + k] * h[k];
        y[i] = (int16_t)(acc >> 15);
    }
}
void widen8(const unsigned char *restrict a, int *restrict y, int n) {
    for (int i = 0; i < n; i++) y[i] = a[i] * 5 + y[i];
}
"#;

#[test]
fn q15_fir_uses_widening_loads_narrowing_stores_and_macs() {
    for m in machines() {
        let flags = vector_flags(&m);
        let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
        let module = select_c(&m, "fir-q15", FIR, "-O2", &flags);
        let f = func(&module, "fir_q15");
        assert!(count_typed(&m, f, SemOp::VLoadU, Ty::I16) >= 16, "{}: {}", m.name, dsp_mir::print::function(&m, f));
        assert!(count_typed(&m, f, SemOp::VStoreU, Ty::I16) + count_typed(&m, f, SemOp::VStoreU, Ty::U16) >= 1, "{}", m.name);
        assert!(count_sem(&m, f, SemOp::Mac) >= 15, "{}", m.name);
        // Nothing goes lane by lane (the taps' splats leave dead inserts, removed later).
        assert_eq!(count_sem(&m, f, SemOp::Extract), 0, "{}", m.name);
        let g = func(&module, "widen8");
        assert!(count_typed(&m, g, SemOp::VLoadU, Ty::U8) >= 1, "{}: {}", m.name, dsp_mir::print::function(&m, g));
        assert!(count_sem(&m, g, SemOp::Mac) >= 1, "{}", m.name);
    }
}

/// A loop over `n` elements as one masked iteration per 16·k lanes.
fn masked_loop_ir(lanes: u32) -> String {
    let v = format!("<{lanes} x i32>");
    let mk = format!("<{lanes} x i1>");
    format!(
        r#"
define void @f(ptr %x, ptr %y, i32 %n) {{
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %m = call {mk} @llvm.get.active.lane.mask.v{lanes}i1.i32(i32 %i, i32 %n)
  %px = getelementptr inbounds i32, ptr %x, i32 %i
  %vx = call {v} @llvm.masked.load.v{lanes}i32.p0(ptr %px, i32 4, {mk} %m, {v} poison)
  %py = getelementptr inbounds i32, ptr %y, i32 %i
  %vy = call {v} @llvm.masked.load.v{lanes}i32.p0(ptr %py, i32 4, {mk} %m, {v} %vx)
  %s = add {v} %vx, %vy
  call void @llvm.masked.store.v{lanes}i32.p0({v} %s, ptr %py, i32 4, {mk} %m)
  %i.next = add i32 %i, {lanes}
  %c = icmp ult i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}}
declare {mk} @llvm.get.active.lane.mask.v{lanes}i1.i32(i32, i32)
declare {v} @llvm.masked.load.v{lanes}i32.p0(ptr, i32, {mk}, {v})
declare void @llvm.masked.store.v{lanes}i32.p0({v}, ptr, i32, {mk})
"#
    )
}

#[test]
fn masked_loads_stores_and_lane_masks_use_the_mask_instructions() {
    for m in machines() {
        let lanes = m.vector_lanes(32).unwrap();
        for (chunks, tag) in [(1, "one"), (2, "two")] {
            let ll = std::env::temp_dir().join(format!("dsp-isel-masked-{}-{}-{tag}.ll", std::process::id(), m.name));
            std::fs::write(&ll, masked_loop_ir(lanes * chunks)).unwrap();
            let module = select_file(&m, &ll, &IselOptions::default()).unwrap_or_else(|e| panic!("{}: {e:?}", m.name));
            let f = func(&module, "f");
            let c = chunks as usize;
            assert_eq!(count_sem(&m, f, SemOp::VLoadM), 2 * c, "{}: {}", m.name, dsp_mir::print::function(&m, f));
            assert_eq!(count_sem(&m, f, SemOp::VStoreM), c, "{}", m.name);
            // The passthru of the second load is kept by a select.
            assert_eq!(count_sem(&m, f, SemOp::Select), c, "{}", m.name);
            assert_eq!(count_sem(&m, f, SemOp::Iota), 1, "{}", m.name);
            assert_eq!(count_sem(&m, f, SemOp::Extract) + count_sem(&m, f, SemOp::Insert), 0, "{}", m.name);
            // The second chunk's offset is in the instruction, not added first.
            let offsets: Vec<i64> = f
                .blocks
                .iter()
                .flat_map(|b| &b.insts)
                .filter_map(|i| match &i.kind {
                    dsp_mir::InstKind::Machine { instr, ops, .. } if matches!(m.instr(*instr).sem.op, SemOp::VLoadM | SemOp::VStoreM) => {
                        match ops[m.instr(*instr).sem.args[1].0] {
                            dsp_mir::Operand::Imm(o) => Some(o),
                            _ => None,
                        }
                    }
                    _ => None,
                })
                .collect();
            let bytes = lanes as i64 * 4;
            assert_eq!(offsets.iter().filter(|&&o| o == bytes).count(), 3 * (c - 1), "{}: {offsets:?}", m.name);
        }
    }
}

/// Lane-mask arithmetic as the function vectorizer emits it: a splat of a
/// scalar condition, a select of masks, and/xor of masks, and an any-lane test.
fn mask_logic_ir(lanes: u32) -> String {
    let v = format!("<{lanes} x i32>");
    let mk = format!("<{lanes} x i1>");
    format!(
        r#"
define {v} @f({v} %x, {v} %y, i32 %k) {{
entry:
  br label %loop
loop:
  %live = phi {mk} [ zeroinitializer, %entry ], [ %next, %loop ]
  %acc = phi {v} [ %x, %entry ], [ %acc2, %loop ]
  %c = icmp slt i32 %k, 7
  %ins = insertelement {mk} poison, i1 %c, i32 0
  %splat = shufflevector {mk} %ins, {mk} poison, <{lanes} x i32> zeroinitializer
  %lt = icmp slt {v} %acc, %y
  %sel = select {mk} %lt, {mk} %splat, {mk} zeroinitializer
  %flip = xor {mk} %sel, %lt
  %next = and {mk} %flip, %live
  %acc2 = add {v} %acc, %x
  %any = call i1 @llvm.vector.reduce.or.v{lanes}i1({mk} %next)
  br i1 %any, label %loop, label %exit
exit:
  ret {v} %acc2
}}
declare i1 @llvm.vector.reduce.or.v{lanes}i1({mk})
"#
    )
}

#[test]
fn lane_masks_stay_in_mask_registers() {
    for m in machines() {
        let lanes = m.vector_lanes(32).unwrap();
        let ll = std::env::temp_dir().join(format!("dsp-isel-masklogic-{}-{}.ll", std::process::id(), m.name));
        std::fs::write(&ll, mask_logic_ir(lanes)).unwrap();
        let module = select_file(&m, &ll, &IselOptions::default()).unwrap_or_else(|e| panic!("{}: {e:?}", m.name));
        let f = func(&module, "f");
        let text = dsp_mir::print::function(&m, f);
        // No lane is taken out of a mask one by one: no per-lane shifts of a mask's bits.
        assert!(count_sem(&m, f, SemOp::Shr) <= 1, "{}: {text}", m.name);
        assert!(count_sem(&m, f, SemOp::Extract) + count_sem(&m, f, SemOp::Insert) == 0, "{}: {text}", m.name);
        let blocks_insts: usize = f.blocks.iter().map(|b| b.insts.len()).sum();
        assert!(blocks_insts < 40, "{}: {blocks_insts} instructions\n{text}", m.name);
    }
}

/// A gather and a scatter of 32-bit elements, under a mask and unmasked.
fn gather_ir(lanes: u32) -> String {
    let v = format!("<{lanes} x float>");
    let p = format!("<{lanes} x ptr>");
    let mk = format!("<{lanes} x i1>");
    format!(
        r#"
define {v} @f({p} %ptrs, {v} %x) {{
  %m = fcmp ogt {v} %x, zeroinitializer
  %a = call {v} @llvm.masked.gather.v{lanes}f32.v{lanes}p0({p} %ptrs, i32 4, {mk} %m, {v} %x)
  call void @llvm.masked.scatter.v{lanes}f32.v{lanes}p0({v} %a, {p} %ptrs, i32 4, {mk} %m)
  %ones = insertelement {mk} poison, i1 true, i32 0
  %all = shufflevector {mk} %ones, {mk} poison, <{lanes} x i32> zeroinitializer
  %b = call {v} @llvm.masked.gather.v{lanes}f32.v{lanes}p0({p} %ptrs, i32 4, {mk} %all, {v} poison)
  ret {v} %b
}}
declare {v} @llvm.masked.gather.v{lanes}f32.v{lanes}p0({p}, i32, {mk}, {v})
declare void @llvm.masked.scatter.v{lanes}f32.v{lanes}p0({v}, {p}, i32, {mk})
"#
    )
}

#[test]
fn gathers_and_scatters_use_the_machine_instructions() {
    for m in machines() {
        if !m.instrs.iter().any(|i| i.sem.op == SemOp::Gather) {
            continue;
        }
        let lanes = m.vector_lanes(32).unwrap();
        let ll = std::env::temp_dir().join(format!("dsp-isel-gather-{}-{}.ll", std::process::id(), m.name));
        std::fs::write(&ll, gather_ir(lanes)).unwrap();
        let module = select_file(&m, &ll, &IselOptions::default()).unwrap_or_else(|e| panic!("{}: {e:?}", m.name));
        let f = func(&module, "f");
        let text = dsp_mir::print::function(&m, f);
        assert_eq!(count_sem(&m, f, SemOp::Gather), 2, "{}: {text}", m.name);
        assert_eq!(count_sem(&m, f, SemOp::Scatter), 1, "{}: {text}", m.name);
        assert!(count_sem(&m, f, SemOp::Extract) + count_sem(&m, f, SemOp::Insert) == 0, "{}: {text}", m.name);
    }
}

/// A vector of addresses as dsp-wfv writes a strided access: a broadcast
/// base plus (x + <0, 1, …>) · n, as a vector GEP.
fn vector_gep_ir(lanes: u32) -> String {
    let iota: Vec<String> = (0..lanes).map(|k| format!("i32 {k}")).collect();
    format!(
        r#"
define <{lanes} x i32> @f(ptr %base, i32 %x, i32 %n) {{
  %nv0 = insertelement <{lanes} x i32> poison, i32 %n, i32 0
  %nv = shufflevector <{lanes} x i32> %nv0, <{lanes} x i32> poison, <{lanes} x i32> zeroinitializer
  %xv0 = insertelement <{lanes} x i32> poison, i32 %x, i32 0
  %xv = shufflevector <{lanes} x i32> %xv0, <{lanes} x i32> poison, <{lanes} x i32> zeroinitializer
  %lane = add <{lanes} x i32> %xv, <{iota}>
  %idx = mul <{lanes} x i32> %nv, %lane
  %b0 = insertelement <{lanes} x ptr> poison, ptr %base, i32 0
  %b = shufflevector <{lanes} x ptr> %b0, <{lanes} x ptr> poison, <{lanes} x i32> zeroinitializer
  %p = getelementptr i32, <{lanes} x ptr> %b, <{lanes} x i32> %idx
  %v = call <{lanes} x i32> @llvm.masked.gather.v{lanes}i32.v{lanes}p0(<{lanes} x ptr> %p, i32 4, <{lanes} x i1> splat (i1 true), <{lanes} x i32> poison)
  ret <{lanes} x i32> %v
}}
declare <{lanes} x i32> @llvm.masked.gather.v{lanes}i32.v{lanes}p0(<{lanes} x ptr>, i32, <{lanes} x i1>, <{lanes} x i32>)
"#,
        iota = iota.join(", ")
    )
}

#[test]
fn vector_addresses_and_lane_numbers_stay_in_vector_registers() {
    for m in machines() {
        if !m.instrs.iter().any(|i| i.sem.op == SemOp::Gather) {
            continue;
        }
        let lanes = m.vector_lanes(32).unwrap();
        let ll = std::env::temp_dir().join(format!("dsp-isel-vgep-{}-{}.ll", std::process::id(), m.name));
        std::fs::write(&ll, vector_gep_ir(lanes)).unwrap();
        let module = select_file(&m, &ll, &IselOptions::default()).unwrap_or_else(|e| panic!("{}: {e:?}", m.name));
        let f = func(&module, "f");
        let text = dsp_mir::print::function(&m, f);
        assert_eq!(count_sem(&m, f, SemOp::Iota), 1, "{}: {text}", m.name);
        assert_eq!(count_sem(&m, f, SemOp::Extract) + count_sem(&m, f, SemOp::Insert), 0, "{}: {text}", m.name);
        assert_eq!(count_sem(&m, f, SemOp::Store), 0, "no constant through the stack: {}: {text}", m.name);
    }
}

#[test]
fn a_strided_load_with_every_lane_on_is_the_machines_strided_load() {
    for m in machines() {
        if !m.instrs.iter().any(|i| i.sem.op == SemOp::VLoadS) {
            continue;
        }
        let lanes = m.vector_lanes(32).unwrap();
        // Twice the lanes: two registers, the second `lanes` strides on.
        for (n, loads) in [(lanes, 1), (2 * lanes, 2)] {
            let ir = format!(
                r#"
define void @f(ptr %base, i32 %stride, ptr %out) {{
  %v = call <{n} x float> @llvm.experimental.vp.strided.load.v{n}f32.p0.i32(ptr %base, i32 %stride, <{n} x i1> splat (i1 true), i32 {n})
  store <{n} x float> %v, ptr %out, align 4
  ret void
}}
declare <{n} x float> @llvm.experimental.vp.strided.load.v{n}f32.p0.i32(ptr, i32, <{n} x i1>, i32)
"#
            );
            let ll = std::env::temp_dir().join(format!("dsp-isel-vlds-{}-{}-{n}.ll", std::process::id(), m.name));
            std::fs::write(&ll, ir).unwrap();
            let module = select_file(&m, &ll, &IselOptions::default()).unwrap_or_else(|e| panic!("{}: {e:?}", m.name));
            let f = func(&module, "f");
            let text = dsp_mir::print::function(&m, f);
            assert_eq!(count_sem(&m, f, SemOp::VLoadS), loads, "{}: {text}", m.name);
            assert_eq!(count_sem(&m, f, SemOp::Gather), 0, "{}: {text}", m.name);
        }
    }
}

#[test]
fn a_strided_store_with_every_lane_on_is_the_machines_strided_store() {
    for m in machines() {
        if !m.instrs.iter().any(|i| i.sem.op == SemOp::VStoreS) {
            continue;
        }
        let lanes = m.vector_lanes(32).unwrap();
        // Twice the lanes: two registers, the second `lanes` strides on.
        for (n, stores) in [(lanes, 1), (2 * lanes, 2)] {
            let ir = format!(
                r#"
define void @f(ptr %base, i32 %stride, ptr %in) {{
  %v = load <{n} x float>, ptr %in, align 4
  call void @llvm.experimental.vp.strided.store.v{n}f32.p0.i32(<{n} x float> %v, ptr %base, i32 %stride, <{n} x i1> splat (i1 true), i32 {n})
  ret void
}}
declare void @llvm.experimental.vp.strided.store.v{n}f32.p0.i32(<{n} x float>, ptr, i32, <{n} x i1>, i32)
"#
            );
            let ll = std::env::temp_dir().join(format!("dsp-isel-vsts-{}-{}-{n}.ll", std::process::id(), m.name));
            std::fs::write(&ll, ir).unwrap();
            let module = select_file(&m, &ll, &IselOptions::default()).unwrap_or_else(|e| panic!("{}: {e:?}", m.name));
            let f = func(&module, "f");
            let text = dsp_mir::print::function(&m, f);
            assert_eq!(count_sem(&m, f, SemOp::VStoreS), stores, "{}: {text}", m.name);
            assert_eq!(count_sem(&m, f, SemOp::Scatter), 0, "{}: {text}", m.name);
        }
    }
}

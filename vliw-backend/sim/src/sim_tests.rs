//! Whole-program tests of instruction semantics on every shipped machine:
//! each program runs to exit and the registers and memory are checked.

use crate::testutil::*;
use crate::Outcome;
use isa_tablegen::Machine;

/// Waits for every pending result, then exits with r4.
fn end(m: &Machine) -> String {
    format!("{}trap 0\n", "nop\n".repeat(m.max_latency() as usize))
}

fn reg(sim: &crate::Sim, name: &str) -> u64 {
    sim.reg(name).unwrap()
}

fn lanes(m: &Machine) -> usize {
    m.regfile(m.regfile_by_name("v").unwrap()).lanes.unwrap().count as usize
}

#[test]
fn smoke_exit_status() {
    for m in machines() {
        let (sim, out) = run(&m, "li r4, 300\ntrap 0\n");
        assert_eq!(out, Outcome::Exit(300 & 0xff), "{}", m.name);
        assert_eq!(sim.cycle, 2);
    }
}

#[test]
fn scalar_integer_ops_wrap_shift_and_compare() {
    for m in machines() {
        let prog = format!(
            "{{ li r5, 0x7fffffff ; li r6, -1 }}
             {{ li r17, 0x80000000 ; li r20, 33 }}
             {{ add r7, r5, r6 ; addi r8, r5, 1 }}
             {{ sltu r9, r6, r5 ; slt r10, r6, r5 }}
             {{ sra r11, r6, r5 ; shr r12, r6, r5 }}
             {{ shl r13, r6, r20 ; shli r14, r6, 31 }}
             mul r15, r5, r5
             mulhi r16, r6, r6
             mulhu r18, r6, r6
             div r19, r17, r6
             rem r21, r17, r6
             {{ sextb r22, r17 ; zexth r23, r6 }}
             {{ plt p1, r6, r5 ; pltu p2, r6, r5 }}
             {{ ptor r24, p1 ; ptor r25, p2 }}
             {{ clz r26, r20 ; popc r27, r6 }}
             {{ bswap r28, r5 ; min r29, r6, r5 }}
             {{ minu r30, r6, r5 ; abs r2, r17 }}
             {{ li r0, 55 ; add r3, r0, r0 }}
             {}",
            end(&m)
        );
        let (sim, out) = run(&m, &prog);
        assert_eq!(out, Outcome::Exit(0), "{}", m.name);
        let expect = [
            ("r7", 0x7fff_fffe),
            ("r8", 0x8000_0000),
            ("r9", 0),
            ("r10", 1),
            ("r11", 0xffff_ffff),
            ("r12", 1),
            ("r13", 0xffff_fffe),
            ("r14", 0x8000_0000),
            ("r15", 1),
            ("r16", 0),
            ("r18", 0xffff_fffe),
            ("r19", 0x8000_0000),
            ("r21", 0),
            ("r22", 0),
            ("r23", 0xffff),
            ("p1", 1),
            ("p2", 0),
            ("r24", 1),
            ("r25", 0),
            ("r26", 26),
            ("r27", 32),
            ("r28", 0xffff_ff7f),
            ("r29", 0xffff_ffff),
            ("r30", 0x7fff_ffff),
            ("r2", 0x8000_0000),
            ("r0", 0),
            ("r3", 0),
        ];
        for (r, v) in expect {
            assert_eq!(reg(&sim, r), v, "{}: {r}", m.name);
        }
    }
}

#[test]
fn sixty_four_bit_ops() {
    for m in machines() {
        let prog = format!(
            "{{ li r5, -1 ; li r6, 0x7fffffff }}
             {{ pack d1, r5, r6 ; sext64 d2, r5 }}
             {{ zext64 d3, r5 ; li r7, 1 }}
             add64 d4, d1, d3
             {}
             {{ hi r8, d4 ; lo r9, d4 }}
             {{ plt64 p1, d2, d3 ; pltu64 p2, d2, d3 }}
             {}",
            "nop\n".repeat(lat(&m, "add64") as usize),
            end(&m)
        );
        let (sim, out) = run(&m, &prog);
        assert_eq!(out, Outcome::Exit(0), "{}", m.name);
        assert_eq!(reg(&sim, "d1"), 0x7fff_ffff_ffff_ffff);
        assert_eq!(reg(&sim, "d2"), u64::MAX);
        assert_eq!(reg(&sim, "d3"), 0xffff_ffff);
        assert_eq!(reg(&sim, "d4"), 0x8000_0000_ffff_fffe);
        assert_eq!(reg(&sim, "r8"), 0x8000_0000);
        assert_eq!(reg(&sim, "r9"), 0xffff_fffe);
        assert_eq!(reg(&sim, "p1"), 1);
        assert_eq!(reg(&sim, "p2"), 0);
    }
}

fn f(x: f32) -> u64 {
    x.to_bits() as u64
}

#[test]
fn floats_nan_inf_negzero_cvt_and_fused_mac() {
    let a = 1.0f32 + f32::EPSILON;
    let b = 1.0f32 - f32::EPSILON;
    for m in machines() {
        let prog = format!(
            "{{ li r5, {} ; li r6, {} }}
             {{ li r7, {} ; li r8, {} }}
             {{ li r9, {} ; li r10, {} }}
             {{ li r11, {} ; li r12, {} }}
             fmac r13, r5, r6, r7
             fmul r14, r5, r6
             {}
             fadd r15, r14, r7
             {{ fmin r16, r8, r9 ; fabs r17, r11 }}
             fmax r18, r11, r10
             ftoi r19, r12
             fdiv r20, r9, r10
             pfeq p1, r8, r8
             pfne p2, r8, r8
             pfun p3, r8, r9
             pflt p4, r11, r10
             itof r21, r6
             ftou r22, r11
             {}",
            f(a),
            f(b),
            f(-1.0),
            f(f32::NAN),
            f(2.5),
            f(0.0),
            f(-0.0),
            f(3e10),
            "nop\n".repeat(lat(&m, "fmul") as usize),
            end(&m)
        );
        let (sim, out) = run(&m, &prog);
        assert_eq!(out, Outcome::Exit(0), "{}", m.name);
        assert_eq!(reg(&sim, "r13"), f(a.mul_add(b, -1.0)), "fused mac");
        assert_eq!(reg(&sim, "r15"), f(0.0), "separate multiply and add");
        assert_ne!(reg(&sim, "r13"), reg(&sim, "r15"));
        assert_eq!(reg(&sim, "r16"), f(2.5), "minNum ignores NaN");
        assert_eq!(reg(&sim, "r17"), f(0.0));
        assert_eq!(reg(&sim, "r18"), f(0.0), "max(-0, +0) = +0");
        assert_eq!(reg(&sim, "r19"), 0x7fff_ffff, "saturating conversion");
        assert_eq!(reg(&sim, "r20"), f(f32::INFINITY));
        assert_eq!(reg(&sim, "p1"), 0);
        assert_eq!(reg(&sim, "p2"), 1);
        assert_eq!(reg(&sim, "p3"), 1);
        assert_eq!(reg(&sim, "p4"), 0, "-0 < +0 is false");
        assert_eq!(reg(&sim, "r21"), f(b.to_bits() as f32));
        assert_eq!(reg(&sim, "r22"), 0);
    }
}

#[test]
fn loads_extend_and_stores_truncate() {
    for m in machines() {
        let data: Vec<u8> = vec![0x80, 0xff, 0x34, 0x12, 0x78, 0x56, 0x34, 0x12, 0, 0, 0, 0, 0, 0, 0, 0];
        let prog = format!(
            "li r5, buf
             {{ ldb r6, r5, 0 ; li r20, 0x11223344 }}
             ldbu r7, r5, 0
             ldh r8, r5, 0
             ldhu r9, r5, 0
             ldw r10, r5, 4
             ldd d1, r5, 0
             stb r20, r5, 8
             sth r20, r5, 10
             {{ stw r20, r5, 12 ; vld v9, r5, 0 }}
             ldw r12, r5, 12
             {}",
            end(&m)
        );
        let (sim, out) = run_cfg(&m, &prog, &[("buf", &data)], Default::default());
        assert_eq!(out, Outcome::Exit(0), "{}", m.name);
        assert_eq!(reg(&sim, "r6"), 0xffff_ff80);
        assert_eq!(reg(&sim, "r7"), 0x80);
        assert_eq!(reg(&sim, "r8"), 0xffff_ff80);
        assert_eq!(reg(&sim, "r9"), 0xff80);
        assert_eq!(reg(&sim, "r10"), 0x1234_5678);
        assert_eq!(reg(&sim, "d1"), 0x1234_5678_1234_ff80);
        assert_eq!(sim.vreg("v9").unwrap()[3], 0, "a load reads memory before the bundle's stores");
        assert_eq!(reg(&sim, "r12"), 0x1122_3344);
        let addr = sim.reg("r5").unwrap() as u32;
        assert_eq!(sim.mem(addr + 8, 8).unwrap(), &[0x44, 0, 0x44, 0x33, 0x44, 0x33, 0x22, 0x11]);
    }
}

#[test]
fn lane_wise_ops_masks_and_scalar_sources() {
    for m in machines() {
        let n = lanes(&m);
        let prog = format!(
            "{{ li r5, 3 ; li r6, 10 }}
             viota v1
             vbcast v2, r5
             {}
             {{ vadd v3, v1, v2 ; vmul v4, v1, v1 }}
             vadds v5, v1, r6
             vclt m1, v1, v2
             {}
             vsel v6, m1, v1, v5
             mnot m2, m1
             {{ mtor r7, m1 ; mand m3, m1, m0 }}
             rtom m4, r6
             vshl v7, v1, r5
             vcle m5, v1, v2
             {}",
            "nop\n".repeat(lat(&m, "vbcast") as usize),
            "nop\n".repeat(lat(&m, "vclt") as usize),
            end(&m)
        );
        let (sim, out) = run(&m, &prog);
        assert_eq!(out, Outcome::Exit(0), "{}", m.name);
        let v = |name| sim.vreg(name).unwrap();
        let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        assert_eq!(v("v1"), (0..n as u64).collect::<Vec<_>>());
        assert_eq!(v("v2"), vec![3; n]);
        assert_eq!(v("v3"), (0..n as u64).map(|i| i + 3).collect::<Vec<_>>());
        assert_eq!(v("v4"), (0..n as u64).map(|i| i * i).collect::<Vec<_>>());
        assert_eq!(v("v5"), (0..n as u64).map(|i| i + 10).collect::<Vec<_>>());
        assert_eq!(reg(&sim, "m1"), 0b111);
        assert_eq!(reg(&sim, "m2"), all & !0b111);
        assert_eq!(reg(&sim, "m0"), all, "m0 reads all lanes");
        assert_eq!(reg(&sim, "m3"), 0b111);
        assert_eq!(reg(&sim, "r7"), 0b111);
        assert_eq!(reg(&sim, "m4"), 10);
        assert_eq!(reg(&sim, "m5"), 0b1111);
        assert_eq!(v("v6"), (0..n as u64).map(|i| if i < 3 { i } else { i + 10 }).collect::<Vec<_>>());
        assert_eq!(v("v7"), (0..n as u64).map(|i| i << 3).collect::<Vec<_>>());
    }
}

#[test]
fn cross_ops_reduce_extract_insert_shuffle() {
    for m in machines() {
        let n = lanes(&m) as u64;
        let prog = format!(
            "{{ li r5, -2 ; li r6, 5 }}
             {{ viota v1 ; li r9, 77 }}
             vbcast v2, r5
             {}
             {{ vadd v3, v1, v2 }}
             vradd r7, v3
             vrmin r8, v3
             vrmax r10, v3
             vaadd v4, v3
             vext r11, v3, r6
             vmov v5, v3
             vins v5, r9, r6
             vsub v6, v2, v1
             vshuf v7, v3, v6
             {}",
            "nop\n".repeat(lat(&m, "vbcast") as usize),
            end(&m)
        );
        let (sim, out) = run(&m, &prog);
        assert_eq!(out, Outcome::Exit(0), "{}", m.name);
        let v3: Vec<u64> = (0..n).map(|i| (i as i64 - 2) as u32 as u64).collect();
        let sum: i64 = (0..n as i64).map(|i| i - 2).sum();
        assert_eq!(sim.vreg("v3").unwrap(), v3);
        assert_eq!(reg(&sim, "r7"), sum as u32 as u64);
        assert_eq!(reg(&sim, "r8"), (-2i32) as u32 as u64);
        assert_eq!(reg(&sim, "r10"), n - 3);
        assert_eq!(sim.vreg("v4").unwrap(), vec![sum as u32 as u64; n as usize]);
        assert_eq!(reg(&sim, "r11"), 3);
        let mut v5 = v3.clone();
        v5[5] = 77;
        assert_eq!(sim.vreg("v5").unwrap(), v5);
        // v6[i] = -2 - i; shuffle index (-2 - i) mod lanes.
        let v7: Vec<u64> = (0..n).map(|i| v3[((u32::MAX as u64 - 1 - i) % n) as usize]).collect();
        assert_eq!(sim.vreg("v7").unwrap(), v7);
    }
}

#[test]
fn vector_memory_aligned_strided_masked_gather_scatter() {
    for m in machines() {
        let n = lanes(&m);
        let data: Vec<u8> = (0..4 * n as u32 * 4).flat_map(|i| i.to_le_bytes()).collect();
        let prog = format!(
            "{{ li r5, buf ; li r6, 8 }}
             {{ li r7, out ; li r8, 0x55555555 }}
             li r10, out+{}
             vld v1, r5, 0
             vlds v2, r5, r6
             viota v3
             rtom m1, r8
             {}
             vadd v4, v3, v3
             vgath v5, r5, v4
             vst v1, r7, 0
             vstm v3, r7, {}, m1
             vscat v3, r10, v4
             {}",
            8 * n,
            "nop\n".repeat(lat(&m, "vld") as usize),
            4 * n,
            end(&m)
        );
        let (sim, out) = run_cfg(&m, &prog, &[("buf", &data), ("out", &vec![0xee; 16 * n])], Default::default());
        assert_eq!(out, Outcome::Exit(0), "{}", m.name);
        let nn = n as u64;
        assert_eq!(sim.vreg("v1").unwrap(), (0..nn).collect::<Vec<_>>());
        assert_eq!(sim.vreg("v2").unwrap(), (0..nn).map(|i| 2 * i).collect::<Vec<_>>());
        assert_eq!(sim.vreg("v5").unwrap(), (0..nn).map(|i| 2 * i).collect::<Vec<_>>());
        let out_addr = reg(&sim, "r7") as u32;
        let word = |k: u32| u32::from_le_bytes(sim.mem(out_addr + 4 * k, 4).unwrap().try_into().unwrap());
        for k in 0..n as u32 {
            assert_eq!(word(k), k, "{}: vst out[{k}]", m.name);
        }
        // The scatter wrote lane i (value i) at index 2i.
        for k in 0..2 * n as u32 {
            let expect = if k % 2 == 0 { k / 2 } else { 0xeeee_eeee };
            assert_eq!(word(2 * n as u32 + k), expect, "{}: scattered out[{k}]", m.name);
        }
        // The masked store wrote only even lanes of the second block.
        for k in 0..n as u32 {
            let expect = if k % 2 == 0 { k } else { 0xeeee_eeee };
            assert_eq!(word(n as u32 + k), expect, "{}: masked out[{k}]", m.name);
        }
    }
}

#[test]
fn narrow_vector_loads_extend_stores_truncate_and_masked_loads_skip_lanes() {
    for m in machines() {
        let n = lanes(&m);
        // Halfwords -3000·i - 1 (negative, so the extensions differ).
        let halves: Vec<i16> = (0..n as i16).map(|i| -3000 * i - 1).collect();
        let data: Vec<u8> = halves.iter().flat_map(|h| h.to_le_bytes()).collect();
        let end_of_memory = m.memory.base as u64 + m.memory.size as u64 - 4;
        let prog = format!(
            "{{ li r5, buf ; li r7, out }}
             {{ li r8, 0x5 ; li r9, {end_of_memory} }}
             {{ li r10, 1 }}
             vldh v1, r5, 0
             vldhu v2, r5, 0
             vldb v3, r5, 0
             vldbu v4, r5, 0
             rtom m1, r8
             rtom m2, r10
             vldm v5, r5, 0, m1
             vldm v6, r9, 0, m2
             vldmh v7, r5, 0, m1
             {}
             vsth v1, r7, 0
             vstb v1, r7, {}
             vstmh v1, r7, {}, m1
             {}",
            "nop\n".repeat(lat(&m, "vldmh") as usize),
            2 * n,
            3 * n,
            end(&m)
        );
        let (sim, out) = run_cfg(&m, &prog, &[("buf", &data), ("out", &vec![0xee; 6 * n])], Default::default());
        assert_eq!(out, Outcome::Exit(0), "{}", m.name);
        let mask32 = |x: i64| x as u64 & 0xffff_ffff;
        assert_eq!(sim.vreg("v1").unwrap(), halves.iter().map(|&h| mask32(h as i64)).collect::<Vec<_>>());
        assert_eq!(sim.vreg("v2").unwrap(), halves.iter().map(|&h| h as u16 as u64).collect::<Vec<_>>());
        assert_eq!(sim.vreg("v3").unwrap(), data[..n].iter().map(|&b| mask32(b as i8 as i64)).collect::<Vec<_>>());
        assert_eq!(sim.vreg("v4").unwrap(), data[..n].iter().map(|&b| b as u64).collect::<Vec<_>>());
        let buf_word = |k: usize| u32::from_le_bytes(data[4 * k..4 * k + 4].try_into().unwrap()) as u64;
        let v5: Vec<u64> = (0..n).map(|k| if k == 0 || k == 2 { buf_word(k) } else { 0 }).collect();
        assert_eq!(sim.vreg("v5").unwrap(), v5, "{}: masked load", m.name);
        assert_eq!(sim.vreg("v6").unwrap()[1..], vec![0; n - 1][..], "{}: lanes past the end of memory", m.name);
        let out_addr = reg(&sim, "r7") as u32;
        assert_eq!(sim.mem(out_addr, 2 * n as u32).unwrap(), &data[..], "{}: vsth", m.name);
        let v7: Vec<u64> = (0..n).map(|k| if k == 0 || k == 2 { mask32(halves[k] as i64) } else { 0 }).collect();
        assert_eq!(sim.vreg("v7").unwrap(), v7, "{}: narrow masked load", m.name);
        let masked_out = sim.mem(out_addr + 3 * n as u32, 2 * n as u32).unwrap();
        for k in 0..n {
            let want = if k == 0 || k == 2 { &data[2 * k..2 * k + 2] } else { &[0xee, 0xee][..] };
            assert_eq!(&masked_out[2 * k..2 * k + 2], want, "{}: narrow masked store lane {k}", m.name);
        }
        let bytes: Vec<u8> = halves.iter().map(|&h| h as u8).collect();
        assert_eq!(sim.mem(out_addr + 2 * n as u32, n as u32).unwrap(), &bytes[..], "{}: vstb", m.name);
    }
}

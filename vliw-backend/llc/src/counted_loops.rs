//! Counted loops in counter form: runs LLVM's hardware-loops pass
//! (`HardwareLoops.cpp`, forced, counter carried through a phi) on the
//! module before instruction selection, so that every countable loop
//! reaches the backend as
//!
//! ```text
//! preheader: %tc     = call i32 @llvm.start.loop.iterations.i32(i32 %n)
//! header:    %c      = phi i32 [ %tc, %preheader ], [ %c.next, %latch ]
//! latch:     %c.next = call i32 @llvm.loop.decrement.reg.i32(i32 %c, i32 1)
//!            %t      = icmp ne i32 %c.next, 0
//!            br i1 %t, label %header, label %exit
//! ```
//!
//! with the trip count computed once at loop entry (SCEV's backedge-taken
//! count + 1, expanded in the preheader). The software pipeliner needs
//! exactly that: the trip count before the loop and a simple counter.
//! Only innermost countable loops are converted (no nested counters), and
//! the counter is 32 bits wide with a step of 1; dsp-isel lowers the two
//! intrinsics to a copy and a subtraction.
//!
//! In the machine IR after selection (`dsp-llc --print-mir`; on ftm, ftm8
//! and ftm32 alike) a single-block loop `bbH` is then exactly
//!
//! ```text
//! bbH:
//!     %c  = phi [bbP: %tc] [bbH: %cn]     (operand order as in the IR)
//!     ...                                 (the body; the old induction
//!                                          variable stays when addresses use it)
//!     addi %cn, %c, -1                    (sem add.i32(ra, imm), imm = -1)
//!     pnei %p, %cn, 0                     (sem ne.i32(ra, imm), imm = 0)
//!     Terminator::Branch { cond: %p, negate: false, taken: bbH, not_taken: exit }
//! ```
//!
//! the decrement and the compare following the rest of the body; only the
//! constants that phis of the successors take from this block (`li`, e.g. a
//! `phi [5, pre], [7, loop]`) are materialized after them, just before the
//! terminator.
//! `%tc` is the trip count (≥ 1, or 0 meaning 2^32), defined before the
//! loop: a `li` for a constant, the argument's copy or the preheader's
//! computation otherwise. In a loop of several blocks the phi is in the
//! header and the decrement, compare and back branch end the latch. Loops
//! with other exits keep them (only the latch exit is counted).
//!
//! The pass runs through the C API's new-pass-manager entry point
//! (`LLVMRunPasses`) without a target machine: with `force-hardware-loops`
//! it never asks the target whether a hardware loop is profitable, and the
//! default cost model is all else it needs.

use inkwell::module::Module as LlvmModule;

/// The pass pipeline: LLVM's hardware-loops pass, forced on every
/// countable innermost loop, with the counter in a phi (the
/// `llvm.start.loop.iterations` / `llvm.loop.decrement.reg` form), a 32-bit
/// counter and a decrement of 1.
pub const PIPELINE: &str = "function(hardware-loops<force-hardware-loops;force-hardware-loop-phi;\
hardware-loop-counter-bitwidth=32;hardware-loop-decrement=1>)";

/// Rewrites every countable innermost loop of `module` into counter form.
/// In debug builds the module is verified afterwards.
pub fn run(module: &LlvmModule) -> Result<(), String> {
    crate::passes::run(module, PIPELINE, std::ptr::null_mut(), "hardware-loops pass")
}

#[cfg(test)]
mod tests {
    use super::*;
    use inkwell::context::Context;
    use inkwell::memory_buffer::MemoryBuffer;

    const LOOP: &str = r#"
define void @scale(ptr %b, ptr %a, i32 %n) {
entry:
  %pos = icmp sgt i32 %n, 0
  br i1 %pos, label %loop, label %exit
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %pa = getelementptr inbounds i32, ptr %a, i32 %i
  %x = load i32, ptr %pa, align 4
  %y = mul i32 %x, 26
  %pb = getelementptr inbounds i32, ptr %b, i32 %i
  store i32 %y, ptr %pb, align 4
  %i1 = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i1, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

define i32 @search(ptr %a) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %pa = getelementptr inbounds i32, ptr %a, i32 %i
  %x = load i32, ptr %pa, align 4
  %i1 = add i32 %i, 1
  %z = icmp eq i32 %x, 0
  br i1 %z, label %exit, label %loop
exit:
  ret i32 %i
}
"#;

    fn module<'c>(ctx: &'c Context, text: &str) -> LlvmModule<'c> {
        let buf = MemoryBuffer::create_from_memory_range_copy(text.as_bytes(), "t.ll");
        ctx.create_module_from_ir(buf).unwrap()
    }

    #[test]
    fn countable_loops_get_a_counter_and_others_do_not() {
        let ctx = Context::create();
        let m = module(&ctx, LOOP);
        run(&m).unwrap();
        m.verify().unwrap();
        let text = m.print_to_string().to_string();
        let scale = &text[text.find("@scale").unwrap()..text.find("@search").unwrap()];
        assert!(scale.contains("call i32 @llvm.start.loop.iterations.i32(i32 %n)"), "{scale}");
        assert!(scale.contains("call i32 @llvm.loop.decrement.reg.i32("), "{scale}");
        assert!(scale.contains("icmp ne i32"), "{scale}");
        let search = &text[text.find("define i32 @search").unwrap()..];
        let search = &search[..search.find("\n}").unwrap()];
        assert!(!search.contains("loop.decrement"), "a search loop has no trip count: {search}");
    }

    #[test]
    fn a_module_without_loops_is_unchanged() {
        let ctx = Context::create();
        let text = "define i32 @f(i32 %x) {\n  %y = add i32 %x, 1\n  ret i32 %y\n}\n";
        let m = module(&ctx, text);
        let before = m.print_to_string().to_string();
        run(&m).unwrap();
        assert_eq!(m.print_to_string().to_string(), before);
    }
}

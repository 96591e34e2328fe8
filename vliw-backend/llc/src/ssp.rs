//! Stack protection (`-fstack-protector`, `-fstack-protector-strong`,
//! `-fstack-protector-all`, which clang records as the function attributes
//! `ssp`, `sspstrong` and `sspreq`): LLVM inserts the guard in its code
//! generator, which this backend replaces, so it is done here on the IR
//! before selection.
//!
//! A protected function gets a canary slot: an `alloca` larger than every
//! other fixed-size `alloca` of the function, because the frame layout
//! (`dsp_regalloc::frame`) places locals by increasing size, so the canary
//! sits above every buffer, between them and the saved registers (the link
//! register among them). The entry block stores `__stack_chk_guard` in its
//! first word; before each `ret` the word is compared with the guard and a
//! mismatch calls `__stack_chk_fail` (runtime `libc/ssp.c`: glibc's message,
//! then abort). Which functions: `sspreq` all; `sspstrong` those with an
//! array or aggregate `alloca`; `ssp` those with a character array of at
//! least "stack-protector-buffer-size" (default 8) bytes.

use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::module::{Linkage, Module};
use inkwell::targets::TargetData;
use inkwell::types::BasicTypeEnum;
use inkwell::values::{BasicValue, FunctionValue, InstructionOpcode, InstructionValue};
use inkwell::AddressSpace;

/// How much protection a function asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Level {
    Ssp,
    Strong,
    All,
}

fn level(f: FunctionValue) -> Option<Level> {
    let has = |name: &str| f.get_enum_attribute(AttributeLoc::Function, Attribute::get_named_enum_kind_id(name)).is_some();
    if has("sspreq") {
        Some(Level::All)
    } else if has("sspstrong") {
        Some(Level::Strong)
    } else if has("ssp") {
        Some(Level::Ssp)
    } else {
        None
    }
}

/// The function's `alloca`s with a constant size: (instruction, type).
fn allocas<'c>(f: FunctionValue<'c>) -> Vec<(InstructionValue<'c>, BasicTypeEnum<'c>)> {
    let mut out = Vec::new();
    for b in f.get_basic_block_iter() {
        for i in b.get_instructions() {
            if i.get_opcode() == InstructionOpcode::Alloca {
                if let Ok(t) = i.get_allocated_type() {
                    out.push((i, t));
                }
            }
        }
    }
    out
}

fn needs_guard(f: FunctionValue, level: Level, locals: &[(InstructionValue, BasicTypeEnum)], td: &TargetData) -> bool {
    match level {
        Level::All => true,
        Level::Strong => locals.iter().any(|(_, t)| t.is_array_type() || t.is_struct_type()),
        Level::Ssp => {
            let min = f
                .get_string_attribute(AttributeLoc::Function, "stack-protector-buffer-size")
                .and_then(|a| a.get_string_value().to_str().ok().and_then(|s| s.parse::<u64>().ok()))
                .unwrap_or(8);
            locals.iter().any(|(_, t)| {
                t.is_array_type()
                    && t.into_array_type().get_element_type().is_int_type()
                    && t.into_array_type().get_element_type().into_int_type().get_bit_width() == 8
                    && td.get_abi_size(t) >= min
            })
        }
    }
}

fn volatile(i: Option<InstructionValue>) -> Result<(), String> {
    match i {
        Some(i) => i.set_volatile(true).map_err(|e| format!("stack protector: {e}")),
        None => Ok(()),
    }
}

/// Inserts the guards in every function that asks for them.
pub fn run(module: &Module) -> Result<(), String> {
    let functions: Vec<FunctionValue> = module.get_functions().filter(|f| f.count_basic_blocks() > 0).collect();
    let wanted: Vec<(FunctionValue, Level)> = functions.iter().filter_map(|&f| level(f).map(|l| (f, l))).collect();
    if wanted.is_empty() {
        return Ok(());
    }
    let ctx = module.get_context();
    let td = TargetData::create(module.get_data_layout().as_str().to_str().map_err(|e| e.to_string())?);
    let i32t = ctx.i32_type();
    let guard = module
        .get_global("__stack_chk_guard")
        .unwrap_or_else(|| {
            let g = module.add_global(i32t, Some(AddressSpace::default()), "__stack_chk_guard");
            g.set_linkage(Linkage::External);
            g
        })
        .as_pointer_value();
    let fail = module.get_function("__stack_chk_fail").unwrap_or_else(|| {
        let f = module.add_function("__stack_chk_fail", ctx.void_type().fn_type(&[], false), Some(Linkage::External));
        f.add_attribute(AttributeLoc::Function, ctx.create_enum_attribute(Attribute::get_named_enum_kind_id("noreturn"), 0));
        f
    });
    let b = ctx.create_builder();
    let err = |e: inkwell::builder::BuilderError| format!("stack protector: {e}");
    for (f, lvl) in wanted {
        let locals = allocas(f);
        if !needs_guard(f, lvl, &locals, &td) {
            continue;
        }
        let largest = locals.iter().map(|(_, t)| td.get_abi_size(t)).max().unwrap_or(0);
        let align = locals.iter().map(|(i, _)| i.get_alignment().unwrap_or(4)).max().unwrap_or(4).max(4);
        let size = (largest + 4).div_ceil(4) * 4;
        let Some(entry) = f.get_first_basic_block() else { continue };
        let Some(first) = entry.get_first_instruction() else { continue };
        b.position_before(&first);
        let slot = b.build_alloca(ctx.i8_type().array_type(size as u32), "ssp.canary").map_err(err)?;
        if let Some(i) = slot.as_instruction() {
            i.set_alignment(align).map_err(|e| format!("stack protector: {e}"))?;
        }
        // The guard is stored after the entry block's allocas.
        let mut at = first;
        while at.get_opcode() == InstructionOpcode::Alloca {
            match at.get_next_instruction() {
                Some(n) => at = n,
                None => break,
            }
        }
        b.position_before(&at);
        let g = b.build_load(i32t, guard, "ssp.guard").map_err(err)?;
        volatile(g.as_instruction_value())?;
        let st = b.build_store(slot, g).map_err(err)?;
        volatile(Some(st))?;
        let rets: Vec<InstructionValue> = f
            .get_basic_block_iter()
            .flat_map(|bb| bb.get_terminator())
            .filter(|t| t.get_opcode() == InstructionOpcode::Return)
            .collect();
        for ret in rets {
            let Some(bb) = ret.get_parent() else { continue };
            b.position_before(&ret);
            let c = b.build_load(i32t, slot, "ssp.check").map_err(err)?;
            volatile(c.as_instruction_value())?;
            let g = b.build_load(i32t, guard, "ssp.guard").map_err(err)?;
            volatile(g.as_instruction_value())?;
            let bad = b.build_int_compare(inkwell::IntPredicate::NE, c.into_int_value(), g.into_int_value(), "ssp.bad").map_err(err)?;
            let ok = ctx.insert_basic_block_after(bb, "ssp.ok");
            let smashed = ctx.insert_basic_block_after(ok, "ssp.fail");
            b.build_conditional_branch(bad, smashed, ok).map_err(err)?;
            // The return moves to its own block.
            ret.remove_from_basic_block();
            b.position_at_end(ok);
            b.insert_instruction(&ret, None);
            b.position_at_end(smashed);
            b.build_call(fail, &[], "").map_err(err)?;
            b.build_unreachable().map_err(err)?;
        }
    }
    Ok(())
}

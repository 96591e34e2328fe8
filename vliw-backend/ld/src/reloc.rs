//! Applying relocations: `R_DSP_32` writes S+A as a 32-bit little-endian
//! word; `R_DSP_IMM` and `R_DSP_PCREL` patch an operation word's immediate
//! or pc-relative operand through `Machine::patch_op` (the pc-relative value
//! is S+A-P in bytes, P the address of the patched operation word).

use dsp_obj::{reloc_name, RelocKind};
use isa_tablegen::Machine;

use crate::layout::{Layout, OutputSection};
use crate::resolve::{Selection, Symbols};
use crate::LinkError;

/// Patches every relocation of the selected objects in the output sections.
/// All errors are collected.
pub fn apply(
    sel: &Selection<'_>,
    machine: &Machine,
    placement: &[Vec<u64>],
    syms: &Symbols,
    outputs: &mut [OutputSection],
) -> Result<(), LinkError> {
    let mut errors = Vec::new();
    let n = machine.op_bytes() as usize;
    for (oi, o) in sel.objects.iter().enumerate() {
        for (si, sec) in o.object.sections.iter().enumerate() {
            if !sel.is_live(oi, si) {
                continue;
            }
            let out = &mut outputs[Layout::output_index(sec.kind)];
            let base = (placement[oi][si] - out.addr as u64) as usize;
            for r in &sec.relocs {
                let sym_name = o
                    .object
                    .symbols
                    .get(r.symbol)
                    .map_or("?", |s| s.name.as_str());
                let at = format!("{}({}+{:#x})", o.name, sec.name, r.offset);
                let what = format!("relocation {} against '{sym_name}'", reloc_name(r.kind));
                let Some(s) = syms.target(sel, placement, oi, r) else {
                    errors.push(format!("{at}: {what}: undefined symbol"));
                    continue;
                };
                let value = s as i64 + r.addend;
                let p = placement[oi][si] + r.offset as u64;
                let off = base + r.offset as usize;
                match r.kind {
                    RelocKind::Data32 => {
                        if !(i32::MIN as i64..=u32::MAX as i64).contains(&value) {
                            errors.push(format!(
                                "{at}: {what}: value {value:#x} does not fit 32 bits"
                            ));
                            continue;
                        }
                        match out.data.get_mut(off..off + 4) {
                            Some(b) => b.copy_from_slice(&(value as u32).to_le_bytes()),
                            None => errors
                                .push(format!("{at}: {what}: offset past the end of the section")),
                        }
                    }
                    RelocKind::Imm | RelocKind::PcRel => {
                        let pcrel = r.kind == RelocKind::PcRel;
                        if !(r.offset as usize).is_multiple_of(n) {
                            errors.push(format!("{at}: {what}: offset is not a multiple of the {n}-byte operation size"));
                            continue;
                        }
                        let Some(word) = machine.read_word(&out.data, off) else {
                            errors
                                .push(format!("{at}: {what}: offset past the end of the section"));
                            continue;
                        };
                        let v = if pcrel { value - p as i64 } else { value };
                        match machine.patch_op(word, v, pcrel) {
                            Ok(w) => out.data[off..off + n].copy_from_slice(&w.to_le_bytes()[..n]),
                            Err(e) => errors.push(format!("{at}: {what} (value {v}): {e}")),
                        }
                    }
                }
            }
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(LinkError { messages: errors })
    }
}

//! Global variables → data objects: initializers serialized to bytes
//! (little-endian, data-layout offsets and padding), pointers to globals and
//! functions (including constant GEPs and casts of them) and block
//! addresses (`blockaddress`: the block's local label) as relocations,
//! all-zero writable data in `.bss`, constants read-only, private and
//! internal linkage local.

use dsp_mir::{DataObject, DataReloc, DataSection};

use crate::llvm::{Dl, Linkage, Op, TyKind, V};

/// The data object of a global variable (`None` for declarations).
/// `available`: the bytes of the machine's memory a program can use; a
/// larger global is an error before any byte of it is allocated.
pub fn lower_global(dl: Dl, g: V, available: u64) -> Result<Option<DataObject>, String> {
    if g.is_declaration() || g.linkage() == Linkage::AvailableExternally {
        return Ok(None);
    }
    if g.is_thread_local() {
        return Err("thread-local variables are not supported".into());
    }
    let name = g.name();
    if name.starts_with("llvm.") {
        // llvm.used, llvm.global_ctors, …: metadata for the toolchain.
        return Ok(None);
    }
    let t = g.global_value_type();
    let size = dl.alloc_size(t);
    if size > available || size > u32::MAX as u64 / 2 {
        return Err(format!("{size} bytes: too large for the machine's memory ({available} bytes available)"));
    }
    let align = match g.alignment() {
        0 => dl.align(t),
        a => a,
    }
    .max(size_alignment(size));
    let init = g.initializer().ok_or_else(|| format!("global '{name}' has no initializer"))?;
    let mut bytes = vec![0u8; size as usize];
    let mut relocs = Vec::new();
    write_const(dl, init, 0, &mut bytes, &mut relocs)?;
    let zero = relocs.is_empty() && bytes.iter().all(|b| *b == 0);
    let section = if g.is_global_constant() {
        DataSection::ReadOnly
    } else if zero {
        DataSection::Bss
    } else {
        DataSection::Data
    };
    if section == DataSection::Bss {
        bytes.clear();
    }
    Ok(Some(DataObject { name, global: g.linkage() != Linkage::Local, section, align, bytes, size: size as u32, relocs }))
}

fn put(bytes: &mut [u8], off: u64, value: u64, n: u64) -> Result<(), String> {
    for k in 0..n {
        let i = (off + k) as usize;
        *bytes.get_mut(i).ok_or("initializer overruns its global")? = (value >> (8 * k)) as u8;
    }
    Ok(())
}

/// Writes constant `c` at `off`.
pub fn write_const(dl: Dl, c: V, off: u64, bytes: &mut [u8], relocs: &mut Vec<DataReloc>) -> Result<(), String> {
    let t = c.ty();
    if c.is_undef() || c.is_null_or_zero() {
        return Ok(());
    }
    if let Some((x, _)) = c.const_int() {
        return put(bytes, off, x, dl.store_size(t));
    }
    if let TyKind::Int(b) = t.kind() {
        if b > 64 && c.const_opcode().is_none() {
            let x = crate::wide::wide_const(c).ok_or_else(|| format!("{b}-bit integer constant '{}' is not supported", c.print()))?;
            put(bytes, off, x as u64, 8)?;
            return put(bytes, off + 8, (x >> 64) as u64, dl.store_size(t).saturating_sub(8));
        }
    }
    if let Some(f) = c.const_fp() {
        return match t.kind() {
            TyKind::F32 => put(bytes, off, (f as f32).to_bits() as u64, 4),
            TyKind::F64 => put(bytes, off, f.to_bits(), 8),
            _ => Err(format!("floating-point type '{}' is not supported", t.print())),
        };
    }
    if c.is_global() {
        relocs.push(DataReloc { offset: off as u32, symbol: c.name(), addend: 0 });
        return Ok(());
    }
    if let Some(label) = c.block_address_label() {
        relocs.push(DataReloc { offset: off as u32, symbol: label?, addend: 0 });
        return Ok(());
    }
    if c.const_opcode().is_some() {
        let (sym, addend) = const_expr_address(dl, c)?;
        match sym {
            Some(s) => relocs.push(DataReloc { offset: off as u32, symbol: s, addend }),
            None => put(bytes, off, addend as u64, dl.store_size(t))?,
        }
        return Ok(());
    }
    match t.kind() {
        TyKind::Struct(fields) => {
            for (k, _) in fields.iter().enumerate() {
                let e = c.aggregate_element(k as u32).ok_or("struct initializer element")?;
                write_const(dl, e, off + dl.field_offset(t, k as u32), bytes, relocs)?;
            }
            Ok(())
        }
        TyKind::Array(..) | TyKind::Vector(..) => {
            let (e, n) = match t.kind() {
                TyKind::Array(e, n) => (e, n),
                TyKind::Vector(e, n) => (e, n as u64),
                _ => unreachable!(),
            };
            let es = dl.alloc_size(e);
            if c.is_const_data_seq() && e.kind() == TyKind::Int(8) {
                let raw = c.const_string_bytes();
                let end = off as usize + raw.len();
                bytes.get_mut(off as usize..end).ok_or("initializer overruns its global")?.copy_from_slice(&raw);
                return Ok(());
            }
            for k in 0..n {
                let x = c.aggregate_element(k as u32).ok_or("array initializer element")?;
                write_const(dl, x, off + k * es, bytes, relocs)?;
            }
            Ok(())
        }
        _ => Err(format!("initializer '{}' is not supported", c.print())),
    }
}

/// A constant expression as symbol + offset (or a plain number).
fn const_expr_address(dl: Dl, c: V) -> Result<(Option<String>, i64), String> {
    if c.is_global() {
        return Ok((Some(c.name()), 0));
    }
    if let Some(label) = c.block_address_label() {
        return Ok((Some(label?), 0));
    }
    if c.is_null_or_zero() || c.is_undef() {
        return Ok((None, 0));
    }
    if let Some((x, bits)) = c.const_int() {
        return Ok((None, crate::function::sext(x, bits)));
    }
    match c.const_opcode() {
        Some(Op::LLVMGetElementPtr) => {
            let (s, o) = const_expr_address(dl, c.operand(0))?;
            let extra = crate::memory::gep_const_offset(dl, c)?.ok_or("non-constant GEP in an initializer")?;
            Ok((s, o.wrapping_add(extra)))
        }
        Some(Op::LLVMBitCast | Op::LLVMAddrSpaceCast | Op::LLVMPtrToInt | Op::LLVMIntToPtr | Op::LLVMTrunc) => {
            const_expr_address(dl, c.operand(0))
        }
        Some(Op::LLVMAdd) => {
            let (sa, oa) = const_expr_address(dl, c.operand(0))?;
            let (sb, ob) = const_expr_address(dl, c.operand(1))?;
            match (sa, sb) {
                (s, None) | (None, s) => Ok((s, oa.wrapping_add(ob))),
                _ => Err(format!("initializer '{}' is not supported", c.print())),
            }
        }
        Some(Op::LLVMSub) => {
            let (sa, oa) = const_expr_address(dl, c.operand(0))?;
            let (sb, ob) = const_expr_address(dl, c.operand(1))?;
            match (sa, sb) {
                (s, None) => Ok((s, oa.wrapping_sub(ob))),
                (Some(a), Some(b)) if a == b => Ok((None, oa.wrapping_sub(ob))),
                _ => Err(format!("initializer '{}' is not supported", c.print())),
            }
        }
        _ => Err(format!("initializer '{}' is not supported", c.print())),
    }
}

/// The alignment globals get from their size alone, whatever their type says:
/// the largest power of two up to 8 that does not exceed the size (like GCC's
/// DATA_ALIGNMENT). A packed structure's fields then sit at the offsets
/// they would have from an aligned base, so a program that takes a field's
/// address and uses it as an ordinary pointer behaves as it does on
/// hosts that place globals aligned. That is still undefined behaviour;
/// csmith generates it.
fn size_alignment(size: u64) -> u32 {
    match size {
        0 | 1 => 1,
        2 | 3 => 2,
        4..=7 => 4,
        _ => 8,
    }
}

#[cfg(test)]
mod size_alignment_tests {
    use super::size_alignment;

    #[test]
    fn globals_are_aligned_by_size_up_to_8() {
        assert_eq!([0, 1, 2, 3, 4, 7, 8, 36, 4096].map(size_alignment), [1, 1, 2, 2, 4, 4, 8, 8, 8]);
    }
}

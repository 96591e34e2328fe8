//! Resolution: turns parsed declarations into a checked [`Machine`].
//!
//! Names are resolved (register files, units, formats, operands), derived
//! tables are built (opcode decode table, used bits), and every rule a
//! description must obey is checked here, each violation a located
//! diagnostic: sizes and counts in range, fields inside the word and not
//! overlapping, operands fitting their fields, semantics well-typed against
//! the operand classes, every unit reachable from a slot, opcodes unique.

use std::collections::HashMap;

use crate::model::*;
use crate::parse::{AbiDecl, Decl, Declarations, Diagnostic, InstDecl, Loc, Name, RegShape};
use crate::sem::{OperandRef, Sem, SemClass, SemOp, Ty, Typing};

type R<T> = Result<T, Diagnostic>;

fn in_range(v: i64, lo: i64, hi: i64, loc: &Loc, what: &str) -> R<u32> {
    if v < lo || v > hi {
        Err(loc.error(format!("{what} must be between {lo} and {hi}, got {v}")))
    } else {
        Ok(v as u32)
    }
}

struct Ctx {
    regfiles: Vec<RegFile>,
    units: Vec<Unit>,
}

impl Ctx {
    fn file(&self, n: &Name) -> R<RegFileId> {
        self.regfiles
            .iter()
            .position(|f| f.name == n.text)
            .map(|i| RegFileId(i as u16))
            .ok_or_else(|| n.loc.error(format!("unknown register file '{}'", n.text)))
    }
    fn unit(&self, n: &Name) -> R<UnitId> {
        self.units
            .iter()
            .position(|u| u.name == n.text)
            .map(|i| UnitId(i as u16))
            .ok_or_else(|| n.loc.error(format!("unknown unit '{}'", n.text)))
    }
    fn reg(&self, n: &Name) -> R<Reg> {
        let mut best: Option<(usize, usize)> = None;
        for (i, f) in self.regfiles.iter().enumerate() {
            let rest = n.text.strip_prefix(f.name.as_str());
            if let Some(rest) = rest {
                if !rest.is_empty()
                    && rest.bytes().all(|b| b.is_ascii_digit())
                    && best.is_none_or(|(_, len)| f.name.len() > len)
                {
                    best = Some((i, f.name.len()));
                }
            }
        }
        let (file, len) = best.ok_or_else(|| n.loc.error(format!("unknown register '{}'", n.text)))?;
        let index: u32 = n.text[len..].parse().map_err(|_| n.loc.error(format!("unknown register '{}'", n.text)))?;
        if index >= self.regfiles[file].count as u32 {
            return Err(n.loc.error(format!(
                "register '{}' out of range: file '{}' has {} registers",
                n.text, self.regfiles[file].name, self.regfiles[file].count
            )));
        }
        Ok(Reg { file: RegFileId(file as u16), index: index as u16 })
    }
}

fn bitfield(hi: i64, lo: i64, width: u32, loc: &Loc, what: &str) -> R<BitField> {
    if lo < 0 || hi < lo || hi >= width as i64 {
        return Err(loc.error(format!("{what} {hi}..{lo} is not a bit range inside the {width}-bit word")));
    }
    Ok(BitField { hi: hi as u32, lo: lo as u32 })
}

/// Bits needed to hold register indices `0..count`.
fn index_bits(count: u16) -> u32 {
    32 - (count.max(2) as u32 - 1).leading_zeros()
}

fn operand_kind(ctx: &Ctx, class: &Name) -> R<OperandKind> {
    if let Ok(f) = ctx.file(class) {
        return Ok(OperandKind::Reg(f));
    }
    let t = class.text.as_str();
    let (prefix, digits) = if let Some(d) = t.strip_prefix("rel") {
        ("rel", d)
    } else if t.len() > 1 && matches!(&t[..1], "s" | "u" | "i") {
        (&t[..1], &t[1..])
    } else {
        ("", "")
    };
    let bad = || class.loc.error(format!(
        "unknown operand class '{t}' (expected a register file, sN, uN, iN or relN)"
    ));
    if prefix.is_empty() || digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let bits: u32 = digits.parse().map_err(|_| bad())?;
    if bits == 0 || bits > 32 {
        return Err(class.loc.error(format!("immediate width must be 1 to 32 bits, got {bits}")));
    }
    Ok(match prefix {
        "rel" => OperandKind::PcRel(bits),
        "s" => OperandKind::Imm(ImmKind::Signed, bits),
        "u" => OperandKind::Imm(ImmKind::Unsigned, bits),
        _ => OperandKind::Imm(ImmKind::Either, bits),
    })
}

/// Checks a semantics against the operand classes it is applied to.
fn check_sem(ctx: &Ctx, sem: &Sem, operands: &[Operand], loc: &Loc, mnemonic: &str) -> R<()> {
    let op = sem.op;
    let kind = |i: usize| operands[i].kind;
    let file_of = |i: usize| match kind(i) {
        OperandKind::Reg(f) => Some(&ctx.regfiles[f.0 as usize]),
        _ => None,
    };
    let is_vec = |i: usize| file_of(i).is_some_and(|f| f.lanes.is_some());
    let is_mask = |i: usize| file_of(i).is_some_and(|f| f.mask_of.is_some());
    let name = |i: usize| operands[i].name.clone();
    let fail = |msg: String| Err(loc.error(format!("semantics of '{mnemonic}': {msg}")));
    if let Some(d) = sem.dst {
        if !matches!(kind(d.0), OperandKind::Reg(_)) {
            return fail(format!("destination '{}' must be a register operand", name(d.0)));
        }
    }
    // Elements must match vector lanes; scalars must be wide enough.
    if let (Some(d), Some(ty)) = (sem.dst, sem.ty2.or(sem.ty)) {
        let f = file_of(d.0).expect("checked above");
        let scalar_result = matches!(
            op,
            SemOp::ReduceAdd | SemOp::ReduceMin | SemOp::ReduceMax | SemOp::Extract
        );
        let compare = matches!(op, SemOp::Eq | SemOp::Ne | SemOp::Lt | SemOp::Le | SemOp::Gt | SemOp::Ge | SemOp::Unord);
        if let Some(l) = f.lanes {
            if scalar_result {
                return fail(format!("'{}' produces a scalar but '{}' is a vector register", op.name(), name(d.0)));
            }
            // Vector loads may read narrower elements, extended to the lanes.
            let widening = matches!(op, SemOp::VLoad | SemOp::VLoadU | SemOp::VLoadS | SemOp::VLoadM | SemOp::Gather)
                && !ty.is_float()
                && ty.bits() < l.elem_bits;
            if l.elem_bits != ty.bits() && !widening {
                return fail(format!(
                    "type {ty} does not match the {}-bit lanes of file '{}'",
                    l.elem_bits, f.name
                ));
            }
        } else if f.mask_of.is_some() || f.width == 1 {
            // Predicates and masks take compare results, logic and moves.
            let ok = compare || matches!(op, SemOp::And | SemOp::Or | SemOp::Xor | SemOp::Not | SemOp::Mov);
            if !ok {
                return fail(format!("'{}' cannot write predicate/mask register '{}'", op.name(), name(d.0)));
            }
        } else if !compare && !matches!(op, SemOp::Clz | SemOp::Ctz | SemOp::Popcnt) && ty.bits() > f.width {
            return fail(format!("type {ty} is wider than the {}-bit file '{}'", f.width, f.name));
        }
    }
    match op.class() {
        SemClass::Memory => {
            let (addr, off) = (sem.args[0].0, sem.args[1].0);
            if file_of(addr).is_none() || is_vec(addr) {
                return fail(format!("address base '{}' must be a scalar register", name(addr)));
            }
            let vector_op = !matches!(op, SemOp::Load | SemOp::Store);
            let data = if op.has_dst() { sem.dst.map(|d| d.0) } else { sem.args.get(2).map(|a| a.0) };
            if let Some(data) = data {
                if vector_op != is_vec(data) {
                    return fail(format!(
                        "'{}' {} a vector register for its data, and '{}' is {}",
                        op.name(),
                        if vector_op { "needs" } else { "cannot use" },
                        name(data),
                        if is_vec(data) { "one" } else { "not one" }
                    ));
                }
            }
            if matches!(op, SemOp::Gather | SemOp::Scatter) && !is_vec(off) {
                return fail(format!("'{}' needs a vector of indices, '{}' is not one", op.name(), name(off)));
            }
            if op == SemOp::VStoreM && !is_mask(sem.args[3].0) {
                return fail(format!("'vstorem' needs a lane mask, '{}' is not one", name(sem.args[3].0)));
            }
            if op == SemOp::VLoadM && !is_mask(sem.args[2].0) {
                return fail(format!("'vloadm' needs a lane mask, '{}' is not one", name(sem.args[2].0)));
            }
            // Vector stores may write narrower elements (each lane truncated), never wider ones.
            if let (false, Some(data), Some(ty)) = (op.has_dst(), data, sem.ty) {
                if let Some(l) = file_of(data).and_then(|f| f.lanes) {
                    if ty.bits() > l.elem_bits || (ty.is_float() && ty.bits() != l.elem_bits) {
                        return fail(format!("type {ty} does not fit the {}-bit lanes of '{}'", l.elem_bits, name(data)));
                    }
                }
            }
        }
        SemClass::Cross => {
            let d = sem.dst.expect("cross ops write").0;
            let vec_src = matches!(
                op,
                SemOp::ReduceAdd
                    | SemOp::ReduceMin
                    | SemOp::ReduceMax
                    | SemOp::AllReduceAdd
                    | SemOp::AllReduceMin
                    | SemOp::AllReduceMax
                    | SemOp::Extract
                    | SemOp::Insert
                    | SemOp::Shuffle
            );
            let vec_dst = !matches!(op, SemOp::ReduceAdd | SemOp::ReduceMin | SemOp::ReduceMax | SemOp::Extract);
            if vec_dst != is_vec(d) {
                return fail(format!(
                    "'{}' writes a {} register, '{}' is not one",
                    op.name(),
                    if vec_dst { "vector" } else { "scalar" },
                    name(d)
                ));
            }
            if vec_src && !is_vec(sem.args[0].0) {
                return fail(format!("'{}' reads a vector, '{}' is not one", op.name(), name(sem.args[0].0)));
            }
            if op == SemOp::Broadcast && is_vec(sem.args[0].0) {
                return fail("'broadcast' reads a scalar".into());
            }
        }
        SemClass::Control => match op {
            SemOp::Br | SemOp::Call if !matches!(kind(sem.args[0].0), OperandKind::PcRel(_)) => {
                return fail(format!("'{}' needs a pc-relative (relN) target", op.name()));
            }
            SemOp::BrNz | SemOp::BrZ
                if file_of(sem.args[0].0).is_none() || !matches!(kind(sem.args[1].0), OperandKind::PcRel(_)) =>
            {
                return fail(format!("'{}' needs a register condition and a pc-relative (relN) target", op.name()));
            }
            SemOp::Jmp | SemOp::CallR if file_of(sem.args[0].0).is_none() => {
                return fail(format!("'{}' needs a register target", op.name()));
            }
            SemOp::Syscall if !matches!(kind(sem.args[0].0), OperandKind::Imm(..)) => {
                return fail("'syscall' needs an immediate number".into());
            }
            _ => {}
        },
        SemClass::Alu => {
            for a in &sem.args {
                if matches!(kind(a.0), OperandKind::PcRel(_)) {
                    return fail(format!("pc-relative operand '{}' used as data", name(a.0)));
                }
            }
        }
    }
    Ok(())
}

fn resolve_sem(d: &InstDecl, operands: &[Operand], ctx: &Ctx) -> R<Sem> {
    let sd = d
        .sem
        .as_ref()
        .ok_or_else(|| d.mnemonic.loc.error(format!("instruction '{}' needs 'sem'", d.mnemonic.text)))?;
    let mut parts = sd.op.text.split('.');
    let opname = parts.next().unwrap_or_default();
    let op = SemOp::from_name(opname).ok_or_else(|| {
        sd.op.loc.error(format!("unknown operation '{opname}' (see the vocabulary in isa-tablegen's README)"))
    })?;
    let mut tys = Vec::new();
    for t in parts {
        tys.push(Ty::from_name(t).ok_or_else(|| sd.op.loc.error(format!("unknown type '{t}'")))?);
    }
    let want = match op.typing() {
        Typing::None => 0,
        Typing::One => 1,
        Typing::Two => 2,
    };
    if tys.len() != want {
        return Err(sd.op.loc.error(format!(
            "operation '{opname}' takes {want} type suffix{}, got {}",
            if want == 1 { "" } else { "es" },
            tys.len()
        )));
    }
    if sd.args.len() != op.arity() {
        return Err(sd.op.loc.error(format!(
            "operation '{opname}' takes {} argument{}, got {}",
            op.arity(),
            if op.arity() == 1 { "" } else { "s" },
            sd.args.len()
        )));
    }
    let find = |n: &Name| -> R<OperandRef> {
        operands
            .iter()
            .position(|o| o.name == n.text)
            .map(OperandRef)
            .ok_or_else(|| n.loc.error(format!("'{}' is not an operand of '{}'", n.text, d.mnemonic.text)))
    };
    let dst = match (&sd.dst, op.has_dst()) {
        (Some(n), true) => Some(find(n)?),
        (None, false) => None,
        (Some(n), false) => return Err(n.loc.error(format!("operation '{opname}' has no result"))),
        (None, true) => return Err(sd.op.loc.error(format!("operation '{opname}' needs a destination: 'd = {opname}(…)'"))),
    };
    let args = sd.args.iter().map(find).collect::<R<Vec<_>>>()?;
    let sem = Sem { op, ty: tys.first().copied(), ty2: tys.get(1).copied(), dst, args };
    check_sem(ctx, &sem, operands, &sd.op.loc, &d.mnemonic.text)?;
    Ok(sem)
}

pub fn resolve(decls: Declarations, fingerprint: u64, end: Loc) -> R<Machine> {
    let mut machine_name = None;
    let mut memory = None;
    let mut bundle = None;
    let mut delay_slots = 0u32;
    let mut link_decl = None;
    let mut encoding_decl = None;
    let mut abi_decls = Vec::new();
    let mut ctx = Ctx { regfiles: Vec::new(), units: Vec::new() };
    let mut unit_locs: Vec<Loc> = Vec::new();
    let mut mask_decls = Vec::new();
    let mut slot_decls = Vec::new();
    let mut format_decls = Vec::new();
    let mut inst_decls = Vec::new();
    let mut cache_decls = Vec::new();
    let mut onchip_decls = Vec::new();

    for (decl, loc) in &decls.decls {
        match decl {
            Decl::Machine { name, description } => machine_name = Some((name.clone(), description.clone())),
            Decl::Memory { base, size, null_guard, units } => {
                let base = in_range(*base, 0, u32::MAX as i64, loc, "memory base")?;
                let size = in_range(*size, 4096, (1i64 << 32) - base as i64, loc, "memory size")?;
                let null_guard = in_range(*null_guard, 0, size as i64 / 2, loc, "null_guard")?;
                memory = Some((base, size, null_guard, units.clone(), loc.clone()));
            }
            Decl::Cache(c) => cache_decls.push((c.clone(), loc.clone())),
            Decl::OnChip(o) => onchip_decls.push((o.clone(), loc.clone())),
            Decl::RegFile(r) => {
                let count = in_range(r.count, 1, 256, &r.name.loc, "register count")? as u16;
                let read = in_range(r.read, 1, 64, &r.name.loc, "read ports")?;
                let write = in_range(r.write, 1, 64, &r.name.loc, "write ports")?;
                let (width, lanes) = match &r.shape {
                    RegShape::Width(w) => (*w, None),
                    RegShape::Lanes(l, b) => {
                        if !matches!(b, 8 | 16 | 32 | 64) || *l == 0 || *l > 256 {
                            return Err(r.name.loc.error(format!(
                                "lanes must be 1..256 elements of 8, 16, 32 or 64 bits, got {l} x {b}"
                            )));
                        }
                        (l * b, Some(Lanes { count: *l, elem_bits: *b }))
                    }
                    RegShape::MaskOf(v) => {
                        mask_decls.push((ctx.regfiles.len(), v.clone()));
                        (0, None)
                    }
                };
                if !(matches!(r.shape, RegShape::MaskOf(_)) || width == 1 || (8..=4096).contains(&width)) {
                    return Err(r.name.loc.error(format!("register width must be 1 or 8..4096 bits, got {width}")));
                }
                if !matches!(r.shape, RegShape::Lanes(..) | RegShape::MaskOf(_)) && width > 64 {
                    return Err(r.name.loc.error(format!(
                        "scalar registers are at most 64 bits; use 'lanes L x B' for wider ones (got {width})"
                    )));
                }
                let mut specials = Vec::new();
                for (idx, kind, sloc) in &r.specials {
                    let index = in_range(*idx, 0, count as i64 - 1, sloc, "special register index")? as u16;
                    specials.push(SpecialReg { index, kind: *kind });
                }
                ctx.regfiles.push(RegFile {
                    name: r.name.text.clone(),
                    count,
                    width,
                    lanes,
                    mask_of: None,
                    read_ports: read,
                    write_ports: write,
                    specials,
                    line: loc.line,
                });
            }
            Decl::Unit { name, kind, count } => {
                let k = match kind.text.as_str() {
                    "scalar" => UnitKind::Scalar,
                    "vector" => UnitKind::Vector,
                    "memory" => UnitKind::Memory,
                    "control" => UnitKind::Control,
                    "cross" => UnitKind::Cross,
                    other => {
                        return Err(kind.loc.error(format!(
                            "unknown unit kind '{other}' (expected scalar, vector, memory, control or cross)"
                        )))
                    }
                };
                let count = in_range(*count, 1, 64, &name.loc, "unit count")?;
                ctx.units.push(Unit { name: name.text.clone(), kind: k, count, line: loc.line });
                unit_locs.push(loc.clone());
            }
            Decl::Bundle { max_ops } => bundle = Some(in_range(*max_ops, 1, 64, loc, "max_ops")?),
            Decl::Slot { name, feeds } => slot_decls.push((name.clone(), feeds.clone(), loc.clone())),
            Decl::DelaySlots(n) => delay_slots = in_range(*n, 0, 16, loc, "delay_slots")?,
            Decl::Link(r) => link_decl = Some(r.clone()),
            Decl::Abi { key, value } => abi_decls.push((key.clone(), value.clone())),
            Decl::Encoding(e) => encoding_decl = Some((e.clone(), loc.clone())),
            Decl::Format { name, fields } => format_decls.push((name.clone(), fields.clone(), loc.clone())),
            Decl::Inst(i) => inst_decls.push(i.clone()),
        }
    }
    let (name, description) = machine_name.ok_or_else(|| end.error("missing 'machine NAME \"description\"' statement"))?;
    let (mbase, msize, mguard, munits, mloc) = memory.ok_or_else(|| end.error("missing 'memory base … size …' statement"))?;
    let unit_of = |n: &str| ctx.units.iter().position(|u| u.name == n).map(|i| UnitId(i as u16));
    let memory = crate::memsys::resolve((mbase, msize, mguard, &munits, &mloc), &cache_decls, &onchip_decls, &unit_of)?;
    let max_ops = bundle.ok_or_else(|| end.error("missing 'bundle max_ops N' statement"))?;
    for (i, v) in mask_decls {
        let vf = ctx.file(&v)?;
        let lanes = ctx.regfiles[vf.0 as usize]
            .lanes
            .ok_or_else(|| v.loc.error(format!("'mask_of' needs a vector register file, '{}' has no lanes", v.text)))?;
        ctx.regfiles[i].mask_of = Some(vf);
        ctx.regfiles[i].width = lanes.count;
    }
    if ctx.regfiles.is_empty() {
        return Err(end.error("the machine declares no register file"));
    }
    if ctx.units.is_empty() {
        return Err(end.error("the machine declares no unit"));
    }

    // Slots, and every unit reachable from one.
    let mut slots = Vec::new();
    for (name, feeds, loc) in &slot_decls {
        let feeds = feeds.iter().map(|u| ctx.unit(u)).collect::<R<Vec<_>>>()?;
        slots.push(Slot { name: name.text.clone(), feeds, line: loc.line });
    }
    if slots.is_empty() {
        return Err(end.error("the machine declares no issue slot"));
    }
    for (i, u) in ctx.units.iter().enumerate() {
        if !slots.iter().any(|s| s.feeds.contains(&UnitId(i as u16))) {
            return Err(unit_locs[i].error(format!("unit '{}' is fed by no slot", u.name)));
        }
    }

    // Encoding.
    let (e, eloc) = encoding_decl.ok_or_else(|| end.error("missing 'encoding' statement"))?;
    if e.width != 32 && e.width != 64 {
        return Err(eloc.error(format!("operation width must be 32 or 64 bits, got {}", e.width)));
    }
    let width = e.width as u32;
    let stop_bit = in_range(e.stop, 0, width as i64 - 1, &eloc, "stop bit")?;
    let stop_field = BitField { hi: stop_bit, lo: stop_bit };
    let opcode = bitfield(e.opcode.0, e.opcode.1, width, &eloc, "opcode field")?;
    if opcode.overlaps(&stop_field) {
        return Err(eloc.error("opcode field overlaps the stop bit"));
    }
    let guard = match &e.guard {
        None => None,
        Some((hi, lo, neg, file)) => {
            let field = bitfield(*hi, *lo, width, &eloc, "guard field")?;
            if field.overlaps(&stop_field) || field.overlaps(&opcode) {
                return Err(eloc.error("guard field overlaps the stop bit or the opcode"));
            }
            if *neg < *lo || *neg > *hi {
                return Err(eloc.error(format!("negate bit {neg} is outside the guard field {hi}..{lo}")));
            }
            let f = ctx.file(file)?;
            let rf = &ctx.regfiles[f.0 as usize];
            if rf.width != 1 {
                return Err(file.loc.error(format!("guard file '{}' must hold 1-bit predicates", rf.name)));
            }
            if !rf.specials.iter().any(|s| s.kind == SpecialKind::True) {
                return Err(file.loc.error(format!(
                    "guard file '{}' needs a register that reads true ('true N') to encode unguarded operations",
                    rf.name
                )));
            }
            if field.bits() - 1 < index_bits(rf.count) {
                return Err(eloc.error(format!("guard field is too narrow for {} predicate registers", rf.count)));
            }
            Some(GuardField { field, negate_bit: *neg as u32, file: f })
        }
    };
    let fixed: Vec<BitField> = std::iter::once(stop_field).chain([opcode]).chain(guard.map(|g| g.field)).collect();
    let mut formats: Vec<Format> = Vec::new();
    for (name, fields, loc) in &format_decls {
        if formats.iter().any(|f| f.name == name.text) {
            return Err(name.loc.error(format!("duplicate format '{}'", name.text)));
        }
        let mut out: Vec<(String, BitField)> = Vec::new();
        for f in fields {
            let bf = bitfield(f.hi, f.lo, width, &f.name.loc, "field")?;
            if fixed.iter().any(|x| x.overlaps(&bf)) {
                return Err(f.name.loc.error(format!(
                    "field '{}' overlaps the stop bit, opcode or guard field",
                    f.name.text
                )));
            }
            if let Some((other, _)) = out.iter().find(|(_, o)| o.overlaps(&bf)) {
                return Err(f.name.loc.error(format!("field '{}' overlaps field '{other}'", f.name.text)));
            }
            if out.iter().any(|(n, _)| *n == f.name.text) {
                return Err(f.name.loc.error(format!("duplicate field '{}'", f.name.text)));
            }
            out.push((f.name.text.clone(), bf));
        }
        formats.push(Format { name: name.text.clone(), fields: out, line: loc.line });
    }

    // Instructions.
    let mut instrs: Vec<Instr> = Vec::new();
    let mut explicit: HashMap<u32, String> = HashMap::new();
    for d in &inst_decls {
        let m = &d.mnemonic;
        let format_name = d
            .format
            .as_ref()
            .ok_or_else(|| m.loc.error(format!("instruction '{}' needs 'enc FORMAT'", m.text)))?;
        let fid = formats
            .iter()
            .position(|f| f.name == format_name.text)
            .ok_or_else(|| format_name.loc.error(format!("unknown format '{}'", format_name.text)))?;
        let mut operands: Vec<Operand> = Vec::new();
        for o in &d.operands {
            if operands.iter().any(|x| x.name == o.name.text) {
                return Err(o.name.loc.error(format!("duplicate operand '{}'", o.name.text)));
            }
            let kind = operand_kind(&ctx, &o.class)?;
            let field = formats[fid].field(&o.name.text).ok_or_else(|| {
                o.name.loc.error(format!("operand '{}' is not a field of format '{}'", o.name.text, format_name.text))
            })?;
            let need = match kind {
                OperandKind::Reg(f) => index_bits(ctx.regfiles[f.0 as usize].count),
                OperandKind::Imm(_, b) | OperandKind::PcRel(b) => b,
            };
            if field.bits() < need {
                return Err(o.class.loc.error(format!(
                    "operand '{}' needs {need} bits but field '{}' has {}",
                    o.name.text,
                    o.name.text,
                    field.bits()
                )));
            }
            operands.push(Operand { name: o.name.text.clone(), kind, field });
        }
        if d.units.is_empty() {
            return Err(m.loc.error(format!("instruction '{}' needs 'units'", m.text)));
        }
        let units = d.units.iter().map(|u| ctx.unit(u)).collect::<R<Vec<_>>>()?;
        let sem = resolve_sem(d, &operands, &ctx)?;
        let (lat, lat_loc) = d
            .latency
            .clone()
            .ok_or_else(|| m.loc.error(format!("instruction '{}' needs 'lat'", m.text)))?;
        let latency = in_range(lat, 1, 64, &lat_loc, "latency")?;
        let busy = match &d.busy {
            Some((b, l)) => in_range(*b, 1, 64, l, "busy")?,
            None => 1,
        };
        let cost = match &d.cost {
            Some((c, l)) => in_range(*c, 0, 1_000_000, l, "cost")?,
            None => latency,
        };
        let opcode_val = match &d.opcode {
            Some((v, l)) => {
                let v = in_range(*v, 0, opcode.mask() as i64, l, "opcode")?;
                if let Some(prev) = explicit.insert(v, m.text.clone()) {
                    return Err(l.error(format!("opcode {v:#x} is already used by '{prev}'")));
                }
                v
            }
            None => u32::MAX,
        };
        instrs.push(Instr {
            mnemonic: m.text.clone(),
            operands,
            units,
            latency,
            busy,
            sem,
            format: FormatId(fid as u16),
            opcode: opcode_val,
            cost,
            line: m.loc.line,
        });
    }
    // `set` overrides.
    for s in &decls.sets {
        let i = instrs.iter().position(|i| i.mnemonic == s.mnemonic.text).ok_or_else(|| {
            s.mnemonic.loc.error(format!("'set' names unknown instruction '{}'", s.mnemonic.text))
        })?;
        if let Some((v, l)) = &s.latency {
            instrs[i].latency = in_range(*v, 1, 64, l, "latency")?;
            if s.cost.is_none() {
                instrs[i].cost = instrs[i].latency;
            }
        }
        if let Some((v, l)) = &s.busy {
            instrs[i].busy = in_range(*v, 1, 64, l, "busy")?;
        }
        if let Some((v, l)) = &s.cost {
            instrs[i].cost = in_range(*v, 0, 1_000_000, l, "cost")?;
        }
        if let Some(us) = &s.units {
            instrs[i].units = us.iter().map(|u| ctx.unit(u)).collect::<R<Vec<_>>>()?;
        }
    }
    if instrs.is_empty() {
        return Err(end.error("the machine declares no instruction"));
    }
    // Opcodes not written are numbered in file order, skipping explicit ones.
    let mut next = 0u32;
    for ins in instrs.iter_mut().filter(|i| i.opcode == u32::MAX) {
        while explicit.contains_key(&next) {
            next += 1;
        }
        if next as u64 > opcode.mask() {
            return Err(Loc { file: end.file.clone(), line: ins.line, col: 1 }.error(format!(
                "no opcode left for '{}': the {}-bit opcode field is full",
                ins.mnemonic,
                opcode.bits()
            )));
        }
        ins.opcode = next;
        next += 1;
    }
    let mut decode_table = vec![None; 1usize << opcode.bits().min(16)];
    if opcode.bits() > 16 {
        return Err(eloc.error("opcode field is wider than 16 bits"));
    }
    let mut used_bits = Vec::new();
    for (i, ins) in instrs.iter().enumerate() {
        decode_table[ins.opcode as usize] = Some(InstrId(i as u16));
        let mut used = (1u64 << stop_bit) | (opcode.mask() << opcode.lo);
        if let Some(g) = &guard {
            used |= g.field.mask() << g.field.lo;
        }
        for o in &ins.operands {
            used |= o.field.mask() << o.field.lo;
        }
        used_bits.push(used);
    }

    crate::memsys::check_l1_hit(&memory, &instrs, &cache_decls)?;

    // Control and ABI.
    let link = match &link_decl {
        Some(r) => Some(ctx.reg(r)?),
        None => None,
    };
    if instrs.iter().any(|i| i.sem.is_call()) && link.is_none() {
        return Err(end.error("the machine has call instructions but no 'link REGISTER'"));
    }
    let mut abi = Abi { stack_align: 8, ..Abi::default() };
    for (key, value) in &abi_decls {
        match (key.text.as_str(), value) {
            ("stack_align", AbiDecl::Number(n)) => {
                if *n <= 0 || (*n & (*n - 1)) != 0 || *n > 4096 {
                    return Err(key.loc.error(format!("stack_align must be a power of two up to 4096, got {n}")));
                }
                abi.stack_align = *n as u32;
            }
            (k, AbiDecl::Regs(regs)) => {
                let regs = regs.iter().map(|r| ctx.reg(r)).collect::<R<Vec<_>>>()?;
                match k {
                    "sp" => abi.sp = regs.first().copied(),
                    "fp" => abi.fp = regs.first().copied(),
                    "args" => abi.args = regs,
                    "rets" => abi.rets = regs,
                    _ => abi.callee_saved = regs,
                }
            }
            _ => return Err(key.loc.error("malformed ABI statement")),
        }
    }
    if instrs.iter().any(|i| i.sem.op == SemOp::Syscall) && (abi.args.is_empty() || abi.rets.is_empty()) {
        return Err(end.error("the machine has a syscall instruction but no 'abi args' and 'abi rets'"));
    }

    Ok(Machine {
        name: name.text,
        description,
        fingerprint,
        regfiles: ctx.regfiles,
        units: ctx.units,
        slots,
        bundle: BundleRules { max_ops },
        encoding: Encoding { width, stop_bit, opcode, guard, formats },
        instrs,
        control: Control { delay_slots, link },
        abi,
        memory,
        decode_table,
        used_bits,
    })
}

//! Assembler directives: sections, data, alignment, symbol attributes,
//! constants and `.nop_delay`.

use dsp_obj::{RelocKind, SectionKind, SymbolKind};

use crate::assembler::{kind_from_name, Asm, MAX_SECTION};
use crate::expr::{Equ, SymRef, Value};
use crate::parser::{Arg, Expr, ExprKind};
use crate::Pos;

/// Every directive the assembler knows (for error messages and the README).
pub const DIRECTIVES: &[&str] = &[
    ".text", ".data", ".rodata", ".bss", ".section", ".globl", ".global", ".local", ".type", ".size",
    ".equ", ".set", ".byte", ".half", ".short", ".2byte", ".word", ".long", ".4byte", ".quad", ".8byte",
    ".float", ".double", ".ascii", ".asciz", ".string", ".zero", ".space", ".skip", ".align", ".balign",
    ".p2align", ".nop_delay", ".nops", ".wait", ".file", ".ident",
];

impl Asm<'_> {
    pub(crate) fn directive(&mut self, idx: usize, name: &str, args: &[Arg], pos: Pos) {
        match name {
            ".text" | ".data" | ".rodata" | ".bss" => {
                self.no_args(name, args, pos);
                let kind = kind_from_name(name).unwrap_or(SectionKind::Data);
                let s = self.section_index(name, kind);
                self.cur = Some(s);
            }
            ".section" => self.section_directive(args, pos),
            ".globl" | ".global" => {
                for a in args {
                    if let Some((n, _)) = self.name_arg(a, name) {
                        self.globals.insert(n);
                    }
                }
                if args.is_empty() {
                    self.error(pos, format!("'{name}' needs a symbol name"));
                }
            }
            ".local" => {
                for a in args {
                    if let Some((n, _)) = self.name_arg(a, name) {
                        self.globals.remove(&n);
                    }
                }
            }
            ".type" => self.type_directive(args, pos),
            ".size" => self.size_directive(args, pos),
            ".equ" | ".set" => self.equ_directive(name, args, pos),
            ".byte" => self.data_ints(name, args, pos, 1),
            ".half" | ".short" | ".2byte" => self.data_ints(name, args, pos, 2),
            ".word" | ".long" | ".4byte" => self.data_ints(name, args, pos, 4),
            ".quad" | ".8byte" => self.data_ints(name, args, pos, 8),
            ".float" | ".double" => self.data_floats(name, args, pos),
            ".ascii" | ".asciz" | ".string" => self.data_strings(name, args, pos),
            ".zero" | ".space" | ".skip" => self.zero_directive(idx, name, args, pos),
            ".align" | ".balign" | ".p2align" => self.align_directive(idx, name, args, pos),
            ".nop_delay" => {
                self.no_args(name, args, pos);
                self.emit_nops(name, self.m.control.delay_slots, pos);
            }
            ".nops" => {
                let n = match args {
                    [Arg::Expr(e)] => self.layout_const(idx, e),
                    _ => {
                        self.error(pos, "'.nops' takes one operand: the number of nop bundles");
                        None
                    }
                };
                if let Some(n) = n {
                    if !(0..=4096).contains(&n) {
                        self.error(pos, format!("'.nops' count must be 0 to 4096, got {n}"));
                    } else {
                        // The count is fixed in pass 1 (layout) and reused in pass 2.
                        self.stmt_sizes.insert(idx, n as u32);
                        self.emit_nops(name, n as u32, pos);
                    }
                }
            }
            ".wait" => self.wait_directive(args, pos),
            ".file" | ".ident" => {}
            _ => {
                let close = crate::operands::closest(name, DIRECTIVES.iter().copied());
                let hint = close.map(|c| format!("; did you mean '{c}'?")).unwrap_or_default();
                self.error(pos, format!("unknown directive '{name}'{hint}"));
            }
        }
    }

    /// Emits `count` one-operation nop bundles.
    fn emit_nops(&mut self, directive: &str, count: u32, pos: Pos) {
        let Some(nop) = self.m.nop_instr() else {
            self.error(pos, format!("'{directive}': the machine has no operand-less nop instruction"));
            return;
        };
        let mnemonic = self.m.instr(nop).mnemonic.clone();
        for _ in 0..count {
            self.emit_nop_bundle(&mnemonic, pos);
        }
    }

    /// `.wait MNEMONIC`: nop bundles until a result of MNEMONIC issued in the
    /// previous bundle is visible (latency - 1 bundles), and until its unit is
    /// free again (busy - 1), as this machine's description states them. Lets
    /// hand-written code run unchanged on machines with other latencies.
    fn wait_directive(&mut self, args: &[Arg], pos: Pos) {
        let mnemonic = match args {
            [Arg::Expr(Expr { kind: ExprKind::Name(n), .. })] => n.clone(),
            _ => {
                self.error(pos, "'.wait' takes one operand: an instruction mnemonic");
                return;
            }
        };
        let Some(id) = self.m.instr_by_mnemonic(&mnemonic) else {
            let close = crate::operands::closest(&mnemonic, self.m.instrs.iter().map(|i| i.mnemonic.as_str()));
            let hint = close.map(|c| format!("; did you mean '{c}'?")).unwrap_or_default();
            self.error(args[0].pos(), format!("'.wait': unknown instruction '{mnemonic}'{hint}"));
            return;
        };
        let ins = self.m.instr(id);
        let n = ins.latency.max(ins.busy) - 1;
        self.emit_nops(".wait", n, pos);
    }

    fn no_args(&mut self, name: &str, args: &[Arg], _pos: Pos) {
        if let Some(a) = args.first() {
            self.error(a.pos(), format!("'{name}' takes no operands"));
        }
    }

    /// A symbol-name argument.
    fn name_arg(&mut self, a: &Arg, directive: &str) -> Option<(String, Pos)> {
        match a {
            Arg::Expr(Expr { kind: ExprKind::Name(n), pos }) => Some((n.clone(), *pos)),
            _ => {
                self.error(a.pos(), format!("'{directive}' expects a symbol name"));
                None
            }
        }
    }

    fn section_directive(&mut self, args: &[Arg], pos: Pos) {
        let Some(first) = args.first() else {
            self.error(pos, "'.section' needs a section name");
            return;
        };
        let name = match first {
            Arg::Expr(Expr { kind: ExprKind::Name(n), .. }) => n.clone(),
            Arg::Str(s, _) => String::from_utf8_lossy(s).into_owned(),
            _ => {
                self.error(first.pos(), "'.section' expects a section name");
                return;
            }
        };
        // Flags: "ax" (code), "aw" (data), "a" (read-only), @nobits (bss).
        let mut kind = kind_from_name(&name);
        let mut flag_kind = None;
        for a in &args[1..] {
            match a {
                Arg::Str(f, p) => {
                    let f = String::from_utf8_lossy(f).into_owned();
                    if let Some(bad) = f.chars().find(|c| !"awxMSG".contains(*c)) {
                        self.error(*p, format!("unknown section flag '{bad}' (use a, w, x)"));
                    }
                    flag_kind = Some(if f.contains('x') {
                        SectionKind::Text
                    } else if f.contains('w') {
                        SectionKind::Data
                    } else {
                        SectionKind::ReadOnly
                    });
                }
                Arg::Type(t, p) => match t.as_str() {
                    "nobits" => flag_kind = Some(SectionKind::Bss),
                    "progbits" => {}
                    _ => self.error(*p, format!("unknown section type '@{t}' (use @progbits or @nobits)")),
                },
                Arg::Expr(e) => self.error(e.pos, "'.section' expects NAME, \"FLAGS\", @TYPE"),
            }
        }
        if flag_kind == Some(SectionKind::Data) && kind == Some(SectionKind::Bss) {
            flag_kind = None;
        }
        if let Some(fk) = flag_kind {
            kind = Some(fk);
        }
        let kind = kind.unwrap_or(SectionKind::Data);
        if let Some(existing) = self.section_by_name.get(&name).map(|&i| &self.sections[i]) {
            if existing.kind != kind && args.len() > 1 {
                let msg = format!("section '{name}' was already opened as {:?}; its flags cannot change", existing.kind);
                self.error(pos, msg);
            }
        }
        let s = self.section_index(&name, kind);
        self.cur = Some(s);
    }

    fn type_directive(&mut self, args: &[Arg], pos: Pos) {
        if args.len() != 2 {
            self.error(pos, "'.type' expects NAME, @function or @object");
            return;
        }
        let Some((name, _)) = self.name_arg(&args[0], ".type") else { return };
        let ty = match &args[1] {
            Arg::Type(t, p) => Some((t.clone(), *p)),
            Arg::Str(s, p) => Some((String::from_utf8_lossy(s).into_owned(), *p)),
            Arg::Expr(Expr { kind: ExprKind::Name(n), pos }) => Some((n.clone(), *pos)),
            _ => None,
        };
        let kind = match ty.as_ref().map(|(t, _)| t.as_str()) {
            Some("function") => SymbolKind::Func,
            Some("object") => SymbolKind::Object,
            Some("notype") => SymbolKind::NoType,
            _ => {
                let p = ty.map(|(_, p)| p).unwrap_or(args[1].pos());
                self.error(p, "symbol type must be @function, @object or @notype");
                return;
            }
        };
        self.types.insert(name, kind);
    }

    fn size_directive(&mut self, args: &[Arg], pos: Pos) {
        if args.len() != 2 {
            self.error(pos, "'.size' expects NAME, EXPRESSION");
            return;
        }
        let Some((name, _)) = self.name_arg(&args[0], ".size") else { return };
        if self.pass != 2 {
            return;
        }
        let Arg::Expr(e) = &args[1] else {
            self.error(args[1].pos(), "'.size' expects a constant size");
            return;
        };
        let dot = self.here();
        match self.env().eval_const(e, Some(dot)) {
            Ok(v) if (0..=u32::MAX as i64).contains(&v) => {
                self.sizes.insert(name, v as u32);
            }
            Ok(v) => self.error(e.pos, format!("symbol size {v} out of range")),
            Err((p, m)) => self.error(p, m),
        }
    }

    fn equ_directive(&mut self, directive: &str, args: &[Arg], pos: Pos) {
        if args.len() != 2 {
            self.error(pos, format!("'{directive}' expects NAME, EXPRESSION"));
            return;
        }
        let Some((name, npos)) = self.name_arg(&args[0], directive) else { return };
        let Arg::Expr(e) = &args[1] else {
            self.error(args[1].pos(), format!("'{directive}' expects an expression"));
            return;
        };
        let dot = self.here();
        if self.pass != 1 {
            return;
        }
        if let Some(p) = self.label_pos.get(&name) {
            let line = p.line;
            self.error(npos, format!("'{name}' is already defined as a label at line {line}"));
            return;
        }
        if let Some(old) = self.equs.get(&name) {
            let line = old.pos.line;
            if line == 0 {
                self.error(npos, format!("'{name}' is predefined by the assembler from the machine description"));
            } else {
                self.error(npos, format!("'{name}' is already defined at line {line}"));
            }
            return;
        }
        self.equs.insert(name, Equ { expr: e.clone(), dot: Some(dot), pos: npos });
    }

    /// Data may not go into .bss; operations need a text section.
    fn check_not_bss(&mut self, name: &str, pos: Pos) -> bool {
        let s = self.current_section();
        if self.sections[s].kind == SectionKind::Bss {
            let sec = self.sections[s].name.clone();
            self.error(pos, format!("'{name}' in section '{sec}', which holds no data: use .zero/.space there"));
            return false;
        }
        true
    }

    fn data_ints(&mut self, name: &str, args: &[Arg], pos: Pos, size: u32) {
        if !self.check_not_bss(name, pos) {
            return;
        }
        if args.is_empty() {
            self.error(pos, format!("'{name}' needs at least one value"));
        }
        for a in args {
            let (s, offset) = self.here();
            if self.pass == 1 {
                self.emit_zeros(size);
                continue;
            }
            let Arg::Expr(e) = a else {
                self.error(a.pos(), format!("'{name}' expects numbers or symbols, not a string"));
                self.emit_zeros(size);
                continue;
            };
            let value = self.env().eval(e, Some((s, offset)));
            match value {
                Ok(Value::Abs(v)) => {
                    let (min, max) = match size {
                        8 => (i64::MIN, i64::MAX),
                        _ => (-(1i64 << (size * 8 - 1)), (1i64 << (size * 8)) - 1),
                    };
                    if v < min || v > max {
                        self.error(e.pos, format!("value {v} out of range for '{name}' [{min}, {max}]"));
                    }
                    let bytes = v.to_le_bytes();
                    self.emit(&bytes[..size as usize]);
                }
                Ok(Value::Rel { sym, addend }) => {
                    if size != 4 {
                        self.error(e.pos, format!("'{e}' refers to a symbol's address: only 4-byte '.word' data can be relocated"));
                    } else if let Some(symbol) = self.reloc_symbol(&sym, e) {
                        self.add_reloc(offset, RelocKind::Data32, symbol, addend);
                    }
                    self.emit_zeros(size);
                }
                Err((p, m)) => {
                    self.error(p, m);
                    self.emit_zeros(size);
                }
            }
        }
    }

    /// The symbol name a relocation can use for `sym`; `.` has none.
    pub(crate) fn reloc_symbol(&mut self, sym: &SymRef, e: &Expr) -> Option<String> {
        match sym {
            SymRef::Local { name: Some(n), .. } | SymRef::Undef(n) => Some(n.clone()),
            SymRef::Local { name: None, .. } => {
                self.error(e.pos, format!("'{e}' needs a relocation against '.', which has no symbol: use a label"));
                None
            }
        }
    }

    fn data_floats(&mut self, name: &str, args: &[Arg], pos: Pos) {
        if !self.check_not_bss(name, pos) {
            return;
        }
        let double = name == ".double";
        for a in args {
            let dot = self.here();
            let v = match a {
                Arg::Expr(e) if self.pass == 2 => match self.env().eval_float(e, Some(dot)) {
                    Ok(v) => v,
                    Err((p, m)) => {
                        self.error(p, m);
                        0.0
                    }
                },
                Arg::Expr(_) => 0.0,
                _ => {
                    self.error(a.pos(), format!("'{name}' expects numbers"));
                    0.0
                }
            };
            if double {
                self.emit(&v.to_le_bytes());
            } else {
                self.emit(&(v as f32).to_le_bytes());
            }
        }
    }

    fn data_strings(&mut self, name: &str, args: &[Arg], pos: Pos) {
        if !self.check_not_bss(name, pos) {
            return;
        }
        if args.is_empty() {
            self.error(pos, format!("'{name}' needs a string"));
        }
        for a in args {
            match a {
                Arg::Str(s, _) => {
                    self.emit(s);
                    if name != ".ascii" {
                        self.emit(&[0]);
                    }
                }
                _ => self.error(a.pos(), format!("'{name}' expects a string in double quotes")),
            }
        }
    }

    /// A size operand computed in pass 1 and reused in pass 2.
    fn layout_const(&mut self, idx: usize, e: &Expr) -> Option<i64> {
        let dot = self.here();
        if self.pass == 2 {
            return self.stmt_sizes.get(&idx).map(|&v| v as i64);
        }
        match self.env().eval_const(e, Some(dot)) {
            Ok(v) => Some(v),
            Err((p, m)) => {
                self.error(p, m);
                None
            }
        }
    }

    fn zero_directive(&mut self, idx: usize, name: &str, args: &[Arg], pos: Pos) {
        let Some(Arg::Expr(e)) = args.first() else {
            self.error(pos, format!("'{name}' expects a byte count"));
            return;
        };
        let Some(n) = self.layout_const(idx, e) else { return };
        if !(0..=MAX_SECTION as i64).contains(&n) {
            self.error(e.pos, format!("'{name}' size {n} out of range [0, {MAX_SECTION}]"));
            return;
        }
        self.stmt_sizes.insert(idx, n as u32);
        let mut fill = 0u8;
        if let Some(a) = args.get(1) {
            fill = self.fill_value(a, name);
        }
        let s = self.current_section();
        if fill != 0 && self.sections[s].kind == SectionKind::Bss {
            self.error(args[1].pos(), format!("'{name}' with a non-zero fill in a .bss section"));
        }
        if fill == 0 {
            self.emit_zeros(n as u32);
        } else {
            self.emit(&vec![fill; n as usize]);
        }
        if args.len() > 2 {
            self.error(args[2].pos(), format!("'{name}' takes at most 2 operands"));
        }
    }

    fn fill_value(&mut self, a: &Arg, name: &str) -> u8 {
        let Arg::Expr(e) = a else {
            self.error(a.pos(), format!("'{name}' fill must be a number"));
            return 0;
        };
        let dot = self.here();
        match self.env().eval_const(e, Some(dot)) {
            Ok(v) if (-128..=255).contains(&v) => v as u8,
            Ok(v) => {
                self.error(e.pos, format!("fill value {v} out of range [-128, 255]"));
                0
            }
            Err((p, m)) => {
                self.error(p, m);
                0
            }
        }
    }

    fn align_directive(&mut self, idx: usize, name: &str, args: &[Arg], pos: Pos) {
        let Some(Arg::Expr(e)) = args.first() else {
            self.error(pos, format!("'{name}' expects an alignment"));
            return;
        };
        let Some(n) = self.layout_const(idx, e) else { return };
        let align = if name == ".p2align" {
            if !(0..=16).contains(&n) {
                self.error(e.pos, format!("'.p2align' exponent {n} out of range [0, 16]"));
                return;
            }
            1u32 << n
        } else {
            if !(1..=65536).contains(&n) || (n & (n - 1)) != 0 {
                self.error(e.pos, format!("alignment {n} is not a power of two in [1, 65536]"));
                return;
            }
            n as u32
        };
        self.stmt_sizes.insert(idx, n as u32);
        let fill = args.get(1).map(|a| self.fill_value(a, name));
        let (s, off) = self.here();
        let sec = &mut self.sections[s];
        sec.align = sec.align.max(align);
        let pad = (align - off % align) % align;
        if pad == 0 {
            return;
        }
        let op_bytes = self.m.op_bytes();
        if sec.kind == SectionKind::Text && fill.is_none() && pad % op_bytes == 0 && off % op_bytes == 0 {
            // Code is padded with nop bundles.
            if let Some(nop) = self.m.nop_instr() {
                let mnemonic = self.m.instr(nop).mnemonic.clone();
                for _ in 0..pad / op_bytes {
                    self.emit_nop_bundle(&mnemonic, pos);
                }
                return;
            }
        }
        match fill {
            Some(f) if f != 0 => self.emit(&vec![f; pad as usize]),
            _ => self.emit_zeros(pad),
        }
    }
}

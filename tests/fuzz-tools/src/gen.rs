//! Structure-aware inputs: valid-but-unusual assembly from the machine's own
//! instruction list, LLVM IR and C from small grammars, `.isa` files
//! changed declaration by declaration.

use isa_tablegen::{ImmKind, Machine, OperandKind};
use rand::Rng;
use std::fmt::Write;

use crate::mutate::R;

fn pick<'a, T>(rng: &mut R, xs: &'a [T]) -> &'a T {
    &xs[rng.gen_range(0..xs.len())]
}

// ------------------------------------------------------------------ assembly

fn imm(rng: &mut R, kind: ImmKind, bits: u32) -> String {
    let b = bits.min(64) as i128;
    let (lo, hi): (i128, i128) = match kind {
        ImmKind::Signed => (-(1i128 << (b - 1)), (1i128 << (b - 1)) - 1),
        ImmKind::Unsigned => (0, (1i128 << b) - 1),
        ImmKind::Either => (-(1i128 << (b - 1)), (1i128 << b) - 1),
    };
    let v = match rng.gen_range(0..10) {
        0 => lo,
        1 => hi,
        2 => hi + 1,
        3 => lo - 1,
        4 => 0,
        5 => return format!("{}*{}", rng.gen_range(1..64), rng.gen_range(1..64)),
        6 => return format!("'{}'", pick(rng, &["a", "\\n", "\\0", "\\x41"])),
        _ => lo + (rng.gen::<u64>() as i128).rem_euclid(hi - lo + 1),
    };
    if rng.gen_bool(0.3) && v >= 0 {
        format!("{v:#x}")
    } else {
        format!("{v}")
    }
}

fn operation(rng: &mut R, m: &Machine, labels: &[String]) -> String {
    let ins = &m.instrs[rng.gen_range(0..m.instrs.len())];
    let mut s = String::new();
    if rng.gen_bool(0.1) {
        let _ = write!(s, "({}p{}) ", if rng.gen_bool(0.5) { "!" } else { "" }, rng.gen_range(0..8));
    }
    s.push_str(&ins.mnemonic);
    for (k, op) in ins.operands.iter().enumerate() {
        s.push_str(if k == 0 { " " } else { ", " });
        match op.kind {
            OperandKind::Reg(f) => {
                let rf = &m.regfiles[f.0 as usize];
                let n = if rng.gen_bool(0.02) { rf.count as u32 } else { rng.gen_range(0..rf.count.max(1) as u32) };
                let _ = write!(s, "{}{}", rf.name, n);
            }
            OperandKind::Imm(kind, bits) => s.push_str(&imm(rng, kind, bits)),
            OperandKind::PcRel(_) => {
                if labels.is_empty() || rng.gen_bool(0.2) {
                    let k = m.op_bytes() as i64 * rng.gen_range(-8..8);
                    let _ = write!(s, ".{}{}", if k < 0 { "-" } else { "+" }, k.abs());
                } else {
                    s.push_str(&labels[rng.gen_range(0..labels.len())]);
                }
            }
        }
    }
    s
}

/// A program of random operations (mostly one per bundle, some bundles of
/// several), labels, data directives with extreme values, sections.
pub fn gen_asm(rng: &mut R, m: &Machine) -> String {
    let mut out = String::from("        .text\n        .globl main\n        .type main, @function\nmain:\n");
    let nlabels = rng.gen_range(1..6);
    let labels: Vec<String> = (0..nlabels).map(|i| format!("L{i}")).collect();
    let mut placed = 0;
    let n = [5usize, 20, 60, 200, 2000][rng.gen_range(0..5)];
    for i in 0..n {
        if placed < nlabels && rng.gen_range(0..n) < nlabels {
            let _ = writeln!(out, "{}:", labels[placed]);
            placed += 1;
        }
        match rng.gen_range(0..20) {
            0 => {
                let k = rng.gen_range(2..5);
                let ops: Vec<String> = (0..k).map(|_| operation(rng, m, &labels)).collect();
                let _ = writeln!(out, "        {{ {} }}", ops.join(" ; "));
            }
            1 => {
                let d = match rng.gen_range(0..14) {
                    0 => format!(".word {}", pick(rng, &["0xffffffff", "-2147483648", "L0", "L0+4", "main-L0", "1<<31"])),
                    1 => format!(".byte {}", pick(rng, &["255", "-128", "256", "'a'", "1, 2, 3"])),
                    2 => format!(".zero {}", pick(rng, &["0", "1", "4096", "65536", "0x100000"])),
                    3 => format!(".align {}", pick(rng, &["1", "2", "8", "64", "4096", "3", "0"])),
                    4 => format!(".p2align {}", pick(rng, &["0", "2", "6", "12", "31", "32"])),
                    5 => format!(".equ N{i}, {}", pick(rng, &["1", "1+2*3", ".", "N0", "L0-main"])),
                    6 => format!(".float {}", pick(rng, &["1.5", "-0.0", "1e39", "1e-46", "3.4028235e38"])),
                    7 => format!(".double {}", pick(rng, &["1.5", "1e308", "2e308", "4.9e-324"])),
                    8 => ".nop_delay".to_string(),
                    9 => format!(".wait {}", m.instrs[rng.gen_range(0..m.instrs.len())].mnemonic),
                    10 => format!(".section .data.x{}", rng.gen_range(0..4)),
                    11 => pick(rng, &[".data", ".bss", ".text", ".text"]).to_string(),
                    12 => format!(".ascii \"{}\"", pick(rng, &["abc", "\\x00\\xff", "\\377", ""])),
                    _ => format!(".globl g{}\ng{}:", i, i),
                };
                let _ = writeln!(out, "        {d}");
            }
            _ => {
                let _ = writeln!(out, "        {}", operation(rng, m, &labels));
            }
        }
    }
    for l in &labels[placed..] {
        let _ = writeln!(out, "{l}:");
    }
    out.push_str("        .size main, .-main\n");
    out
}

// ------------------------------------------------------------------ IR

struct Ir<'a> {
    rng: &'a mut R,
    out: String,
    next: usize,
    block: usize,
    cur: String,
    /// Values in scope: (type, name).
    pool: Vec<(&'static str, String)>,
    budget: usize,
}

const INT_TYS: &[&str] = &["i32", "i32", "i32", "i8", "i16", "i64", "i1", "i32", "i64", "i32", "i32", "i16", "i8", "i32", "i128", "i7"];
const FP_TYS: &[&str] = &["float", "double"];
const VEC_TYS: &[&str] = &["<16 x i32>", "<4 x float>", "<8 x i16>", "<3 x i32>", "<16 x float>", "<32 x i8>", "<2 x i64>"];

impl Ir<'_> {
    fn val(&mut self) -> String {
        self.next += 1;
        format!("%v{}", self.next)
    }
    fn constant(&mut self, ty: &str) -> String {
        if ty.starts_with('<') {
            return pick(self.rng, &["zeroinitializer", "poison", "undef"]).to_string();
        }
        if ty == "float" || ty == "double" {
            return pick(self.rng, &["0.0", "1.5", "-0.0", "0x7FF0000000000000", "0x7FF8000000000000", "65536.0"]).to_string();
        }
        if ty == "i1" {
            return pick(self.rng, &["true", "false"]).to_string();
        }
        pick(self.rng, &["0", "1", "-1", "7", "31", "32", "255", "65535", "2147483647", "-2147483648", "4294967295", "123456789"]).to_string()
    }
    fn operand(&mut self, ty: &'static str) -> String {
        let have: Vec<String> = self.pool.iter().filter(|(t, _)| *t == ty).map(|(_, n)| n.clone()).collect();
        if have.is_empty() || self.rng.gen_bool(0.2) {
            self.constant(ty)
        } else {
            pick(self.rng, &have).clone()
        }
    }
    fn ty(&mut self) -> &'static str {
        match self.rng.gen_range(0..10) {
            0..=5 => INT_TYS[self.rng.gen_range(0..INT_TYS.len())],
            6 | 7 => FP_TYS[self.rng.gen_range(0..FP_TYS.len())],
            _ => VEC_TYS[self.rng.gen_range(0..VEC_TYS.len())],
        }
    }
    fn inst(&mut self) {
        self.budget = self.budget.saturating_sub(1);
        let ty = self.ty();
        let v = self.val();
        let is_fp = ty == "float" || ty == "double" || ty.contains("float");
        let line = match self.rng.gen_range(0..12) {
            0..=4 => {
                // (i1 arithmetic other than logic, and 128-bit multiplication,
                // division and variable shifts, are clean "cannot lower"
                // errors: rare, so that most modules reach the backend's
                // later stages.)
                let rare = self.rng.gen_bool(0.03);
                let ops: &[&str] = if is_fp {
                    &["fadd", "fsub", "fmul", "fdiv", "frem"]
                } else if ty == "i1" && !rare {
                    &["and", "or", "xor"]
                } else if ty == "i128" && !rare {
                    &["and", "or", "xor", "add", "sub"]
                } else {
                    &["add", "sub", "mul", "and", "or", "xor", "shl", "lshr", "ashr", "udiv", "sdiv", "urem", "srem", "add nsw", "mul nuw"]
                };
                let op = pick(self.rng, ops);
                let (a, b) = (self.operand(ty), self.operand(ty));
                format!("{v} = {op} {ty} {a}, {b}")
            }
            5 if !ty.starts_with('<') => {
                let a = self.operand(ty);
                let b = self.operand(ty);
                let c = if is_fp { "fcmp olt" } else { pick(self.rng, &["icmp slt", "icmp eq", "icmp ugt"]) };
                let cv = v.clone();
                let line = format!("{cv} = {c} {ty} {a}, {b}");
                let _ = writeln!(self.out, "  {line}");
                self.pool.push(("i1", cv));
                let s = self.val();
                let (x, y) = (self.operand(ty), self.operand(ty));
                let line = format!("{s} = select i1 {v}, {ty} {x}, {ty} {y}");
                let _ = writeln!(self.out, "  {line}");
                self.pool.push((ty, s));
                return;
            }
            6 if ty == "i32" => {
                let a = self.operand("i32");
                const TO: &[&str] = &["i8", "i16", "i64", "float", "double", "i1"];
                let to = TO[self.rng.gen_range(0..TO.len())];
                let op = match to {
                    "i64" => "sext",
                    "float" | "double" => "sitofp",
                    _ => "trunc",
                };
                let _ = writeln!(self.out, "  {v} = {op} i32 {a} to {to}");
                self.pool.push((to, v));
                return;
            }
            7 => {
                // Memory: a stack array, an address and a store then a load.
                let n = pick(self.rng, &["4", "16", "1000", "65536", "1073741824"]);
                let elt = if ty == "i1" { "i8" } else { ty };
                let _ = writeln!(self.out, "  {v} = alloca [{n} x {elt}], align 16");
                let idx = self.operand("i32");
                let g = self.val();
                let _ = writeln!(self.out, "  {g} = getelementptr inbounds [{n} x {elt}], ptr {v}, i32 0, i32 {idx}");
                let x = self.operand(ty);
                let vol = if self.rng.gen_bool(0.2) { "volatile " } else { "" };
                let _ = writeln!(self.out, "  store {vol}{ty} {x}, ptr {g}");
                let l = self.val();
                let _ = writeln!(self.out, "  {l} = load {vol}{ty}, ptr {g}");
                self.pool.push((ty, l));
                return;
            }
            8 if ty.starts_with('<') => {
                let a = self.operand(ty);
                let lanes: u32 = ty[1..].split(' ').next().unwrap().parse().unwrap();
                let i = if self.rng.gen_bool(0.97) { self.rng.gen_range(0..lanes) } else { self.rng.gen_range(0..40) };
                let elt = ty.split(" x ").nth(1).unwrap().trim_end_matches('>');
                let e = self.val();
                let _ = writeln!(self.out, "  {e} = extractelement {ty} {a}, i32 {i}");
                let elt: &'static str = match elt {
                    "i32" => "i32",
                    "float" => "float",
                    "i16" => "i16",
                    "i8" => "i8",
                    _ => "i64",
                };
                self.pool.push((elt, e));
                return;
            }
            9 if ty == "i32" || ty == "i64" => {
                const FS: &[&str] = &["smax", "umin", "ctpop", "ctlz", "fshl", "bswap", "abs"];
                let f = FS[self.rng.gen_range(0..FS.len())];
                let a = self.operand(ty);
                let args = match f {
                    "smax" | "umin" => format!("{ty} {a}, {ty} {}", self.operand(ty)),
                    "fshl" => format!("{ty} {a}, {ty} {}, {ty} {}", self.operand(ty), self.operand(ty)),
                    "ctlz" | "abs" => format!("{ty} {a}, i1 false"),
                    _ => format!("{ty} {a}"),
                };
                format!("{v} = call {ty} @llvm.{f}.{ty}({args})")
            }
            10 => {
                let a = self.operand("i32");
                format!("{v} = call i32 @ext(i32 {a}, ptr null)")
            }
            _ => {
                let a = self.operand(ty);
                let op = if is_fp { "fadd" } else { "add" };
                let b = self.constant(ty);
                format!("{v} = {op} {ty} {a}, {b}")
            }
        };
        let ty = if line.contains("@ext(") { "i32" } else { ty };
        let _ = writeln!(self.out, "  {line}");
        self.pool.push((ty, v));
    }
    fn new_block(&mut self) -> String {
        self.block += 1;
        format!("b{}", self.block)
    }
    fn start(&mut self, b: &str) {
        let _ = writeln!(self.out, "{b}:");
        self.cur = b.to_string();
    }
    fn region(&mut self, depth: u32) {
        while self.budget > 0 {
            match self.rng.gen_range(0..10) {
                0 if depth < 6 => {
                    // if-then: values of the arm are out of scope after it.
                    let c = self.operand("i1");
                    let (t, j) = (self.new_block(), self.new_block());
                    let _ = writeln!(self.out, "  br i1 {c}, label %{t}, label %{j}");
                    let keep = self.pool.len();
                    self.start(&t);
                    self.region(depth + 1);
                    let _ = writeln!(self.out, "  br label %{j}");
                    self.pool.truncate(keep);
                    self.start(&j);
                }
                1 if depth < 6 => {
                    // A counted loop in one block.
                    let (h, x) = (self.new_block(), self.new_block());
                    let pre = self.cur.clone();
                    let _ = writeln!(self.out, "  br label %{h}");
                    self.start(&h);
                    let i = self.val();
                    let inext = self.val();
                    let _ = writeln!(self.out, "  {i} = phi i32 [ 0, %{pre} ], [ {inext}, %{h} ]");
                    self.pool.push(("i32", i.clone()));
                    let n = self.rng.gen_range(1..8);
                    for _ in 0..n {
                        self.inst();
                    }
                    let _ = writeln!(self.out, "  {inext} = add i32 {i}, 1");
                    let c = self.val();
                    let lim = self.constant("i32");
                    let _ = writeln!(self.out, "  {c} = icmp slt i32 {inext}, {lim}");
                    let _ = writeln!(self.out, "  br i1 {c}, label %{h}, label %{x}");
                    self.start(&x);
                }
                2 if depth < 4 => {
                    // A switch whose cases all reach one join.
                    let s = self.operand("i32");
                    let j = self.new_block();
                    let k = *pick(self.rng, &[1usize, 3, 8, 64, 300]);
                    let cases: Vec<String> = (0..k).map(|_| self.new_block()).collect();
                    let mut line = format!("  switch i32 {s}, label %{j} [");
                    for (ci, c) in cases.iter().enumerate() {
                        let _ = write!(line, " i32 {}, label %{c}", ci as i64 * 3 - 7);
                    }
                    line.push_str(" ]");
                    let _ = writeln!(self.out, "{line}");
                    for c in &cases {
                        let keep = self.pool.len();
                        self.start(c);
                        self.budget = self.budget.saturating_sub(1);
                        if self.rng.gen_bool(0.5) {
                            self.inst();
                        }
                        self.pool.truncate(keep);
                        let _ = writeln!(self.out, "  br label %{j}");
                    }
                    self.start(&j);
                }
                3 if depth > 0 => return,
                _ => self.inst(),
            }
        }
    }
}

/// A module of one or two functions over integer, float and vector
/// values: arithmetic, compares and selects, stack arrays (some of a
/// gigabyte), intrinsics, calls, if-then arms, counted loops, switches.
pub fn gen_ir(rng: &mut R, header: &str) -> String {
    let mut out = String::new();
    out.push_str(header);
    out.push_str("declare i32 @ext(i32, ptr)\n");
    for f in ["smax", "umin", "ctpop", "ctlz", "fshl", "bswap", "abs"] {
        for ty in ["i32", "i64"] {
            let args = match f {
                "smax" | "umin" => format!("{ty}, {ty}"),
                "fshl" => format!("{ty}, {ty}, {ty}"),
                "ctlz" | "abs" => format!("{ty}, i1"),
                _ => ty.to_string(),
            };
            let _ = writeln!(out, "declare {ty} @llvm.{f}.{ty}({args})");
        }
    }
    let budget = *pick(rng, &[10usize, 40, 100, 300, 1500]);
    let mut g = Ir { rng, out, next: 0, block: 0, cur: "entry".into(), pool: vec![], budget };
    let _ = writeln!(g.out, "\ndefine i32 @f(i32 %a, i32 %b, float %x, i64 %w, <16 x i32> %vv) {{\nentry:");
    g.pool.extend([("i32", "%a".to_string()), ("i32", "%b".into()), ("float", "%x".into()), ("i64", "%w".into()), ("<16 x i32>", "%vv".into())]);
    g.region(0);
    let r = g.operand("i32");
    let _ = writeln!(g.out, "  ret i32 {r}\n}}");
    let _ = writeln!(
        g.out,
        "\ndefine i32 @main() {{\n  %r = call i32 @f(i32 1, i32 2, float 1.0, i64 3, <16 x i32> zeroinitializer)\n  ret i32 %r\n}}"
    );
    g.out
}

// ------------------------------------------------------------------ C

struct Cg<'a> {
    rng: &'a mut R,
    out: String,
    budget: usize,
    vars: Vec<(&'static str, String)>,
    n: usize,
}

impl Cg<'_> {
    fn var(&mut self, ty: &'static str) -> String {
        let have: Vec<String> = self.vars.iter().filter(|v| v.0 == ty).map(|v| v.1.clone()).collect();
        if have.is_empty() || self.rng.gen_bool(0.15) {
            pick(self.rng, &["0", "1", "7", "-1", "0x7fffffff", "255", "3"]).to_string()
        } else {
            pick(self.rng, &have).clone()
        }
    }
    fn expr(&mut self, ty: &'static str, depth: u32) -> String {
        if depth > 3 || self.rng.gen_bool(0.3) {
            return self.var(ty);
        }
        let ops: &[&str] = if ty == "double" || ty == "float" { &["+", "-", "*", "/"] } else { &["+", "-", "*", "&", "|", "^", "<<", ">>", "/", "%"] };
        let op = pick(self.rng, ops);
        let (a, b) = (self.expr(ty, depth + 1), self.expr(ty, depth + 1));
        if *op == "/" || *op == "%" {
            if ty == "double" || ty == "float" {
                return format!("({a} {op} ({b} + 1.5))");
            }
            return format!("({a} {op} (({b} & 7) + 1))");
        }
        if *op == "<<" || *op == ">>" {
            return format!("({a} {op} ({b} & 15))");
        }
        format!("({a} {op} {b})")
    }
    fn ind(&mut self, depth: u32) {
        for _ in 0..=depth {
            self.out.push_str("    ");
        }
    }
    fn stmts(&mut self, depth: u32) {
        let ty_list: &[&'static str] = &["int", "int", "unsigned", "long long", "double", "float", "short", "unsigned char"];
        while self.budget > 0 {
            self.budget -= 1;
            let ty = *pick(self.rng, ty_list);
            match self.rng.gen_range(0..12) {
                0 if depth < 8 => {
                    let c = self.expr("int", 1);
                    self.ind(depth);
                    let _ = writeln!(self.out, "if ({c} & 1) {{");
                    let keep = self.vars.len();
                    self.stmts(depth + 1);
                    self.vars.truncate(keep);
                    self.ind(depth);
                    self.out.push_str("} else {\n");
                    self.stmts(depth + 1);
                    self.vars.truncate(keep);
                    self.ind(depth);
                    self.out.push_str("}\n");
                }
                1 if depth < 8 => {
                    self.n += 1;
                    let i = format!("i{}", self.n);
                    let n = pick(self.rng, &["4", "16", "100", "n"]);
                    self.ind(depth);
                    let _ = writeln!(self.out, "for (int {i} = 0; {i} < {n}; {i}++) {{");
                    let keep = self.vars.len();
                    self.vars.push(("int", i));
                    self.stmts(depth + 1);
                    self.vars.truncate(keep);
                    self.ind(depth);
                    self.out.push_str("}\n");
                }
                2 if depth < 4 => {
                    let s = self.var("int");
                    self.ind(depth);
                    let _ = writeln!(self.out, "switch ({s} & 63) {{");
                    let k = *pick(self.rng, &[2usize, 8, 40]);
                    for c in 0..k {
                        self.ind(depth);
                        let e = self.expr("int", 2);
                        let _ = writeln!(self.out, "case {c}: sink += {e}; break;");
                    }
                    self.ind(depth);
                    self.out.push_str("default: break;\n");
                    self.ind(depth);
                    self.out.push_str("}\n");
                }
                3 => {
                    let e = self.expr("int", 1);
                    let v = self.var("int");
                    self.ind(depth);
                    let _ = writeln!(self.out, "arr[({v}) & 63] = {e};");
                }
                4 => {
                    let v = self.var("int");
                    self.ind(depth);
                    let _ = writeln!(self.out, "sink += arr[({v}) & 63] + f2(sink);");
                }
                5..=8 => {
                    self.n += 1;
                    let name = format!("x{}", self.n);
                    let e = self.expr(ty, 0);
                    self.ind(depth);
                    let _ = writeln!(self.out, "{ty} {name} = {e};");
                    self.vars.push((ty, name));
                }
                9 if depth > 0 => return,
                _ => {
                    let v = self.var("int");
                    let e = self.expr("int", 1);
                    self.ind(depth);
                    let _ = writeln!(self.out, "sink += {v} ^ (int)({e});");
                }
            }
        }
    }
}

/// A C file: one function of random statements (declarations of every
/// arithmetic type, nested if/else, counted loops, switches, array stores),
/// and a `main` calling it.
pub fn gen_c(rng: &mut R) -> String {
    let budget = *pick(rng, &[5usize, 20, 60, 200, 800]);
    let out = String::from("int sink;\nint arr[64];\nint f2(int x) { return x * 3 + 1; }\n\nint f(int a, int b, int n, double d) {\n");
    let mut g = Cg { rng, out, budget, vars: vec![("int", "a".into()), ("int", "b".into()), ("int", "n".into()), ("double", "d".into())], n: 0 };
    g.stmts(0);
    g.out.push_str("    return sink;\n}\n\nint main(void) { return f(1, 2, 3, 0.5) & 0; }\n");
    g.out
}

// ------------------------------------------------------------------ .isa

/// A shipped description changed declaration by declaration: instructions
/// copied under new names (hundreds of them), register files and units of
/// extreme sizes, latencies and delay slots at their limits, lines dropped
/// or moved, names swapped.
pub fn mutate_isa(rng: &mut R, text: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    for _ in 0..1 + rng.gen_range(0..3) {
        if lines.is_empty() {
            break;
        }
        let k = rng.gen_range(0..lines.len());
        match rng.gen_range(0..8) {
            0 => {
                // An instruction copied under new names.
                let insts: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].trim_start().starts_with("inst ")).collect();
                if let Some(&i) = insts.get(rng.gen_range(0..insts.len().max(1))) {
                    let times = *pick(rng, &[1usize, 10, 300, 3000]);
                    let l = lines[i].clone();
                    let mut words = l.split_whitespace();
                    let _ = words.next();
                    let name = words.next().unwrap_or("x").to_string();
                    for t in 0..times {
                        lines.insert(i + 1, l.replacen(&name, &format!("{name}_{t}"), 1));
                    }
                }
            }
            1 => {
                // A number at an extreme.
                let nums = ["0", "1", "2", "64", "65", "255", "256", "4096", "65535", "65536", "4294967295", "4294967296", "0xffffffff", "99999999999999999999", "-1"];
                let words: Vec<String> = lines[k].split(' ').map(String::from).collect();
                let pos: Vec<usize> = (0..words.len()).filter(|&i| words[i].chars().next().is_some_and(|c| c.is_ascii_digit())).collect();
                if !pos.is_empty() {
                    let mut words = words;
                    let p = pos[rng.gen_range(0..pos.len())];
                    words[p] = pick(rng, &nums).to_string();
                    lines[k] = words.join(" ");
                }
            }
            2 => {
                lines.remove(k);
            }
            3 => {
                let l = lines.remove(k);
                let to = rng.gen_range(0..=lines.len());
                lines.insert(to, l);
            }
            4 => {
                // A name replaced by another name of the file.
                let words: Vec<&str> = text.split(|c: char| !c.is_alphanumeric() && c != '_').filter(|w| w.len() > 1 && !w.chars().next().unwrap().is_ascii_digit()).collect();
                if words.len() > 2 {
                    let a = pick(rng, &words).to_string();
                    let b = pick(rng, &words).to_string();
                    lines[k] = lines[k].replacen(&a, &b, 1);
                }
            }
            5 => {
                let extra = [
                    "regfile q count 65535 width 32 read 1 write 1",
                    "regfile w count 4 lanes 1024 x 64 read 2 write 1",
                    "regfile z count 0 width 0 read 0 write 0",
                    "unit huge kind scalar count 65535",
                    "bundle max_ops 1000",
                    "delay_slots 4294967295",
                    "delay_slots 0",
                    "memory base 0xfffff000 size 0x10000 null_guard 0",
                    "memory base 0x00000000 size 0xffffffff null_guard 0xffffffff",
                    "slot s99 feeds salu salu salu",
                    "abi stack_align 0",
                    "abi stack_align 4294967296",
                    "link p0",
                    "base \"ftm.isa\"",
                    "base \"ftm8.isa\"",
                ];
                lines.insert(k, pick(rng, &extra).to_string());
            }
            6 => {
                let l = lines[k].clone();
                let times = *pick(rng, &[2usize, 50, 2000]);
                for _ in 0..times {
                    lines.insert(k, l.clone());
                }
            }
            _ => {
                // A latency or occupancy at its limit.
                let l = &lines[k];
                if let Some(p) = l.find(" lat ") {
                    let rest: String = l[p + 5..].chars().skip_while(|c| c.is_ascii_digit()).collect();
                    let v = pick(rng, &["0", "1", "255", "256", "65536", "4294967295"]);
                    lines[k] = format!("{} lat {v}{rest}", &l[..p]);
                }
            }
        }
    }
    let mut s = lines.join("\n");
    s.push('\n');
    s
}

/// A variant of a shipped machine that is likely still valid but unusual:
/// latencies and occupancies from 1 to 40, unit counts and register ports
/// down to 1, bundles of 1 to 16 operations, 0 to 5 delay slots, slots
/// dropped, instructions dropped (each with probability 1/20). Used as
/// `--isa` for the assembler and the compiler.
pub fn vary_isa(rng: &mut R, text: &str) -> String {
    let mut out = String::new();
    let p = rng.gen_range(0.02..0.3);
    for line in text.lines() {
        let t = line.trim_start();
        if (t.starts_with("inst ") || t.starts_with("slot ")) && rng.gen_bool(0.05) {
            continue;
        }
        let mut words: Vec<String> = line.split(' ').map(String::from).collect();
        for i in 1..words.len() {
            if words[i].parse::<u64>().is_err() || !rng.gen_bool(p) {
                continue;
            }
            let v = match words[i - 1].as_str() {
                "lat" => rng.gen_range(1..=40),
                "busy" => rng.gen_range(1..=40),
                "count" if t.starts_with("unit ") => rng.gen_range(1..=4),
                "read" | "write" => rng.gen_range(1..=16),
                "max_ops" => rng.gen_range(1..=16),
                "delay_slots" => rng.gen_range(0..=5),
                "stack_align" => *pick(rng, &[4u64, 8, 16, 64, 128, 4096]),
                _ => continue,
            };
            words[i] = v.to_string();
        }
        out.push_str(&words.join(" "));
        out.push('\n');
    }
    out
}

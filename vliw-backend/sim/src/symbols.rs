//! Function symbols of an executable, for the simulator's messages, traces
//! and per-function statistics: each function's address range, which ends
//! at the next function or at the end of its text segment, so that a pc in
//! no function (a wild jump) is named as such.

use dsp_obj::Executable;

/// How [`Program::describe`] names a pc in no function symbol.
pub const OUTSIDE: &str = "outside any symbol";

/// A function symbol, for messages, traces and per-function statistics.
#[derive(Clone, Debug)]
pub struct Func {
    pub name: String,
    pub addr: u32,
    pub end: u32,
}

/// Function symbols sorted by address; a symbol of size 0 extends to the
/// next, and no symbol past the end of its text segment (so a wild pc is
/// outside every symbol, not `main+0x123445d0`).
pub fn functions(exe: &Executable) -> Vec<Func> {
    use dsp_obj::SymbolKind;
    let mut syms: Vec<&dsp_obj::ExeSymbol> = exe.symbols.iter().filter(|s| s.kind == SymbolKind::Func).collect();
    if syms.is_empty() {
        // Untyped labels in text are better than nothing.
        let texts: Vec<_> = exe.segments.iter().filter(|s| s.flags.exec).collect();
        syms = exe
            .symbols
            .iter()
            .filter(|s| texts.iter().any(|t| s.addr >= t.addr && (s.addr as u64) < t.addr as u64 + t.mem_size.max(t.data.len() as u32) as u64))
            .collect();
    }
    syms.sort_by(|a, b| a.addr.cmp(&b.addr).then(b.global.cmp(&a.global)));
    syms.dedup_by_key(|s| s.addr);
    // Text segments by address (they do not overlap).
    let mut texts: Vec<(u64, u64)> =
        exe.segments.iter().filter(|t| t.flags.exec).map(|t| (t.addr as u64, t.addr as u64 + t.mem_size as u64)).collect();
    texts.sort_unstable();
    let mut out: Vec<Func> = Vec::new();
    for (i, s) in syms.iter().enumerate() {
        let a = s.addr as u64;
        let k = texts.partition_point(|&(lo, _)| lo <= a);
        let text_end = k
            .checked_sub(1)
            .map(|k| texts[k])
            .filter(|&(_, hi)| a < hi)
            .map(|(_, hi)| hi.min(u32::MAX as u64) as u32)
            .unwrap_or(s.addr);
        let next = syms.get(i + 1).map(|n| n.addr).unwrap_or(u32::MAX).min(text_end);
        let end = if s.size > 0 { s.addr.saturating_add(s.size).min(next) } else { next };
        out.push(Func { name: s.name.clone(), addr: s.addr, end });
    }
    out
}

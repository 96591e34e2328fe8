//! The link map written by `--map`: output sections with their addresses and
//! sizes, the input sections in each, and every symbol of the executable by
//! address.

use std::fmt::Write as _;

use dsp_obj::{ExeSymbol, Executable, SymbolKind};

use crate::layout::Layout;
use crate::resolve::Selection;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapInput {
    /// `a.o(.text)`.
    pub name: String,
    pub addr: u32,
    pub size: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapSection {
    pub name: String,
    pub addr: u32,
    pub size: u32,
    pub align: u32,
    pub inputs: Vec<MapInput>,
}

/// What the linker did, for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkMap {
    pub machine: String,
    pub entry: u32,
    pub sections: Vec<MapSection>,
    /// Sorted by address, then name.
    pub symbols: Vec<ExeSymbol>,
    pub linker_symbols: Vec<(String, u32)>,
}

impl LinkMap {
    pub fn new(sel: &Selection<'_>, lay: &Layout, exe: &Executable) -> LinkMap {
        let sections = lay
            .outputs
            .iter()
            .map(|o| MapSection {
                name: o.name.into(),
                addr: o.addr,
                size: o.size,
                align: o.align,
                inputs: o
                    .inputs
                    .iter()
                    .map(|p| {
                        let obj = sel.objects[p.object];
                        MapInput {
                            name: format!("{}({})", obj.name, obj.object.sections[p.section].name),
                            addr: p.addr,
                            size: p.size,
                        }
                    })
                    .collect(),
            })
            .collect();
        let mut symbols: Vec<ExeSymbol> = exe.symbols.clone();
        symbols.sort_by(|a, b| (a.addr, &a.name).cmp(&(b.addr, &b.name)));
        LinkMap {
            machine: format!(
                "{} (fingerprint {:016x})",
                exe.machine.name, exe.machine.fingerprint
            ),
            entry: exe.entry,
            sections,
            symbols,
            linker_symbols: lay
                .linker_symbols
                .iter()
                .map(|(n, a)| (n.to_string(), *a))
                .collect(),
        }
    }

    /// The map as text.
    pub fn render(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "Link map\n\nMachine: {}\nEntry:   {:#010x}\n",
            self.machine, self.entry
        );
        let _ = writeln!(
            s,
            "Output sections\n{:<28} {:>10} {:>10} {:>6}",
            "name", "address", "size", "align"
        );
        for sec in &self.sections {
            let _ = writeln!(
                s,
                "{:<28} {:#010x} {:#10x} {:>6}",
                sec.name, sec.addr, sec.size, sec.align
            );
            for i in &sec.inputs {
                let _ = writeln!(s, "  {:<26} {:#010x} {:#10x}", i.name, i.addr, i.size);
            }
        }
        let _ = writeln!(s, "\nLinker symbols");
        for (n, a) in &self.linker_symbols {
            let _ = writeln!(s, "  {n:<26} {a:#010x}");
        }
        let _ = writeln!(
            s,
            "\nSymbols\n{:<10} {:>10} {:<6} {:<6} name",
            "address", "size", "kind", "bind"
        );
        for sym in &self.symbols {
            let kind = match sym.kind {
                SymbolKind::Func => "func",
                SymbolKind::Object => "object",
                SymbolKind::NoType => "-",
            };
            let bind = if sym.global { "global" } else { "local" };
            let _ = writeln!(
                s,
                "{:#010x} {:#10x} {kind:<6} {bind:<6} {}",
                sym.addr, sym.size, sym.name
            );
        }
        s
    }
}

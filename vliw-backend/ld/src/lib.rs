//! dsp-ld: the static linker. Combines relocatable objects and archives into
//! an executable laid out by the machine's memory map.
//!
//! [`link`] runs the whole link: [`resolve`] picks the objects (archive
//! members only when they define a symbol still undefined) and binds symbols,
//! [`layout`] assigns addresses and defines the linker symbols, [`reloc`]
//! patches the relocated words, and [`map`] describes the result for `--map`.
//! Every machine fact (memory map, operation width, encodings) comes from the
//! `isa_tablegen::Machine`.

pub mod ar;
pub mod gc;
pub mod input;
pub mod layout;
pub mod map;
pub mod reloc;
pub mod resolve;

#[cfg(test)]
mod testutil;

use std::fmt;

use dsp_obj::{ExeSymbol, Executable, SymbolKind};
use isa_tablegen::Machine;

pub use input::{Input, InputObject};
pub use map::LinkMap;

/// Default stack size: 1 MiB.
pub const DEFAULT_STACK_SIZE: u32 = 1 << 20;
/// Default entry symbol.
pub const DEFAULT_ENTRY: &str = "_start";

/// What the link is asked to do beyond its inputs.
#[derive(Clone, Debug)]
pub struct LinkOptions {
    /// The machine to link for; `None` = the shipped machine the inputs name.
    pub machine: Option<Machine>,
    /// Entry symbol (`-e`).
    pub entry: String,
    /// Bytes reserved for the stack below `__stack_top`.
    pub stack_size: u32,
    /// `--gc-sections`: drop sections nothing reachable refers to.
    pub gc_sections: bool,
    /// `--start-group`/`--end-group`: ranges of input indices whose archives
    /// are searched again until no member is added.
    pub groups: Vec<std::ops::Range<usize>>,
    /// `--defsym NAME=VALUE`, in order.
    pub defsyms: Vec<(String, Defsym)>,
}

/// The value of a `--defsym`: a number, or another symbol plus an offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Defsym {
    Value(u32),
    Symbol(String, i64),
}

impl Defsym {
    /// Parses `VALUE` (decimal or 0x hex), `SYM`, `SYM+N` or `SYM-N`.
    pub fn parse(text: &str) -> Result<Defsym, String> {
        let t = text.trim();
        let num = |s: &str| -> Option<i64> {
            let s = s.trim();
            match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
                Some(h) => i64::from_str_radix(h, 16).ok(),
                None => s.parse().ok(),
            }
        };
        if let Some(v) = num(t) {
            return u32::try_from(v).map(Defsym::Value).map_err(|_| format!("--defsym value '{t}' does not fit 32 bits"));
        }
        let split = t[1..].find(['+', '-']).map(|k| k + 1);
        let (name, off) = match split {
            Some(k) => {
                let n = num(&t[k + 1..]).ok_or_else(|| format!("bad --defsym expression '{t}'"))?;
                (&t[..k], if &t[k..k + 1] == "-" { -n } else { n })
            }
            None => (t, 0),
        };
        let name = name.trim();
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || "_.$".contains(c)) {
            return Err(format!("bad --defsym expression '{t}'"));
        }
        Ok(Defsym::Symbol(name.to_string(), off))
    }
}

impl Default for LinkOptions {
    fn default() -> Self {
        LinkOptions {
            machine: None,
            entry: DEFAULT_ENTRY.into(),
            stack_size: DEFAULT_STACK_SIZE,
            gc_sections: false,
            groups: Vec::new(),
            defsyms: Vec::new(),
        }
    }
}

/// One or more link errors. Displayed one per line as `dsp-ld: error: MESSAGE`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkError {
    pub messages: Vec<String>,
}

impl LinkError {
    pub fn new(message: impl Into<String>) -> Self {
        LinkError {
            messages: vec![message.into()],
        }
    }
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, m) in self.messages.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "dsp-ld: error: {m}")?;
        }
        Ok(())
    }
}

impl std::error::Error for LinkError {}

/// A finished link: the executable and its link map.
#[derive(Clone, Debug)]
pub struct Linked {
    pub executable: Executable,
    pub map: LinkMap,
}

/// Links `inputs` (in command-line order) into an executable.
pub fn link(inputs: &[Input], opts: &LinkOptions) -> Result<Executable, LinkError> {
    link_with_map(inputs, opts).map(|l| l.executable)
}

/// Links and also returns the link map.
pub fn link_with_map(inputs: &[Input], opts: &LinkOptions) -> Result<Linked, LinkError> {
    let predefined: Vec<String> = opts.defsyms.iter().map(|(n, _)| n.clone()).collect();
    let mut sel = resolve::select(inputs, &opts.entry, &opts.groups, &predefined)?;
    let machine = match &opts.machine {
        Some(m) => std::borrow::Cow::Borrowed(m),
        None => std::borrow::Cow::Owned(resolve::load_machine(&sel)?),
    };
    resolve::check_machine(&sel, &machine, opts.machine.is_some())?;
    resolve::check_symbols(&sel, &machine)?;
    if opts.gc_sections {
        let mut roots = vec![opts.entry.as_str()];
        for (_, d) in &opts.defsyms {
            if let Defsym::Symbol(s, _) = d {
                roots.push(s);
            }
        }
        gc::collect(&mut sel, &roots);
    }
    let mut lay = layout::layout(&sel, &machine, opts.stack_size)?;
    let mut syms = resolve::bind(&sel, &lay)?;
    for (name, d) in &opts.defsyms {
        let v = match d {
            Defsym::Value(v) => *v,
            Defsym::Symbol(s, off) => {
                let base = syms.global(s).ok_or_else(|| LinkError::new(format!("--defsym {name}: undefined symbol '{s}'")))?;
                (base as i64 + off) as u32
            }
        };
        syms.define(name, v);
    }
    reloc::apply(&sel, &machine, &lay.placement, &syms, &mut lay.outputs)?;
    let entry = syms
        .global(&opts.entry)
        .ok_or_else(|| LinkError::new(format!("entry symbol '{}' is not defined", opts.entry)))?;

    let mut symbols: Vec<ExeSymbol> = Vec::new();
    for (oi, o) in sel.objects.iter().enumerate() {
        for s in &o.object.symbols {
            let Some(sec) = s.section else { continue };
            if !sel.is_live(oi, sec) {
                continue;
            }
            if matches!(s.kind, SymbolKind::Func | SymbolKind::Object) || s.global {
                symbols.push(ExeSymbol {
                    name: s.name.clone(),
                    addr: (lay.placement[oi][sec] + s.value as u64) as u32,
                    size: s.size,
                    kind: s.kind,
                    global: s.global,
                });
            }
        }
    }
    for (name, addr) in &lay.linker_symbols {
        if !syms.defined_by_input(name) {
            symbols.push(ExeSymbol {
                name: name.to_string(),
                addr: *addr,
                size: 0,
                kind: SymbolKind::NoType,
                global: true,
            });
        }
    }
    for (name, _) in &opts.defsyms {
        if let Some(addr) = syms.global(name) {
            symbols.retain(|s| !(s.global && &s.name == name));
            symbols.push(ExeSymbol { name: name.clone(), addr, size: 0, kind: SymbolKind::NoType, global: true });
        }
    }
    // Locals first, as the executable's symbol table stores them.
    symbols.sort_by_key(|s| s.global);
    let executable = Executable {
        machine: sel.objects[0].object.machine.clone(),
        entry,
        segments: lay.segments(),
        symbols,
    };
    let map = LinkMap::new(&sel, &lay, &executable);
    Ok(Linked { executable, map })
}

#[cfg(test)]
#[path = "link_tests.rs"]
mod tests;

#[cfg(test)]
mod crt0_tests;

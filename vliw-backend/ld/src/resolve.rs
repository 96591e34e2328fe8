//! Symbol resolution: which objects take part (archive members only when
//! they define a symbol that is still undefined, re-scanning each archive to
//! a fixpoint, in command-line order like GNU ld), duplicate and undefined
//! symbols, the machine check, and the final symbol addresses.

use std::collections::{BTreeSet, HashMap, HashSet};

use dsp_obj::{ObjectFile, Reloc};
use isa_tablegen::Machine;

use crate::input::{Input, InputObject};
use crate::layout::{Layout, LINKER_SYMBOLS};
use crate::LinkError;

/// The objects taking part in the link, in link order.
#[derive(Debug)]
pub struct Selection<'a> {
    pub objects: Vec<&'a InputObject>,
    /// Duplicate-definition messages, reported by [`check_symbols`].
    duplicates: Vec<String>,
    /// Global name -> defining object.
    pub defined: HashMap<&'a str, usize>,
    /// Names defined on the command line (`--defsym`).
    pub predefined: HashSet<String>,
    /// `--gc-sections`: which sections are kept (`live[object][section]`); `None`: all.
    pub live: Option<Vec<Vec<bool>>>,
}

impl Selection<'_> {
    /// Whether section `si` of object `oi` is part of the output.
    pub fn is_live(&self, oi: usize, si: usize) -> bool {
        self.live.as_ref().is_none_or(|l| l[oi][si])
    }
}

/// Global symbols defined by an object.
fn definitions(o: &ObjectFile) -> impl Iterator<Item = &str> {
    o.symbols
        .iter()
        .filter(|s| s.global && s.section.is_some())
        .map(|s| s.name.as_str())
}

/// Names an object references without defining.
fn references(o: &ObjectFile) -> impl Iterator<Item = &str> {
    o.symbols
        .iter()
        .filter(|s| s.section.is_none())
        .map(|s| s.name.as_str())
}

struct Selector<'a> {
    objects: Vec<&'a InputObject>,
    /// Global name -> index of the defining object.
    defined: HashMap<&'a str, usize>,
    undefined: HashSet<&'a str>,
    errors: Vec<String>,
}

impl<'a> Selector<'a> {
    fn add(&mut self, o: &'a InputObject) {
        let index = self.objects.len();
        self.objects.push(o);
        for name in definitions(&o.object) {
            if let Some(&first) = self.defined.get(name) {
                self.errors.push(format!(
                    "duplicate symbol '{name}': defined in {} and {}",
                    self.objects[first].name, o.name
                ));
            } else {
                self.defined.insert(name, index);
                self.undefined.remove(name);
            }
        }
        for name in references(&o.object) {
            if !self.defined.contains_key(name) {
                self.undefined.insert(name);
            }
        }
    }

    /// Takes the members of an archive that define undefined symbols, to a
    /// fixpoint; `taken` remembers them across calls. Whether any was taken.
    ///
    /// The order is GNU ld's: passes over the members in archive order, each
    /// taking every member that defines a symbol undefined at that moment,
    /// until a pass takes none. Each member counts its definitions that are
    /// undefined now, kept up to date through an index of the members by the
    /// names they define, so the next member a pass takes is found without
    /// rescanning the archive (a chain of 5,000 members in reverse order took
    /// 5,000 passes).
    fn scan_archive(&mut self, members: &'a [InputObject], taken: &mut [bool]) -> bool {
        let mut definers: HashMap<&'a str, Vec<usize>> = HashMap::new();
        let mut count = vec![0u32; members.len()];
        for (k, m) in members.iter().enumerate() {
            if taken[k] {
                continue;
            }
            for name in definitions(&m.object) {
                definers.entry(name).or_default().push(k);
                if self.undefined.contains(name) {
                    count[k] += 1;
                }
            }
        }
        let mut wanted: BTreeSet<usize> = (0..members.len()).filter(|&k| count[k] > 0).collect();
        let mut any = false;
        let mut cursor = 0;
        loop {
            // The next member of this pass, else the first of a new pass.
            let k = match wanted.range(cursor..).next().or_else(|| wanted.first()) {
                Some(&k) => k,
                None => return any,
            };
            wanted.remove(&k);
            taken[k] = true;
            any = true;
            cursor = k + 1;
            let m = &members[k];
            let gone: HashSet<&'a str> = definitions(&m.object).filter(|n| self.undefined.contains(n)).collect();
            let new: HashSet<&'a str> =
                references(&m.object).filter(|n| !self.defined.contains_key(n) && !self.undefined.contains(n)).collect();
            self.add(m);
            for name in gone.into_iter().filter(|n| !self.undefined.contains(n)) {
                for &j in definers.get(name).into_iter().flatten() {
                    if !taken[j] {
                        count[j] -= 1;
                        if count[j] == 0 {
                            wanted.remove(&j);
                        }
                    }
                }
            }
            for name in new.into_iter().filter(|n| self.undefined.contains(n)) {
                for &j in definers.get(name).into_iter().flatten() {
                    if !taken[j] {
                        count[j] += 1;
                        wanted.insert(j);
                    }
                }
            }
        }
    }
}

/// Chooses the objects of the link ([`check_symbols`] reports duplicate and
/// undefined symbols). The archives of each `group` (input index ranges,
/// `--start-group`/`--end-group`) are scanned again until none adds a
/// member; `predefined` names (`--defsym`) need no definition.
pub fn select<'a>(
    inputs: &'a [Input],
    entry: &'a str,
    groups: &[std::ops::Range<usize>],
    predefined: &[String],
) -> Result<Selection<'a>, LinkError> {
    let mut s = Selector {
        objects: Vec::new(),
        defined: HashMap::new(),
        undefined: HashSet::new(),
        errors: Vec::new(),
    };
    s.undefined.insert(entry);
    let mut taken: Vec<Vec<bool>> = inputs
        .iter()
        .map(|i| match i {
            Input::Archive { members, .. } => vec![false; members.len()],
            Input::Object(_) => Vec::new(),
        })
        .collect();
    let mut i = 0;
    while i < inputs.len() {
        let end = groups.iter().find(|g| g.start == i && g.end > i).map_or(i + 1, |g| g.end.min(inputs.len()));
        let mut first = true;
        loop {
            let mut added = false;
            for j in i..end {
                match &inputs[j] {
                    Input::Object(o) if first => s.add(o),
                    Input::Object(_) => {}
                    Input::Archive { members, .. } => {
                        for p in predefined {
                            s.undefined.remove(p.as_str());
                        }
                        added |= s.scan_archive(members, &mut taken[j]);
                    }
                }
            }
            first = false;
            if !added || end == i + 1 {
                break;
            }
        }
        i = end;
    }
    if s.objects.is_empty() {
        return Err(LinkError::new("no input objects"));
    }
    Ok(Selection {
        objects: s.objects,
        duplicates: s.errors,
        defined: s.defined,
        predefined: predefined.iter().cloned().collect(),
        live: None,
    })
}

/// Reports duplicate definitions, else every undefined symbol.
pub fn check_symbols(sel: &Selection<'_>, machine: &Machine) -> Result<(), LinkError> {
    if !sel.duplicates.is_empty() {
        return Err(LinkError {
            messages: sel.duplicates.clone(),
        });
    }
    let onchip: Vec<String> = crate::layout::onchip_symbols(machine).into_iter().map(|(n, _)| n).collect();
    check_undefined(sel, &sel.defined, &onchip)
}

/// Lists every symbol referenced by a relocation that nothing defines, with
/// its first reference.
fn check_undefined(sel: &Selection<'_>, defined: &HashMap<&str, usize>, onchip: &[String]) -> Result<(), LinkError> {
    let mut seen = HashSet::new();
    let mut errors = Vec::new();
    for o in &sel.objects {
        for sec in &o.object.sections {
            for r in &sec.relocs {
                let Some(sym) = o.object.symbols.get(r.symbol) else {
                    errors.push(format!(
                        "{}({}+{:#x}): relocation names symbol {} which does not exist",
                        o.name, sec.name, r.offset, r.symbol
                    ));
                    continue;
                };
                if sym.section.is_some()
                    || defined.contains_key(sym.name.as_str())
                    || sel.predefined.contains(&sym.name)
                    || LINKER_SYMBOLS.contains(&sym.name.as_str())
                    || onchip.contains(&sym.name)
                {
                    continue;
                }
                if seen.insert(sym.name.as_str()) {
                    errors.push(format!(
                        "undefined symbol '{}' (referenced from {}({}+{:#x}))",
                        sym.name, o.name, sec.name, r.offset
                    ));
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

/// Loads the shipped machine the first object names.
pub fn load_machine(sel: &Selection<'_>) -> Result<Machine, LinkError> {
    let first = &sel.objects[0];
    let name = &first.object.machine.name;
    Machine::load(name).map_err(|d| {
        LinkError::new(format!(
            "cannot load machine '{name}' (named by {}): {d}",
            first.name
        ))
    })
}

/// All objects must be built for one machine, the one being linked for.
pub fn check_machine(
    sel: &Selection<'_>,
    machine: &Machine,
    from_isa: bool,
) -> Result<(), LinkError> {
    let first = &sel.objects[0];
    let a = &first.object.machine;
    for o in &sel.objects[1..] {
        let b = &o.object.machine;
        if b != a {
            return Err(LinkError::new(format!(
                "machine mismatch: {} was built for '{}' (fingerprint {:016x}) but {} for '{}' (fingerprint {:016x})",
                o.name, b.name, b.fingerprint, first.name, a.name, a.fingerprint
            )));
        }
    }
    if a.name != machine.name || a.fingerprint != machine.fingerprint {
        let source = if from_isa {
            "given by --isa"
        } else {
            "shipped with dsp-ld"
        };
        return Err(LinkError::new(format!(
            "machine mismatch: {} was built for '{}' (fingerprint {:016x}) but the machine '{}' {source} has fingerprint {:016x}",
            first.name, a.name, a.fingerprint, machine.name, machine.fingerprint
        )));
    }
    Ok(())
}

/// Final addresses of the global and linker-defined symbols.
#[derive(Debug)]
pub struct Symbols {
    globals: HashMap<String, u32>,
    linker: HashMap<String, u32>,
}

impl Symbols {
    /// Address of a global symbol (inputs first, then the linker's).
    pub fn global(&self, name: &str) -> Option<u32> {
        self.globals
            .get(name)
            .copied()
            .or_else(|| self.linker.get(name).copied())
    }

    /// Defines (or redefines) a global: `--defsym`.
    pub fn define(&mut self, name: &str, addr: u32) {
        self.globals.insert(name.to_string(), addr);
    }

    pub fn defined_by_input(&self, name: &str) -> bool {
        self.globals.contains_key(name)
    }

    /// Value S of the symbol a relocation of object `oi` names.
    pub fn target(
        &self,
        sel: &Selection<'_>,
        layout_placement: &[Vec<u64>],
        oi: usize,
        r: &Reloc,
    ) -> Option<u64> {
        let s = sel.objects[oi].object.symbols.get(r.symbol)?;
        match s.section {
            Some(sec) => Some(layout_placement[oi][sec] + s.value as u64),
            None => self.global(&s.name).map(u64::from),
        }
    }
}

/// Computes the addresses of all global symbols once the layout is known.
pub fn bind(sel: &Selection<'_>, lay: &Layout) -> Result<Symbols, LinkError> {
    let mut globals = HashMap::new();
    for (oi, o) in sel.objects.iter().enumerate() {
        for s in &o.object.symbols {
            if let (true, Some(sec)) = (s.global, s.section) {
                globals.insert(
                    s.name.clone(),
                    (lay.placement[oi][sec] + s.value as u64) as u32,
                );
            }
        }
    }
    let linker = lay.linker_symbols.iter().cloned().collect();
    Ok(Symbols { globals, linker })
}

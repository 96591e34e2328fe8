//! `--gc-sections`: only the sections reachable from the entry symbol (and
//! the `--defsym` targets) through relocations are kept. Each input section
//! is a unit, so compiling with `-ffunction-sections -fdata-sections` (a
//! section per function and object) lets whole functions go.

use std::collections::HashMap;

use crate::resolve::Selection;

/// The section defining global `name`, as (object, section).
fn definition(sel: &Selection<'_>, name: &str) -> Option<(usize, usize)> {
    let &oi = sel.defined.get(name)?;
    let sym = sel.objects[oi].object.symbols.iter().find(|s| s.global && s.name == name)?;
    Some((oi, sym.section?))
}

/// Marks the live sections of `sel` from the `roots` (symbol names).
pub fn collect(sel: &mut Selection<'_>, roots: &[&str]) {
    let mut live: Vec<Vec<bool>> = sel.objects.iter().map(|o| vec![false; o.object.sections.len()]).collect();
    let mut work: Vec<(usize, usize)> = roots.iter().filter_map(|r| definition(sel, r)).collect();
    let mut cache: HashMap<String, Option<(usize, usize)>> = HashMap::new();
    while let Some((oi, si)) = work.pop() {
        if std::mem::replace(&mut live[oi][si], true) {
            continue;
        }
        let o = &sel.objects[oi].object;
        for r in &o.sections[si].relocs {
            let Some(sym) = o.symbols.get(r.symbol) else { continue };
            let target = match sym.section {
                Some(ts) => Some((oi, ts)),
                None => *cache.entry(sym.name.clone()).or_insert_with(|| definition(sel, &sym.name)),
            };
            if let Some(t) = target {
                if !live[t.0][t.1] {
                    work.push(t);
                }
            }
        }
    }
    sel.live = Some(live);
}

//! Cold misses: the memory stall cycles no implementation of a kernel can
//! avoid, added to its lower bound ([`crate::bound`], [`crate::chain`]) on a
//! machine with data caches.
//!
//! A kernel must read every element of its inputs and write every element
//! of its outputs ([`Kernel::data`]). The simulator stops at the kernel's
//! entry (a breakpoint) and asks the cache hierarchy what first accesses to
//! every line of those arrays would cost from the state the program left it
//! in ([`dsp_sim::memsys::MemSys::cold_stall`]): the miss penalty of each
//! level for each of its lines that it does not hold and that a miss above
//! must fetch (a store to a write-through level stops there without a
//! stall).
//! A miss stalls the whole machine (`.isa`: `cache`), so the kernel's cycles
//! (issue + stall) are at least its issue bound plus these stalls, whatever
//! the order of its accesses: only a miss brings a line in, and no access
//! brings in a line other than its own.
//!
//! An array read and written counts as read (on a write-through level a
//! store does not bring the line in: the read still misses). Not counted:
//! conflict and capacity misses (an array larger than the cache must miss
//! again when it is read twice; the bound assumes it is read once), the
//! stack, spills.

use dsp_obj::Executable;
use dsp_sim::memsys::MemSys;

use crate::kernels::Use;

/// The stall cycles of the cold misses of `data` (symbols of `image`) in
/// the state `ms` is in.
pub fn cold_stall(ms: &MemSys, image: &Executable, data: &[(&str, Use)]) -> Result<u64, String> {
    let line = ms.line_size() as u64;
    if line == 0 {
        return Ok(0);
    }
    let mut accesses = Vec::new();
    for &(name, used) in data {
        let sym = image
            .symbols
            .iter()
            .find(|s| s.name == name && s.size > 0)
            .ok_or_else(|| format!("no data symbol '{name}' with a size"))?;
        let (lo, hi) = (sym.addr as u64, sym.addr as u64 + sym.size as u64);
        let store = used == Use::Write;
        accesses.extend((lo / line..hi.div_ceil(line)).map(|l| ((l * line) as u32, store)));
    }
    Ok(ms.cold_stall(accesses))
}

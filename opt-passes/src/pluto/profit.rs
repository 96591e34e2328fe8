//! Whether tiling a SCoP can pay on the machine (seed 004's premise for
//! its tile-size model: tiles are sized to fit the cache, so a SCoP whose
//! whole data already fits in L1D has no misses for tiling to save, only
//! loop overhead to add). The footprint is the arrays' sizes from their
//! shapes; an array with an unbounded dimension (behind a pointer) makes
//! it unknown, and unknown counts as "does not fit".

use crate::scop::Scop;

/// Bytes of all the SCoP's arrays, when every shape is known.
pub fn footprint(scop: &Scop) -> Option<u64> {
    let mut total: u64 = 0;
    for a in &scop.arrays {
        let mut bytes = a.elem_size;
        for d in &a.dims {
            bytes = bytes.checked_mul((*d)?)?;
        }
        total = total.checked_add(bytes)?;
    }
    Some(total)
}

/// Why tiling is not worth it, if it is not: the data fits in `l1d` bytes.
pub fn not_worth_tiling(scop: &Scop, l1d: Option<u64>) -> Option<String> {
    let (l1d, bytes) = (l1d?, footprint(scop)?);
    (bytes <= l1d).then(|| format!("its arrays ({bytes} bytes) fit in L1D ({l1d} bytes): nothing for tiling to gain"))
}

//! Address assignment by the machine's memory map: `.text` from
//! `memory.base + memory.null_guard`, then `.rodata`, `.data` and `.bss`,
//! each output section aligned to its largest input alignment (at least 64)
//! and made of the input sections of its kind in link order, each aligned to
//! its own alignment. `.bss` starts and ends at a multiple of 64 and of the
//! machine's widest vector register ([`bss_align`]), so start-up code may
//! clear it with full-width aligned vector stores. Also defines the linker symbols (`__bss_start`, …,
//! `__stack_top`, and `__onchip_NAME_start`/`__onchip_NAME_size` for each
//! on-chip memory of the description). Everything lies in the external memory (`memory` of the
//! `.isa`, behind the data caches); [`check_memory_map`] checks the layout
//! against the description's memories, on-chip ones included.

use dsp_obj::{SectionKind, Segment, SegmentFlags};
use isa_tablegen::{Machine, Op};

use crate::resolve::Selection;
use crate::LinkError;

/// Symbols the linker defines (unless an input does).
pub const LINKER_SYMBOLS: &[&str] = &[
    "__bss_start",
    "__bss_end",
    "_end",
    "__heap_start",
    "__heap_end",
    "__stack_top",
];

/// Least alignment of every output section (and of `__bss_start`/`__bss_end`).
pub const MIN_OUTPUT_ALIGN: u64 = 64;

/// The alignment of `__bss_start` and `__bss_end`: at least
/// [`MIN_OUTPUT_ALIGN`], and a multiple of the bytes of the machine's widest
/// vector register (`crt0.s` clears `.bss` with whole vector stores).
pub fn bss_align(machine: &Machine) -> u64 {
    let v = machine.vector_bytes() as u64;
    if v > MIN_OUTPUT_ALIGN && v.is_power_of_two() {
        v
    } else if v > MIN_OUTPUT_ALIGN {
        // Not a power of two: a common multiple (still a multiple of 64).
        v * MIN_OUTPUT_ALIGN
    } else {
        MIN_OUTPUT_ALIGN
    }
}

/// The output sections in memory order, with their segment names and flags.
pub const OUTPUTS: [(SectionKind, &str, SegmentFlags); 4] = [
    (
        SectionKind::Text,
        ".text",
        SegmentFlags {
            read: true,
            write: false,
            exec: true,
        },
    ),
    (
        SectionKind::ReadOnly,
        ".rodata",
        SegmentFlags {
            read: true,
            write: false,
            exec: false,
        },
    ),
    (
        SectionKind::Data,
        ".data",
        SegmentFlags {
            read: true,
            write: true,
            exec: false,
        },
    ),
    (
        SectionKind::Bss,
        ".bss",
        SegmentFlags {
            read: true,
            write: true,
            exec: false,
        },
    ),
];

/// An input section placed in an output section.
#[derive(Clone, Debug)]
pub struct Placed {
    pub object: usize,
    pub section: usize,
    pub addr: u32,
    pub size: u32,
}

/// One output section (one segment of the executable when not empty).
#[derive(Clone, Debug)]
pub struct OutputSection {
    pub name: &'static str,
    pub kind: SectionKind,
    pub flags: SegmentFlags,
    pub addr: u32,
    /// Size in memory.
    pub size: u32,
    pub align: u32,
    /// Contents (empty for `.bss`).
    pub data: Vec<u8>,
    pub inputs: Vec<Placed>,
}

#[derive(Clone, Debug)]
pub struct Layout {
    /// Always the four of [`OUTPUTS`], in that order (some may be empty).
    pub outputs: Vec<OutputSection>,
    /// Address of every input section: `placement[object][section]`.
    pub placement: Vec<Vec<u64>>,
    pub linker_symbols: Vec<(String, u32)>,
}

impl Layout {
    /// The executable's segments: the non-empty output sections.
    pub fn segments(&self) -> Vec<Segment> {
        self.outputs
            .iter()
            .filter(|o| o.size > 0)
            .map(|o| Segment {
                name: o.name.into(),
                addr: o.addr,
                data: o.data.clone(),
                mem_size: o.size,
                flags: o.flags,
            })
            .collect()
    }

    pub fn output_index(kind: SectionKind) -> usize {
        OUTPUTS.iter().position(|(k, _, _)| *k == kind).unwrap_or(0)
    }

    pub fn linker_symbol(&self, name: &str) -> Option<u32> {
        self.linker_symbols
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, a)| *a)
    }
}

fn align_up(x: u64, align: u64) -> u64 {
    let a = align.max(1);
    x.div_ceil(a) * a
}

/// The word that pads code between input sections: a one-operation `nop`
/// bundle, if the machine has an operand-less no-op.
fn nop_word(machine: &Machine) -> Option<u64> {
    let op = Op {
        instr: machine.nop_instr()?,
        guard: None,
        args: vec![],
    };
    machine.encode_op(&op, true).ok()
}

fn pad(out: &mut Vec<u8>, to: usize, fill: Option<(u64, usize)>) {
    if let Some((word, n)) = fill {
        if (to - out.len()).is_multiple_of(n) && out.len().is_multiple_of(n) {
            while out.len() < to {
                out.extend_from_slice(&word.to_le_bytes()[..n]);
            }
        }
    }
    out.resize(to, 0);
}

/// The symbols the linker defines for the description's on-chip memories
/// (where a program, or a DMA engine, finds them): `__onchip_NAME_start`
/// (the address) and `__onchip_NAME_size` (the size in bytes, as an
/// absolute symbol's value).
pub fn onchip_symbols(machine: &Machine) -> Vec<(String, u32)> {
    machine
        .memory
        .onchip
        .iter()
        .flat_map(|o| [(format!("__onchip_{}_start", o.name), o.base), (format!("__onchip_{}_size", o.name), o.size)])
        .collect()
}

/// Checks that the output sections and the heap-and-stack range lie in the
/// external memory, clear of the null guard and of every on-chip memory
/// (which the program reaches by address, never by placement).
pub fn check_memory_map(machine: &Machine, outputs: &[OutputSection], heap_stack: (u64, u64)) -> Result<(), LinkError> {
    let mem = &machine.memory;
    let (lo, hi) = (mem.base as u64 + mem.null_guard as u64, mem.end());
    let ranges = outputs
        .iter()
        .filter(|o| o.size > 0)
        .map(|o| (o.name, o.addr as u64, o.addr as u64 + o.size as u64))
        .chain(std::iter::once(("the heap and the stack", heap_stack.0, heap_stack.1)));
    for (name, start, end) in ranges {
        if start < lo || end > hi {
            return Err(LinkError::new(format!(
                "{name} [{start:#x}, {end:#x}) lies outside the external memory [{lo:#x}, {hi:#x}) of machine '{}'",
                machine.name
            )));
        }
        if let Some(o) = mem.onchip.iter().find(|o| start < o.end() && end > o.base as u64) {
            return Err(LinkError::new(format!(
                "{name} [{start:#x}, {end:#x}) overlaps on-chip memory '{}' [{:#x}, {:#x})",
                o.name,
                o.base,
                o.end()
            )));
        }
    }
    Ok(())
}

/// Lays out the selected objects for the machine.
pub fn layout(
    sel: &Selection<'_>,
    machine: &Machine,
    stack_size: u32,
) -> Result<Layout, LinkError> {
    let mem = &machine.memory;
    let mem_end = mem.base as u64 + mem.size as u64;
    let mut addr = mem.base as u64 + mem.null_guard as u64;
    let mut placement: Vec<Vec<u64>> = sel
        .objects
        .iter()
        .map(|o| vec![0; o.object.sections.len()])
        .collect();
    for o in &sel.objects {
        for s in &o.object.sections {
            if s.kind != SectionKind::Bss && s.data.len() as u64 != s.size as u64 {
                return Err(LinkError::new(format!(
                    "{}: section '{}' has {} bytes of data but size {}",
                    o.name,
                    s.name,
                    s.data.len(),
                    s.size
                )));
            }
        }
    }
    let text_fill = nop_word(machine).map(|w| (w, machine.op_bytes() as usize));
    let mut outputs = Vec::new();
    for (kind, name, flags) in OUTPUTS {
        let members = || {
            sel.objects.iter().enumerate().flat_map(move |(oi, o)| {
                o.object
                    .sections
                    .iter()
                    .enumerate()
                    .filter(move |(si, s)| s.kind == kind && sel.is_live(oi, *si))
                    .map(move |(si, s)| (oi, si, s))
            })
        };
        let least = if kind == SectionKind::Bss {
            bss_align(machine)
        } else {
            MIN_OUTPUT_ALIGN
        };
        let align = members()
            .map(|(_, _, s)| s.align as u64)
            .fold(least, u64::max);
        let start = align_up(addr, align);
        let mut cur = start;
        let mut data = Vec::new();
        let mut inputs = Vec::new();
        for (oi, si, s) in members() {
            cur = align_up(cur, s.align as u64);
            placement[oi][si] = cur;
            if kind != SectionKind::Bss {
                let fill = if kind == SectionKind::Text {
                    text_fill
                } else {
                    None
                };
                pad(&mut data, (cur - start) as usize, fill);
                data.extend_from_slice(&s.data);
            }
            inputs.push(Placed {
                object: oi,
                section: si,
                addr: cur as u32,
                size: s.size,
            });
            cur += s.size as u64;
            if cur > mem_end {
                return Err(LinkError::new(format!(
                    "the program does not fit in memory: {}({}), {} bytes, ends at {cur:#x}, past the end of memory {mem_end:#x}: too large for the machine's memory ({} bytes available)",
                    sel.objects[oi].name, s.name, s.size, mem_end - (mem.base as u64 + mem.null_guard as u64)
                )));
            }
        }
        if kind == SectionKind::Bss {
            // Vector stores clear .bss: both ends aligned.
            cur = align_up(cur, bss_align(machine));
        }
        outputs.push(OutputSection {
            name,
            kind,
            flags,
            addr: start as u32,
            size: (cur - start) as u32,
            align: align as u32,
            data,
            inputs,
        });
        addr = cur;
    }
    let bss = &outputs[3];
    let bss_start = bss.addr as u64;
    let bss_end = bss_start + bss.size as u64;
    let end = bss_end;
    let heap_start = align_up(end, MIN_OUTPUT_ALIGN);
    let stack_align = (machine.abi.stack_align as u64).max(1);
    let stack_top = mem_end - mem_end % stack_align;
    if stack_top > u32::MAX as u64 {
        return Err(LinkError::new(format!(
            "the stack top {stack_top:#x} does not fit 32 bits"
        )));
    }
    let heap_end = stack_top.checked_sub(stack_size as u64).filter(|&h| h >= heap_start).ok_or_else(|| {
        LinkError::new(format!(
            "the program does not fit in memory: it ends at {heap_start:#x} but a stack of {stack_size} bytes below {stack_top:#x} starts at {:#x}",
            stack_top as i64 - stack_size as i64
        ))
    })?;
    check_memory_map(machine, &outputs, (heap_start, stack_top))?;
    let mut linker_symbols: Vec<(String, u32)> = [
        ("__bss_start", bss_start as u32),
        ("__bss_end", bss_end as u32),
        ("_end", end as u32),
        ("__heap_start", heap_start as u32),
        ("__heap_end", heap_end as u32),
        ("__stack_top", stack_top as u32),
    ]
    .iter()
    .map(|&(n, a)| (n.to_string(), a))
    .collect();
    linker_symbols.extend(onchip_symbols(machine));
    Ok(Layout {
        outputs,
        placement,
        linker_symbols,
    })
}

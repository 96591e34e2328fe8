//! The stack limit: the region the linker leaves for the stack, from the
//! lowest address of the stack (`__heap_end`: the heap lies below it, then
//! `.bss`, `.data`, `.rodata` and `.text`) to `__stack_top`. The run loop
//! looks at the ABI stack pointer once per cycle (one compare while it does
//! not change); a stack pointer that moves from inside the region to below
//! it, or a store through the stack pointer below the region, is a stack
//! overflow, reported at once with the function and the call depth (calls
//! minus returns through the link register), before anything else in memory
//! is overwritten.

use dsp_obj::Executable;

/// Stack bounds and the state of the checks.
#[derive(Clone, Debug)]
pub struct StackGuard {
    /// Value offset of the stack pointer (the scratch slot when there is none).
    pub sp_off: usize,
    /// Value offset of the link register (`u32::MAX`: none).
    pub link_off: u32,
    /// Whether the checks are on (the machine has a stack pointer).
    pub enabled: bool,
    /// Lowest address of the stack, and what it comes from.
    pub limit: u32,
    pub limit_from: &'static str,
    /// One past the highest address of the stack.
    pub top: u32,
    /// The stack pointer when last looked at, and whether it was in the stack.
    pub last_sp: u64,
    pub in_stack: bool,
    /// Calls minus returns (through the link register).
    pub depth: u32,
    /// The deepest `depth` reached.
    pub max_depth: u32,
}

/// A stack overflow: where the stack pointer or the store went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Overflow {
    Sp { sp: u32 },
    Store { addr: u32 },
}

impl StackGuard {
    /// The stack of `exe`: from `__heap_end` (else the end of the highest
    /// segment below `top`) up to `top`, the initial stack pointer.
    pub fn new(exe: &Executable, top: u32, sp_off: Option<usize>, link_off: Option<u32>, scratch: usize, initial_sp: u64) -> Self {
        let sym = |name: &str| exe.symbols.iter().find(|s| s.name == name).map(|s| s.addr);
        let (limit, limit_from) = match sym("__heap_end").filter(|&h| h <= top) {
            Some(h) => (h, "__heap_end"),
            None => {
                let end = exe
                    .segments
                    .iter()
                    .map(|s| s.addr as u64 + s.mem_size as u64)
                    .filter(|&e| e <= top as u64)
                    .max()
                    .unwrap_or(0);
                (end as u32, "the end of the program's segments")
            }
        };
        let enabled = sp_off.is_some() && limit < top;
        let mut g = StackGuard {
            sp_off: sp_off.unwrap_or(scratch),
            link_off: link_off.unwrap_or(u32::MAX),
            enabled,
            limit,
            limit_from,
            top,
            last_sp: initial_sp,
            in_stack: false,
            depth: 0,
            max_depth: 0,
        };
        g.in_stack = g.contains(initial_sp);
        g
    }

    fn contains(&self, sp: u64) -> bool {
        sp >= self.limit as u64 && sp <= self.top as u64
    }

    /// The stack pointer changed to `sp`. Err: it left the stack downwards.
    #[cold]
    #[inline(never)]
    pub fn sp_changed(&mut self, sp: u64) -> Result<(), Overflow> {
        self.last_sp = sp;
        if !self.enabled {
            return Ok(());
        }
        let inside = self.contains(sp);
        if self.in_stack && !inside && sp < self.limit as u64 {
            return Err(Overflow::Sp { sp: sp as u32 });
        }
        // A stack pointer that was never in the stack (a register used for
        // something else in hand-written code) is not checked.
        self.in_stack = inside;
        Ok(())
    }

    /// A store through the register at value offset `base` to `addr`.
    /// Err: through the stack pointer, below the stack.
    #[inline(always)]
    pub fn store(&self, base: u32, addr: u32) -> Result<(), Overflow> {
        if base as usize == self.sp_off {
            return self.store_through_sp(addr);
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn store_through_sp(&self, addr: u32) -> Result<(), Overflow> {
        if addr < self.limit && self.enabled && self.in_stack {
            return Err(Overflow::Store { addr });
        }
        Ok(())
    }

    /// A taken control transfer of kind `kind` (through the register at
    /// value offset `src` for an indirect jump): calls deepen the stack,
    /// jumps through the link register return.
    #[inline(always)]
    pub fn transfer(&mut self, kind: crate::decode::Kind, src: u32) {
        use crate::decode::Kind;
        match kind {
            Kind::Call | Kind::CallR => {
                self.depth += 1;
                self.max_depth = self.max_depth.max(self.depth);
            }
            Kind::Jmp if src == self.link_off => self.depth = self.depth.saturating_sub(1),
            _ => {}
        }
    }

    /// The message for an overflow (the fault adds the pc and its function).
    pub fn message(&self, o: &Overflow) -> String {
        let what = match o {
            Overflow::Sp { sp } => format!("the stack pointer moved to {sp:#x}"),
            Overflow::Store { addr } => format!("a store through the stack pointer at {addr:#x}"),
        };
        format!(
            "stack overflow: {what}, below the stack [{:#x}, {:#x}) ({} bytes, its lowest address from {}) at call depth {}",
            self.limit,
            self.top,
            self.top - self.limit,
            self.limit_from,
            self.depth
        )
    }
}

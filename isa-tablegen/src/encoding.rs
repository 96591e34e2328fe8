//! Binary encoding and decoding of operations, entirely driven by the `.isa`
//! file's `encoding` and `format` statements.
//!
//! An operation is one word of `Encoding::width` bits, stored little-endian.
//! A bundle is a run of words; the last has the stop bit set. The same
//! functions serve the assembler, the disassembler, the linker (to patch
//! relocated operands) and the simulator's decoder.

use std::fmt;

use crate::model::{InstrId, Machine, OperandKind, SpecialKind};

/// A guard: execute only when predicate `reg` is true (or false, when `negate`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Guard {
    pub reg: u16,
    pub negate: bool,
}

/// One operation with its operand values.
///
/// Operand values follow the instruction's operand list: a register operand
/// holds the register index, an immediate its value, a pc-relative operand the
/// signed distance in operation words from this operation to the target.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Op {
    pub instr: InstrId,
    pub guard: Option<Guard>,
    pub args: Vec<i64>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EncodeError {
    WrongArgCount { mnemonic: String, expected: usize, got: usize },
    RegOutOfRange { mnemonic: String, operand: String, index: i64, count: u16 },
    ImmOutOfRange { mnemonic: String, operand: String, value: i64, min: i64, max: i64 },
    NoGuards,
    GuardOutOfRange { index: u16 },
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::WrongArgCount { mnemonic, expected, got } => {
                write!(f, "'{mnemonic}' takes {expected} operands, got {got}")
            }
            EncodeError::RegOutOfRange { mnemonic, operand, index, count } => write!(
                f,
                "'{mnemonic}' operand '{operand}': register index {index} out of range (file has {count})"
            ),
            EncodeError::ImmOutOfRange { mnemonic, operand, value, min, max } => write!(
                f,
                "'{mnemonic}' operand '{operand}': value {value} out of range [{min}, {max}]"
            ),
            EncodeError::NoGuards => write!(f, "this machine has no guarded execution"),
            EncodeError::GuardOutOfRange { index } => {
                write!(f, "guard register index {index} out of range")
            }
        }
    }
}
impl std::error::Error for EncodeError {}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    UnknownOpcode { opcode: u64 },
    ReservedBits { mnemonic: String, bits: u64 },
    RegOutOfRange { mnemonic: String, operand: String, index: u64 },
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::UnknownOpcode { opcode } => write!(f, "unknown opcode {opcode:#x}"),
            DecodeError::ReservedBits { mnemonic, bits } => {
                write!(f, "'{mnemonic}' has unused bits set ({bits:#x})")
            }
            DecodeError::RegOutOfRange { mnemonic, operand, index } => {
                write!(f, "'{mnemonic}' operand '{operand}': register {index} does not exist")
            }
        }
    }
}
impl std::error::Error for DecodeError {}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PatchError {
    Decode(DecodeError),
    /// The operation has no (or more than one) immediate/pc-relative operand.
    NoRelocatableOperand { mnemonic: String },
    /// A pc-relative relocation on an absolute operand or the other way round.
    KindMismatch { mnemonic: String, operand: String },
    Misaligned { value: i64, align: u32 },
    Range(EncodeError),
}

impl fmt::Display for PatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatchError::Decode(e) => write!(f, "{e}"),
            PatchError::NoRelocatableOperand { mnemonic } => {
                write!(f, "'{mnemonic}' has no single immediate operand to relocate")
            }
            PatchError::KindMismatch { mnemonic, operand } => {
                write!(f, "'{mnemonic}' operand '{operand}' cannot take this relocation type")
            }
            PatchError::Misaligned { value, align } => {
                write!(f, "branch distance {value} is not a multiple of {align}")
            }
            PatchError::Range(e) => write!(f, "{e}"),
        }
    }
}
impl std::error::Error for PatchError {}

fn sign_extend(value: u64, bits: u32) -> i64 {
    if bits >= 64 {
        value as i64
    } else {
        let shift = 64 - bits;
        ((value << shift) as i64) >> shift
    }
}

impl Machine {
    /// Encodes one operation; `stop` marks the last operation of a bundle.
    pub fn encode_op(&self, op: &Op, stop: bool) -> Result<u64, EncodeError> {
        let instr = self.instr(op.instr);
        if op.args.len() != instr.operands.len() {
            return Err(EncodeError::WrongArgCount {
                mnemonic: instr.mnemonic.clone(),
                expected: instr.operands.len(),
                got: op.args.len(),
            });
        }
        let enc = &self.encoding;
        let mut word = enc.opcode.set(0, instr.opcode as u64);
        if stop {
            word |= 1u64 << enc.stop_bit;
        }
        if let Some(g) = &enc.guard {
            let file = self.regfile(g.file);
            let (reg, negate) = match op.guard {
                Some(guard) => (guard.reg, guard.negate),
                None => (self.always_true_guard().unwrap_or(0), false),
            };
            if reg >= file.count {
                return Err(EncodeError::GuardOutOfRange { index: reg });
            }
            let neg_pos = g.negate_bit - g.field.lo;
            let value = (reg as u64) | ((negate as u64) << neg_pos);
            word = g.field.set(word, value);
        } else if op.guard.is_some() {
            return Err(EncodeError::NoGuards);
        }
        for (operand, &value) in instr.operands.iter().zip(&op.args) {
            let bits = match operand.kind {
                OperandKind::Reg(file) => {
                    let count = self.regfile(file).count;
                    if value < 0 || value >= count as i64 {
                        return Err(EncodeError::RegOutOfRange {
                            mnemonic: instr.mnemonic.clone(),
                            operand: operand.name.clone(),
                            index: value,
                            count,
                        });
                    }
                    value as u64
                }
                kind => {
                    let (min, max) = kind.imm_range().expect("immediate operand");
                    if value < min || value > max {
                        return Err(EncodeError::ImmOutOfRange {
                            mnemonic: instr.mnemonic.clone(),
                            operand: operand.name.clone(),
                            value,
                            min,
                            max,
                        });
                    }
                    value as u64
                }
            };
            word = operand.field.set(word, bits);
        }
        Ok(word)
    }

    /// Decodes one operation word into the operation and its stop bit.
    pub fn decode_op(&self, word: u64) -> Result<(Op, bool), DecodeError> {
        let enc = &self.encoding;
        let opcode = enc.opcode.get(word);
        let instr_id = self
            .decode_table
            .get(opcode as usize)
            .copied()
            .flatten()
            .ok_or(DecodeError::UnknownOpcode { opcode })?;
        let instr = self.instr(instr_id);
        let stop = (word >> enc.stop_bit) & 1 == 1;
        let reserved = word & !self.used_bits[instr_id.0 as usize];
        if reserved != 0 {
            return Err(DecodeError::ReservedBits { mnemonic: instr.mnemonic.clone(), bits: reserved });
        }
        let guard = match &enc.guard {
            Some(g) => {
                let raw = g.field.get(word);
                let neg_pos = g.negate_bit - g.field.lo;
                let negate = (raw >> neg_pos) & 1 == 1;
                let reg = (raw & !(1u64 << neg_pos)) as u16;
                if reg >= self.regfile(g.file).count {
                    return Err(DecodeError::RegOutOfRange {
                        mnemonic: instr.mnemonic.clone(),
                        operand: "guard".into(),
                        index: reg as u64,
                    });
                }
                if !negate && Some(reg) == self.always_true_guard() {
                    None
                } else {
                    Some(Guard { reg, negate })
                }
            }
            None => None,
        };
        let mut args = Vec::with_capacity(instr.operands.len());
        for operand in &instr.operands {
            let raw = operand.field.get(word);
            let value = match operand.kind {
                OperandKind::Reg(file) => {
                    if raw >= self.regfile(file).count as u64 {
                        return Err(DecodeError::RegOutOfRange {
                            mnemonic: instr.mnemonic.clone(),
                            operand: operand.name.clone(),
                            index: raw,
                        });
                    }
                    raw as i64
                }
                OperandKind::Imm(crate::model::ImmKind::Unsigned, _) => raw as i64,
                OperandKind::Imm(_, _) | OperandKind::PcRel(_) => {
                    sign_extend(raw, operand.field.bits())
                }
            };
            args.push(value);
        }
        Ok((Op { instr: instr_id, guard, args }, stop))
    }

    /// Whether a decoded word has its stop bit set.
    pub fn is_stop(&self, word: u64) -> bool {
        (word >> self.encoding.stop_bit) & 1 == 1
    }

    /// Index of the guard-file register that always reads true (the "no guard" code).
    pub fn always_true_guard(&self) -> Option<u16> {
        let g = self.encoding.guard.as_ref()?;
        self.regfile(g.file)
            .specials
            .iter()
            .find(|s| s.kind == SpecialKind::True)
            .map(|s| s.index)
    }

    /// The operand a relocation patches: the instruction's only immediate or
    /// pc-relative operand.
    pub fn reloc_operand(&self, instr: InstrId) -> Option<usize> {
        let ops = &self.instr(instr).operands;
        let mut found = None;
        for (i, o) in ops.iter().enumerate() {
            if !matches!(o.kind, OperandKind::Reg(_)) {
                if found.is_some() {
                    return None;
                }
                found = Some(i);
            }
        }
        found
    }

    /// Patches a relocated operand of an encoded operation word.
    ///
    /// `pcrel == false`: `value` is the absolute value for an immediate operand.
    /// `pcrel == true`: `value` is the byte distance from the operation to the
    /// target, for a pc-relative operand.
    pub fn patch_op(&self, word: u64, value: i64, pcrel: bool) -> Result<u64, PatchError> {
        let (mut op, stop) = self.decode_op(word).map_err(PatchError::Decode)?;
        let instr = self.instr(op.instr);
        let index = self
            .reloc_operand(op.instr)
            .ok_or_else(|| PatchError::NoRelocatableOperand { mnemonic: instr.mnemonic.clone() })?;
        let operand = &instr.operands[index];
        let is_pcrel = matches!(operand.kind, OperandKind::PcRel(_));
        if is_pcrel != pcrel {
            return Err(PatchError::KindMismatch {
                mnemonic: instr.mnemonic.clone(),
                operand: operand.name.clone(),
            });
        }
        op.args[index] = if pcrel {
            let align = self.op_bytes() as i64;
            if value % align != 0 {
                return Err(PatchError::Misaligned { value, align: align as u32 });
            }
            value / align
        } else {
            value
        };
        self.encode_op(&op, stop).map_err(PatchError::Range)
    }

    /// Reads operation word `index` of a little-endian byte slice.
    pub fn read_word(&self, bytes: &[u8], offset: usize) -> Option<u64> {
        let n = self.op_bytes() as usize;
        let chunk = bytes.get(offset..offset + n)?;
        let mut buf = [0u8; 8];
        buf[..n].copy_from_slice(chunk);
        Some(u64::from_le_bytes(buf))
    }

    /// Appends an operation word to a byte buffer, little-endian.
    pub fn write_word(&self, out: &mut Vec<u8>, word: u64) {
        let n = self.op_bytes() as usize;
        out.extend_from_slice(&word.to_le_bytes()[..n]);
    }
}

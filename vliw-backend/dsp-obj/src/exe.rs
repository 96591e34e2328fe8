//! Linked executables: [`write_executable`] and [`read_executable`].
//!
//! An `ET_EXEC` file with one `PT_LOAD` per segment, one section header per
//! segment (named after it, in segment order), a symbol table (locals
//! first) and the [`ISA_SECTION`]. Symbols inside a segment name its section,
//! others are `SHN_ABS`. `read_executable(write_executable(x)) == x` for every
//! executable whose symbols are locals-first, as the linker makes them.

use object::elf;
use object::read::elf::{FileHeader as _, ProgramHeader as _, SectionHeader as _, Sym as _};
use object::write::elf::{FileHeader, ProgramHeader, SectionHeader, SectionIndex, Sym, Writer};
use object::write::StringId;
use object::{Endianness, LittleEndian as LE};

use crate::elf::{check_name, isa_bytes, parse};
use crate::object::elf_sym_type;
use crate::{
    ExeSymbol, Executable, ObjError, Segment, SegmentFlags, SymbolKind, EM_DSP, ISA_SECTION,
};

fn validate(exe: &Executable) -> Result<(), ObjError> {
    for s in &exe.segments {
        check_name("segment", &s.name)?;
        if s.name.is_empty() || s.name == ISA_SECTION {
            return Err(ObjError::invalid(format!("bad segment name {:?}", s.name)));
        }
        if s.data.len() as u64 > s.mem_size as u64 {
            return Err(ObjError::invalid(format!(
                "segment '{}': {} bytes of data but a memory size of {}",
                s.name,
                s.data.len(),
                s.mem_size
            )));
        }
        if s.addr as u64 + s.mem_size as u64 > 1 << 32 {
            return Err(ObjError::invalid(format!(
                "segment '{}' extends past 4 GiB",
                s.name
            )));
        }
    }
    for s in &exe.symbols {
        check_name("symbol", &s.name)?;
    }
    Ok(())
}

/// File alignment of a segment: keeps `offset ≡ addr (mod align)`.
fn file_align(addr: u32) -> usize {
    if addr == 0 {
        64
    } else {
        (1usize << addr.trailing_zeros()).min(64)
    }
}

/// Writes a linked executable as ELF32 little-endian `ET_EXEC`.
pub fn write_executable(exe: &Executable) -> Result<Vec<u8>, ObjError> {
    validate(exe)?;
    let isa = isa_bytes(&exe.machine)?;
    let order: Vec<usize> = (0..exe.symbols.len())
        .filter(|&i| !exe.symbols[i].global)
        .chain((0..exe.symbols.len()).filter(|&i| exe.symbols[i].global))
        .collect();
    let num_local = 1 + exe.symbols.iter().filter(|s| !s.global).count() as u32;
    // The segment holding each symbol's address, if any.
    let home = |addr: u32| {
        exe.segments
            .iter()
            .position(|s| addr >= s.addr && (addr as u64) < s.addr as u64 + s.mem_size as u64)
    };

    let mut buf = Vec::new();
    let mut w = Writer::new(Endianness::Little, false, &mut buf);
    w.reserve_file_header();
    w.reserve_program_headers(exe.segments.len() as u32);
    w.reserve_null_section_index();
    let sec: Vec<(SectionIndex, StringId)> = exe
        .segments
        .iter()
        .map(|s| {
            (
                w.reserve_section_index(),
                w.add_section_name(s.name.as_bytes()),
            )
        })
        .collect();
    let isa_name = w.add_section_name(ISA_SECTION.as_bytes());
    w.reserve_section_index();
    w.reserve_symtab_section_index();
    w.reserve_strtab_section_index();
    w.reserve_shstrtab_section_index();
    w.reserve_null_symbol_index();
    let sym_names: Vec<Option<StringId>> = order
        .iter()
        .map(|&i| {
            let s = &exe.symbols[i];
            w.reserve_symbol_index(home(s.addr).map(|k| sec[k].0));
            (!s.name.is_empty()).then(|| w.add_string(s.name.as_bytes()))
        })
        .collect();
    let offsets: Vec<usize> = exe
        .segments
        .iter()
        .map(|s| w.reserve(s.data.len(), file_align(s.addr)))
        .collect();
    let isa_offset = w.reserve(isa.len(), 1);
    w.reserve_symtab();
    w.reserve_strtab();
    w.reserve_shstrtab();
    w.reserve_section_headers();

    w.write_file_header(&FileHeader {
        os_abi: elf::ELFOSABI_NONE,
        abi_version: 0,
        e_type: elf::ET_EXEC,
        e_machine: EM_DSP,
        e_entry: exe.entry as u64,
        e_flags: 0,
    })
    .map_err(|e| ObjError::invalid(e.to_string()))?;
    w.write_align_program_headers();
    for (s, &offset) in exe.segments.iter().zip(&offsets) {
        let f = s.flags;
        let p_flags = (if f.read { elf::PF_R } else { 0 })
            | (if f.write { elf::PF_W } else { 0 })
            | (if f.exec { elf::PF_X } else { 0 });
        w.write_program_header(&ProgramHeader {
            p_type: elf::PT_LOAD,
            p_flags,
            p_offset: offset as u64,
            p_vaddr: s.addr as u64,
            p_paddr: s.addr as u64,
            p_filesz: s.data.len() as u64,
            p_memsz: s.mem_size as u64,
            p_align: file_align(s.addr) as u64,
        });
    }
    for s in &exe.segments {
        w.write_align(file_align(s.addr));
        w.write(&s.data);
    }
    w.write(&isa);
    w.write_null_symbol();
    for (&i, name) in order.iter().zip(&sym_names) {
        let s = &exe.symbols[i];
        let bind = if s.global {
            elf::STB_GLOBAL
        } else {
            elf::STB_LOCAL
        };
        let section = home(s.addr).map(|k| sec[k].0);
        w.write_symbol(&Sym {
            name: *name,
            section,
            st_info: (bind << 4) | elf_sym_type(s.kind),
            st_other: elf::STV_DEFAULT,
            st_shndx: if section.is_none() { elf::SHN_ABS } else { 0 },
            st_value: s.addr as u64,
            st_size: s.size as u64,
        });
    }
    w.write_strtab();
    w.write_shstrtab();
    w.write_null_section_header();
    for (i, s) in exe.segments.iter().enumerate() {
        let nobits = s.data.is_empty() && s.mem_size > 0;
        let mut flags = elf::SHF_ALLOC;
        if s.flags.write {
            flags |= elf::SHF_WRITE;
        }
        if s.flags.exec {
            flags |= elf::SHF_EXECINSTR;
        }
        w.write_section_header(&SectionHeader {
            name: Some(sec[i].1),
            sh_type: if nobits {
                elf::SHT_NOBITS
            } else {
                elf::SHT_PROGBITS
            },
            sh_flags: flags as u64,
            sh_addr: s.addr as u64,
            sh_offset: offsets[i] as u64,
            sh_size: if nobits {
                s.mem_size as u64
            } else {
                s.data.len() as u64
            },
            sh_link: 0,
            sh_info: 0,
            sh_addralign: file_align(s.addr) as u64,
            sh_entsize: 0,
        });
    }
    crate::elf::write_trailing_section_headers(&mut w, isa_name, isa_offset, isa.len(), num_local);
    Ok(buf)
}

/// Reads and validates a linked executable.
pub fn read_executable(data: &[u8]) -> Result<Executable, ObjError> {
    let elf = parse(data, elf::ET_EXEC, "ET_EXEC (an executable)")?;
    let machine = elf.machine_id()?;
    let header = elf.header;
    let phoff = header.e_phoff.get(LE) as u64;
    let phnum = header.e_phnum.get(LE) as u64;
    if phnum > 0
        && header.e_phentsize.get(LE) as usize != std::mem::size_of::<elf::ProgramHeader32<LE>>()
    {
        return Err(ObjError::malformed("program header size is not 32"));
    }
    if phoff + phnum * 32 > data.len() as u64 {
        return Err(ObjError::truncated("the program header table"));
    }
    let phdrs = header
        .program_headers(LE, data)
        .map_err(|e| ObjError::malformed(e.to_string()))?;
    // Allocated sections, in order, name the segments.
    let alloc: Vec<usize> = (1..elf.len())
        .filter(|&i| elf.section(i).sh_flags(LE) & elf::SHF_ALLOC != 0)
        .collect();
    let mut segments = Vec::new();
    for (k, p) in phdrs
        .iter()
        .filter(|p| p.p_type(LE) == elf::PT_LOAD)
        .enumerate()
    {
        let (offset, filesz, memsz) = (p.p_offset(LE) as u64, p.p_filesz(LE), p.p_memsz(LE));
        if offset + filesz as u64 > data.len() as u64 {
            return Err(ObjError::truncated(format!("segment {k}")));
        }
        if memsz < filesz {
            return Err(ObjError::malformed(format!(
                "segment {k}: file size {filesz} exceeds memory size {memsz}"
            )));
        }
        let addr = p.p_vaddr(LE);
        if addr as u64 + memsz as u64 > 1 << 32 {
            return Err(ObjError::malformed(format!(
                "segment {k} extends past 4 GiB"
            )));
        }
        let &index = alloc
            .get(k)
            .ok_or_else(|| ObjError::malformed(format!("segment {k} has no section header")))?;
        if elf.section(index).sh_addr(LE) != addr {
            return Err(ObjError::malformed(format!(
                "section '{}' and segment {k} have different addresses",
                elf.names[index]
            )));
        }
        let f = p.p_flags(LE);
        segments.push(Segment {
            name: elf.names[index].clone(),
            addr,
            data: data[offset as usize..(offset + filesz as u64) as usize].to_vec(),
            mem_size: memsz,
            flags: SegmentFlags {
                read: f & elf::PF_R != 0,
                write: f & elf::PF_W != 0,
                exec: f & elf::PF_X != 0,
            },
        });
    }
    // Overlaps, in time linear after a sort (a file may hold 65535 segments):
    // sorted by start, a segment overlaps an earlier one only if it starts
    // before the furthest end so far.
    let mut by_addr: Vec<&Segment> = segments.iter().filter(|s| s.mem_size > 0).collect();
    by_addr.sort_by_key(|s| s.addr);
    let mut furthest: Option<&Segment> = None;
    for sb in by_addr {
        if let Some(sa) = furthest {
            if (sb.addr as u64) < sa.addr as u64 + sa.mem_size as u64 {
                return Err(ObjError::malformed(format!(
                    "segments '{}' and '{}' overlap",
                    sa.name, sb.name
                )));
            }
        }
        if furthest.is_none_or(|sa| sb.addr as u64 + sb.mem_size as u64 > sa.addr as u64 + sa.mem_size as u64) {
            furthest = Some(sb);
        }
    }
    let symtab = elf.symtab()?;
    let mut symbols = Vec::new();
    for (i, sym) in symtab.symbols().iter().enumerate().skip(1) {
        let name = elf.symbol_name(&symtab, i)?;
        let kind = match sym.st_type() {
            elf::STT_NOTYPE => SymbolKind::NoType,
            elf::STT_FUNC => SymbolKind::Func,
            elf::STT_OBJECT => SymbolKind::Object,
            elf::STT_SECTION | elf::STT_FILE => continue,
            t => {
                return Err(ObjError::malformed(format!(
                    "symbol '{name}': unsupported type {t}"
                )))
            }
        };
        let global = crate::elf::is_global_binding(&name, sym.st_bind())?;
        let shndx = sym.st_shndx(LE);
        if shndx == elf::SHN_UNDEF {
            return Err(ObjError::malformed(format!(
                "undefined symbol '{name}' in an executable"
            )));
        }
        if shndx != elf::SHN_ABS && shndx < elf::SHN_LORESERVE && shndx as usize >= elf.len() {
            return Err(ObjError::BadSectionIndex {
                what: format!("symbol '{name}'"),
                index: shndx as u32,
            });
        }
        symbols.push(ExeSymbol {
            name,
            addr: sym.st_value(LE),
            size: sym.st_size(LE),
            kind,
            global,
        });
    }
    Ok(Executable {
        machine,
        entry: header.e_entry.get(LE),
        segments,
        symbols,
    })
}

#[cfg(test)]
#[path = "exe_tests.rs"]
mod tests;

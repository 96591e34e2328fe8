//! Relocatable objects (`.o`): [`write_object`] and [`read_object`].
//!
//! Layout written: the content sections in model order (section `i` of the
//! model is ELF section `i + 1`), then one `SHT_RELA` `.rela<name>` per
//! section with relocations, the [`ISA_SECTION`], `.symtab` (locals first),
//! `.strtab` and `.shstrtab`. Symbols are written locals first in model order
//! (a stable partition), so `read_object(write_object(x)) == x` for every
//! object whose symbols are already locals-first, as the assembler makes them.

use object::elf;
use object::read::elf::{SectionHeader, Sym as _};
use object::write::elf::{
    FileHeader, Rel, SectionHeader as WSectionHeader, SectionIndex, Sym, Writer,
};
use object::write::StringId;
use object::{Endianness, LittleEndian as LE};

use crate::elf::{check_align, check_name, isa_bytes, parse, ElfIn};
use crate::{
    ObjError, ObjectFile, Reloc, RelocKind, Section, SectionKind, Symbol, SymbolKind, EM_DSP,
    ISA_SECTION, R_DSP_32, R_DSP_IMM, R_DSP_NONE, R_DSP_PCREL,
};

/// ELF relocation type number of a relocation kind.
pub fn reloc_type(kind: RelocKind) -> u32 {
    match kind {
        RelocKind::Data32 => R_DSP_32,
        RelocKind::Imm => R_DSP_IMM,
        RelocKind::PcRel => R_DSP_PCREL,
    }
}

/// The relocation kind of an ELF type number (`None` for `R_DSP_NONE` and unknown types).
pub fn reloc_kind(r_type: u32) -> Option<RelocKind> {
    match r_type {
        R_DSP_32 => Some(RelocKind::Data32),
        R_DSP_IMM => Some(RelocKind::Imm),
        R_DSP_PCREL => Some(RelocKind::PcRel),
        _ => None,
    }
}

/// Name of a relocation kind as written in listings (`R_DSP_IMM`).
pub fn reloc_name(kind: RelocKind) -> &'static str {
    match kind {
        RelocKind::Data32 => "R_DSP_32",
        RelocKind::Imm => "R_DSP_IMM",
        RelocKind::PcRel => "R_DSP_PCREL",
    }
}

pub(crate) fn section_flags(kind: SectionKind) -> (u32, u32) {
    let (a, w, x) = (elf::SHF_ALLOC, elf::SHF_WRITE, elf::SHF_EXECINSTR);
    match kind {
        SectionKind::Text => (elf::SHT_PROGBITS, a | x),
        SectionKind::ReadOnly => (elf::SHT_PROGBITS, a),
        SectionKind::Data => (elf::SHT_PROGBITS, a | w),
        SectionKind::Bss => (elf::SHT_NOBITS, a | w),
    }
}

pub(crate) fn elf_sym_type(kind: SymbolKind) -> u8 {
    match kind {
        SymbolKind::Func => elf::STT_FUNC,
        SymbolKind::Object => elf::STT_OBJECT,
        SymbolKind::NoType => elf::STT_NOTYPE,
    }
}

fn validate(obj: &ObjectFile) -> Result<(), ObjError> {
    for s in &obj.sections {
        check_name("section", &s.name)?;
        let what = format!("section '{}'", s.name);
        check_align(&what, s.align)?;
        if s.name.is_empty() || s.name == ISA_SECTION {
            return Err(ObjError::invalid(format!("bad section name {:?}", s.name)));
        }
        if s.kind == SectionKind::Bss {
            if !s.data.is_empty() {
                return Err(ObjError::invalid(format!(
                    "{what}: a bss section holds no data"
                )));
            }
            if !s.relocs.is_empty() {
                return Err(ObjError::invalid(format!(
                    "{what}: a bss section takes no relocations"
                )));
            }
        } else if s.data.len() as u64 != s.size as u64 {
            return Err(ObjError::invalid(format!(
                "{what}: size {} but {} bytes of data",
                s.size,
                s.data.len()
            )));
        }
        for r in &s.relocs {
            let at = format!("relocation at {}+{:#x}", s.name, r.offset);
            if r.symbol >= obj.symbols.len() {
                return Err(ObjError::invalid(format!(
                    "{at}: symbol index {} out of range",
                    r.symbol
                )));
            }
            if r.offset as u64 + 4 > s.size as u64 {
                return Err(ObjError::invalid(format!(
                    "{at}: offset past the end of the section"
                )));
            }
            if i32::try_from(r.addend).is_err() {
                return Err(ObjError::invalid(format!(
                    "{at}: addend {} does not fit 32 bits",
                    r.addend
                )));
            }
        }
    }
    for s in &obj.symbols {
        check_name("symbol", &s.name)?;
        if let Some(i) = s.section {
            let sec = obj.sections.get(i).ok_or_else(|| {
                ObjError::invalid(format!(
                    "symbol '{}': section index {i} out of range",
                    s.name
                ))
            })?;
            if s.value > sec.size {
                return Err(ObjError::invalid(format!(
                    "symbol '{}': value {:#x} past the end of section '{}'",
                    s.name, s.value, sec.name
                )));
            }
        }
    }
    Ok(())
}

/// Writes a relocatable object as ELF32 little-endian `ET_REL`.
pub fn write_object(obj: &ObjectFile) -> Result<Vec<u8>, ObjError> {
    validate(obj)?;
    let isa = isa_bytes(&obj.machine)?;
    let rela_names: Vec<Vec<u8>> = obj
        .sections
        .iter()
        .map(|s| format!(".rela{}", s.name).into_bytes())
        .collect();
    // Locals first, each group in model order.
    let order: Vec<usize> = (0..obj.symbols.len())
        .filter(|&i| !obj.symbols[i].global)
        .chain((0..obj.symbols.len()).filter(|&i| obj.symbols[i].global))
        .collect();
    let mut elf_index = vec![0u32; obj.symbols.len()];
    for (k, &i) in order.iter().enumerate() {
        elf_index[i] = k as u32 + 1;
    }
    let num_local = 1 + obj.symbols.iter().filter(|s| !s.global).count() as u32;

    let mut buf = Vec::new();
    let mut w = Writer::new(Endianness::Little, false, &mut buf);
    w.reserve_file_header();
    w.reserve_null_section_index();
    let sec: Vec<(SectionIndex, StringId)> = obj
        .sections
        .iter()
        .map(|s| {
            (
                w.reserve_section_index(),
                w.add_section_name(s.name.as_bytes()),
            )
        })
        .collect();
    let rela: Vec<Option<(SectionIndex, StringId)>> = obj
        .sections
        .iter()
        .zip(&rela_names)
        .map(|(s, n)| {
            (!s.relocs.is_empty()).then(|| (w.reserve_section_index(), w.add_section_name(n)))
        })
        .collect();
    let isa_name = w.add_section_name(ISA_SECTION.as_bytes());
    let _isa_index = w.reserve_section_index();
    let symtab_index = w.reserve_symtab_section_index();
    w.reserve_strtab_section_index();
    w.reserve_shstrtab_section_index();

    w.reserve_null_symbol_index();
    let sym_names: Vec<Option<StringId>> = order
        .iter()
        .map(|&i| {
            let s = &obj.symbols[i];
            w.reserve_symbol_index(s.section.map(|k| sec[k].0));
            (!s.name.is_empty()).then(|| w.add_string(s.name.as_bytes()))
        })
        .collect();

    let sec_offsets: Vec<usize> = obj
        .sections
        .iter()
        .map(|s| w.reserve(s.data.len(), s.align.max(1) as usize))
        .collect();
    let rela_offsets: Vec<usize> = obj
        .sections
        .iter()
        .map(|s| {
            if s.relocs.is_empty() {
                0
            } else {
                w.reserve_relocations(s.relocs.len(), true)
            }
        })
        .collect();
    let isa_offset = w.reserve(isa.len(), 1);
    w.reserve_symtab();
    w.reserve_strtab();
    w.reserve_shstrtab();
    w.reserve_section_headers();

    w.write_file_header(&FileHeader {
        os_abi: elf::ELFOSABI_NONE,
        abi_version: 0,
        e_type: elf::ET_REL,
        e_machine: EM_DSP,
        e_entry: 0,
        e_flags: 0,
    })
    .map_err(|e| ObjError::invalid(e.to_string()))?;
    for s in &obj.sections {
        w.write_align(s.align.max(1) as usize);
        w.write(&s.data);
    }
    for s in &obj.sections {
        if s.relocs.is_empty() {
            continue;
        }
        w.write_align_relocation();
        for r in &s.relocs {
            w.write_relocation(
                true,
                &Rel {
                    r_offset: r.offset as u64,
                    r_sym: elf_index[r.symbol],
                    r_type: reloc_type(r.kind),
                    r_addend: r.addend,
                },
            );
        }
    }
    w.write(&isa);
    w.write_null_symbol();
    for (&i, name) in order.iter().zip(&sym_names) {
        let s = &obj.symbols[i];
        let bind = if s.global {
            elf::STB_GLOBAL
        } else {
            elf::STB_LOCAL
        };
        w.write_symbol(&Sym {
            name: *name,
            section: s.section.map(|k| sec[k].0),
            st_info: (bind << 4) | elf_sym_type(s.kind),
            st_other: elf::STV_DEFAULT,
            st_shndx: 0,
            st_value: s.value as u64,
            st_size: s.size as u64,
        });
    }
    w.write_strtab();
    w.write_shstrtab();

    w.write_null_section_header();
    for (i, s) in obj.sections.iter().enumerate() {
        let (sh_type, flags) = section_flags(s.kind);
        w.write_section_header(&WSectionHeader {
            name: Some(sec[i].1),
            sh_type,
            sh_flags: flags as u64,
            sh_addr: 0,
            sh_offset: sec_offsets[i] as u64,
            sh_size: s.size as u64,
            sh_link: 0,
            sh_info: 0,
            sh_addralign: s.align as u64,
            sh_entsize: 0,
        });
    }
    for (i, s) in obj.sections.iter().enumerate() {
        if let Some((_, name)) = rela[i] {
            w.write_relocation_section_header(
                name,
                sec[i].0,
                symtab_index,
                rela_offsets[i],
                s.relocs.len(),
                true,
            );
        }
    }
    crate::elf::write_trailing_section_headers(&mut w, isa_name, isa_offset, isa.len(), num_local);
    Ok(buf)
}

/// Kind of an allocated ELF section, or `None` if it is not a content section.
pub(crate) fn content_kind(sh_type: u32, flags: u32) -> Option<SectionKind> {
    if flags & elf::SHF_ALLOC == 0 {
        return None;
    }
    match sh_type {
        elf::SHT_NOBITS => Some(SectionKind::Bss),
        elf::SHT_PROGBITS if flags & elf::SHF_EXECINSTR != 0 => Some(SectionKind::Text),
        elf::SHT_PROGBITS if flags & elf::SHF_WRITE != 0 => Some(SectionKind::Data),
        elf::SHT_PROGBITS => Some(SectionKind::ReadOnly),
        _ => None,
    }
}

/// Reads and validates a relocatable object.
pub fn read_object(data: &[u8]) -> Result<ObjectFile, ObjError> {
    let elf = parse(data, elf::ET_REL, "ET_REL (a relocatable object)")?;
    let machine = elf.machine_id()?;
    // ELF section index -> model section index.
    let mut map = vec![None; elf.len()];
    let mut sections = Vec::new();
    #[allow(clippy::needless_range_loop)] // `i` is the ELF section index
    for i in 1..elf.len() {
        let s = elf.section(i);
        if let Some(kind) = content_kind(s.sh_type(LE), s.sh_flags(LE)) {
            let align = s.sh_addralign(LE);
            if align != 0 && !align.is_power_of_two() {
                return Err(ObjError::malformed(format!(
                    "section '{}': alignment {align} is not a power of two",
                    elf.names[i]
                )));
            }
            map[i] = Some(sections.len());
            sections.push(Section {
                name: elf.names[i].clone(),
                kind,
                align,
                data: elf.contents(i)?.to_vec(),
                size: s.sh_size(LE),
                relocs: Vec::new(),
            });
        }
    }
    let (symbols, sym_map) = read_symbols(&elf, &map, &sections)?;
    for i in 1..elf.len() {
        let s = elf.section(i);
        match s.sh_type(LE) {
            elf::SHT_REL => {
                return Err(ObjError::malformed(format!(
                    "section '{}': SHT_REL relocations are not supported (use SHT_RELA)",
                    elf.names[i]
                )))
            }
            elf::SHT_RELA => read_relocs(&elf, i, &map, &sym_map, &mut sections)?,
            _ => {}
        }
    }
    Ok(ObjectFile {
        machine,
        sections,
        symbols,
    })
}

/// Reads the symbol table; returns the symbols and, per ELF symbol index,
/// the model symbol index (`None` for the null and file symbols).
fn read_symbols(
    elf: &ElfIn<'_>,
    map: &[Option<usize>],
    sections: &[Section],
) -> Result<(Vec<Symbol>, Vec<Option<usize>>), ObjError> {
    let symtab = elf.symtab()?;
    let mut symbols = Vec::new();
    let mut sym_map = vec![None; symtab.symbols().len()];
    for (i, sym) in symtab.symbols().iter().enumerate().skip(1) {
        let mut name = elf.symbol_name(&symtab, i)?;
        let shndx = sym.st_shndx(LE);
        let kind = match sym.st_type() {
            elf::STT_NOTYPE | elf::STT_SECTION => SymbolKind::NoType,
            elf::STT_FUNC => SymbolKind::Func,
            elf::STT_OBJECT => SymbolKind::Object,
            elf::STT_FILE => continue,
            t => {
                return Err(ObjError::malformed(format!(
                    "symbol '{name}': unsupported type {t}"
                )))
            }
        };
        let global = crate::elf::is_global_binding(&name, sym.st_bind())?;
        let section = match shndx {
            elf::SHN_UNDEF => None,
            elf::SHN_ABS => {
                return Err(ObjError::malformed(format!(
                    "symbol '{name}': absolute symbols are not supported"
                )))
            }
            elf::SHN_COMMON => {
                return Err(ObjError::malformed(format!(
                    "symbol '{name}': common symbols are not supported"
                )))
            }
            _ => {
                let index = symtab
                    .symbol_section(LE, sym, object::SymbolIndex(i))
                    .ok()
                    .flatten();
                let k = index
                    .and_then(|x| map.get(x.0).copied().flatten())
                    .ok_or_else(|| ObjError::BadSectionIndex {
                        what: format!("symbol '{name}'"),
                        index: shndx as u32,
                    })?;
                Some(k)
            }
        };
        if sym.st_type() == elf::STT_SECTION {
            if let Some(k) = section {
                name = sections[k].name.clone();
            }
        }
        let value = sym.st_value(LE);
        if let Some(k) = section {
            if value > sections[k].size {
                return Err(ObjError::malformed(format!(
                    "symbol '{name}': value {value:#x} past the end of section '{}'",
                    sections[k].name
                )));
            }
        }
        sym_map[i] = Some(symbols.len());
        symbols.push(Symbol {
            name,
            section,
            value,
            size: sym.st_size(LE),
            global,
            kind,
        });
    }
    Ok((symbols, sym_map))
}

fn read_relocs(
    elf: &ElfIn<'_>,
    index: usize,
    map: &[Option<usize>],
    sym_map: &[Option<usize>],
    sections: &mut [Section],
) -> Result<(), ObjError> {
    let s = elf.section(index);
    let rname = &elf.names[index];
    let target = s.sh_info(LE);
    let k =
        map.get(target as usize)
            .copied()
            .flatten()
            .ok_or_else(|| ObjError::BadSectionIndex {
                what: format!("relocation section '{rname}'"),
                index: target,
            })?;
    let link = s.sh_link(LE) as usize;
    if link >= elf.len() || elf.section(link).sh_type(LE) != elf::SHT_SYMTAB {
        return Err(ObjError::BadSectionIndex {
            what: format!("relocation section '{rname}': symbol table link"),
            index: link as u32,
        });
    }
    if !s.sh_size(LE).is_multiple_of(12) {
        return Err(ObjError::malformed(format!(
            "relocation section '{rname}': size is not a multiple of 12"
        )));
    }
    let relas = match s.rela(LE, elf.data) {
        Ok(Some((relas, _))) => relas,
        _ => {
            return Err(ObjError::malformed(format!(
                "relocation section '{rname}' is unreadable"
            )))
        }
    };
    let sec_name = sections[k].name.clone();
    if sections[k].kind == SectionKind::Bss && !relas.is_empty() {
        return Err(ObjError::malformed(format!(
            "relocations for bss section '{sec_name}'"
        )));
    }
    let size = sections[k].size;
    for r in relas {
        let offset = r.r_offset.get(LE);
        let info = r.r_info.get(LE);
        let (sym, r_type) = (info >> 8, info & 0xff);
        if r_type == R_DSP_NONE {
            continue;
        }
        let kind = reloc_kind(r_type).ok_or_else(|| ObjError::UnknownRelocType {
            section: sec_name.clone(),
            offset,
            r_type,
        })?;
        let symbol = sym_map
            .get(sym as usize)
            .copied()
            .flatten()
            .ok_or_else(|| ObjError::BadSymbolIndex {
                section: sec_name.clone(),
                offset,
                index: sym,
            })?;
        if offset as u64 + 4 > size as u64 {
            return Err(ObjError::malformed(format!(
                "relocation at {sec_name}+{offset:#x} lies outside the section (size {size:#x})"
            )));
        }
        let addend = r.r_addend.get(LE) as i64;
        sections[k].relocs.push(Reloc {
            offset,
            kind,
            symbol,
            addend,
        });
    }
    Ok(())
}

#[cfg(test)]
#[path = "object_tests.rs"]
pub(crate) mod tests;

//! ELF32 helpers shared by the object and executable formats: validating the
//! file header, bounds-checked access to the section table, and the
//! machine-identity section ([`crate::ISA_SECTION`]).

use object::elf::{self, FileHeader32, SectionHeader32};
use object::read::elf::{FileHeader, SectionHeader, SectionTable, SymbolTable};
use object::LittleEndian as LE;

use crate::{MachineId, ObjError, EM_DSP, ISA_SECTION};

pub(crate) type Hdr = FileHeader32<LE>;

/// A validated ELF32 little-endian DSP file.
pub(crate) struct ElfIn<'d> {
    pub data: &'d [u8],
    pub header: &'d Hdr,
    pub sections: SectionTable<'d, Hdr>,
    /// Section names by section index.
    pub names: Vec<String>,
}

fn obj_err(e: object::read::Error) -> ObjError {
    ObjError::malformed(e.to_string())
}

/// Checks identification, class, byte order, machine and type, and that the
/// section header table and every section's contents lie inside the file.
pub(crate) fn parse<'d>(
    data: &'d [u8],
    e_type: u16,
    expected: &'static str,
) -> Result<ElfIn<'d>, ObjError> {
    if data.len() < 4 || data[..4] != elf::ELFMAG {
        return Err(ObjError::NotElf);
    }
    if data.len() < 16 {
        return Err(ObjError::truncated("the ELF identification"));
    }
    if data[4] != elf::ELFCLASS32 {
        return Err(ObjError::WrongClass { class: data[4] });
    }
    if data[5] != elf::ELFDATA2LSB {
        return Err(ObjError::WrongEndian { data: data[5] });
    }
    if data.len() < std::mem::size_of::<Hdr>() {
        return Err(ObjError::truncated("the ELF header"));
    }
    let header = Hdr::parse(data).map_err(obj_err)?;
    let machine = header.e_machine.get(LE);
    if machine != EM_DSP {
        return Err(ObjError::WrongMachine { machine });
    }
    let found = header.e_type.get(LE);
    if found != e_type {
        return Err(ObjError::WrongType { expected, found });
    }
    let shoff = header.e_shoff.get(LE) as u64;
    if shoff == 0 {
        return Err(ObjError::malformed("no section header table"));
    }
    let shentsize = header.e_shentsize.get(LE) as usize;
    if shentsize != std::mem::size_of::<SectionHeader32<LE>>() {
        return Err(ObjError::malformed(format!(
            "section header size {shentsize}, expected 40"
        )));
    }
    let raw_shnum = header.e_shnum.get(LE) as u64;
    if shoff + raw_shnum.max(1) * shentsize as u64 > data.len() as u64 {
        return Err(ObjError::truncated("the section header table"));
    }
    let shnum = header.shnum(LE, data).map_err(obj_err)?;
    if shoff + shnum as u64 * shentsize as u64 > data.len() as u64 {
        return Err(ObjError::truncated("the section header table"));
    }
    let headers = header.section_headers(LE, data).map_err(obj_err)?;
    for (i, s) in headers.iter().enumerate() {
        if s.sh_type(LE) != elf::SHT_NOBITS && s.sh_type(LE) != elf::SHT_NULL {
            let end = s.sh_offset(LE) as u64 + s.sh_size(LE) as u64;
            if end > data.len() as u64 {
                return Err(ObjError::truncated(format!("the contents of section {i}")));
            }
        }
    }
    let shstrndx = header.shstrndx(LE, data).map_err(obj_err)?;
    if shstrndx as usize >= headers.len() || shstrndx == 0 {
        return Err(ObjError::BadSectionIndex {
            what: "e_shstrndx".into(),
            index: shstrndx,
        });
    }
    if headers[shstrndx as usize].sh_type(LE) != elf::SHT_STRTAB {
        return Err(ObjError::malformed(
            "e_shstrndx does not name a string table",
        ));
    }
    let sections = header.sections(LE, data).map_err(obj_err)?;
    let mut names = Vec::with_capacity(headers.len());
    for (i, s) in headers.iter().enumerate() {
        let name = sections
            .section_name(LE, s)
            .map_err(|_| ObjError::malformed(format!("section {i}: bad name offset")))?;
        let name = std::str::from_utf8(name)
            .map_err(|_| ObjError::malformed(format!("section {i}: name is not UTF-8")))?;
        names.push(name.to_string());
    }
    Ok(ElfIn {
        data,
        header,
        sections,
        names,
    })
}

impl<'d> ElfIn<'d> {
    pub fn section(&self, index: usize) -> &'d SectionHeader32<LE> {
        &self.sections.iter().as_slice()[index]
    }

    pub fn len(&self) -> usize {
        self.sections.len()
    }

    /// Contents of a non-NOBITS section (bounds were checked by [`parse`]).
    pub fn contents(&self, index: usize) -> Result<&'d [u8], ObjError> {
        let s = self.section(index);
        if s.sh_type(LE) == elf::SHT_NOBITS {
            return Ok(&[]);
        }
        s.data(LE, self.data).map_err(obj_err)
    }

    /// The machine recorded in the [`ISA_SECTION`].
    pub fn machine_id(&self) -> Result<MachineId, ObjError> {
        let index = self
            .names
            .iter()
            .position(|n| n == ISA_SECTION)
            .ok_or(ObjError::MissingIsa)?;
        parse_isa(self.contents(index)?)
    }

    /// The symbol table (empty when there is none) and its section index.
    pub fn symtab(&self) -> Result<SymbolTable<'d, Hdr>, ObjError> {
        let tabs = self
            .sections
            .iter()
            .filter(|s| s.sh_type(LE) == elf::SHT_SYMTAB)
            .count();
        if tabs > 1 {
            return Err(ObjError::malformed("more than one symbol table"));
        }
        self.sections
            .symbols(LE, self.data, elf::SHT_SYMTAB)
            .map_err(obj_err)
    }

    pub fn symbol_name(
        &self,
        symtab: &SymbolTable<'d, Hdr>,
        index: usize,
    ) -> Result<String, ObjError> {
        let sym = &symtab.symbols()[index];
        let name = symtab
            .symbol_name(LE, sym)
            .map_err(|_| ObjError::malformed(format!("symbol {index}: bad name offset")))?;
        String::from_utf8(name.to_vec())
            .map_err(|_| ObjError::malformed(format!("symbol {index}: name is not UTF-8")))
    }
}

/// Parses `name\0hex16\0`.
pub(crate) fn parse_isa(bytes: &[u8]) -> Result<MachineId, ObjError> {
    let bad = |reason: &str| ObjError::BadIsa {
        reason: reason.into(),
    };
    let mut parts = bytes.split(|&b| b == 0);
    let name = parts.next().unwrap_or_default();
    let hex = parts.next().ok_or_else(|| bad("missing fingerprint"))?;
    if parts.next() != Some(&[][..]) || parts.next().is_some() {
        return Err(bad("expected 'name\\0fingerprint\\0'"));
    }
    if name.is_empty() {
        return Err(bad("empty machine name"));
    }
    let name = std::str::from_utf8(name).map_err(|_| bad("machine name is not UTF-8"))?;
    let hex = std::str::from_utf8(hex).map_err(|_| bad("fingerprint is not hexadecimal"))?;
    if hex.len() != 16 {
        return Err(bad("fingerprint is not 16 hexadecimal digits"));
    }
    let fingerprint =
        u64::from_str_radix(hex, 16).map_err(|_| bad("fingerprint is not hexadecimal"))?;
    Ok(MachineId {
        name: name.to_string(),
        fingerprint,
    })
}

/// The contents of the [`ISA_SECTION`] for a machine.
pub(crate) fn isa_bytes(m: &MachineId) -> Result<Vec<u8>, ObjError> {
    if m.name.is_empty() || m.name.contains('\0') {
        return Err(ObjError::invalid(format!("bad machine name {:?}", m.name)));
    }
    Ok(format!("{}\0{:016x}\0", m.name, m.fingerprint).into_bytes())
}

/// Checks a name for the string tables.
pub(crate) fn check_name(what: &str, name: &str) -> Result<(), ObjError> {
    if name.contains('\0') {
        return Err(ObjError::invalid(format!(
            "{what} name {name:?} contains a NUL byte"
        )));
    }
    Ok(())
}

/// Checks a section alignment: 0 or a power of two.
pub(crate) fn check_align(what: &str, align: u32) -> Result<(), ObjError> {
    if align != 0 && !align.is_power_of_two() {
        return Err(ObjError::invalid(format!(
            "{what}: alignment {align} is not a power of two"
        )));
    }
    Ok(())
}

/// Writes the section headers every file ends with: the `.dsp.isa` section
/// (at `isa_offset`, `isa_len` bytes), the symbol table and the string tables.
pub(crate) fn write_trailing_section_headers(
    w: &mut object::write::elf::Writer<'_>,
    isa_name: object::write::StringId,
    isa_offset: usize,
    isa_len: usize,
    num_local: u32,
) {
    w.write_section_header(&object::write::elf::SectionHeader {
        name: Some(isa_name),
        sh_type: object::elf::SHT_PROGBITS,
        sh_flags: 0,
        sh_addr: 0,
        sh_offset: isa_offset as u64,
        sh_size: isa_len as u64,
        sh_link: 0,
        sh_info: 0,
        sh_addralign: 1,
        sh_entsize: 0,
    });
    w.write_symtab_section_header(num_local);
    w.write_strtab_section_header();
    w.write_shstrtab_section_header();
}

/// Whether a symbol's ELF binding is global (`STB_GLOBAL`) or local
/// (`STB_LOCAL`); any other binding is an error naming the symbol.
pub(crate) fn is_global_binding(name: &str, bind: u8) -> Result<bool, ObjError> {
    match bind {
        object::elf::STB_LOCAL => Ok(false),
        object::elf::STB_GLOBAL => Ok(true),
        b => Err(ObjError::malformed(format!("symbol '{name}': unsupported binding {b}"))),
    }
}

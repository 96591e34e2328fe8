//! `dsp-objdump` as a library: reads an object, executable or archive,
//! finds its machine, and prints section headers (`-h`), symbols (`-t`),
//! relocations (`-r`) and disassembly (`-d`). Every line that is not
//! assembly is a `#` comment, so the whole output stays valid input for
//! `dsp-as`. The output goes to a [`Write`] as it is made: nothing is
//! sized from the file before the file's own checks.

use std::fmt::Write;

use dsp_obj::{
    read_archive, read_executable, read_object, reloc_name, Executable, MachineId, ObjError, ObjectFile,
    SectionKind, SymbolKind,
};
use isa_tablegen::Machine;

use crate::disasm::{write_executable_listing, write_object_listing};

/// What to print.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub disassemble: bool,
    pub headers: bool,
    pub symbols: bool,
    pub relocs: bool,
    /// Machine to use instead of the one the file names (a name or a path).
    pub isa: Option<String>,
}

/// The machine for a file: `--isa` if given, else the shipped machine the
/// file names, which must have the recorded fingerprint.
pub fn machine_for(id: &MachineId, isa: Option<&str>) -> Result<Machine, String> {
    if let Some(isa) = isa {
        return Machine::load(isa).map_err(|e| e.to_string());
    }
    let m = Machine::load(&id.name)
        .map_err(|e| format!("cannot load machine '{}' named by the file: {e} (use --isa FILE)", id.name))?;
    if m.fingerprint != id.fingerprint {
        return Err(format!(
            "the file was built for machine '{}' with fingerprint {:016x}, but '{}' here has fingerprint {:016x}: \
             the description changed (use --isa FILE with the original description)",
            id.name, id.fingerprint, m.name, m.fingerprint
        ));
    }
    Ok(m)
}

fn kind_name(kind: SectionKind) -> &'static str {
    match kind {
        SectionKind::Text => "TEXT",
        SectionKind::ReadOnly => "RODATA",
        SectionKind::Data => "DATA",
        SectionKind::Bss => "BSS",
    }
}

fn sym_flags(global: bool, kind: SymbolKind) -> String {
    let k = match kind {
        SymbolKind::Func => 'F',
        SymbolKind::Object => 'O',
        SymbolKind::NoType => ' ',
    };
    format!("{}     {k}", if global { 'g' } else { 'l' })
}

/// Dumps a relocatable object.
pub fn dump_object(name: &str, obj: &ObjectFile, opts: &Options, out: &mut dyn Write) -> Result<(), String> {
    let _ = writeln!(out, "# {name}:     file format elf32-dsp (relocatable, machine {})", obj.machine.name);
    if opts.headers {
        let _ = writeln!(out, "#\n# Sections:\n# Idx Name                 Size      Align  Type    Relocs");
        for (i, s) in obj.sections.iter().enumerate() {
            let _ = writeln!(
                out,
                "# {i:3} {:<20} {:08x}  {:<5}  {:<6}  {}",
                s.name,
                s.size,
                s.align,
                kind_name(s.kind),
                s.relocs.len()
            );
        }
    }
    if opts.symbols {
        let _ = writeln!(out, "#\n# SYMBOL TABLE:");
        for s in &obj.symbols {
            let sec = match s.section {
                Some(i) => obj.sections.get(i).map(|s| s.name.as_str()).unwrap_or("?"),
                None => "*UND*",
            };
            let _ = writeln!(out, "# {:08x} {} {sec:<12} {:08x} {}", s.value, sym_flags(s.global, s.kind), s.size, s.name);
        }
    }
    if opts.relocs {
        for s in obj.sections.iter().filter(|s| !s.relocs.is_empty()) {
            let _ = writeln!(out, "#\n# RELOCATION RECORDS FOR [{}]:\n# OFFSET   TYPE              VALUE", s.name);
            for r in &s.relocs {
                let sym = obj.symbols.get(r.symbol).map(|s| s.name.as_str()).unwrap_or("?");
                let addend = match r.addend {
                    0 => String::new(),
                    a if a > 0 => format!("+{a:#x}"),
                    a => format!("-{:#x}", a.unsigned_abs()),
                };
                let _ = writeln!(out, "# {:08x} {:<17} {sym}{addend}", r.offset, reloc_name(r.kind));
            }
        }
    }
    if opts.disassemble {
        let m = machine_for(&obj.machine, opts.isa.as_deref())?;
        let _ = writeln!(out, "#\n# Disassembly:");
        write_object_listing(&m, obj, out);
    }
    Ok(())
}

/// Dumps a linked executable.
pub fn dump_executable(name: &str, exe: &Executable, opts: &Options, out: &mut dyn Write) -> Result<(), String> {
    let _ = writeln!(out, "# {name}:     file format elf32-dsp (executable, machine {})", exe.machine.name);
    let _ = writeln!(out, "# start address 0x{:08x}", exe.entry);
    if opts.headers {
        let _ = writeln!(out, "#\n# Sections:\n# Idx Name                 Size      VMA       FileSize  Flags");
        for (i, s) in exe.segments.iter().enumerate() {
            let flags = format!(
                "{}{}{}",
                if s.flags.read { 'r' } else { '-' },
                if s.flags.write { 'w' } else { '-' },
                if s.flags.exec { 'x' } else { '-' }
            );
            let _ = writeln!(
                out,
                "# {i:3} {:<20} {:08x}  {:08x}  {:08x}  {flags}",
                s.name,
                s.mem_size,
                s.addr,
                s.data.len()
            );
        }
    }
    if opts.symbols {
        let _ = writeln!(out, "#\n# SYMBOL TABLE:");
        for s in &exe.symbols {
            let seg = exe
                .segments
                .iter()
                .find(|g| s.addr >= g.addr && s.addr < g.addr.saturating_add(g.mem_size))
                .map(|g| g.name.as_str())
                .unwrap_or("*ABS*");
            let _ = writeln!(out, "# {:08x} {} {seg:<12} {:08x} {}", s.addr, sym_flags(s.global, s.kind), s.size, s.name);
        }
    }
    if opts.relocs {
        let _ = writeln!(out, "#\n# (an executable has no relocations)");
    }
    if opts.disassemble {
        let m = machine_for(&exe.machine, opts.isa.as_deref())?;
        let _ = writeln!(out, "#\n# Disassembly:");
        write_executable_listing(&m, exe, out);
    }
    Ok(())
}

/// Dumps the bytes of a file of any of the three kinds.
pub fn dump_bytes(name: &str, data: &[u8], opts: &Options, out: &mut dyn Write) -> Result<(), String> {
    if data.starts_with(b"!<arch>\n") || data.starts_with(b"!<thin>\n") {
        let members = read_archive(data).map_err(|e| format!("{name}: {e}"))?;
        let _ = writeln!(out, "# {name}: archive with {} members", members.len());
        for mem in members {
            let member_name = format!("{name}({})", mem.name);
            let _ = writeln!(out);
            dump_bytes(&member_name, &mem.data, opts, out)?;
        }
        return Ok(());
    }
    match read_object(data) {
        Ok(obj) => dump_object(name, &obj, opts, out),
        Err(ObjError::WrongType { .. }) => {
            let exe = read_executable(data).map_err(|e| format!("{name}: {e}"))?;
            dump_executable(name, &exe, opts, out)
        }
        Err(e) => Err(format!("{name}: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables() {
        let m = Machine::load("ftm").expect("ftm");
        let obj = crate::assemble(&m, "\t.globl f\n\t.type f, @function\nf:\tcall g\n", "t.s").unwrap();
        let opts = Options { headers: true, symbols: true, relocs: true, ..Options::default() };
        let mut out = String::new();
        dump_object("t.o", &obj, &opts, &mut out).unwrap();
        assert!(out.lines().all(|l| l.starts_with('#')), "{out}");
        assert!(out.contains("# 00000000 g     F .text        00000000 f"), "{out}");
        assert!(out.contains("# 00000000 R_DSP_PCREL       g"), "{out}");
        assert_eq!(sym_flags(false, SymbolKind::Object), "l     O");
    }

    #[test]
    fn unknown_machine_is_an_error() {
        let id = MachineId { name: "nosuch".into(), fingerprint: 0 };
        assert!(machine_for(&id, None).unwrap_err().contains("nosuch"));
    }
}

//! `dsp-ar`: creates, lists and extracts `ar` archives of dsp objects.
//!
//! `dsp-ar rcs|rc|r ARCHIVE FILES...` adds or replaces members (creating the
//! archive; the symbol index is always written), `dsp-ar t ARCHIVE` lists
//! members, `dsp-ar x ARCHIVE [MEMBERS...]` extracts members into the current
//! directory. Exit status: 0 ok, 1 errors, 2 usage errors.

use std::path::Path;
use std::process::ExitCode;

use dsp_obj::{read_archive, read_object, write_archive, ArchiveMember};

const USAGE: &str = "usage: dsp-ar rcs|rc|r|t|x ARCHIVE [FILES...]";

fn err(msg: String) -> ExitCode {
    eprintln!("dsp-ar: error: {msg}");
    ExitCode::from(1)
}

fn read_members(archive: &str, must_exist: bool) -> Result<Vec<ArchiveMember>, String> {
    match std::fs::read(archive) {
        Ok(bytes) => read_archive(&bytes).map_err(|e| format!("{archive}: {e}")),
        Err(e) if !must_exist && e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(format!("cannot open {archive}: {e}")),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    if args.len() < 2 {
        eprintln!("dsp-ar: error: missing operation or archive\n{USAGE}");
        return ExitCode::from(2);
    }
    let op = args[0].trim_start_matches('-');
    let archive = &args[1];
    let files = &args[2..];
    let op_char = op.chars().next().unwrap_or(' ');
    if op.is_empty() || !op.chars().skip(1).all(|c| "cs".contains(c)) || !"rtx".contains(op_char) {
        eprintln!("dsp-ar: error: unknown operation '{}'\n{USAGE}", args[0]);
        return ExitCode::from(2);
    }
    match op_char {
        'r' => {
            let mut members = match read_members(archive, false) {
                Ok(m) => m,
                Err(e) => return err(e),
            };
            for f in files {
                let data = match std::fs::read(f) {
                    Ok(d) => d,
                    Err(e) => return err(format!("cannot open {f}: {e}")),
                };
                if let Err(e) = read_object(&data) {
                    return err(format!("{f}: {e}"));
                }
                let name = Path::new(f)
                    .file_name()
                    .map_or_else(|| f.clone(), |n| n.to_string_lossy().into_owned());
                match members.iter_mut().find(|m| m.name == name) {
                    Some(m) => m.data = data,
                    None => members.push(ArchiveMember { name, data }),
                }
            }
            if let Err(e) = std::fs::write(archive, write_archive(&members)) {
                return err(format!("cannot write {archive}: {e}"));
            }
        }
        't' => match read_members(archive, true) {
            Ok(members) => {
                for m in members {
                    println!("{}", m.name);
                }
            }
            Err(e) => return err(e),
        },
        _ => {
            let members = match read_members(archive, true) {
                Ok(m) => m,
                Err(e) => return err(e),
            };
            for f in files {
                if !members.iter().any(|m| &m.name == f) {
                    return err(format!("{f}: no such member in {archive}"));
                }
            }
            for m in members
                .iter()
                .filter(|m| files.is_empty() || files.contains(&m.name))
            {
                if m.name.contains('/') || m.name == ".." || m.name == "." {
                    return err(format!("refusing to extract member named '{}'", m.name));
                }
                if let Err(e) = std::fs::write(&m.name, &m.data) {
                    return err(format!("cannot write {}: {e}", m.name));
                }
            }
        }
    }
    ExitCode::SUCCESS
}

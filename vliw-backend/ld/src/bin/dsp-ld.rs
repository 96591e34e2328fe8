//! `dsp-ld`: the command-line static linker (see the `dsp_ld` library).
//! Exit status: 0 linked, 1 link errors, 2 usage errors.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Arg, ArgAction, Command};
use dsp_ld::input::find_library;
use dsp_ld::{link_with_map, Input, LinkError, LinkOptions, DEFAULT_ENTRY};
use isa_tablegen::Machine;

fn command() -> Command {
    Command::new("dsp-ld")
        .about("Static linker for dsp objects (.o) and archives (.a)")
        .arg(
            Arg::new("output")
                .short('o')
                .value_name("OUT")
                .default_value("a.out")
                .help("output executable"),
        )
        .arg(
            Arg::new("isa")
                .long("isa")
                .value_name("NAME|FILE")
                .help("machine to link for (default: the one the inputs name)"),
        )
        .arg(
            Arg::new("libdirs")
                .short('L')
                .value_name("DIR")
                .action(ArgAction::Append)
                .help("add a directory to the -l search path"),
        )
        .arg(
            Arg::new("libs")
                .short('l')
                .value_name("NAME")
                .action(ArgAction::Append)
                .help("link libNAME.a, searched in the -L directories"),
        )
        .arg(
            Arg::new("entry")
                .short('e')
                .long("entry")
                .value_name("SYM")
                .default_value(DEFAULT_ENTRY)
                .help("entry symbol"),
        )
        .arg(
            Arg::new("stack")
                .long("stack-size")
                .value_name("N")
                .help("stack size in bytes (decimal, 0x hex, or with K/M suffix; default 1M)"),
        )
        .arg(
            Arg::new("map")
                .long("map")
                .value_name("FILE")
                .help("write a link map"),
        )
        .arg(
            Arg::new("files")
                .value_name("FILES")
                .action(ArgAction::Append)
                .help("objects and archives, in link order"),
        )
}

fn parse_size(text: &str) -> Option<u32> {
    let t = text.trim();
    let (digits, mult) = match t.as_bytes().last()? {
        b'k' | b'K' => (&t[..t.len() - 1], 1u64 << 10),
        b'm' | b'M' => (&t[..t.len() - 1], 1u64 << 20),
        _ => (t, 1),
    };
    let v = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(hex) => u64::from_str_radix(hex, 16).ok()?,
        None => digits.parse::<u64>().ok()?,
    };
    u32::try_from(v.checked_mul(mult)?).ok()
}

fn usage(msg: &str) -> ExitCode {
    eprintln!("dsp-ld: error: {msg}");
    eprintln!("usage: dsp-ld [-o OUT] [--isa NAME|FILE] [-L DIR]... [-l NAME]... [-e SYM] [--stack-size N] [--map FILE] FILES...");
    ExitCode::from(2)
}

fn fail(e: LinkError) -> ExitCode {
    eprintln!("{e}");
    ExitCode::from(1)
}

fn main() -> ExitCode {
    let m = match command().try_get_matches() {
        Ok(m) => m,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    // Files and -l libraries keep their command-line order.
    let mut ordered: Vec<(usize, bool, String)> = Vec::new();
    for (id, is_lib) in [("files", false), ("libs", true)] {
        if let (Some(vals), Some(idx)) = (m.get_many::<String>(id), m.indices_of(id)) {
            ordered.extend(idx.zip(vals).map(|(i, v)| (i, is_lib, v.clone())));
        }
    }
    ordered.sort();
    if ordered.is_empty() {
        return usage("no input files");
    }
    let stack_size = match m.get_one::<String>("stack") {
        None => dsp_ld::DEFAULT_STACK_SIZE,
        Some(s) => match parse_size(s) {
            Some(v) => v,
            None => return usage(&format!("bad --stack-size '{s}'")),
        },
    };
    let libdirs: Vec<PathBuf> = m
        .get_many::<String>("libdirs")
        .into_iter()
        .flatten()
        .map(PathBuf::from)
        .collect();
    let machine = match m.get_one::<String>("isa") {
        None => None,
        Some(name) => match Machine::load(name) {
            Ok(mach) => Some(mach),
            Err(d) => return fail(LinkError::new(format!("--isa {name}: {d}"))),
        },
    };
    let mut inputs = Vec::new();
    let mut errors = Vec::new();
    for (_, is_lib, v) in ordered {
        let path = if is_lib {
            match find_library(&v, &libdirs) {
                Ok(p) => p,
                Err(e) => {
                    errors.extend(e.messages);
                    continue;
                }
            }
        } else {
            PathBuf::from(v)
        };
        match Input::from_file(&path) {
            Ok(i) => inputs.push(i),
            Err(e) => errors.extend(e.messages),
        }
    }
    if !errors.is_empty() {
        return fail(LinkError { messages: errors });
    }
    let opts = LinkOptions {
        machine,
        entry: m.get_one::<String>("entry").cloned().unwrap_or_default(),
        stack_size,
    };
    let linked = match link_with_map(&inputs, &opts) {
        Ok(l) => l,
        Err(e) => return fail(e),
    };
    let out = m
        .get_one::<String>("output")
        .cloned()
        .unwrap_or_else(|| "a.out".into());
    let bytes = match dsp_obj::write_executable(&linked.executable) {
        Ok(b) => b,
        Err(e) => return fail(LinkError::new(format!("{out}: {e}"))),
    };
    if let Err(e) = std::fs::write(&out, bytes) {
        return fail(LinkError::new(format!("cannot write {out}: {e}")));
    }
    if let Some(map) = m.get_one::<String>("map") {
        if let Err(e) = std::fs::write(map, linked.map.render()) {
            return fail(LinkError::new(format!("cannot write {map}: {e}")));
        }
    }
    ExitCode::SUCCESS
}

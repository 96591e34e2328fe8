//! `dsp-ld`: the command-line static linker (see the `dsp_ld` library),
//! with the GNU ld options build systems pass: `-Map=FILE`,
//! `--gc-sections`, `--start-group`/`--end-group` (`-(`/`-)`),
//! `--defsym=SYM=EXPR`; `-O1`, `--as-needed`, `-E` and other options that
//! mean nothing for a static executable are accepted and ignored; `-shared`,
//! `-pie`, `-rpath`, `-soname` and the like are errors (static target).
//! Executables are written with mode 0755.
//! Exit status: 0 linked, 1 link errors, 2 usage errors.

use std::path::PathBuf;
use std::process::ExitCode;

use dsp_ld::input::find_library;
use dsp_ld::{link_with_map, Defsym, Input, LinkError, LinkOptions, DEFAULT_ENTRY};
use isa_tablegen::Machine;

const USAGE: &str = "usage: dsp-ld [-o OUT] [--isa NAME|FILE] [-L DIR]... [-l NAME]... [-e SYM] [--stack-size N] [--map FILE | -Map=FILE] [--gc-sections] [--defsym SYM=EXPR] [--start-group FILES... --end-group] FILES...";

/// Options accepted with no effect on a static executable (GNU ld's).
const IGNORED: &[&str] = &[
    "-E", "--export-dynamic", "--as-needed", "--no-as-needed", "-static", "-Bstatic", "--no-undefined", "-s", "-S",
    "--strip-all", "--strip-debug", "--eh-frame-hdr", "--sort-common", "--warn-common", "--fatal-warnings",
    "--no-gc-sections", "--whole-archive", "--no-whole-archive", "--color-diagnostics", "--relax", "--no-relax", "-nostdlib",
    "--enable-new-dtags", "--disable-new-dtags", "-X", "--discard-locals", "-x", "--discard-all",
];
/// Ignored options that take a separate value.
const IGNORED_WITH_VALUE: &[&str] = &["-z", "-m", "--hash-style", "--build-id", "-plugin", "-plugin-opt"];
/// Options that only make sense for shared objects or dynamic executables.
const DYNAMIC: &[&str] = &[
    "-shared", "-Bshareable", "-pie", "--pic-executable", "-rpath", "-rpath-link", "-soname", "-h", "--dynamic-linker",
    "-Bdynamic", "-dy", "-call_shared", "-dynamic-linker",
];

/// An input in command-line order.
enum Item {
    File(String),
    Lib(String),
    GroupStart,
    GroupEnd,
}

struct Cli {
    output: String,
    isa: Option<String>,
    libdirs: Vec<PathBuf>,
    items: Vec<Item>,
    entry: String,
    stack: Option<String>,
    map: Option<String>,
    gc: bool,
    defsyms: Vec<(String, Defsym)>,
}

enum Parsed {
    Run(Cli),
    Exit(ExitCode),
}

fn usage(msg: &str) -> ExitCode {
    eprintln!("dsp-ld: error: {}", isa_tablegen::text::shown(&msg.to_string()));
    eprintln!("{USAGE}");
    ExitCode::from(2)
}

fn parse(args: &[String]) -> Result<Parsed, ExitCode> {
    let mut c = Cli {
        output: "a.out".into(),
        isa: None,
        libdirs: Vec::new(),
        items: Vec::new(),
        entry: DEFAULT_ENTRY.into(),
        stack: None,
        map: None,
        gc: false,
        defsyms: Vec::new(),
    };
    let mut i = 0;
    let value = |i: &mut usize, flag: &str| -> Result<String, ExitCode> {
        *i += 1;
        args.get(*i).cloned().ok_or_else(|| usage(&format!("option '{flag}' needs a value")))
    };
    while i < args.len() {
        let a = args[i].as_str();
        let long_value = |prefix: &str| a.strip_prefix(prefix).map(str::to_string);
        let dynamic_name = a.split('=').next().unwrap_or(a);
        match a {
            "-h" | "--help" if a == "--help" => {
                println!("{USAGE}");
                return Ok(Parsed::Exit(ExitCode::SUCCESS));
            }
            "-v" | "--version" | "-V" => {
                println!("dsp-ld (dsp toolchain) {}", env!("CARGO_PKG_VERSION"));
                return Ok(Parsed::Exit(ExitCode::SUCCESS));
            }
            _ if DYNAMIC.contains(&dynamic_name) => {
                eprintln!("dsp-ld: error: {dynamic_name} is not supported: dsp-ld links static executables only (static target)");
                return Err(ExitCode::from(1));
            }
            "-o" | "--output" => c.output = value(&mut i, a)?,
            "--isa" => c.isa = Some(value(&mut i, a)?),
            "-L" | "--library-path" => c.libdirs.push(value(&mut i, a)?.into()),
            "-l" | "--library" => c.items.push(Item::Lib(value(&mut i, a)?)),
            "-e" | "--entry" => c.entry = value(&mut i, a)?,
            "--stack-size" => c.stack = Some(value(&mut i, a)?),
            "--map" | "-Map" | "--Map" => c.map = Some(value(&mut i, a)?),
            "--gc-sections" => c.gc = true,
            "--start-group" | "-(" => c.items.push(Item::GroupStart),
            "--end-group" | "-)" => c.items.push(Item::GroupEnd),
            "--defsym" => {
                let v = value(&mut i, a)?;
                c.defsyms.push(defsym(&v)?);
            }
            _ if IGNORED.contains(&a) => {}
            _ if IGNORED_WITH_VALUE.contains(&a) => {
                value(&mut i, a)?;
            }
            _ if a.starts_with("-O") && a[2..].chars().all(|d| d.is_ascii_digit()) => {}
            _ if IGNORED_WITH_VALUE.iter().any(|f| a.starts_with(&format!("{f}="))) => {}
            _ if a.starts_with("-z") => {}
            _ => {
                if let Some(v) = long_value("--output=") {
                    c.output = v;
                } else if let Some(v) = long_value("--isa=") {
                    c.isa = Some(v);
                } else if let Some(v) = long_value("--entry=") {
                    c.entry = v;
                } else if let Some(v) = long_value("--stack-size=") {
                    c.stack = Some(v);
                } else if let Some(v) = long_value("-Map=").or_else(|| long_value("--Map=")).or_else(|| long_value("--map=")) {
                    c.map = Some(v);
                } else if let Some(v) = long_value("--defsym=") {
                    c.defsyms.push(defsym(&v)?);
                } else if let Some(v) = long_value("--library-path=") {
                    c.libdirs.push(v.into());
                } else if let Some(v) = long_value("-L") {
                    c.libdirs.push(v.into());
                } else if let Some(v) = long_value("-l") {
                    c.items.push(Item::Lib(v));
                } else if let Some(v) = long_value("-o") {
                    c.output = v;
                } else if let Some(v) = long_value("-e") {
                    c.entry = v;
                } else if a.starts_with('-') && a != "-" {
                    return Err(usage(&format!("unknown option '{a}'")));
                } else {
                    c.items.push(Item::File(a.to_string()));
                }
            }
        }
        i += 1;
    }
    Ok(Parsed::Run(c))
}

fn defsym(text: &str) -> Result<(String, Defsym), ExitCode> {
    let Some((name, expr)) = text.split_once('=') else {
        return Err(usage(&format!("--defsym '{text}': expected SYMBOL=EXPRESSION")));
    };
    match Defsym::parse(expr) {
        Ok(d) if !name.is_empty() => Ok((name.to_string(), d)),
        Ok(_) => Err(usage(&format!("--defsym '{text}': expected SYMBOL=EXPRESSION"))),
        Err(e) => Err(usage(&e)),
    }
}

fn parse_size(text: &str) -> Option<u32> {
    let t = text.trim();
    let (digits, mult) = match t.as_bytes().last()? {
        b'k' | b'K' => (&t[..t.len() - 1], 1u64 << 10),
        b'm' | b'M' => (&t[..t.len() - 1], 1u64 << 20),
        _ => (t, 1),
    };
    let v = match digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok()?,
        None => digits.parse::<u64>().ok()?,
    };
    u32::try_from(v.checked_mul(mult)?).ok()
}

fn fail(e: LinkError) -> ExitCode {
    eprintln!("{}", isa_tablegen::text::shown(&e.to_string()));
    ExitCode::from(1)
}

/// Writes the executable with mode 0755 (the umask applies on creation).
fn write_executable(path: &str, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let mut f = std::fs::OpenOptions::new().write(true).create(true).truncate(true).mode(0o755).open(path)?;
    f.write_all(bytes)?;
    let mode = f.metadata()?.permissions().mode();
    if mode & 0o111 == 0 {
        f.set_permissions(std::fs::Permissions::from_mode(0o755))?;
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let c = match parse(&args) {
        Ok(Parsed::Run(c)) => c,
        Ok(Parsed::Exit(code)) | Err(code) => return code,
    };
    if !c.items.iter().any(|i| matches!(i, Item::File(_) | Item::Lib(_))) {
        return usage("no input files");
    }
    let stack_size = match &c.stack {
        None => dsp_ld::DEFAULT_STACK_SIZE,
        Some(s) => match parse_size(s) {
            Some(v) => v,
            None => return usage(&format!("bad --stack-size '{s}'")),
        },
    };
    let machine = match &c.isa {
        None => None,
        Some(name) => match Machine::load(name) {
            Ok(mach) => Some(mach),
            Err(d) => return fail(LinkError::new(format!("--isa {name}: {d}"))),
        },
    };
    let mut inputs = Vec::new();
    let mut errors = Vec::new();
    let mut groups = Vec::new();
    let mut open_group: Option<usize> = None;
    for item in &c.items {
        let path = match item {
            Item::GroupStart => {
                if open_group.is_some() {
                    return usage("nested --start-group");
                }
                open_group = Some(inputs.len());
                continue;
            }
            Item::GroupEnd => {
                match open_group.take() {
                    Some(start) => groups.push(start..inputs.len()),
                    None => return usage("--end-group without --start-group"),
                }
                continue;
            }
            Item::Lib(name) => match find_library(name, &c.libdirs) {
                Ok(p) => p,
                Err(e) => {
                    errors.extend(e.messages);
                    continue;
                }
            },
            Item::File(f) => PathBuf::from(f),
        };
        match Input::from_file(&path) {
            Ok(i) => inputs.push(i),
            Err(e) => errors.extend(e.messages),
        }
    }
    if let Some(start) = open_group {
        // GNU ld closes an open group at the end of the command line.
        groups.push(start..inputs.len());
    }
    if !errors.is_empty() {
        return fail(LinkError { messages: errors });
    }
    let opts = LinkOptions { machine, entry: c.entry.clone(), stack_size, gc_sections: c.gc, groups, defsyms: c.defsyms.clone() };
    let linked = match link_with_map(&inputs, &opts) {
        Ok(l) => l,
        Err(e) => return fail(e),
    };
    let out = &c.output;
    let bytes = match dsp_obj::write_executable(&linked.executable) {
        Ok(b) => b,
        Err(e) => return fail(LinkError::new(format!("{out}: {e}"))),
    };
    if let Err(e) = write_executable(out, &bytes) {
        return fail(LinkError::new(format!("cannot write {out}: {e}")));
    }
    if let Some(map) = &c.map {
        if let Err(e) = std::fs::write(map, linked.map.render()) {
            return fail(LinkError::new(format!("cannot write {map}: {e}")));
        }
    }
    ExitCode::SUCCESS
}

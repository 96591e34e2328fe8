//! `dsp-ar` and `dsp-ranlib`: the POSIX/GNU archiver's command line over
//! `dsp_obj` archives. The first argument holds one operation — `d`
//! (delete), `p` (print), `q` (quick append), `r` (replace or add), `s`
//! (write the index only), `t` (list), `x` (extract) — and any modifiers:
//! `c` (create silently), `s` (write the index: always done), `u` (replace
//! only members whose contents changed: archives keep no dates), `v`
//! (verbose), `D`/`U` (deterministic or not: always deterministic), `S`
//! (no index: ignored, the index is always written), with or without a
//! leading `-`. Errors name the tool and use exit status 1 (2 for usage).

use std::io::Write;
use std::path::Path;

use dsp_obj::{read_archive, read_object, write_archive, ArchiveMember};

pub const USAGE: &str = "usage: dsp-ar [-]{d|p|q|r|s|t|x}[cDsSuUv] ARCHIVE [FILES...]";

/// An archiver operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Delete,
    Print,
    Quick,
    Replace,
    Index,
    List,
    Extract,
}

/// A parsed `dsp-ar` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    pub op: Op,
    pub create: bool,
    pub update: bool,
    pub verbose: bool,
    pub archive: String,
    pub files: Vec<String>,
}

/// A failure: the message and the exit status (1 error, 2 usage).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArError {
    pub message: String,
    pub status: u8,
}

fn usage(message: String) -> ArError {
    ArError { message, status: 2 }
}

fn error(message: String) -> ArError {
    ArError { message, status: 1 }
}

/// Parses the arguments after the program name.
pub fn parse(args: &[String]) -> Result<Command, ArError> {
    let Some(first) = args.first() else {
        return Err(usage("missing operation".into()));
    };
    let letters = first.strip_prefix('-').unwrap_or(first);
    let mut op = None;
    let (mut create, mut update, mut verbose, mut index_mod) = (false, false, false, false);
    for c in letters.chars() {
        let this = match c {
            'd' => Op::Delete,
            'p' => Op::Print,
            'q' => Op::Quick,
            'r' => Op::Replace,
            't' => Op::List,
            'x' => Op::Extract,
            's' => {
                index_mod = true;
                continue;
            }
            'c' => {
                create = true;
                continue;
            }
            'u' => {
                update = true;
                continue;
            }
            'v' => {
                verbose = true;
                continue;
            }
            'D' | 'U' | 'S' => continue,
            _ => return Err(usage(format!("unknown operation '{first}' (bad letter '{c}')"))),
        };
        if op.is_some_and(|o| o != this) {
            return Err(usage(format!("two operations in '{first}'")));
        }
        op = Some(this);
    }
    let op = match op {
        Some(o) => o,
        None if index_mod => Op::Index,
        None => return Err(usage(format!("unknown operation '{first}' (no operation letter)"))),
    };
    let Some(archive) = args.get(1) else {
        return Err(usage("missing archive name".into()));
    };
    Ok(Command { op, create, update, verbose, archive: archive.clone(), files: args[2..].to_vec() })
}

fn member_name(path: &str) -> String {
    Path::new(path).file_name().map_or_else(|| path.to_string(), |n| n.to_string_lossy().into_owned())
}

fn read_members(archive: &str, must_exist: bool) -> Result<Option<Vec<ArchiveMember>>, ArError> {
    match std::fs::read(archive) {
        Ok(bytes) => read_archive(&bytes).map(Some).map_err(|e| error(format!("{archive}: {e}"))),
        Err(e) if !must_exist && e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(error(format!("{archive}: {e}"))),
    }
}

fn read_input(f: &str) -> Result<Vec<u8>, ArError> {
    let data = std::fs::read(f).map_err(|e| error(format!("{f}: {e}")))?;
    read_object(&data).map_err(|e| error(format!("{f}: {e}")))?;
    Ok(data)
}

/// Runs a command; listings and verbose lines go to `out`, warnings to `err`.
pub fn run(cmd: &Command, out: &mut dyn Write, err: &mut dyn Write) -> Result<(), ArError> {
    let a = &cmd.archive;
    let w = |out: &mut dyn Write, line: String| {
        let _ = writeln!(out, "{line}");
    };
    match cmd.op {
        Op::Quick | Op::Replace => {
            let existing = read_members(a, false)?;
            if existing.is_none() && !cmd.create {
                w(err, format!("dsp-ar: creating {a}"));
            }
            let mut members = existing.unwrap_or_default();
            for f in &cmd.files {
                let data = read_input(f)?;
                let name = member_name(f);
                let at = if cmd.op == Op::Replace { members.iter().position(|m| m.name == name) } else { None };
                match at {
                    Some(i) => {
                        if cmd.update && members[i].data == data {
                            continue;
                        }
                        if cmd.verbose {
                            w(out, format!("r - {f}"));
                        }
                        members[i].data = data;
                    }
                    None => {
                        if cmd.verbose {
                            w(out, format!("a - {f}"));
                        }
                        members.push(ArchiveMember { name, data });
                    }
                }
            }
            write(a, &members)
        }
        Op::Index => {
            let members = read_members(a, true)?.unwrap_or_default();
            write(a, &members)
        }
        Op::Delete => {
            let mut members = read_members(a, true)?.unwrap_or_default();
            for f in &cmd.files {
                let name = member_name(f);
                match members.iter().position(|m| m.name == name) {
                    Some(i) => {
                        if cmd.verbose {
                            w(out, format!("d - {name}"));
                        }
                        members.remove(i);
                    }
                    None => w(err, format!("dsp-ar: {name}: no such member in {a}")),
                }
            }
            write(a, &members)
        }
        Op::List | Op::Print | Op::Extract => {
            let members = read_members(a, true)?.unwrap_or_default();
            for f in &cmd.files {
                if !members.iter().any(|m| &m.name == f) {
                    return Err(error(format!("{f}: no such member in {a}")));
                }
            }
            for m in members.iter().filter(|m| cmd.files.is_empty() || cmd.files.contains(&m.name)) {
                match cmd.op {
                    Op::List if cmd.verbose => w(out, format!("rw-r--r-- 0/0 {:6} Jan  1 00:00 1970 {}", m.data.len(), m.name)),
                    Op::List => w(out, m.name.clone()),
                    Op::Print => {
                        if cmd.verbose {
                            w(out, format!("\n<{}>\n", m.name));
                        }
                        let _ = out.write_all(&m.data);
                    }
                    _ => {
                        if m.name.contains('/') || m.name == ".." || m.name == "." {
                            return Err(error(format!("refusing to extract member named '{}'", m.name)));
                        }
                        if cmd.verbose {
                            w(out, format!("x - {}", m.name));
                        }
                        std::fs::write(&m.name, &m.data).map_err(|e| error(format!("cannot write {}: {e}", m.name)))?;
                    }
                }
            }
            Ok(())
        }
    }
}

fn write(archive: &str, members: &[ArchiveMember]) -> Result<(), ArError> {
    std::fs::write(archive, write_archive(members)).map_err(|e| error(format!("cannot write {archive}: {e}")))
}

/// `dsp-ranlib [-D|-U|-t] ARCHIVE...`: rewrites each archive with its index.
pub fn ranlib(args: &[String]) -> Result<(), ArError> {
    let files: Vec<&String> = args.iter().filter(|a| !matches!(a.as_str(), "-D" | "-U" | "-t")).collect();
    if let Some(bad) = files.iter().find(|a| a.starts_with('-')) {
        return Err(usage(format!("unknown option '{bad}'\nusage: dsp-ranlib [-D|-U|-t] ARCHIVE...")));
    }
    if files.is_empty() {
        return Err(usage("no archives given\nusage: dsp-ranlib [-D|-U|-t] ARCHIVE...".into()));
    }
    for a in files {
        let members = read_members(a, true)?.unwrap_or_default();
        write(a, &members)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<Command, ArError> {
        parse(&s.split_whitespace().map(String::from).collect::<Vec<_>>())
    }

    #[test]
    fn operations_and_modifiers() {
        for (text, op) in [("qc", Op::Quick), ("rcs", Op::Replace), ("-rcs", Op::Replace), ("cr", Op::Replace), ("crs", Op::Replace), ("s", Op::Index), ("t", Op::List), ("tv", Op::List), ("x", Op::Extract), ("d", Op::Delete), ("p", Op::Print), ("cru", Op::Replace), ("rcD", Op::Replace), ("qcS", Op::Quick)] {
            assert_eq!(p(&format!("{text} a.a x.o")).unwrap().op, op, "{text}");
        }
        let c = p("rcuv a.a x.o y.o").unwrap();
        assert!(c.create && c.update && c.verbose);
        assert_eq!(c.files, ["x.o", "y.o"]);
        assert_eq!(p("z a.a").unwrap_err().status, 2);
        assert_eq!(p("rt a.a").unwrap_err().message, "two operations in 'rt'");
        assert_eq!(p("c a.a").unwrap_err().status, 2);
        assert_eq!(p("r").unwrap_err().message, "missing archive name");
    }
}

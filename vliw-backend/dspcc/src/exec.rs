//! Running a plan: `-v` prints each command before it runs, `-###` only
//! prints them; clang's own driver messages (`clang-19: error: …`) are
//! relabelled `dspcc: error: …` so that every message the user sees names
//! the command they typed; a failing tool stops the build with clang's
//! wording (`dspcc: error: linker command failed with exit code 1 (use -v to
//! see invocation)`); temporary files live in one directory removed at the end;
//! every tool runs as a [`crate::child`] that ends when dspcc does.
//! The backend runs' pipeline reports, when there are several, are merged
//! into the one the user named (`--pipeline-report=FILE`).

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::Stdio;

use crate::args::Options;
use crate::help::HELP;
use crate::plan::{self, render, Job, ReportMerge, Tool};
use crate::tools::{Target, Toolchain, CLANG_TARGET, DUMP_MACHINE};

/// The driver: parses `args` (without the program name), runs what they ask
/// for, and returns the exit status.
pub fn main_with_args(args: &[String]) -> i32 {
    let o = match crate::args::parse(args) {
        Ok(o) => o,
        Err(e) => return error(&e.0),
    };
    let tc = Toolchain::locate();
    for w in &o.warnings {
        eprintln!("dspcc: warning: {w}");
    }
    if o.help {
        print!("{HELP}");
        return 0;
    }
    if o.version || o.verbose {
        // Like clang: --version to standard output, -v's header to standard error.
        print_version(&tc, o.version);
        if o.inputs.is_empty() {
            return 0;
        }
    }
    let target = match Target::load(&o.isa) {
        Ok(t) => t,
        Err(e) => return error(&format!("--isa={}: {e}", o.isa)),
    };
    if let Some(q) = &o.query {
        return answer(q, &tc, &target);
    }
    for input in &o.inputs {
        if input.path != "-" && !Path::new(&input.path).exists() {
            return error(&format!("no such file or directory: '{}'", input.path));
        }
    }
    let temp_dir = std::env::temp_dir().join(format!("dspcc-{}", std::process::id()));
    let plan = match plan::plan(&o, &tc, &target, &temp_dir) {
        Ok(p) => p,
        Err(e) => return error(&e.0),
    };
    for w in &plan.warnings {
        eprintln!("dspcc: warning: {w} [-Wunused-command-line-argument]");
    }
    if let Err(status) = preflight(&o, &tc, &plan.jobs) {
        return status;
    }
    if o.dry_run {
        for job in &plan.jobs {
            eprintln!("{}", render(job));
        }
        return 0;
    }
    if plan.uses_temp_dir {
        if let Err(e) = std::fs::create_dir_all(&temp_dir) {
            return error(&format!("cannot create temporary directory '{}': {e}", temp_dir.display()));
        }
    }
    let mut status = run_jobs(&o, &plan.jobs);
    if let Some(m) = &plan.report {
        if let Err(e) = write_merged_report(m) {
            status = error(&e);
        }
    }
    if plan.uses_temp_dir {
        let _ = std::fs::remove_dir_all(&temp_dir);
    }
    status
}

fn error(msg: &str) -> i32 {
    eprintln!("dspcc: error: {msg}");
    1
}

/// The version of the clang dspcc wraps (`clang -dumpversion`), which is
/// the version the predefined macros state; "19" if clang cannot say.
fn clang_version(tc: &Toolchain) -> String {
    crate::child::command(&tc.clang)
        .arg("-dumpversion")
        .stderr(Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "19".into())
}

fn print_version(tc: &Toolchain, to_stdout: bool) {
    let text = format!(
        "dspcc version {} (dsp toolchain {}: clang-19 front end, LLVM 19 middle end, .isa-driven VLIW back end)\nTarget: {DUMP_MACHINE}\nThread model: single\nInstalledDir: {}\n",
        clang_version(tc),
        env!("CARGO_PKG_VERSION"),
        tc.bin_dir.display()
    );
    if to_stdout {
        print!("{text}");
    } else {
        eprint!("{text}");
    }
}

fn answer(query: &str, tc: &Toolchain, t: &Target) -> i32 {
    match query {
        "-dumpmachine" => println!("{DUMP_MACHINE}"),
        "-dumpversion" => println!("{}", clang_version(tc)),
        "-print-libgcc-file-name" => println!("{}", tc.lib_dir(t).join("libc.a").display()),
        "-print-cmake-toolchain" => println!("{}", crate::tools::cmake_toolchain().display()),
        _ if query.starts_with("-print-file-name=") => {
            // As gcc: the file in the runtime's library or include directory, else the name itself.
            let name = &query["-print-file-name=".len()..];
            let found = [tc.lib_dir(t).join(name), tc.runtime.join("include").join(name)].into_iter().find(|p| p.exists());
            println!("{}", found.map(|p| p.display().to_string()).unwrap_or_else(|| name.to_string()));
        }
        _ if query.starts_with("-print-prog-name=") => {
            let name = &query["-print-prog-name=".len()..];
            let ours = match name {
                "ld" | "as" | "ar" | "ranlib" | "objdump" => format!("dsp-{name}"),
                _ => name.to_string(),
            };
            println!("{}", tc.tool(&ours).display());
        }
        _ => println!("programs: ={}\nlibraries: ={}", tc.bin_dir.display(), tc.lib_dir(t).display()),
    }
    0
}

/// Checks what the jobs need before running any: when clang will not run at
/// all, that clang knows the `-f` flags given (so `dspcc -foo x.o` fails like
/// `clang -foo x.o`); unless only printing (`-###`), the runtime's headers
/// for C, its libraries for linking, and the two plugins.
fn preflight(o: &Options, tc: &Toolchain, jobs: &[Job]) -> Result<(), i32> {
    let hint = format!("run scripts/build-runtime {}, or set DSPCC_RUNTIME", o.isa);
    let clang_jobs: Vec<&Job> = jobs.iter().filter(|j| j.tool == Tool::Clang).collect();
    let f_flags: Vec<&String> = o.clang_flags.iter().filter(|f| f.starts_with("-f")).collect();
    if clang_jobs.is_empty() && !f_flags.is_empty() {
        let mut cmd = crate::child::command(&tc.clang);
        cmd.arg(format!("--target={CLANG_TARGET}")).args(["-###", "-fsyntax-only", "-x", "c", "/dev/null"]).args(&f_flags);
        if let Ok(out) = cmd.stdout(Stdio::null()).stderr(Stdio::piped()).output() {
            if !out.status.success() {
                let text = String::from_utf8_lossy(&out.stderr);
                for line in text.lines().filter(|l| l.contains("error:")) {
                    eprintln!("{}", relabel(line, &tc.clang));
                }
                return Err(1);
            }
        }
    }
    if o.dry_run {
        return Ok(());
    }
    let compiles_c = clang_jobs.iter().any(|j| j.args.iter().any(|a| a == "-isystem"));
    if compiles_c && !tc.include_dir().is_dir() {
        return Err(error(&format!("runtime headers not found in '{}' ({hint})", tc.include_dir().display())));
    }
    if clang_jobs.iter().any(|j| j.args.iter().any(|a| a.starts_with("-fpass-plugin="))) && !tc.plugin.exists() {
        return Err(error(&format!("pass plugin not found: '{}' (build the workspace, or set DSPCC_PLUGIN)", tc.plugin.display())));
    }
    if clang_jobs.iter().any(|j| j.args.iter().any(|a| a.starts_with("-fplugin="))) && !tc.frontend_plugin.exists() {
        return Err(error(&format!(
            "clang plugin not found: '{}' (build the workspace, or set DSPCC_FRONTEND_PLUGIN)",
            tc.frontend_plugin.display()
        )));
    }
    for job in jobs.iter().filter(|j| j.tool == Tool::Ld) {
        if let Some(missing) = job.args.iter().find(|a| a.starts_with(&tc.runtime.display().to_string()) && !Path::new(a).exists()) {
            return Err(error(&format!("runtime file not found: '{missing}' ({hint})")));
        }
    }
    Ok(())
}

fn run_jobs(o: &Options, jobs: &[Job]) -> i32 {
    let color = std::io::stderr().is_terminal() && !o.clang_flags.iter().any(|f| f.contains("color-diagnostics"));
    let mut failed: Vec<Option<usize>> = Vec::new();
    for job in jobs {
        if failed.contains(&job.input) || (job.input.is_none() && !failed.is_empty()) {
            continue;
        }
        let mut args = job.args.clone();
        if job.tool == Tool::Clang && color {
            args.insert(0, "-fcolor-diagnostics".into());
        }
        if o.verbose {
            eprintln!("{}", render(&Job { args: args.clone(), ..job.clone() }));
        }
        if !run_one(job, &args) {
            failed.push(job.input);
        }
    }
    if failed.is_empty() {
        0
    } else {
        1
    }
}

/// Runs one job; reports a failure clang-style and returns whether it succeeded.
fn run_one(job: &Job, args: &[String]) -> bool {
    let mut cmd = crate::child::command(&job.program);
    cmd.args(args);
    let result = if job.tool == Tool::Clang {
        cmd.stderr(Stdio::piped()).spawn().and_then(|c| c.wait_with_output()).map(|out| {
            let text = String::from_utf8_lossy(&out.stderr);
            let mut err = std::io::stderr().lock();
            for line in text.lines() {
                let _ = writeln!(err, "{}", relabel(line, &job.program));
            }
            out.status
        })
    } else {
        cmd.status()
    };
    match result {
        Err(e) => {
            error(&format!("unable to execute command: {}: {e}", job.program.display()));
            false
        }
        Ok(status) if status.success() => true,
        Ok(status) => {
            match (job.tool, status.code()) {
                (Tool::Clang, Some(_)) => {} // clang has said why
                (_, Some(code)) => {
                    error(&format!("{} command failed with exit code {code} (use -v to see invocation)", job.tool.role()));
                }
                (_, None) => {
                    error(&format!("{} command failed due to signal (use -v to see invocation)", job.tool.role()));
                }
            }
            false
        }
    }
}

/// Merges the JSON arrays of the backend runs' reports into one file, in
/// input order; a run that failed (and wrote nothing) contributes nothing.
fn write_merged_report(m: &ReportMerge) -> Result<(), String> {
    let mut texts = Vec::new();
    for part in &m.parts {
        match std::fs::read_to_string(part) {
            Ok(t) => texts.push((part.as_str(), t)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(format!("cannot read '{part}': {e}")),
        }
    }
    let merged = merge_json_arrays(&texts)?;
    std::fs::write(&m.output, merged).map_err(|e| format!("cannot write '{}': {e}", m.output))
}

/// Joins JSON arrays (each `[ … ]`, as `dsp-llc` writes them) into one,
/// one element per line when each had that layout.
fn merge_json_arrays(parts: &[(&str, String)]) -> Result<String, String> {
    let mut items = Vec::new();
    for (name, text) in parts {
        let body = text
            .trim()
            .strip_prefix('[')
            .and_then(|t| t.strip_suffix(']'))
            .ok_or_else(|| format!("'{name}' is not a JSON array"))?
            .trim();
        if !body.is_empty() {
            items.push(format!("  {body}"));
        }
    }
    Ok(if items.is_empty() { "[]\n".into() } else { format!("[\n{}\n]\n", items.join(",\n")) })
}

/// Replaces a leading `clang-19: ` (clang's driver naming itself) with `dspcc: `.
fn relabel(line: &str, program: &Path) -> String {
    let own = program.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    for name in [own.as_str(), "clang-19", "clang"] {
        if let Some(rest) = line.strip_prefix(name).and_then(|r| r.strip_prefix(": ")) {
            return format!("dspcc: {rest}");
        }
    }
    line.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relabels_clang_driver_messages_only() {
        let clang = Path::new("/usr/bin/clang-19");
        assert_eq!(relabel("clang-19: error: unknown argument: '-foo'", clang), "dspcc: error: unknown argument: '-foo'");
        assert_eq!(relabel("clang: warning: argument unused", clang), "dspcc: warning: argument unused");
        assert_eq!(relabel("x.c:1:2: error: expected ';'", clang), "x.c:1:2: error: expected ';'");
    }

    #[test]
    fn json_arrays_merge_in_order() {
        let p = |t: &str| ("p.json", t.to_string());
        assert_eq!(merge_json_arrays(&[]).unwrap(), "[]\n");
        assert_eq!(merge_json_arrays(&[p("[]\n"), p(" [ ] ")]).unwrap(), "[]\n");
        let a = p("[\n  {\"a\":1},\n  {\"a\":2}\n]\n");
        let b = p("[]\n");
        let c = p("[\n  {\"c\":[3]}\n]\n");
        assert_eq!(merge_json_arrays(&[a, b, c]).unwrap(), "[\n  {\"a\":1},\n  {\"a\":2},\n  {\"c\":[3]}\n]\n");
        assert_eq!(merge_json_arrays(&[p("{}")]).unwrap_err(), "'p.json' is not a JSON array");
    }

    #[test]
    fn parse_errors_exit_1() {
        assert_eq!(main_with_args(&["--bogus".to_string()]), 1);
        assert_eq!(main_with_args(&["-c".to_string()]), 1);
    }
}

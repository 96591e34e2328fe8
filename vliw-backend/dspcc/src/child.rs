//! Children that end with dspcc: every tool dspcc runs (clang-19, dsp-llc,
//! dsp-as, dsp-ld) is started through [`command`], which asks the kernel
//! to send the child SIGTERM when dspcc dies (`prctl(PR_SET_PDEATHSIG)`,
//! set between fork and exec). So when a build system's timeout or the user
//! ends dspcc (SIGINT, SIGTERM, SIGHUP, even SIGKILL), the tool it was
//! running ends too, as clang's driver's children do, instead of running on
//! as an orphan. On systems without `PR_SET_PDEATHSIG` the children are
//! plain ones.

use std::path::Path;
use std::process::Command;

/// A command for `program` whose process gets SIGTERM when dspcc exits.
pub fn command(program: impl AsRef<Path>) -> Command {
    let mut cmd = Command::new(program.as_ref());
    end_with_parent(&mut cmd);
    cmd
}

#[cfg(target_os = "linux")]
fn end_with_parent(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    let parent = std::process::id() as libc::pid_t;
    // SAFETY: the closure runs in the child between fork and exec and only
    // makes two system calls (async-signal-safe, no allocation).
    unsafe {
        cmd.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM as libc::c_ulong, 0, 0, 0) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            // dspcc died before the request took effect: do not start the tool.
            if libc::getppid() != parent {
                return Err(std::io::Error::from_raw_os_error(libc::ESRCH));
            }
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
fn end_with_parent(_: &mut Command) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn children_run_normally() {
        let out = command("sh").args(["-c", "echo ok"]).output().unwrap();
        assert!(out.status.success());
        assert_eq!(out.stdout, b"ok\n");
    }

    #[test]
    fn a_missing_tool_is_an_error_not_a_panic() {
        let err = command("/nonexistent/tool").status().unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::NotFound);
    }
}

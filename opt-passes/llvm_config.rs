//! `llvm-config-19` for the build scripts of the two plugins (opt-passes
//! and frontend-plugin), which compile C++ shims against LLVM 19.

use std::process::Command;

/// What `llvm-config ARG` prints: the one under `$LLVM_SYS_191_PREFIX`
/// (default /usr/lib/llvm-19), else `llvm-config-19` on the PATH.
pub fn llvm_config(arg: &str) -> String {
    let prefix = std::env::var("LLVM_SYS_191_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-19".into());
    let candidates = [format!("{prefix}/bin/llvm-config"), "llvm-config-19".to_string()];
    for exe in &candidates {
        if let Ok(out) = Command::new(exe).arg(arg).output() {
            if out.status.success() {
                return String::from_utf8_lossy(&out.stdout).trim().to_string();
            }
        }
    }
    panic!("llvm-config-19 not found (run scripts/install-deps)");
}

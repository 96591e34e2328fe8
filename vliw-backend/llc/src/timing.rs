//! Phase timings for finding what grows with the input: with the
//! environment variable `DSP_LLC_TIME` set (to anything but `0`), dsp-llc
//! prints on stderr the wall time of each backend phase, summed over the
//! module's functions, in the order the phases first ran, and the process's
//! peak resident memory when the phase first reached it (Linux's `VmHWM`)
//! (`scripts/bench-compile` shows them with `--phases`). Off, a phase costs
//! one check of a flag read once.

use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("DSP_LLC_TIME").is_some_and(|v| v != "0"))
}

/// Name, time, and the peak memory (MB) seen at the end of the phase when
/// it grew during it.
static PHASES: Mutex<Vec<(&'static str, Duration, Option<u64>)>> = Mutex::new(Vec::new());

/// The process's peak resident set so far, in MB (None where unknown).
fn peak_mb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// Runs `f`, adding its wall time to phase `name` when timing is on.
pub fn phase<T>(name: &'static str, f: impl FnOnce() -> T) -> T {
    if !enabled() {
        return f();
    }
    let before = peak_mb();
    let start = Instant::now();
    let out = f();
    let spent = start.elapsed();
    let after = peak_mb();
    let grew = after.filter(|&a| before.is_none_or(|b| a > b));
    if let Ok(mut phases) = PHASES.lock() {
        match phases.iter_mut().find(|(n, _, _)| *n == name) {
            Some((_, d, peak)) => {
                *d += spent;
                if grew.is_some() {
                    *peak = grew;
                }
            }
            None => phases.push((name, spent, grew)),
        }
    }
    out
}

/// The table of phases and seconds (empty when timing is off).
pub fn report() -> String {
    if !enabled() {
        return String::new();
    }
    let phases = PHASES.lock().map(|p| p.clone()).unwrap_or_default();
    let total: Duration = phases.iter().map(|(_, d, _)| *d).sum();
    let mut s = String::from("dsp-llc phase times (DSP_LLC_TIME; peak memory when a phase raised it):\n");
    for (name, d, peak) in &phases {
        let mb = peak.map_or(String::new(), |p| format!("  (peak {p} MB)"));
        s.push_str(&format!("  {name:<28} {:>9.3} s{mb}\n", d.as_secs_f64()));
    }
    s.push_str(&format!("  {:<28} {:>9.3} s\n", "total", total.as_secs_f64()));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phase_returns_its_value() {
        assert_eq!(phase("test", || 41 + 1), 42);
    }
}

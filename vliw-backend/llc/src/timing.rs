//! Phase timings for finding what grows with the input: with the
//! environment variable `DSP_LLC_TIME` set (to anything but `0`), dsp-llc
//! prints on stderr the wall time of each backend phase, summed over the
//! module's functions, in the order the phases first ran
//! (`scripts/bench-compile` shows them with `--phases`). Off, a phase costs
//! one check of a flag read once.

use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("DSP_LLC_TIME").is_some_and(|v| v != "0"))
}

static PHASES: Mutex<Vec<(&'static str, Duration)>> = Mutex::new(Vec::new());

/// Runs `f`, adding its wall time to phase `name` when timing is on.
pub fn phase<T>(name: &'static str, f: impl FnOnce() -> T) -> T {
    if !enabled() {
        return f();
    }
    let start = Instant::now();
    let out = f();
    let spent = start.elapsed();
    if let Ok(mut phases) = PHASES.lock() {
        match phases.iter_mut().find(|(n, _)| *n == name) {
            Some((_, d)) => *d += spent,
            None => phases.push((name, spent)),
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
    let total: Duration = phases.iter().map(|(_, d)| *d).sum();
    let mut s = String::from("dsp-llc phase times (DSP_LLC_TIME):\n");
    for (name, d) in &phases {
        s.push_str(&format!("  {name:<28} {:>9.3} s\n", d.as_secs_f64()));
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

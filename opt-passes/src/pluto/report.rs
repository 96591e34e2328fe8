//! `--polyhedral-report=FILE.json` (issue 12 item 3): what `dsp-pluto` did
//! with every SCoP of the module (transformed with its hyperplanes, bands
//! and tile sizes; left as it was; not transformed, and why) and every loop
//! nest detection rejected, as one JSON document:
//! `{"scops": [{"function", "region", "outcome", "reason", "message"}, …]}`.

/// One SCoP or rejected loop nest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub function: String,
    /// `entry..exit` of a SCoP, or the header of a rejected loop.
    pub region: String,
    /// `transformed`, `unchanged`, `not-transformed` or `not-a-scop`.
    pub outcome: &'static str,
    /// A rejection's kind (detection's names), else empty.
    pub reason: String,
    pub message: String,
}

fn string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The report as JSON text.
pub fn json(entries: &[Entry]) -> String {
    let items: Vec<String> = entries
        .iter()
        .map(|e| {
            format!(
                "    {{\"function\": {}, \"region\": {}, \"outcome\": {}, \"reason\": {}, \"message\": {}}}",
                string(&e.function),
                string(&e.region),
                string(e.outcome),
                string(&e.reason),
                string(&e.message)
            )
        })
        .collect();
    format!("{{\n  \"scops\": [\n{}\n  ]\n}}\n", items.join(",\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_escaped_json() {
        let e = Entry { function: "f".into(), region: "%a..%b".into(), outcome: "transformed", reason: String::new(), message: "S0: (i0, \"x\")\\\n".into() };
        let j = json(&[e.clone(), e]);
        assert!(j.starts_with("{\n  \"scops\": [\n    {\"function\": \"f\", \"region\": \"%a..%b\", \"outcome\": \"transformed\""), "{j}");
        assert!(j.contains(r#""message": "S0: (i0, \"x\")\\\n"}"#), "{j}");
        assert_eq!(j.matches("\"function\"").count(), 2);
    }
}

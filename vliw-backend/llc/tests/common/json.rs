//! A small JSON reader for tests of the pipeline reports: strict enough to
//! reject what a JSON parser would (trailing commas, bare words, unescaped
//! control characters, text after the value), no dependency needed.
//! Shared by dsp-llc's and dspcc's tests (`#[path]`).

#![allow(dead_code)]

use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(BTreeMap<String, Json>),
}

impl Json {
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(m) => m.get(key),
            _ => None,
        }
    }
    pub fn str(&self, key: &str) -> Option<&str> {
        match self.get(key) {
            Some(Json::Str(s)) => Some(s),
            _ => None,
        }
    }
    pub fn num(&self, key: &str) -> Option<f64> {
        match self.get(key) {
            Some(Json::Num(x)) => Some(*x),
            _ => None,
        }
    }
    pub fn bool(&self, key: &str) -> Option<bool> {
        match self.get(key) {
            Some(Json::Bool(b)) => Some(*b),
            _ => None,
        }
    }
    pub fn array(&self) -> &[Json] {
        match self {
            Json::Arr(v) => v,
            _ => &[],
        }
    }
}

pub fn parse(text: &str) -> Result<Json, String> {
    let mut p = P { s: text.as_bytes(), i: 0 };
    let v = p.value()?;
    p.ws();
    if p.i != p.s.len() {
        return Err(format!("text after the value at byte {}", p.i));
    }
    Ok(v)
}

struct P<'a> {
    s: &'a [u8],
    i: usize,
}

impl P<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }
    fn err<T>(&self, what: &str) -> Result<T, String> {
        Err(format!("{what} at byte {}", self.i))
    }
    fn eat(&mut self, c: u8) -> bool {
        self.ws();
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn value(&mut self) -> Result<Json, String> {
        self.ws();
        match self.s.get(self.i) {
            Some(b'{') => {
                self.i += 1;
                let mut m = BTreeMap::new();
                if self.eat(b'}') {
                    return Ok(Json::Obj(m));
                }
                loop {
                    self.ws();
                    let Json::Str(k) = self.value()? else { return self.err("expected a key") };
                    if !self.eat(b':') {
                        return self.err("expected ':'");
                    }
                    let v = self.value()?;
                    if m.insert(k.clone(), v).is_some() {
                        return self.err(&format!("duplicate key '{k}'"));
                    }
                    if self.eat(b'}') {
                        return Ok(Json::Obj(m));
                    }
                    if !self.eat(b',') {
                        return self.err("expected ',' or '}'");
                    }
                }
            }
            Some(b'[') => {
                self.i += 1;
                let mut v = Vec::new();
                if self.eat(b']') {
                    return Ok(Json::Arr(v));
                }
                loop {
                    v.push(self.value()?);
                    if self.eat(b']') {
                        return Ok(Json::Arr(v));
                    }
                    if !self.eat(b',') {
                        return self.err("expected ',' or ']'");
                    }
                }
            }
            Some(b'"') => {
                self.i += 1;
                let mut out = String::new();
                loop {
                    let Some(&c) = self.s.get(self.i) else { return self.err("unterminated string") };
                    self.i += 1;
                    match c {
                        b'"' => return Ok(Json::Str(out)),
                        b'\\' => {
                            let Some(&e) = self.s.get(self.i) else { return self.err("bad escape") };
                            self.i += 1;
                            match e {
                                b'"' => out.push('"'),
                                b'\\' => out.push('\\'),
                                b'/' => out.push('/'),
                                b'n' => out.push('\n'),
                                b't' => out.push('\t'),
                                b'r' => out.push('\r'),
                                b'b' => out.push('\u{8}'),
                                b'f' => out.push('\u{c}'),
                                b'u' => {
                                    let hex = self.s.get(self.i..self.i + 4).and_then(|h| std::str::from_utf8(h).ok());
                                    let Some(x) = hex.and_then(|h| u32::from_str_radix(h, 16).ok()) else {
                                        return self.err("bad \\u escape");
                                    };
                                    self.i += 4;
                                    out.push(char::from_u32(x).unwrap_or('\u{fffd}'));
                                }
                                _ => return self.err("bad escape"),
                            }
                        }
                        c if c < 0x20 => return self.err("control character in a string"),
                        _ => {
                            // Copy the whole UTF-8 sequence.
                            let start = self.i - 1;
                            let mut end = self.i;
                            while end < self.s.len() && (self.s[end] & 0xc0) == 0x80 {
                                end += 1;
                            }
                            self.i = end;
                            out.push_str(std::str::from_utf8(&self.s[start..end]).map_err(|e| e.to_string())?);
                        }
                    }
                }
            }
            Some(b't') if self.s[self.i..].starts_with(b"true") => {
                self.i += 4;
                Ok(Json::Bool(true))
            }
            Some(b'f') if self.s[self.i..].starts_with(b"false") => {
                self.i += 5;
                Ok(Json::Bool(false))
            }
            Some(b'n') if self.s[self.i..].starts_with(b"null") => {
                self.i += 4;
                Ok(Json::Null)
            }
            Some(c) if *c == b'-' || c.is_ascii_digit() => {
                let start = self.i;
                self.i += 1;
                while self.i < self.s.len() && matches!(self.s[self.i], b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-') {
                    self.i += 1;
                }
                let t = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("");
                t.parse::<f64>().map(Json::Num).or_else(|_| self.err("bad number"))
            }
            _ => self.err("expected a value"),
        }
    }
}

/// The keys every record has, and those of pipelined and of missed loops
/// (the list: function, FILE:LINE, res_mii, rec_mii, mii, ii,
/// stages, max_live, kernel_copies, scheduler, schedule time, or the reason).
pub fn check_record(r: &Json) -> Result<(), String> {
    for k in ["function", "block"] {
        r.str(k).ok_or(format!("no string '{k}' in {r:?}"))?;
    }
    for k in ["file", "line", "column"] {
        r.get(k).ok_or(format!("no '{k}' in {r:?}"))?;
    }
    match r.bool("pipelined") {
        Some(true) => {
            for k in ["res_mii", "rec_mii", "mii", "ii", "stages", "max_live", "kernel_copies", "min_trip", "schedule_time_us"] {
                let x = r.num(k).ok_or(format!("no number '{k}' in {r:?}"))?;
                if x < 0.0 || x.fract() != 0.0 {
                    return Err(format!("'{k}' is {x}"));
                }
            }
            r.str("scheduler").ok_or(format!("no scheduler in {r:?}"))?;
            let (ii, mii) = (r.num("ii").unwrap_or(0.0), r.num("mii").unwrap_or(0.0));
            let (res, rec) = (r.num("res_mii").unwrap_or(0.0), r.num("rec_mii").unwrap_or(0.0));
            if ii < mii || mii != res.max(rec) || ii < 1.0 {
                return Err(format!("ii {ii}, mii {mii}, res_mii {res}, rec_mii {rec} in {r:?}"));
            }
            Ok(())
        }
        Some(false) => {
            let why = r.str("reason").ok_or(format!("no reason in {r:?}"))?;
            if why.is_empty() {
                return Err("empty reason".into());
            }
            Ok(())
        }
        None => Err(format!("no 'pipelined' in {r:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_json_and_rejects_non_json() {
        let v = parse(" [ {\"a\": 1, \"b\": [true, false, null], \"c\": \"x\\\"y\\u0041\"}, -2.5e1 ] ").unwrap();
        assert_eq!(v.array()[0].num("a"), Some(1.0));
        assert_eq!(v.array()[0].str("c"), Some("x\"yA"));
        assert_eq!(v.array()[1], Json::Num(-25.0));
        for bad in ["[1,]", "{\"a\":1,}", "[1 2]", "{a:1}", "[\"\n\"]", "[] x", "", "{\"a\":1,\"a\":2}"] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }
}

//! Text helpers every tool shares for its input and its messages: decoding
//! a file as UTF-8 with the place (line, column) of the first bad byte, and
//! showing text in messages with control characters escaped, so that no
//! raw NUL or escape byte reaches a terminal.

use std::borrow::Cow;
use std::fmt;

/// Where a file stops being UTF-8.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadUtf8 {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub col: u32,
    /// The first byte that is not UTF-8.
    pub byte: u8,
}

impl fmt::Display for BadUtf8 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: error: invalid UTF-8 (byte 0x{:02x})", self.line, self.col, self.byte)
    }
}

impl BadUtf8 {
    /// `FILE:LINE:COL: error: invalid UTF-8 (byte 0xNN)`.
    pub fn in_file(&self, file: &str) -> String {
        format!("{}:{self}", shown(file))
    }
}

/// The bytes as a string, or where the first byte that is not UTF-8 is.
pub fn decode_utf8(bytes: Vec<u8>) -> Result<String, BadUtf8> {
    match String::from_utf8(bytes) {
        Ok(s) => Ok(s),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let bytes = e.as_bytes();
            let good = &bytes[..at];
            let line_start = good.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
            let line = 1 + good.iter().filter(|&&b| b == b'\n').count() as u32;
            // The prefix is valid UTF-8: count its characters.
            let col = 1 + good[line_start..].iter().filter(|&&b| b & 0xc0 != 0x80).count() as u32;
            Err(BadUtf8 { line, col, byte: bytes[at] })
        }
    }
}

/// One character as a message shows it: control characters (and the
/// Unicode ones that move the cursor or hide text) escaped.
pub fn shown_char(c: char) -> String {
    match c {
        '\t' => "\\t".into(),
        '\n' => "\\n".into(),
        '\r' => "\\r".into(),
        c if (c as u32) < 0x20 || c as u32 == 0x7f => format!("\\x{:02x}", c as u32),
        c if c.is_control() || matches!(c as u32, 0x200b..=0x200f | 0x202a..=0x202e | 0x2066..=0x2069 | 0xfeff) => {
            format!("\\u{{{:x}}}", c as u32)
        }
        c => c.to_string(),
    }
}

/// Text for a message: every control character escaped except newlines
/// and tabs (messages span lines); unchanged (borrowed) when it has none.
pub fn shown(s: &str) -> Cow<'_, str> {
    let bad = |c: char| c != '\n' && c != '\t' && shown_char(c).len() != c.len_utf8();
    if !s.chars().any(bad) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if bad(c) {
            out.push_str(&shown_char(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_utf8_is_located() {
        assert_eq!(decode_utf8(b"ab\n".to_vec()).unwrap(), "ab\n");
        let e = decode_utf8(b"first\ns\xc3\xa9\xffx".to_vec()).unwrap_err();
        assert_eq!(e, BadUtf8 { line: 2, col: 3, byte: 0xff });
        assert_eq!(e.in_file("t.s"), "t.s:2:3: error: invalid UTF-8 (byte 0xff)");
        // A truncated sequence: the place of its first byte.
        let e = decode_utf8(b"\xc3".to_vec()).unwrap_err();
        assert_eq!((e.line, e.col, e.byte), (1, 1, 0xc3));
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(shown_char('\0'), "\\x00");
        assert_eq!(shown_char('\x1b'), "\\x1b");
        assert_eq!(shown_char('é'), "é");
        assert_eq!(shown_char('\u{202e}'), "\\u{202e}");
        assert_eq!(shown("name\0x\x7f"), "name\\x00x\\x7f");
        assert_eq!(shown("two\nlines\tok"), "two\nlines\tok");
        assert!(matches!(shown("plain"), Cow::Borrowed(_)));
    }
}

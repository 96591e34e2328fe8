//! Lexer: splits assembly source text into tokens that carry their line and
//! column, dropping comments (`#` and `//` to the end of the line).
//!
//! A line with a lexical error (bad number, unterminated string, stray
//! character) is reported once and its tokens are dropped, so the parser
//! never sees half a line.
//!
//! Lexing is linear in the length of a line: columns are counted as the
//! lexer moves, never from the start of the line again.

use crate::Pos;

/// One token of assembly text.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// Names: mnemonics, registers, symbols, directives (with their leading `.`).
    Ident(String),
    /// Integer and character literals.
    Int(i64),
    Float(f64),
    Str(Vec<u8>),
    /// A lone `.`: the current location.
    Dot,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// Any other punctuation: `, ; { } ( ) ! : + - * / % & | ^ ~ @`.
    Punct(char),
    Newline,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub pos: Pos,
}

/// A lexical error: where and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexError {
    pub pos: Pos,
    pub message: String,
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'.' || c == b'$'
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'.' || c == b'$'
}

/// Tokenizes a whole source text. Every line ends with a `Newline` token.
pub fn lex(source: &str) -> (Vec<Token>, Vec<LexError>) {
    let mut tokens = Vec::new();
    let mut errors = Vec::new();
    for (i, line) in source.lines().enumerate() {
        let line_no = (i + 1) as u32;
        match lex_line(line.as_bytes(), line_no) {
            Ok(mut toks) => tokens.append(&mut toks),
            Err(e) => errors.push(e),
        }
        let col = line.chars().count() as u32 + 1;
        tokens.push(Token { tok: Tok::Newline, pos: Pos { line: line_no, col } });
    }
    (tokens, errors)
}

/// Columns (1-based, in characters) of byte offsets of one line, counted
/// forward from the last offset asked for: linear over a whole line.
struct Cols<'l> {
    line: &'l [u8],
    at: usize,
    col: u32,
}

impl Cols<'_> {
    fn of(&mut self, i: usize) -> u32 {
        let i = i.min(self.line.len());
        if i < self.at {
            self.at = 0;
            self.col = 1;
        }
        // Characters start at every byte that is not a UTF-8 continuation byte.
        let starts = self.line[self.at..i].iter().filter(|&&b| b & 0xc0 != 0x80).count();
        self.col = self.col.saturating_add(starts as u32);
        self.at = i;
        self.col
    }
}

/// The character starting at `bytes[0]` (at most 4 bytes are looked at).
fn first_char(bytes: &[u8]) -> char {
    let n = bytes.len().min(4);
    String::from_utf8_lossy(&bytes[..n]).chars().next().unwrap_or('?')
}

fn lex_line(line: &[u8], line_no: u32) -> Result<Vec<Token>, LexError> {
    let mut out = Vec::new();
    let mut i = 0;
    let mut cols = Cols { line, at: 0, col: 1 };
    let err = |i: usize, message: String| LexError { pos: Pos { line: line_no, col: Cols { line, at: 0, col: 1 }.of(i) }, message };
    while i < line.len() {
        let c = line[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let pos = Pos { line: line_no, col: cols.of(i) };
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'#' || (c == b'/' && line.get(i + 1) == Some(&b'/')) {
            break;
        }
        if c == b'.' && !line.get(i + 1).is_some_and(|&n| is_ident_char(n)) {
            out.push(Token { tok: Tok::Dot, pos });
            i += 1;
            continue;
        }
        if is_ident_start(c) {
            let start = i;
            while i < line.len() && is_ident_char(line[i]) {
                i += 1;
            }
            let text = String::from_utf8_lossy(&line[start..i]).into_owned();
            out.push(Token { tok: Tok::Ident(text), pos });
            continue;
        }
        if c.is_ascii_digit() {
            let (tok, len) = lex_number(&line[i..]).map_err(|m| err(i, m))?;
            out.push(Token { tok, pos });
            i += len;
            continue;
        }
        if c == b'"' {
            let (bytes, len) = lex_string(&line[i..]).map_err(|(m, at)| err(i + at, m))?;
            out.push(Token { tok: Tok::Str(bytes), pos });
            i += len;
            continue;
        }
        if c == b'\'' {
            let (value, len) = lex_char(&line[i..]).map_err(|(m, at)| err(i + at, m))?;
            out.push(Token { tok: Tok::Int(value), pos });
            i += len;
            continue;
        }
        if c == b'<' && line.get(i + 1) == Some(&b'<') {
            out.push(Token { tok: Tok::Shl, pos });
            i += 2;
            continue;
        }
        if c == b'>' && line.get(i + 1) == Some(&b'>') {
            out.push(Token { tok: Tok::Shr, pos });
            i += 2;
            continue;
        }
        if b",;{}()!:+-*/%&|^~@=".contains(&c) {
            out.push(Token { tok: Tok::Punct(c as char), pos });
            i += 1;
            continue;
        }
        let ch = first_char(&line[i..]);
        return Err(err(i, format!("unexpected character '{}'", isa_tablegen::text::shown_char(ch))));
    }
    Ok(out)
}

/// Lexes a number at the start of `text`: `123`, `0x7f`, `0b101`, `0o17`, `1.5`, `2e-3`.
fn lex_number(text: &[u8]) -> Result<(Tok, usize), String> {
    // The whole run of characters that could belong to the number.
    let mut end = 0;
    while end < text.len() {
        let c = text[end];
        let exp_sign = (c == b'+' || c == b'-')
            && end > 0
            && matches!(text[end - 1], b'e' | b'E')
            && !text.starts_with(b"0x")
            && !text.starts_with(b"0X");
        if is_ident_char(c) || exp_sign {
            end += 1;
        } else {
            break;
        }
    }
    let s = String::from_utf8_lossy(&text[..end]).into_owned();
    let bad = || format!("bad number '{s}'");
    let digits = s.replace('_', "");
    let radix_parse = |body: &str, radix: u32| -> Result<i64, String> {
        if body.is_empty() {
            return Err(bad());
        }
        u64::from_str_radix(body, radix).map(|v| v as i64).map_err(|_| {
            if body.chars().all(|c| c.is_digit(radix)) {
                format!("number '{s}' does not fit in 64 bits")
            } else {
                bad()
            }
        })
    };
    let lower = digits.to_ascii_lowercase();
    let tok = if let Some(body) = lower.strip_prefix("0x") {
        Tok::Int(radix_parse(body, 16)?)
    } else if let Some(body) = lower.strip_prefix("0b") {
        Tok::Int(radix_parse(body, 2)?)
    } else if let Some(body) = lower.strip_prefix("0o") {
        Tok::Int(radix_parse(body, 8)?)
    } else if lower.bytes().all(|b| b.is_ascii_digit()) {
        Tok::Int(radix_parse(&lower, 10)?)
    } else if lower.bytes().all(|b| b.is_ascii_digit() || b == b'.' || b == b'e' || b == b'+' || b == b'-')
    {
        Tok::Float(lower.parse::<f64>().map_err(|_| bad())?)
    } else {
        return Err(bad());
    };
    Ok((tok, end))
}

/// Reads one escape sequence after a backslash at `text[0]`; returns the byte and length.
fn lex_escape(text: &[u8]) -> Result<(u8, usize), String> {
    let Some(&c) = text.get(1) else { return Err("unterminated escape sequence".into()) };
    Ok(match c {
        b'n' => (b'\n', 2),
        b't' => (b'\t', 2),
        b'r' => (b'\r', 2),
        b'0'..=b'7' => {
            let mut v: u32 = 0;
            let mut n = 1;
            while n < 4 && text.get(n).is_some_and(|d| (b'0'..=b'7').contains(d)) {
                v = v * 8 + (text[n] - b'0') as u32;
                n += 1;
            }
            if v > 255 {
                return Err(format!("octal escape \\{:o} does not fit in a byte", v));
            }
            (v as u8, n)
        }
        b'x' => {
            let mut v: u32 = 0;
            let mut n = 2;
            while n < 4 && text.get(n).is_some_and(|d| d.is_ascii_hexdigit()) {
                v = v * 16 + (text[n] as char).to_digit(16).unwrap_or(0);
                n += 1;
            }
            if n == 2 {
                return Err("'\\x' needs hexadecimal digits".into());
            }
            (v as u8, n)
        }
        b'a' => (7, 2),
        b'b' => (8, 2),
        b'f' => (12, 2),
        b'v' => (11, 2),
        b'e' => (27, 2),
        b'\\' | b'"' | b'\'' => (c, 2),
        other => return Err(format!("unknown escape sequence '\\{}'", other as char)),
    })
}

/// Lexes a string literal; errors carry the byte offset of the problem.
fn lex_string(text: &[u8]) -> Result<(Vec<u8>, usize), (String, usize)> {
    let mut out = Vec::new();
    let mut i = 1;
    loop {
        match text.get(i) {
            None => return Err(("unterminated string".into(), 0)),
            Some(b'"') => return Ok((out, i + 1)),
            Some(b'\\') => {
                let (b, n) = lex_escape(&text[i..]).map_err(|m| (m, i))?;
                out.push(b);
                i += n;
            }
            Some(&b) => {
                out.push(b);
                i += 1;
            }
        }
    }
}

/// Lexes a character literal `'a'` or `'\n'`.
fn lex_char(text: &[u8]) -> Result<(i64, usize), (String, usize)> {
    let (value, n) = match text.get(1) {
        None | Some(b'\'') => return Err(("empty or unterminated character literal".into(), 0)),
        Some(b'\\') => {
            let (b, n) = lex_escape(&text[1..]).map_err(|m| (m, 1))?;
            (b as i64, 1 + n)
        }
        Some(_) => {
            // One UTF-8 character (its bytes become one value only if ASCII).
            let ch = first_char(&text[1..]);
            if !ch.is_ascii() {
                return Err((format!("character '{ch}' is not ASCII"), 1));
            }
            (ch as i64, 2)
        }
    };
    if text.get(n) != Some(&b'\'') {
        return Err(("unterminated character literal".into(), 0));
    }
    Ok((value, n + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        let (t, e) = lex(s);
        assert!(e.is_empty(), "{e:?}");
        t.into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn basic_tokens() {
        assert_eq!(
            toks("main: addi r1, r1, -16 # c"),
            vec![
                Tok::Ident("main".into()),
                Tok::Punct(':'),
                Tok::Ident("addi".into()),
                Tok::Ident("r1".into()),
                Tok::Punct(','),
                Tok::Ident("r1".into()),
                Tok::Punct(','),
                Tok::Punct('-'),
                Tok::Int(16),
                Tok::Newline
            ]
        );
    }

    #[test]
    fn dot_and_directives() {
        assert_eq!(
            toks(".size f, .-f // x"),
            vec![
                Tok::Ident(".size".into()),
                Tok::Ident("f".into()),
                Tok::Punct(','),
                Tok::Dot,
                Tok::Punct('-'),
                Tok::Ident("f".into()),
                Tok::Newline
            ]
        );
        assert_eq!(toks(".+8"), vec![Tok::Dot, Tok::Punct('+'), Tok::Int(8), Tok::Newline]);
    }

    #[test]
    fn numbers_strings_chars() {
        assert_eq!(
            toks("0x10 0b11 1.5e-1 'a' '\\n' \"a\\x41\\0\""),
            vec![
                Tok::Int(16),
                Tok::Int(3),
                Tok::Float(0.15),
                Tok::Int(97),
                Tok::Int(10),
                Tok::Str(vec![b'a', b'A', 0]),
                Tok::Newline
            ]
        );
        assert_eq!(toks("0xffffffffffffffff"), vec![Tok::Int(-1), Tok::Newline]);
    }

    #[test]
    fn errors_have_columns() {
        let (_, e) = lex("  li r1, 12ab\n  .ascii \"abc");
        assert_eq!(e[0], LexError { pos: Pos { line: 1, col: 10 }, message: "bad number '12ab'".into() });
        assert_eq!(e[1], LexError { pos: Pos { line: 2, col: 10 }, message: "unterminated string".into() });
    }
}

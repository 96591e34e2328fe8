//! Tokens of the `.isa` language and the statement splitter.
//!
//! A statement is one line; it continues onto the next lines while a `(` is
//! open. `#` starts a comment. Identifiers may contain dots (`add.i32`).

use crate::parse::Diagnostic;

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Ident(String),
    Number(i64),
    Str(String),
    /// `(` `)` `,` `:` `=` `..` `-`
    Punct(&'static str),
}

#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    pub line: u32,
    pub col: u32,
}

impl Token {
    pub fn describe(&self) -> String {
        match &self.tok {
            Tok::Ident(s) => format!("'{s}'"),
            Tok::Number(n) => format!("number {n}"),
            Tok::Str(s) => format!("string \"{s}\""),
            Tok::Punct(p) => format!("'{p}'"),
        }
    }
}

/// One statement's tokens; `line`/`col` locate its first token.
#[derive(Clone, Debug)]
pub struct Statement {
    pub tokens: Vec<Token>,
    pub line: u32,
    /// Line and column just past the last token, for "expected … at end" errors.
    pub end: (u32, u32),
}

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}
fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.'
}

/// Splits a source text into statements of tokens.
pub fn statements(text: &str, file: &str) -> Result<Vec<Statement>, Diagnostic> {
    let err = |line: u32, col: u32, message: String| Diagnostic { file: file.to_string(), line, col, message };
    let mut out = Vec::new();
    let mut current: Vec<Token> = Vec::new();
    let mut depth = 0i32;
    let mut last_end = (1, 1);
    for (lineno, raw) in text.lines().enumerate() {
        let line = lineno as u32 + 1;
        let chars: Vec<char> = raw.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            let col = i as u32 + 1;
            if c == '#' {
                break;
            }
            if c.is_whitespace() {
                i += 1;
                continue;
            }
            let tok = if is_ident_start(c) {
                let start = i;
                while i < chars.len() && is_ident_char(chars[i]) {
                    i += 1;
                }
                // A trailing '..' belongs to a range, not to the identifier.
                let mut word: String = chars[start..i].iter().collect();
                while word.ends_with('.') {
                    word.pop();
                    i -= 1;
                }
                Tok::Ident(word)
            } else if c.is_ascii_digit() {
                let start = i;
                while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                let word: String = chars[start..i].iter().filter(|&&c| c != '_').collect();
                let parsed = if let Some(hex) = word.strip_prefix("0x").or_else(|| word.strip_prefix("0X")) {
                    i64::from_str_radix(hex, 16)
                } else if let Some(bin) = word.strip_prefix("0b") {
                    i64::from_str_radix(bin, 2)
                } else {
                    word.parse::<i64>()
                };
                // Size suffixes: 16K, 64M.
                let parsed = parsed.or_else(|e| {
                    let (num, mult) = match word.chars().last() {
                        Some('K') => (&word[..word.len() - 1], 1i64 << 10),
                        Some('M') => (&word[..word.len() - 1], 1i64 << 20),
                        _ => return Err(e),
                    };
                    num.parse::<i64>().map(|n| n * mult)
                });
                match parsed {
                    Ok(n) => Tok::Number(n),
                    Err(_) => return Err(err(line, col, format!("malformed number '{word}'"))),
                }
            } else if c == '"' {
                let start = i;
                i += 1;
                let mut s = String::new();
                loop {
                    if i >= chars.len() {
                        return Err(err(line, start as u32 + 1, "unterminated string".into()));
                    }
                    if chars[i] == '"' {
                        i += 1;
                        break;
                    }
                    s.push(chars[i]);
                    i += 1;
                }
                Tok::Str(s)
            } else if c == '.' && chars.get(i + 1) == Some(&'.') {
                i += 2;
                Tok::Punct("..")
            } else {
                let p = match c {
                    '(' => "(",
                    ')' => ")",
                    ',' => ",",
                    ':' => ":",
                    '=' => "=",
                    '-' => "-",
                    _ => return Err(err(line, col, format!("unexpected character '{}'", crate::text::shown_char(c)))),
                };
                i += 1;
                match p {
                    "(" => depth += 1,
                    ")" => {
                        depth -= 1;
                        if depth < 0 {
                            return Err(err(line, col, "unmatched ')'".into()));
                        }
                    }
                    _ => {}
                }
                Tok::Punct(p)
            };
            current.push(Token { tok, line, col });
            last_end = (line, i as u32 + 1);
        }
        if depth == 0 && !current.is_empty() {
            let first = current[0].line;
            out.push(Statement { tokens: std::mem::take(&mut current), line: first, end: last_end });
        }
    }
    if !current.is_empty() {
        let t = &current[0];
        return Err(err(t.line, t.col, "unclosed '(' at end of file".into()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_lines_and_continues_open_parens() {
        let s = statements("a 1 # c\nb (x,\n y)\n\nc 0x10 64K 2M\n", "t").unwrap();
        assert_eq!(s.len(), 3);
        assert_eq!(s[1].tokens.len(), 6);
        assert_eq!(s[2].tokens[1].tok, Tok::Number(16));
        assert_eq!(s[2].tokens[2].tok, Tok::Number(65536));
        assert_eq!(s[2].tokens[3].tok, Tok::Number(2 << 20));
    }

    #[test]
    fn ranges_and_dotted_identifiers() {
        let s = statements("f rd 49..44 add.i32", "t").unwrap();
        let toks: Vec<_> = s[0].tokens.iter().map(|t| t.tok.clone()).collect();
        assert_eq!(
            toks,
            vec![
                Tok::Ident("f".into()),
                Tok::Ident("rd".into()),
                Tok::Number(49),
                Tok::Punct(".."),
                Tok::Number(44),
                Tok::Ident("add.i32".into())
            ]
        );
    }

    #[test]
    fn errors_have_locations() {
        let e = statements("x \"abc", "f.isa").unwrap_err();
        assert_eq!(e.to_string(), "f.isa:1:3: error: unterminated string");
        let e = statements("x 12zz", "f.isa").unwrap_err();
        assert_eq!(e.to_string(), "f.isa:1:3: error: malformed number '12zz'");
    }
}

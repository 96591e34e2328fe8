//! Reading LLVM IR safely: a cheap scan of the text before LLVM's parser
//! sees it, and LLVM's verifier after, so that input `llvm-as`/`opt` reject
//! is rejected here with a `FILE:LINE:COL: error:` message instead of a
//! crash.
//!
//! The scan (linear, outside strings and comments) refuses what LLVM 19's
//! parser does not survive: brackets nested deeper than [`MAX_NESTING`]
//! (its recursive descent overflows the stack on a type nested 100,000
//! deep) and numbered values `%N`/`@N`/`!N`/`#N`/`^N` at or above
//! 4294967294 (the empty and tombstone keys of its `DenseMap<unsigned>`:
//! `store i32 %4294967295, ptr null` crashed inside the parser), and
//! numbers longer than [`MAX_NUMBER_LEN`] characters (its lexer converts
//! a decimal literal digit by digit into an ever wider integer: quadratic,
//! 2.3 s for a line of 200,000 digits and about a minute for a megabyte).

use std::path::Path;

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::Module as LlvmModule;

/// The deepest nesting of `(`, `[`, `{` and `<` accepted in IR text.
pub const MAX_NESTING: usize = 512;

/// The longest number (digits, or a hexadecimal literal's characters)
/// accepted in IR text: enough for an `i13000` constant, where the backend
/// lowers at most 128-bit integers.
pub const MAX_NUMBER_LEN: usize = 4096;

/// The smallest value number LLVM's parser cannot look up.
const FIRST_BAD_NUMBER: u64 = 0xffff_fffe;

/// Checks IR text before it reaches LLVM's parser. Err: `FILE:LINE:COL: error: …`.
pub fn prescan(text: &[u8], file: &str) -> Result<(), String> {
    let (mut line, mut col) = (1u32, 1u32);
    let mut depth = 0usize;
    let mut i = 0;
    let err = |line: u32, col: u32, msg: String| format!("{file}:{line}:{col}: error: {msg}");
    while i < text.len() {
        let c = text[i];
        let (l0, c0) = (line, col);
        match c {
            b'\n' => {
                line += 1;
                col = 1;
                i += 1;
                continue;
            }
            b';' => {
                while i < text.len() && text[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'"' => {
                // A string (quoted names too); LLVM has no escaped quote in them.
                i += 1;
                col += 1;
                while i < text.len() && text[i] != b'"' {
                    if text[i] == b'\n' {
                        line += 1;
                        col = 1;
                    } else if text[i] & 0xc0 != 0x80 {
                        col += 1;
                    }
                    i += 1;
                }
                i += 1;
                col += 1;
                continue;
            }
            b'(' | b'[' | b'{' | b'<' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(err(l0, c0, format!("brackets nested more than {MAX_NESTING} deep")));
                }
            }
            b')' | b']' | b'}' | b'>' => depth = depth.saturating_sub(1),
            b'%' | b'@' | b'!' | b'#' | b'^' if text.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                let start = i + 1;
                let mut end = start;
                let mut value: u64 = 0;
                while end < text.len() && text[end].is_ascii_digit() {
                    value = value.saturating_mul(10).saturating_add(u64::from(text[end] - b'0'));
                    end += 1;
                }
                if value >= FIRST_BAD_NUMBER {
                    let number = String::from_utf8_lossy(&text[i..end]);
                    return Err(err(l0, c0, format!("value number '{number}' is too large")));
                }
                col += (end - i) as u32;
                i = end;
                continue;
            }
            b'0'..=b'9' if i == 0 || !(text[i - 1].is_ascii_alphanumeric() || b"_.$".contains(&text[i - 1])) => {
                let mut end = i;
                while end < text.len() && (text[end].is_ascii_alphanumeric() || text[end] == b'_') {
                    end += 1;
                }
                if end - i > MAX_NUMBER_LEN {
                    return Err(err(l0, c0, format!("a number of {} characters (at most {MAX_NUMBER_LEN})", end - i)));
                }
                col += (end - i) as u32;
                i = end;
                continue;
            }
            _ => {}
        }
        if c & 0xc0 != 0x80 {
            col += 1;
        }
        i += 1;
    }
    Ok(())
}

/// Reads LLVM IR: bitcode when the file starts with the bitcode magic (or
/// its name ends in `.bc`), text otherwise; then verifies the module.
pub fn read_module<'c>(ctx: &'c Context, path: &Path) -> Result<LlvmModule<'c>, String> {
    let shown = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| format!("{shown}: error: {e}"))?;
    let bitcode = bytes.starts_with(b"BC\xc0\xde") || bytes.starts_with(&[0xde, 0xc0, 0x17, 0x0b]);
    let module = if bitcode || path.extension().is_some_and(|e| e == "bc") {
        LlvmModule::parse_bitcode_from_path(path, ctx).map_err(|e| format!("{shown}: error: {}", e.to_string().trim_end()))?
    } else {
        parse_text(ctx, &bytes, &shown)?
    };
    verify(&module, &shown)?;
    Ok(module)
}

/// Parses IR text after [`prescan`]. LLVM's own messages already carry
/// `FILE:LINE:COL: error:`.
pub fn parse_text<'c>(ctx: &'c Context, text: &[u8], file: &str) -> Result<LlvmModule<'c>, String> {
    prescan(text, file)?;
    let buf = MemoryBuffer::create_from_memory_range_copy(text, file);
    ctx.create_module_from_ir(buf).map_err(|e| e.to_string().trim_end().to_string())
}

/// LLVM's verifier (`LLVMVerifyModule`), as `opt` runs it on its input.
pub fn verify(module: &LlvmModule, file: &str) -> Result<(), String> {
    module.verify().map_err(|e| {
        let text = e.to_string();
        let first = text.lines().next().unwrap_or("").trim();
        format!("{file}: error: invalid module: {first}\n{}", text.trim_end())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_values_past_the_parser_are_errors() {
        let e = prescan(b"define void @f() {\n  store i32 %4294967295, ptr null\n  ret void\n}\n", "t.ll").unwrap_err();
        assert_eq!(e, "t.ll:2:13: error: value number '%4294967295' is too large");
        assert!(prescan(b"@4294967294 = global i32 0", "t.ll").unwrap_err().contains("'@4294967294'"));
        assert!(prescan(b"!99999999999999999999999 = !{}", "t.ll").is_err());
        // In strings and comments they are text.
        assert!(prescan(b"@s = constant [12 x i8] c\"%4294967295\\00\" ; %4294967295\n", "t.ll").is_ok());
        assert!(prescan(b"%4294967293 = add i32 1, 2", "t.ll").is_ok());
    }

    #[test]
    fn deep_nesting_is_an_error() {
        let deep = format!("%t = type {}i32{}\n", "[1 x ".repeat(100_000), "]".repeat(100_000));
        let e = prescan(deep.as_bytes(), "t.ll").unwrap_err();
        assert_eq!(e, format!("t.ll:1:{}: error: brackets nested more than {MAX_NESTING} deep", 11 + 5 * MAX_NESTING));
        let ok = format!("%t = type {}i32{}\n", "[1 x ".repeat(MAX_NESTING), "]".repeat(MAX_NESTING));
        assert!(prescan(ok.as_bytes(), "t.ll").is_ok());
        // Closing brackets make room again; strings do not count.
        let flat = "{ i32 }\n".repeat(10_000) + &"\"((((\"".repeat(1000);
        assert!(prescan(flat.as_bytes(), "t.ll").is_ok());
    }

    #[test]
    fn overlong_numbers_are_errors() {
        // Found by scripts/fuzz-tools: a line of 300,000 digits kept LLVM's
        // lexer busy past the 5 s limit.
        let digits = "0".repeat(300_000);
        let e = prescan(digits.as_bytes(), "t.ll").unwrap_err();
        assert_eq!(e, "t.ll:1:1: error: a number of 300000 characters (at most 4096)");
        let e = prescan(format!("@g = global i32 -{}\n", "9".repeat(5000)).as_bytes(), "t.ll").unwrap_err();
        assert!(e.starts_with("t.ll:1:18: error: a number of 5000"), "{e}");
        let e = prescan(format!("@g = global i32 0x{}\n", "F".repeat(5000)).as_bytes(), "t.ll").unwrap_err();
        assert!(e.starts_with("t.ll:1:17: error: a number of 5002"), "{e}");
        // Long numbers that fit, and long names, strings and comments, pass.
        let ok = format!("@g = global i13000 {}\n@{} = global i32 0 ; {}\n", "7".repeat(MAX_NUMBER_LEN), "a1".repeat(9000), "1".repeat(9000));
        assert!(prescan(ok.as_bytes(), "t.ll").is_ok());
        assert!(prescan(format!("@s = constant [1 x i8] c\"{}\"\n", "1".repeat(9000)).as_bytes(), "t.ll").is_ok());
    }

    #[test]
    fn invalid_modules_are_rejected_by_the_verifier() {
        let ctx = Context::create();
        // Parses, but a use does not dominate its definition.
        let ir = b"define i32 @f() {\n  %a = add i32 %b, 1\n  %b = add i32 %a, 1\n  ret i32 %a\n}\n";
        let m = parse_text(&ctx, ir, "t.ll").unwrap();
        let e = verify(&m, "t.ll").unwrap_err();
        assert!(e.starts_with("t.ll: error: invalid module: "), "{e}");
        let e = parse_text(&ctx, b"define void @f() {\n  store i32 %4, ptr null\n  ret void\n}\n", "t.ll").err().unwrap();
        assert!(e.contains("t.ll:2:13: error: use of undefined value '%4'"), "{e}");
    }
}

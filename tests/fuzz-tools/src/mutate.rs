//! Byte-level and format-aware mutations: bit flips, truncation, splicing,
//! huge numbers, deep nesting, long lines, non-UTF-8 and NUL bytes, and ELF
//! and `ar` size and offset fields pointing past the file or at gigabytes.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

pub type R = ChaCha8Rng;

const HUGE: &[&str] = &[
    "4294967295",
    "4294967296",
    "2147483647",
    "2147483648",
    "-2147483648",
    "-1",
    "0",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999999",
    "0xffffffff",
    "0xffffffffffffffff",
    "0x7fffffff",
    "0x40000000",
    "1073741824",
    "65535",
    "65536",
    "-9223372036854775808",
    "1e999",
    "0x1p99999",
];

const NESTS: &[(&str, &str)] =
    &[("(", ")"), ("[", "]"), ("{", "}"), ("[1 x ", "]"), ("{ ", " }"), ("-", ""), ("~", ""), ("!", ""), ("<1 x ", ">"), ("*", "")];

/// Applies 1–3 text-or-binary mutations (`text` prefers the ones that keep
/// a text file mostly readable); `other` is a second input for splicing.
pub fn mutate(rng: &mut R, data: &[u8], other: &[u8], text: bool) -> Vec<u8> {
    let mut d = data.to_vec();
    let n = 1 + rng.gen_range(0..3);
    for _ in 0..n {
        let choice = rng.gen_range(0..if text { 14 } else { 9 });
        d = match choice {
            0 => flip_bits(rng, d),
            1 => truncate(rng, d),
            2 => splice(rng, &d, other),
            3 => insert_bytes(rng, d, &[0]),
            4 => {
                let k = 1 + rng.gen_range(0..7);
                insert_bytes(rng, d, &[0xff, 0xfe, 0xc3, 0x80, 0xed, 0xa0, 0x80][..k])
            }
            5 => overwrite_word(rng, d),
            6 => copy_chunk(rng, d),
            7 => delete_chunk(rng, d),
            8 => flip_bytes(rng, d),
            9 => huge_number(rng, d),
            10 => deep_nesting(rng, d),
            11 => long_line(rng, d),
            12 => repeat_line(rng, d),
            _ => swap_lines(rng, d),
        };
        if d.len() > MAX_LEN {
            d.truncate(MAX_LEN);
            d.shrink_to_fit();
        }
    }
    d
}

/// Mutations stop growing an input here.
pub const MAX_LEN: usize = 16 << 20;

fn pos(rng: &mut R, len: usize) -> usize {
    if len == 0 {
        0
    } else {
        rng.gen_range(0..=len)
    }
}

fn flip_bits(rng: &mut R, mut d: Vec<u8>) -> Vec<u8> {
    if d.is_empty() {
        return d;
    }
    for _ in 0..1 + rng.gen_range(0..8) {
        let i = rng.gen_range(0..d.len());
        d[i] ^= 1 << rng.gen_range(0..8);
    }
    d
}

fn flip_bytes(rng: &mut R, mut d: Vec<u8>) -> Vec<u8> {
    if d.is_empty() {
        return d;
    }
    for _ in 0..1 + rng.gen_range(0..4) {
        let i = rng.gen_range(0..d.len());
        d[i] = match rng.gen_range(0..4) {
            0 => 0,
            1 => 0xff,
            2 => 0x80,
            _ => rng.gen(),
        };
    }
    d
}

fn truncate(rng: &mut R, mut d: Vec<u8>) -> Vec<u8> {
    let at = pos(rng, d.len());
    d.truncate(at);
    d
}

fn splice(rng: &mut R, a: &[u8], b: &[u8]) -> Vec<u8> {
    let i = pos(rng, a.len());
    let j = pos(rng, b.len());
    let mut d = a[..i].to_vec();
    d.extend_from_slice(&b[j..]);
    d
}

fn insert_bytes(rng: &mut R, mut d: Vec<u8>, bytes: &[u8]) -> Vec<u8> {
    let at = pos(rng, d.len());
    let n = if rng.gen_bool(0.2) { 1 + rng.gen_range(0..64) } else { 1 };
    for _ in 0..n {
        d.splice(at..at, bytes.iter().copied());
    }
    d
}

/// A 1/2/4/8-byte field at a random place set to an interesting value.
fn overwrite_word(rng: &mut R, mut d: Vec<u8>) -> Vec<u8> {
    let len = d.len() as u64;
    let old: u64 = rng.gen();
    let v = interesting(rng, old, len);
    let w = [1usize, 2, 4, 4, 4, 8][rng.gen_range(0..6)];
    if d.len() < w {
        return d;
    }
    let at = if rng.gen_bool(0.7) { rng.gen_range(0..=(d.len() - w) / w) * w } else { rng.gen_range(0..=d.len() - w) };
    let be = rng.gen_bool(0.5);
    wr(&mut d, at, w, be, v);
    d
}

fn copy_chunk(rng: &mut R, mut d: Vec<u8>) -> Vec<u8> {
    if d.is_empty() {
        return d;
    }
    let a = rng.gen_range(0..d.len());
    let n = rng.gen_range(1..=(d.len() - a).min(4096));
    let chunk = d[a..a + n].to_vec();
    let at = pos(rng, d.len());
    let times = if rng.gen_bool(0.1) { 1 + rng.gen_range(0..200) } else { 1 };
    for _ in 0..times {
        d.splice(at..at, chunk.iter().copied());
    }
    d
}

fn delete_chunk(rng: &mut R, mut d: Vec<u8>) -> Vec<u8> {
    if d.is_empty() {
        return d;
    }
    let a = rng.gen_range(0..d.len());
    let n = rng.gen_range(1..=(d.len() - a).min(512));
    d.drain(a..a + n);
    d
}

/// An integer value worth trying for a field now holding `old` in a file of
/// `len` bytes.
pub fn interesting(rng: &mut R, old: u64, len: u64) -> u64 {
    match rng.gen_range(0..16) {
        0 => 0,
        1 => 1,
        2 => len,
        3 => len + 1,
        4 => len.saturating_sub(1),
        5 => 0x7fff_ffff,
        6 => 0x8000_0000,
        7 => 0xffff_ffff,
        8 => 0x4000_0000,
        9 => 0xffff_fff0,
        10 => old.wrapping_add(1),
        11 => old.wrapping_sub(1),
        12 => old.wrapping_mul(2).wrapping_add(len),
        13 => 0xffff,
        14 => u64::MAX,
        _ => rng.gen::<u32>() as u64,
    }
}

/// Where text tokens start and end: digit runs.
fn number_spans(d: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < d.len() {
        if d[i].is_ascii_digit() {
            let s = i;
            while i < d.len() && (d[i].is_ascii_alphanumeric() || d[i] == b'_') {
                i += 1;
            }
            out.push((s, i));
        } else {
            i += 1;
        }
    }
    out
}

fn huge_number(rng: &mut R, mut d: Vec<u8>) -> Vec<u8> {
    let spans = number_spans(&d);
    let h = HUGE[rng.gen_range(0..HUGE.len())].as_bytes();
    if spans.is_empty() {
        let at = pos(rng, d.len());
        d.splice(at..at, h.iter().copied());
        return d;
    }
    let (s, e) = spans[rng.gen_range(0..spans.len())];
    d.splice(s..e, h.iter().copied());
    d
}

fn deep_nesting(rng: &mut R, mut d: Vec<u8>) -> Vec<u8> {
    let (open, close) = NESTS[rng.gen_range(0..NESTS.len())];
    let depth = [10usize, 100, 1000, 10_000, 100_000][rng.gen_range(0..5)];
    let at = pos(rng, d.len());
    let inner: &[u8] = if rng.gen_bool(0.5) { b"1" } else { b"" };
    let mut ins = open.repeat(depth).into_bytes();
    ins.extend_from_slice(inner);
    ins.extend_from_slice(close.repeat(depth).as_bytes());
    d.splice(at..at, ins);
    d
}

fn line_starts(d: &[u8]) -> Vec<usize> {
    let mut v = vec![0];
    v.extend(d.iter().enumerate().filter(|(_, &b)| b == b'\n').map(|(i, _)| i + 1));
    v
}

fn long_line(rng: &mut R, mut d: Vec<u8>) -> Vec<u8> {
    let piece: &[u8] = match rng.gen_range(0..8) {
        0 => b" ",
        1 => b"a",
        2 => b"1+",
        3 => b"r1, ",
        4 => b"\t",
        5 => b"x",
        6 => b"0",
        _ => b"#",
    };
    let n = [1000usize, 10_000, 100_000, 300_000][rng.gen_range(0..4)];
    let starts = line_starts(&d);
    let at = starts[rng.gen_range(0..starts.len())].min(d.len());
    d.splice(at..at, piece.repeat(n));
    d
}

fn repeat_line(rng: &mut R, mut d: Vec<u8>) -> Vec<u8> {
    let starts = line_starts(&d);
    let k = rng.gen_range(0..starts.len());
    let s = starts[k].min(d.len());
    let e = starts.get(k + 1).copied().unwrap_or(d.len());
    let line = d[s..e].to_vec();
    // At most 4 MiB more (a long line repeated 5,000 times would be
    // gigabytes).
    let times = [2usize, 10, 100, 1000, 5000][rng.gen_range(0..5)].min((4 << 20) / line.len().max(1)).max(1);
    let mut ins = Vec::new();
    for _ in 0..times {
        ins.extend_from_slice(&line);
        if !line.ends_with(b"\n") {
            ins.push(b'\n');
        }
    }
    d.splice(e..e, ins);
    d
}

fn swap_lines(rng: &mut R, d: Vec<u8>) -> Vec<u8> {
    let mut lines: Vec<&[u8]> = d.split(|&b| b == b'\n').collect();
    if lines.len() < 2 {
        return d;
    }
    let a = rng.gen_range(0..lines.len());
    let b = rng.gen_range(0..lines.len());
    lines.swap(a, b);
    lines.join(&b'\n')
}

// ------------------------------------------------------------------ ELF

fn rd(d: &[u8], at: usize, w: usize, be: bool) -> Option<u64> {
    let b = d.get(at..at + w)?;
    let mut v = 0u64;
    for i in 0..w {
        let byte = if be { b[i] } else { b[w - 1 - i] };
        v = v << 8 | byte as u64;
    }
    Some(v)
}

fn wr(d: &mut [u8], at: usize, w: usize, be: bool, v: u64) {
    if at + w > d.len() {
        return;
    }
    for i in 0..w {
        let shift = 8 * if be { w - 1 - i } else { i };
        d[at + i] = (v >> shift) as u8;
    }
}

/// The fields of an ELF32 file worth corrupting: (offset, width).
fn elf_fields(d: &[u8]) -> Vec<(usize, usize)> {
    let mut f = Vec::new();
    if d.len() < 52 || &d[..4] != b"\x7fELF" {
        return f;
    }
    let be = d[5] == 2;
    // Header: e_entry, e_phoff, e_shoff, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx.
    f.extend([(0x18, 4), (0x1c, 4), (0x20, 4), (0x2a, 2), (0x2c, 2), (0x2e, 2), (0x30, 2), (0x32, 2)]);
    let phoff = rd(d, 0x1c, 4, be).unwrap_or(0) as usize;
    let phnum = rd(d, 0x2c, 2, be).unwrap_or(0) as usize;
    for i in 0..phnum.min(64) {
        let p = phoff + 32 * i;
        if p + 32 <= d.len() {
            f.extend([(p + 4, 4), (p + 8, 4), (p + 16, 4), (p + 20, 4), (p + 28, 4)]);
        }
    }
    let shoff = rd(d, 0x20, 4, be).unwrap_or(0) as usize;
    let shnum = rd(d, 0x30, 2, be).unwrap_or(0) as usize;
    for i in 0..shnum.min(256) {
        let s = shoff + 40 * i;
        if s + 40 > d.len() {
            break;
        }
        f.extend([(s, 4), (s + 4, 4), (s + 12, 4), (s + 16, 4), (s + 20, 4), (s + 24, 4), (s + 28, 4), (s + 32, 4), (s + 36, 4)]);
        let ty = rd(d, s + 4, 4, be).unwrap_or(0);
        let off = rd(d, s + 16, 4, be).unwrap_or(0) as usize;
        let size = rd(d, s + 20, 4, be).unwrap_or(0) as usize;
        // Symbols (16 bytes: name, value, size, info, other, shndx) and
        // relocations (12 bytes: offset, info, addend).
        let (ent, fields): (usize, &[(usize, usize)]) = match ty {
            2 => (16, &[(0, 4), (4, 4), (8, 4), (12, 1), (14, 2)]),
            4 => (12, &[(0, 4), (4, 4), (8, 4)]),
            9 => (8, &[(0, 4), (4, 4)]),
            _ => continue,
        };
        for k in 0..(size / ent).min(64) {
            let e = off + k * ent;
            if e + ent <= d.len() {
                f.extend(fields.iter().map(|&(o, w)| (e + o, w)));
            }
        }
    }
    f
}

/// Sets one ELF header, program header, section header, symbol or
/// relocation field to a value past the file, at gigabytes, or off by one.
pub fn elf_field(rng: &mut R, mut d: Vec<u8>) -> Vec<u8> {
    let f = elf_fields(&d);
    if f.is_empty() {
        return overwrite_word(rng, d);
    }
    let be = d[5] == 2;
    for _ in 0..1 + rng.gen_range(0..2) {
        let (at, w) = f[rng.gen_range(0..f.len())];
        let old = rd(&d, at, w, be).unwrap_or(0);
        let v = interesting(rng, old, d.len() as u64);
        wr(&mut d, at, w, be, v);
    }
    d
}

// ------------------------------------------------------------------ ar

/// The offsets of the member headers of an `ar` archive.
fn ar_headers(d: &[u8]) -> Vec<usize> {
    let mut out = Vec::new();
    if !d.starts_with(b"!<arch>\n") {
        return out;
    }
    let mut at = 8;
    while at + 60 <= d.len() && out.len() < 4096 {
        out.push(at);
        let size: usize = std::str::from_utf8(&d[at + 48..at + 58]).ok().and_then(|s| s.trim().parse().ok()).unwrap_or(0);
        at += 60 + size + (size & 1);
    }
    out
}

/// Corrupts a member header (its size, its name or its offset into the
/// long-name table) or the symbol index's count and offsets.
pub fn ar_field(rng: &mut R, mut d: Vec<u8>) -> Vec<u8> {
    let heads = ar_headers(&d);
    if heads.is_empty() {
        return overwrite_word(rng, d);
    }
    let h = heads[rng.gen_range(0..heads.len())];
    let len = d.len() as u64;
    match rng.gen_range(0..5) {
        0 | 1 => {
            let old: u64 = std::str::from_utf8(&d[h + 48..h + 58]).ok().and_then(|s| s.trim().parse().ok()).unwrap_or(0);
            let v = match rng.gen_range(0..4) {
                0 => "9999999999".to_string(),
                1 => "-1".to_string(),
                2 => "1073741824".to_string(),
                _ => interesting(rng, old, len).to_string(),
            };
            let mut field = format!("{v:<10}").into_bytes();
            field.truncate(10);
            d[h + 48..h + 58].copy_from_slice(&field);
        }
        2 => {
            let names: &[&str] = &["/9999999999", "/4294967295", "/-1", "/", "//", "#1/99999999", "/0", "../../x/", "a/b/", ""];
            let mut field = format!("{:<16}", names[rng.gen_range(0..names.len())]).into_bytes();
            field.truncate(16);
            d[h..h + 16].copy_from_slice(&field);
        }
        3 => {
            // The symbol index: a big-endian count, then offsets.
            if d[h..].starts_with(b"/ ") && h + 64 <= d.len() {
                let at = h + 60 + 4 * rng.gen_range(0..8usize);
                let old = rd(&d, at, 4, true).unwrap_or(0);
                let v = interesting(rng, old, len);
                wr(&mut d, at, 4, true, v);
            } else {
                d[h + 58] ^= 0xff;
            }
        }
        _ => {
            // The member's contents (an object): its ELF fields.
            let size: usize =
                std::str::from_utf8(&d[h + 48..h + 58]).ok().and_then(|s| s.trim().parse().ok()).unwrap_or(0);
            let s = h + 60;
            if s + size <= d.len() && size > 52 {
                let member = elf_field(rng, d[s..s + size].to_vec());
                d[s..s + size].copy_from_slice(&member[..size]);
            }
        }
    }
    d
}

//! `ar` archives of objects: [`read_archive`] (GNU and BSD variants, with or
//! without a symbol index, as `ar rcs` makes them) and [`write_archive`]
//! (GNU variant, deterministic: zero dates and ids, with a symbol index of the
//! global symbols each member that is one of our objects defines).

use object::read::archive::ArchiveFile;

use crate::{read_object, ObjError};

/// One file of an archive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchiveMember {
    pub name: String,
    pub data: Vec<u8>,
}

const MAGIC: &[u8] = b"!<arch>\n";

/// Reads the members of an archive, in order (the symbol index and the long
/// name table are not members).
pub fn read_archive(data: &[u8]) -> Result<Vec<ArchiveMember>, ObjError> {
    if data.starts_with(b"!<thin>\n") {
        return Err(ObjError::malformed("thin archives are not supported"));
    }
    if !data.starts_with(MAGIC) {
        return Err(ObjError::NotArchive);
    }
    // Every member header's size is checked against the file first: the
    // `object` reader takes a symbol index whose size runs past the end for
    // an archive without members.
    if truncated_walk(data) {
        return Err(ObjError::truncated("an archive member"));
    }
    let file = ArchiveFile::parse(data).map_err(|e| ar_err(data, e))?;
    let mut out = Vec::new();
    for member in file.members() {
        let member = member.map_err(|e| ar_err(data, e))?;
        let name = String::from_utf8(member.name().to_vec())
            .map_err(|_| ObjError::malformed("archive member name is not UTF-8"))?;
        let bytes = member.data(data).map_err(|e| ar_err(data, e))?;
        out.push(ArchiveMember {
            name,
            data: bytes.to_vec(),
        });
    }
    Ok(out)
}

/// Classifies errors of the `object` archive reader: a member header or
/// contents past the end of the file is a truncation.
fn ar_err(data: &[u8], e: object::read::Error) -> ObjError {
    let text = e.to_string();
    if data.len() % 2 == 1 || text.contains("size") || text.contains("header") {
        // The only ways `object` fails on a well-formed prefix are a member
        // header or contents running past the end.
        if truncated_walk(data) {
            return ObjError::truncated("an archive member");
        }
    }
    ObjError::malformed(format!("archive: {text}"))
}

/// Whether walking the member headers runs past the end of the data.
fn truncated_walk(data: &[u8]) -> bool {
    let mut pos = MAGIC.len();
    while pos < data.len() {
        if pos + 60 > data.len() {
            return true;
        }
        let size = std::str::from_utf8(&data[pos + 48..pos + 58])
            .ok()
            .and_then(|s| s.trim().parse::<usize>().ok());
        let Some(size) = size else { return false };
        pos = pos.saturating_add(60).saturating_add(size);
        if pos > data.len() {
            return true;
        }
        pos += pos & 1;
    }
    false
}

fn header(out: &mut Vec<u8>, name: &str, size: usize) {
    out.extend_from_slice(
        format!("{name:<16}{:<12}{:<6}{:<6}{:<8}{size:<10}`\n", 0, 0, 0, 644).as_bytes(),
    );
}

/// The name to store: the last path component, without newlines.
fn member_name(name: &str) -> String {
    let base = name.rsplit('/').next().unwrap_or(name);
    let base = if base.is_empty() { "member" } else { base };
    base.replace('\n', "_")
}

/// Writes a GNU `ar` archive with a symbol index.
pub fn write_archive(members: &[ArchiveMember]) -> Vec<u8> {
    // Long names go to the "//" table.
    let mut long_names = Vec::new();
    let names: Vec<String> = members
        .iter()
        .map(|m| {
            let name = member_name(&m.name);
            if name.len() <= 15 {
                format!("{name}/")
            } else {
                let at = long_names.len();
                long_names.extend_from_slice(name.as_bytes());
                long_names.extend_from_slice(b"/\n");
                format!("/{at}")
            }
        })
        .collect();
    // Global symbols each member defines (members that are not our objects define none).
    let symbols: Vec<Vec<String>> = members
        .iter()
        .map(|m| match read_object(&m.data) {
            Ok(obj) => obj
                .symbols
                .into_iter()
                .filter(|s| s.global && s.section.is_some())
                .map(|s| s.name)
                .collect(),
            Err(_) => Vec::new(),
        })
        .collect();
    let count: usize = symbols.iter().map(Vec::len).sum();
    let padded = |n: usize| n + (n & 1);
    let symtab_size = if count == 0 {
        0
    } else {
        4 + 4 * count + symbols.iter().flatten().map(|s| s.len() + 1).sum::<usize>()
    };
    let mut pos = MAGIC.len();
    if count > 0 {
        pos += 60 + padded(symtab_size);
    }
    if !long_names.is_empty() {
        pos += 60 + padded(long_names.len());
    }
    let mut offsets = Vec::with_capacity(members.len());
    for m in members {
        offsets.push(pos);
        pos += 60 + padded(m.data.len());
    }

    let mut out = Vec::with_capacity(pos);
    out.extend_from_slice(MAGIC);
    if count > 0 {
        header(&mut out, "/", symtab_size);
        out.extend_from_slice(&(count as u32).to_be_bytes());
        for (i, syms) in symbols.iter().enumerate() {
            for _ in syms {
                out.extend_from_slice(&(offsets[i] as u32).to_be_bytes());
            }
        }
        for s in symbols.iter().flatten() {
            out.extend_from_slice(s.as_bytes());
            out.push(0);
        }
        if symtab_size & 1 == 1 {
            out.push(b'\n');
        }
    }
    if !long_names.is_empty() {
        header(&mut out, "//", long_names.len());
        out.extend_from_slice(&long_names);
        if long_names.len() & 1 == 1 {
            out.push(b'\n');
        }
    }
    for (m, name) in members.iter().zip(&names) {
        header(&mut out, name, m.data.len());
        out.extend_from_slice(&m.data);
        if m.data.len() & 1 == 1 {
            out.push(b'\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::write_object;

    fn members() -> Vec<ArchiveMember> {
        let obj = write_object(&crate::object::tests::sample()).unwrap();
        vec![
            ArchiveMember {
                name: "a.o".into(),
                data: obj.clone(),
            },
            ArchiveMember {
                name: "a_much_longer_member_name.o".into(),
                data: b"odd".to_vec(),
            },
            ArchiveMember {
                name: "another_long_name_here.o".into(),
                data: obj,
            },
            ArchiveMember {
                name: "empty".into(),
                data: vec![],
            },
        ]
    }

    #[test]
    fn round_trip() {
        let m = members();
        assert_eq!(read_archive(&write_archive(&m)).unwrap(), m);
        assert_eq!(read_archive(&write_archive(&[])).unwrap(), vec![]);
    }

    #[test]
    fn symbol_index_is_readable() {
        let bytes = write_archive(&members());
        let file = ArchiveFile::parse(&bytes[..]).unwrap();
        let syms: Vec<String> = file
            .symbols()
            .unwrap()
            .unwrap()
            .map(|s| String::from_utf8(s.unwrap().name().to_vec()).unwrap())
            .collect();
        assert_eq!(syms, ["main", "tbl", "main", "tbl"]);
    }

    #[test]
    fn errors() {
        assert_eq!(read_archive(b"\x7fELF...."), Err(ObjError::NotArchive));
        let bytes = write_archive(&members());
        for len in 8..bytes.len() {
            // Every proper prefix either ends between members or is reported.
            match read_archive(&bytes[..len]) {
                Ok(m) => assert!(m.len() < 4),
                Err(e) => assert!(
                    matches!(e, ObjError::Truncated { .. } | ObjError::Malformed { .. }),
                    "{e}"
                ),
            }
        }
        let err = read_archive(&bytes[..bytes.len() - 3]).unwrap_err();
        assert!(matches!(err, ObjError::Truncated { .. }), "{err}");
        // Issue 14: a symbol index whose size field says 9999999999 made an
        // archive of no members; every member header's size is checked.
        let mut bad = bytes.clone();
        bad[8 + 48..8 + 58].copy_from_slice(b"9999999999");
        let err = read_archive(&bad).unwrap_err();
        assert!(matches!(err, ObjError::Truncated { .. }), "{err}");
    }

    #[test]
    fn bsd_archive() {
        // BSD variant: "#1/N" names stored before the contents.
        let mut bytes = MAGIC.to_vec();
        let name = "a_long_bsd_name.o";
        let body = b"0123456789";
        header(
            &mut bytes,
            &format!("#1/{}", name.len()),
            name.len() + body.len(),
        );
        bytes.extend_from_slice(name.as_bytes());
        bytes.extend_from_slice(body);
        if bytes.len() % 2 == 1 {
            bytes.push(b'\n');
        }
        let m = read_archive(&bytes).unwrap();
        assert_eq!(
            m,
            vec![ArchiveMember {
                name: name.into(),
                data: body.to_vec()
            }]
        );
    }

    /// An archive made by the system's `ar rcs`, when it is installed.
    #[test]
    fn system_ar() {
        let dir = std::env::temp_dir().join(format!("dsp-obj-ar-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let m = members();
        for x in &m {
            std::fs::write(dir.join(&x.name), &x.data).unwrap();
        }
        let status = std::process::Command::new("ar")
            .arg("rcs")
            .arg("lib.a")
            .args(m.iter().map(|x| &x.name))
            .current_dir(&dir)
            .status();
        if let Ok(s) = status {
            if s.success() {
                let bytes = std::fs::read(dir.join("lib.a")).unwrap();
                assert_eq!(read_archive(&bytes).unwrap(), m);
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

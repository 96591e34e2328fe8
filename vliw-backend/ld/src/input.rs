//! Link inputs: objects and archives, named as they appear in messages
//! (`a.o`, `libm.a(sin.o)`), loaded from bytes or files.

use std::path::Path;

use dsp_obj::{read_archive, read_object, ObjectFile};

use crate::LinkError;

/// A relocatable object and the name messages call it by.
#[derive(Clone, Debug)]
pub struct InputObject {
    pub name: String,
    pub object: ObjectFile,
}

/// One command-line input.
#[derive(Clone, Debug)]
pub enum Input {
    Object(InputObject),
    /// An archive; members are linked only when they define a needed symbol.
    Archive {
        name: String,
        members: Vec<InputObject>,
    },
}

impl Input {
    pub fn object(name: impl Into<String>, object: ObjectFile) -> Input {
        Input::Object(InputObject {
            name: name.into(),
            object,
        })
    }

    /// An archive from `(member name, object)` pairs; members are named
    /// `archive(member)` in messages.
    pub fn archive(name: impl Into<String>, members: Vec<(String, ObjectFile)>) -> Input {
        let name = name.into();
        let members = members
            .into_iter()
            .map(|(m, object)| InputObject {
                name: format!("{name}({m})"),
                object,
            })
            .collect();
        Input::Archive { name, members }
    }

    /// Parses an object or archive (told apart by their magic numbers).
    pub fn from_bytes(name: &str, bytes: &[u8]) -> Result<Input, LinkError> {
        if bytes.starts_with(b"!<arch>\n") || bytes.starts_with(b"!<thin>\n") {
            let members =
                read_archive(bytes).map_err(|e| LinkError::new(format!("{name}: {e}")))?;
            let mut objects = Vec::with_capacity(members.len());
            for m in members {
                let object = read_object(&m.data)
                    .map_err(|e| LinkError::new(format!("{name}({}): {e}", m.name)))?;
                objects.push((m.name, object));
            }
            Ok(Input::archive(name, objects))
        } else {
            let object = read_object(bytes).map_err(|e| LinkError::new(format!("{name}: {e}")))?;
            Ok(Input::object(name, object))
        }
    }

    /// Reads and parses a file.
    pub fn from_file(path: &Path) -> Result<Input, LinkError> {
        let name = path.display().to_string();
        let bytes =
            std::fs::read(path).map_err(|e| LinkError::new(format!("cannot open {name}: {e}")))?;
        Input::from_bytes(&name, &bytes)
    }

    pub fn name(&self) -> &str {
        match self {
            Input::Object(o) => &o.name,
            Input::Archive { name, .. } => name,
        }
    }
}

/// Finds `libNAME.a` in the search directories, in order.
pub fn find_library(
    name: &str,
    dirs: &[std::path::PathBuf],
) -> Result<std::path::PathBuf, LinkError> {
    let file = format!("lib{name}.a");
    dirs.iter()
        .map(|d| d.join(&file))
        .find(|p| p.is_file())
        .ok_or_else(|| {
            LinkError::new(format!(
                "cannot find -l{name} (no {file} in the -L directories)"
            ))
        })
}

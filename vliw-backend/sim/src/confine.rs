//! Path confinement for hosted file access: every path a program names is
//! resolved inside one host directory (the root, `dsp-sim --root`). Relative
//! paths start at the root (the program's working directory); absolute paths
//! are host paths and must lie inside it; `..` and symbolic links are
//! resolved on the host (`canonicalize`) and the result checked, so none of
//! them can leave it. Escapes fail with `EACCES`. A symbolic link as last
//! component is followed only where the call follows links (open, stat), and
//! a dangling one is refused (its target could be created outside).

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};

use crate::errno::{self, Errno};

/// The directory files are confined to (canonical).
#[derive(Clone, Debug)]
pub struct Root {
    canon: PathBuf,
}

impl Root {
    /// The root at `dir`, which must exist.
    pub fn new(dir: &Path) -> std::io::Result<Root> {
        let canon = dir.canonicalize()?;
        if !canon.is_dir() {
            return Err(std::io::Error::other("not a directory"));
        }
        Ok(Root { canon })
    }

    /// The root's canonical host path.
    pub fn path(&self) -> &Path {
        &self.canon
    }

    /// The host path of the program's path `guest`. `follow_last`: whether a
    /// symbolic link as the last component stands for its target.
    pub fn resolve(&self, guest: &[u8], follow_last: bool) -> Result<PathBuf, Errno> {
        if guest.is_empty() {
            return Err(errno::ENOENT);
        }
        let p = Path::new(OsStr::from_bytes(guest));
        let full = if p.is_absolute() { p.to_path_buf() } else { self.canon.join(p) };
        // The last component as written ("a/." names a, which
        // `components()` would hide).
        let last_raw = guest.rsplit(|&c| c == b'/').find(|s| !s.is_empty()).unwrap_or(b"/");
        let plain = last_raw != b"." && last_raw != b"..";
        match full.components().next_back() {
            Some(Component::Normal(name)) if plain => {
                let parent = full.parent().unwrap_or_else(|| Path::new("/"));
                let parent = parent.canonicalize().map_err(|e| errno::from_io(&e))?;
                self.check(&parent)?;
                let cand = parent.join(name);
                match std::fs::symlink_metadata(&cand) {
                    Ok(md) if follow_last && md.file_type().is_symlink() => match cand.canonicalize() {
                        Ok(target) => {
                            self.check(&target)?;
                            Ok(target)
                        }
                        Err(_) => Err(errno::EACCES),
                    },
                    _ => Ok(cand),
                }
            }
            _ => {
                // "/", ".", "..": the directory itself.
                let c = full.canonicalize().map_err(|e| errno::from_io(&e))?;
                self.check(&c)?;
                Ok(c)
            }
        }
    }

    fn check(&self, p: &Path) -> Result<(), Errno> {
        if p.starts_with(&self.canon) {
            Ok(())
        } else {
            Err(errno::EACCES)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(name: &str) -> (PathBuf, Root) {
        let base = std::env::temp_dir().join(format!("dsp-sim-confine-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let root = base.join("root");
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::write(base.join("secret"), "x").unwrap();
        std::fs::write(root.join("a.txt"), "a").unwrap();
        std::os::unix::fs::symlink("../secret", root.join("out")).unwrap();
        std::os::unix::fs::symlink("a.txt", root.join("in")).unwrap();
        std::os::unix::fs::symlink("nowhere", root.join("dangling")).unwrap();
        std::os::unix::fs::symlink("..", root.join("sub/up")).unwrap();
        let r = Root::new(&root).unwrap();
        (base, r)
    }

    #[test]
    fn paths_inside_resolve() {
        let (base, r) = tree("inside");
        let root = r.path().to_path_buf();
        assert_eq!(r.resolve(b"a.txt", true).unwrap(), root.join("a.txt"));
        assert_eq!(r.resolve(b"sub/../a.txt", true).unwrap(), root.join("a.txt"));
        assert_eq!(r.resolve(b"new.txt", true).unwrap(), root.join("new.txt"));
        assert_eq!(r.resolve(b"in", true).unwrap(), root.join("a.txt"));
        assert_eq!(r.resolve(b"in", false).unwrap(), root.join("in"));
        assert_eq!(r.resolve(b".", true).unwrap(), root);
        assert_eq!(r.resolve(b"sub/up/a.txt", true).unwrap(), root.join("a.txt"));
        let abs = root.join("a.txt");
        assert_eq!(r.resolve(abs.as_os_str().as_bytes(), true).unwrap(), abs);
        let _ = std::fs::remove_dir_all(base);
    }

    #[test]
    fn escapes_fail() {
        let (base, r) = tree("escape");
        for p in [&b"../secret"[..], b"..", b"sub/../../secret", b"out", b"/etc/passwd", b"/", b"sub/up/..", b"dangling"] {
            assert_eq!(r.resolve(p, true), Err(errno::EACCES), "{}", String::from_utf8_lossy(p));
        }
        // Without following, the link itself (inside) is named: unlink removes the link.
        assert!(r.resolve(b"out", false).is_ok());
        assert_eq!(r.resolve(b"nodir/x", true), Err(errno::ENOENT));
        assert_eq!(r.resolve(b"", true), Err(errno::ENOENT));
        let _ = std::fs::remove_dir_all(base);
    }
}

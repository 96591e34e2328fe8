//! Hosted services for the program (semihosting, as qemu-user gives a Linux
//! program): its arguments and environment, file descriptors on host files
//! confined to one directory ([`crate::confine`]), directory listings and
//! the host clock. Descriptors 0, 1 and 2 stay the simulator's own streams
//! (see `syscall.rs`); files get the lowest free descriptor from 3 on.
//! Every call returns `Result<_, Errno>`; nothing here touches simulated
//! memory.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{IsTerminal, Read, Seek, SeekFrom, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{DirEntryExt, FileTypeExt, MetadataExt, OpenOptionsExt};
use std::path::PathBuf;

use crate::confine::Root;
use crate::errno::{self, Errno};

/// What the program is given.
#[derive(Clone, Debug)]
pub struct HostConfig {
    /// `argv` (argv[0] first).
    pub argv: Vec<Vec<u8>>,
    /// `NAME=VALUE` strings.
    pub env: Vec<Vec<u8>>,
    /// The directory files are confined to; `None`: no file access.
    pub root: Option<PathBuf>,
    /// `CLOCK_REALTIME` from the host clock instead of the cycle counter.
    pub host_time: bool,
}

impl Default for HostConfig {
    fn default() -> Self {
        HostConfig { argv: vec![b"a.out".to_vec()], env: Vec::new(), root: None, host_time: false }
    }
}

/// Open flags (Linux's values, as the C library's `fcntl.h`).
pub mod flags {
    pub const O_ACCMODE: u32 = 3;
    pub const O_WRONLY: u32 = 1;
    pub const O_RDWR: u32 = 2;
    pub const O_CREAT: u32 = 0o100;
    pub const O_EXCL: u32 = 0o200;
    pub const O_TRUNC: u32 = 0o1000;
    pub const O_APPEND: u32 = 0o2000;
    pub const O_DIRECTORY: u32 = 0o200000;
    pub const O_NOFOLLOW: u32 = 0o400000;
}

/// Bytes of the stat record written by [`Host::stat`] (layout in `stat_record`).
pub const STAT_BYTES: usize = 80;
/// Most descriptors open at once.
const MAX_FDS: u32 = 256;

/// One directory entry: inode, `d_type`, name.
type Entry = (u32, u32, Vec<u8>);

enum Handle {
    File(File),
    Dir { entries: Vec<Entry>, pos: usize },
}

/// The host side of one run.
pub struct Host {
    pub config: HostConfig,
    root: Option<Root>,
    handles: BTreeMap<u32, Handle>,
}

impl Host {
    /// Fails if the root directory does not exist.
    pub fn new(config: HostConfig) -> Result<Host, String> {
        let root = match &config.root {
            Some(dir) => Some(Root::new(dir).map_err(|e| format!("root directory {}: {e}", dir.display()))?),
            None => None,
        };
        Ok(Host { config, root, handles: BTreeMap::new() })
    }

    /// The argument block placed below `top`, starting at a multiple of
    /// `align`: words argc, argv, envp, then the two NULL-terminated pointer
    /// arrays, then the strings. `None` if it does not fit above `bottom`.
    pub fn args_block(&self, top: u32, bottom: u32, align: u32) -> Option<(u32, Vec<u8>)> {
        let strings: usize = self.config.argv.iter().chain(&self.config.env).map(|s| s.len() + 1).sum();
        let (argc, envc) = (self.config.argv.len(), self.config.env.len());
        let words = 3 + argc + 1 + envc + 1;
        let size = u32::try_from(4 * words + strings).ok()?;
        let start = top.checked_sub(size)? & !(align.max(4) - 1);
        if start < bottom {
            return None;
        }
        let argv = start + 12;
        let envp = argv + 4 * (argc as u32 + 1);
        let mut ptrs = vec![argc as u32, argv, envp];
        let mut text = Vec::with_capacity(strings);
        let mut at = start + 4 * words as u32;
        for (i, s) in self.config.argv.iter().chain(&self.config.env).enumerate() {
            if i == argc {
                ptrs.push(0);
            }
            ptrs.push(at + text.len() as u32);
            text.extend_from_slice(s);
            text.push(0);
        }
        if argc == self.config.argv.len() + self.config.env.len() {
            ptrs.push(0);
        }
        ptrs.push(0);
        let mut bytes: Vec<u8> = ptrs.iter().flat_map(|w| w.to_le_bytes()).collect();
        at -= start;
        bytes.resize(at as usize, 0);
        bytes.extend_from_slice(&text);
        Some((start, bytes))
    }

    fn root(&self) -> Result<&Root, Errno> {
        self.root.as_ref().ok_or(errno::EACCES)
    }

    fn new_fd(&mut self, h: Handle) -> Result<u32, Errno> {
        let fd = (3..MAX_FDS).find(|f| !self.handles.contains_key(f)).ok_or(errno::EMFILE)?;
        self.handles.insert(fd, h);
        Ok(fd)
    }

    fn file(&mut self, fd: u32) -> Result<&mut File, Errno> {
        match self.handles.get_mut(&fd) {
            Some(Handle::File(f)) => Ok(f),
            Some(Handle::Dir { .. }) => Err(errno::EISDIR),
            None => Err(errno::EBADF),
        }
    }

    pub fn open(&mut self, path: &[u8], fl: u32, mode: u32) -> Result<u32, Errno> {
        use flags::*;
        let host = self.root()?.resolve(path, fl & O_NOFOLLOW == 0)?;
        let mut o = std::fs::OpenOptions::new();
        match fl & O_ACCMODE {
            O_WRONLY => o.write(true),
            O_RDWR => o.read(true).write(true),
            _ => o.read(true),
        };
        if fl & O_CREAT != 0 {
            if fl & O_ACCMODE == 0 {
                // Rust refuses creating read-only; POSIX allows it.
                o.write(true);
            }
            o.create(true).mode(mode & 0o7777);
            if fl & O_EXCL != 0 {
                o.create_new(true);
            }
        }
        if fl & O_TRUNC != 0 && fl & O_ACCMODE != 0 {
            o.truncate(true);
        }
        if fl & O_APPEND != 0 {
            o.append(true);
        }
        o.custom_flags((fl & (O_DIRECTORY | O_NOFOLLOW)) as i32);
        let f = o.open(&host).map_err(|e| errno::from_io(&e))?;
        self.new_fd(Handle::File(f))
    }

    pub fn close(&mut self, fd: u32) -> Result<u32, Errno> {
        if fd <= 2 {
            return Ok(0);
        }
        self.handles.remove(&fd).map(|_| 0).ok_or(errno::EBADF)
    }

    pub fn read(&mut self, fd: u32, buf: &mut [u8]) -> Result<usize, Errno> {
        let f = self.file(fd)?;
        loop {
            match f.read(buf) {
                Ok(n) => return Ok(n),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(errno::from_io(&e)),
            }
        }
    }

    pub fn write(&mut self, fd: u32, bytes: &[u8]) -> Result<usize, Errno> {
        let f = self.file(fd)?;
        f.write_all(bytes).map_err(|e| errno::from_io(&e))?;
        Ok(bytes.len())
    }

    /// lseek with a 32-bit `off_t`: the new offset, EOVERFLOW beyond 2^31 - 1.
    pub fn lseek(&mut self, fd: u32, off: i32, whence: u32) -> Result<u32, Errno> {
        if fd <= 2 {
            return Err(29); // ESPIPE: the standard streams are pipes
        }
        let f = self.file(fd)?;
        let pos = match whence {
            0 if off >= 0 => SeekFrom::Start(off as u64),
            0 => return Err(errno::EINVAL),
            1 => SeekFrom::Current(off as i64),
            2 => SeekFrom::End(off as i64),
            _ => return Err(errno::EINVAL),
        };
        let at = f.seek(pos).map_err(|e| errno::from_io(&e))?;
        u32::try_from(at).ok().filter(|&a| a <= i32::MAX as u32).ok_or(errno::EOVERFLOW)
    }

    pub fn ftruncate(&mut self, fd: u32, len: i32) -> Result<u32, Errno> {
        if len < 0 {
            return Err(errno::EINVAL);
        }
        self.file(fd)?.set_len(len as u64).map(|_| 0).map_err(|e| errno::from_io(&e))
    }

    pub fn unlink(&self, path: &[u8]) -> Result<u32, Errno> {
        let p = self.root()?.resolve(path, false)?;
        std::fs::remove_file(p).map(|_| 0).map_err(|e| errno::from_io(&e))
    }

    pub fn rename(&self, from: &[u8], to: &[u8]) -> Result<u32, Errno> {
        let root = self.root()?;
        let (a, b) = (root.resolve(from, false)?, root.resolve(to, false)?);
        std::fs::rename(a, b).map(|_| 0).map_err(|e| errno::from_io(&e))
    }

    pub fn mkdir(&self, path: &[u8], mode: u32) -> Result<u32, Errno> {
        use std::os::unix::fs::DirBuilderExt;
        let p = self.root()?.resolve(path, false)?;
        std::fs::DirBuilder::new().mode(mode & 0o7777).create(p).map(|_| 0).map_err(|e| errno::from_io(&e))
    }

    pub fn rmdir(&self, path: &[u8]) -> Result<u32, Errno> {
        let p = self.root()?.resolve(path, false)?;
        if p == self.root()?.path() {
            return Err(errno::EACCES);
        }
        std::fs::remove_dir(p).map(|_| 0).map_err(|e| errno::from_io(&e))
    }

    /// access(2): `mode` is F_OK (0) or a mask of R_OK 4, W_OK 2, X_OK 1.
    pub fn access(&self, path: &[u8], mode: u32) -> Result<u32, Errno> {
        let p = self.root()?.resolve(path, true)?;
        let c = std::ffi::CString::new(p.as_os_str().as_bytes()).map_err(|_| errno::EINVAL)?;
        // SAFETY: `c` is a NUL-terminated path that lives across the call.
        let r = unsafe { libc::access(c.as_ptr(), (mode & 7) as libc::c_int) };
        if r == 0 {
            Ok(0)
        } else {
            Err(errno::from_io(&std::io::Error::last_os_error()))
        }
    }

    /// stat (`follow`) or lstat of a path, as the record of [`STAT_BYTES`].
    pub fn stat(&self, path: &[u8], follow: bool) -> Result<[u8; STAT_BYTES], Errno> {
        let p = self.root()?.resolve(path, follow)?;
        let md = if follow { std::fs::metadata(p) } else { std::fs::symlink_metadata(p) };
        md.map(|m| stat_record(&m)).map_err(|e| errno::from_io(&e))
    }

    pub fn fstat(&mut self, fd: u32) -> Result<[u8; STAT_BYTES], Errno> {
        if fd <= 2 {
            // The standard streams: FIFOs, as when the host runs under a pipe.
            let mut r = [0u8; STAT_BYTES];
            r[8..12].copy_from_slice(&(0o010600u32).to_le_bytes());
            r[12..16].copy_from_slice(&1u32.to_le_bytes());
            r[28..32].copy_from_slice(&4096u32.to_le_bytes());
            return Ok(r);
        }
        let f = self.file(fd)?;
        f.metadata().map(|m| stat_record(&m)).map_err(|e| errno::from_io(&e))
    }

    pub fn isatty(&self, fd: u32) -> Result<bool, Errno> {
        match fd {
            0 => Ok(std::io::stdin().is_terminal()),
            1 => Ok(std::io::stdout().is_terminal()),
            2 => Ok(std::io::stderr().is_terminal()),
            _ if self.handles.contains_key(&fd) => Ok(false),
            _ => Err(errno::EBADF),
        }
    }

    /// Opens a directory listing: ".", "..", then the entries sorted by name.
    pub fn opendir(&mut self, path: &[u8]) -> Result<u32, Errno> {
        let p = self.root()?.resolve(path, true)?;
        let rd = std::fs::read_dir(&p).map_err(|e| errno::from_io(&e))?;
        let ino = |p: &std::path::Path| std::fs::metadata(p).map(|m| m.ino() as u32).unwrap_or(0);
        let mut entries = vec![(ino(&p), 4, b".".to_vec()), (ino(&p.join("..")), 4, b"..".to_vec())];
        let mut rest: Vec<Entry> = rd
            .filter_map(|e| e.ok())
            .map(|e| {
                let t = e.file_type().map(|t| d_type(&t)).unwrap_or(0);
                (e.ino() as u32, t, e.file_name().as_bytes().to_vec())
            })
            .collect();
        rest.sort_by(|a, b| a.2.cmp(&b.2));
        entries.extend(rest);
        self.new_fd(Handle::Dir { entries, pos: 0 })
    }

    /// The next entry of a listing, or `None` at its end.
    pub fn readdir(&mut self, fd: u32) -> Result<Option<Entry>, Errno> {
        match self.handles.get_mut(&fd) {
            Some(Handle::Dir { entries, pos }) => {
                let e = entries.get(*pos).cloned();
                *pos += e.is_some() as usize;
                Ok(e)
            }
            Some(Handle::File(_)) => Err(errno::ENOTDIR),
            None => Err(errno::EBADF),
        }
    }

    /// The host's real time (seconds, nanoseconds), if `--host-time`.
    pub fn host_time(&self) -> Result<(i64, u32), Errno> {
        if !self.config.host_time {
            return Err(errno::ENOSYS);
        }
        let d = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_err(|_| errno::EINVAL)?;
        Ok((d.as_secs() as i64, d.subsec_nanos()))
    }

    /// The working directory: the root's host path.
    pub fn getcwd(&self) -> Result<Vec<u8>, Errno> {
        Ok(self.root()?.path().as_os_str().as_bytes().to_vec())
    }
}

fn d_type(t: &std::fs::FileType) -> u32 {
    if t.is_dir() {
        4
    } else if t.is_file() {
        8
    } else if t.is_symlink() {
        10
    } else if t.is_fifo() {
        1
    } else if t.is_char_device() {
        2
    } else if t.is_block_device() {
        6
    } else if t.is_socket() {
        12
    } else {
        0
    }
}

/// The stat record: u32 dev, ino, mode, nlink, uid, gid, rdev, blksize at
/// 0..32; i64 size, atime, mtime, ctime at 32..64; u32 blocks, atime_nsec,
/// mtime_nsec, ctime_nsec at 64..80 (little-endian).
fn stat_record(m: &std::fs::Metadata) -> [u8; STAT_BYTES] {
    let mut r = [0u8; STAT_BYTES];
    let words = [m.dev() as u32, m.ino() as u32, m.mode(), m.nlink() as u32, m.uid(), m.gid(), m.rdev() as u32, m.blksize() as u32];
    for (i, w) in words.iter().enumerate() {
        r[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
    }
    for (i, v) in [m.size() as i64, m.atime(), m.mtime(), m.ctime()].iter().enumerate() {
        r[32 + 8 * i..40 + 8 * i].copy_from_slice(&v.to_le_bytes());
    }
    let tail = [m.blocks() as u32, m.atime_nsec() as u32, m.mtime_nsec() as u32, m.ctime_nsec() as u32];
    for (i, w) in tail.iter().enumerate() {
        r[64 + 4 * i..68 + 4 * i].copy_from_slice(&w.to_le_bytes());
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(b: &[u8], at: usize) -> u32 {
        u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
    }

    #[test]
    fn args_block_layout() {
        let h = Host::new(HostConfig { argv: vec![b"prog".to_vec(), b"x".to_vec()], env: vec![b"A=1".to_vec()], root: None, host_time: false }).unwrap();
        let (start, b) = h.args_block(0x1000, 0x100, 64).unwrap();
        assert_eq!(start % 64, 0);
        assert!(start as usize + b.len() <= 0x1000);
        assert_eq!(word(&b, 0), 2);
        let (argv, envp) = (word(&b, 4) - start, word(&b, 8) - start);
        let s = |p: u32| {
            let o = (p - start) as usize;
            let end = b[o..].iter().position(|&c| c == 0).unwrap();
            String::from_utf8(b[o..o + end].to_vec()).unwrap()
        };
        assert_eq!(s(word(&b, argv as usize)), "prog");
        assert_eq!(s(word(&b, argv as usize + 4)), "x");
        assert_eq!(word(&b, argv as usize + 8), 0);
        assert_eq!(s(word(&b, envp as usize)), "A=1");
        assert_eq!(word(&b, envp as usize + 4), 0);
        assert!(h.args_block(0x1000, 0xff0, 64).is_none());
        let empty = Host::new(HostConfig { argv: vec![], ..HostConfig::default() }).unwrap();
        let (start, b) = empty.args_block(0x1000, 0, 64).unwrap();
        assert_eq!((word(&b, 0), word(&b, 4) - start, word(&b, 8) - start), (0, 12, 16));
    }

    #[test]
    fn files_need_a_root() {
        let mut h = Host::new(HostConfig::default()).unwrap();
        assert_eq!(h.open(b"x", 0, 0), Err(errno::EACCES));
        assert_eq!(h.read(3, &mut [0; 4]), Err(errno::EBADF));
        assert_eq!(h.host_time(), Err(errno::ENOSYS));
    }

    #[test]
    fn open_write_seek_read_stat() {
        let dir = std::env::temp_dir().join(format!("dsp-sim-host-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut h = Host::new(HostConfig { root: Some(dir.clone()), ..HostConfig::default() }).unwrap();
        let fd = h.open(b"f.txt", flags::O_RDWR | flags::O_CREAT | flags::O_TRUNC, 0o644).unwrap();
        assert_eq!(fd, 3);
        assert_eq!(h.write(fd, b"hello"), Ok(5));
        assert_eq!(h.lseek(fd, 1, 0), Ok(1));
        let mut buf = [0u8; 8];
        assert_eq!(h.read(fd, &mut buf), Ok(4));
        assert_eq!(&buf[..4], b"ello");
        let st = h.fstat(fd).unwrap();
        assert_eq!(i64::from_le_bytes(st[32..40].try_into().unwrap()), 5);
        assert_eq!(h.close(fd), Ok(0));
        assert_eq!(h.close(fd), Err(errno::EBADF));
        assert_eq!(h.open(b"f.txt", flags::O_CREAT | flags::O_EXCL | flags::O_WRONLY, 0o644), Err(errno::EEXIST));
        let d = h.opendir(b".").unwrap();
        let names: Vec<Vec<u8>> = std::iter::from_fn(|| h.readdir(d).unwrap()).map(|e| e.2).collect();
        assert_eq!(names, [b".".to_vec(), b"..".to_vec(), b"f.txt".to_vec()]);
        assert_eq!(h.rename(b"f.txt", b"g.txt"), Ok(0));
        assert_eq!(h.access(b"g.txt", 0), Ok(0));
        assert_eq!(h.unlink(b"g.txt"), Ok(0));
        assert_eq!(h.stat(b"g.txt", true), Err(errno::ENOENT));
        let _ = std::fs::remove_dir_all(&dir);
    }
}

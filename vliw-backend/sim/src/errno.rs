//! Error numbers of the hosted system calls: Linux's values (the C library's
//! `errno.h` uses them too), returned to the program negated.

/// A positive error number.
pub type Errno = i32;

pub const EPERM: Errno = 1;
pub const ENOENT: Errno = 2;
pub const EIO: Errno = 5;
pub const EBADF: Errno = 9;
pub const EACCES: Errno = 13;
pub const EFAULT: Errno = 14;
pub const EEXIST: Errno = 17;
pub const ENOTDIR: Errno = 20;
pub const EISDIR: Errno = 21;
pub const EINVAL: Errno = 22;
pub const EMFILE: Errno = 24;
pub const ENOTTY: Errno = 25;
pub const ERANGE: Errno = 34;
pub const ENAMETOOLONG: Errno = 36;
pub const ENOSYS: Errno = 38;
pub const EOVERFLOW: Errno = 75;

/// The error number of a host I/O error (the host is Linux: its raw numbers
/// are ours; anything else is EIO).
pub fn from_io(e: &std::io::Error) -> Errno {
    match e.raw_os_error() {
        Some(n) if n > 0 && n < 4096 => n,
        _ => match e.kind() {
            std::io::ErrorKind::NotFound => ENOENT,
            std::io::ErrorKind::PermissionDenied => EACCES,
            std::io::ErrorKind::AlreadyExists => EEXIST,
            std::io::ErrorKind::InvalidInput => EINVAL,
            _ => EIO,
        },
    }
}

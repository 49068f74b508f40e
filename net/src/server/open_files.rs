//! The process's limit on open file descriptors, which bounds how many connections
//! a server can hold.

/// The soft limit on open files (`RLIMIT_NOFILE`), read from `/proc/self/limits`
/// without a system call binding (no `unsafe`, no dependency); `None` where that
/// file does not exist (not Linux) or does not say, and for "unlimited".
///
/// ```
/// let limit = kwire_net::server::open_files_limit();
/// # #[cfg(target_os = "linux")]
/// assert!(limit.is_some_and(|n| n > 0));
/// ```
pub fn open_files_limit() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    parse(&limits)
}

/// The soft limit in `/proc/self/limits`' "Max open files" line.
fn parse(limits: &str) -> Option<u64> {
    let line = limits
        .lines()
        .find(|line| line.starts_with("Max open files"))?;
    line["Max open files".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_soft_limit() {
        let text = "Limit                     Soft Limit           Hard Limit           Units     \n\
                    Max processes             95000                95000                processes \n\
                    Max open files            20000                40000                files     \n";
        assert_eq!(parse(text), Some(20000));
        assert_eq!(parse("Max open files unlimited unlimited files"), None);
        assert_eq!(parse(""), None);
    }
}

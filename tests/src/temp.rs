//! Fresh temp folders for tests that write files (no extra crate needed).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A new, empty folder under the system temp folder, removed when dropped.
#[derive(Debug)]
pub struct TempDir(PathBuf);

impl TempDir {
    /// Creates a folder whose name holds `label`, the process ID and a counter, so
    /// parallel tests and test binaries never share one.
    pub fn new(label: &str) -> std::io::Result<TempDir> {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let unique = format!(
            "kafka-wire-{label}-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let dir = std::env::temp_dir().join(unique);
        // A leftover from an earlier process with the same ID must not leak in.
        if dir.exists() {
            std::fs::remove_dir_all(&dir)?;
        }
        std::fs::create_dir_all(&dir)?;
        Ok(TempDir(dir))
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        // Best effort: a leftover temp folder is harmless.
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

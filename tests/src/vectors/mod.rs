//! The conformance runner: every Kafka-authored byte vector must survive a
//! decode-then-encode round trip through the registered struct unchanged.
//!
//! Generic over the folder: whatever `<Message>/v<N>.json` files it holds are checked.
//! A message without a struct yet is pending, not failed.

mod read;

use std::fmt;
use std::path::Path;

use crate::codecs::Codec;
use bytes::Bytes;

pub use read::{decode_hex, encode_hex, vector_files, Vector, VectorFile};

/// What one run found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VectorReport {
    /// Vectors round-tripped through a struct (passed or failed).
    pub checked: usize,
    /// Vectors whose message has no struct yet.
    pub pending: usize,
    /// Pending messages with their vector counts, one line each.
    pub pending_lines: Vec<String>,
    /// Every failure, one line each, naming message, version and vector.
    pub failures: Vec<String>,
}

impl VectorReport {
    /// True when the run proved something and nothing failed: at least one vector
    /// was checked. A folder whose vectors are all pending proves nothing.
    pub fn passed(&self) -> bool {
        self.checked > 0 && self.failures.is_empty()
    }

    /// The closing line: `N vectors checked, P pending, F failed`.
    pub fn summary(&self) -> String {
        format!(
            "{} vectors checked, {} pending, {} failed",
            self.checked,
            self.pending,
            self.failures.len()
        )
    }
}

/// Pending lines first, then failures, then the summary.
impl fmt::Display for VectorReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::outcome::write(f, &self.pending_lines, &self.failures, &self.summary())
    }
}

/// Runs every vector under `dir` through the struct `lookup` finds for its message.
pub fn run(dir: &Path, lookup: impl Fn(&str) -> Option<Codec>) -> VectorReport {
    let mut report = VectorReport::default();
    let files = match vector_files(dir) {
        Ok(files) => files,
        Err(e) => {
            report
                .failures
                .push(format!("{}: cannot list vectors: {e}", dir.display()));
            return report;
        }
    };
    let mut pending_message: Option<(String, usize)> = None;
    for file in files {
        let vectors = match file.vectors {
            Ok(vectors) => vectors,
            Err(e) => {
                report
                    .failures
                    .push(format!("{}: {e}", file.path.display()));
                continue;
            }
        };
        let Some(codec) = lookup(&file.message) else {
            report.pending += vectors.len();
            match &mut pending_message {
                Some((name, count)) if *name == file.message => *count += vectors.len(),
                _ => {
                    flush_pending(&mut report, pending_message.take());
                    pending_message = Some((file.message.clone(), vectors.len()));
                }
            }
            continue;
        };
        for vector in &vectors {
            report.checked += 1;
            if let Err(failure) = round_trip(codec, vector) {
                report.failures.push(failure);
            }
        }
    }
    flush_pending(&mut report, pending_message);
    report
}

fn flush_pending(report: &mut VectorReport, pending: Option<(String, usize)>) {
    if let Some((name, count)) = pending {
        report
            .pending_lines
            .push(format!("{name}: {count} vectors (no struct yet)"));
    }
}

/// Decodes the vector's bytes and encodes them again; they must come back unchanged.
fn round_trip(codec: Codec, vector: &Vector) -> Result<(), String> {
    let label = format!("{} v{} {}", vector.message, vector.version, vector.name);
    let input = Bytes::copy_from_slice(&vector.bytes);
    let output = (codec.recode)(&input, vector.version).map_err(|e| format!("{label}: {e}"))?;
    if output[..] == vector.bytes[..] {
        return Ok(());
    }
    Err(format!("{label}: {}", mismatch(&vector.bytes, &output)))
}

/// Where two byte strings part, with a few bytes of context on each side.
fn mismatch(expected: &[u8], actual: &[u8]) -> String {
    let at = expected
        .iter()
        .zip(actual)
        .position(|(a, b)| a != b)
        .unwrap_or(expected.len().min(actual.len()));
    let from = at.saturating_sub(4);
    let window =
        |bytes: &[u8]| encode_hex(&bytes[from.min(bytes.len())..(at + 12).min(bytes.len())]);
    format!(
        "recode differs at byte {at} ({} bytes expected, {} given): expected …{}… got …{}…",
        expected.len(),
        actual.len(),
        window(expected),
        window(actual)
    )
}

//! The layout every check's report shares: pending lines first, then the failures
//! (so they end up near the summary), then the summary line.

use std::fmt;

/// Writes `pending` (each prefixed `pending: `), `failures` and `summary`, one line each.
pub(crate) fn write(
    f: &mut fmt::Formatter<'_>,
    pending: &[impl fmt::Display],
    failures: &[impl fmt::Display],
    summary: &str,
) -> fmt::Result {
    for line in pending {
        writeln!(f, "pending: {line}")?;
    }
    for line in failures {
        writeln!(f, "{line}")?;
    }
    writeln!(f, "{summary}")
}

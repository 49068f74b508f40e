//! The sweep's table: one row per API Kafka advertises, its versions sent,
//! accepted and decoded, the error codes its answers held and the unknown
//! tagged fields counted; then every exception, one line each.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use kwire_messages::{ApiKey, ErrorCode};

use crate::explained::{verdict, Verdict};
use crate::judge::Judged;
use crate::probe::Probe;

/// One version of an API.
#[derive(Debug)]
pub enum Version {
    /// Known to both: sent, and what became of it.
    Probed {
        /// The version.
        version: i16,
        /// What became of it.
        probe: Probe,
    },
    /// Advertised by Kafka, unknown to this code: what Kafka does with it.
    NotOurs {
        /// The version.
        version: i16,
        /// What a bare header at that version met.
        seen: String,
    },
}

/// One API Kafka advertises.
#[derive(Debug)]
pub struct Row {
    /// Its key.
    pub key: i16,
    /// Kafka's range.
    pub min: i16,
    /// Kafka's range.
    pub max: i16,
    /// Each version of the range.
    pub versions: Vec<Version>,
}

impl Row {
    /// A row for the API with `key` that Kafka advertises at `min`-`max`.
    pub fn new(key: i16, min: i16, max: i16) -> Row {
        Row {
            key,
            min,
            max,
            versions: Vec::new(),
        }
    }

    /// Every version known to both passed, or failed as explained. (Versions or
    /// APIs only Kafka knows are findings, not failures of the sweep.)
    pub fn passed(&self) -> bool {
        self.verdicts().all(|(_, _, verdict)| verdict.acceptable())
    }

    /// Each version known to both, its outcome and the verdict on it.
    fn verdicts(&self) -> impl Iterator<Item = (i16, &Probe, Verdict)> {
        let api = ApiKey::from_i16(self.key).ok();
        self.probed().filter_map(move |(version, probe)| {
            api.map(|api| (version, probe, verdict(api, version, probe)))
        })
    }

    fn name(&self) -> String {
        ApiKey::from_i16(self.key).map_or_else(
            |_| format!("(unknown key {})", self.key),
            |api| api.name().to_owned(),
        )
    }

    fn probed(&self) -> impl Iterator<Item = (i16, &Probe)> {
        self.versions.iter().filter_map(|version| match version {
            Version::Probed { version, probe } => Some((*version, probe)),
            Version::NotOurs { .. } => None,
        })
    }

    fn judged(&self) -> impl Iterator<Item = &Judged> {
        self.probed().filter_map(|(_, probe)| match probe {
            Probe::Answered(judged) | Probe::Refused(judged) => Some(judged),
            _ => None,
        })
    }
}

/// `[0, 1, 2, 5]` as `0-2,5`; `-` for none.
fn ranges(versions: impl IntoIterator<Item = i16>) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut run: Option<(i16, i16)> = None;
    for version in versions {
        run = match run {
            Some((start, end)) if version == end + 1 => Some((start, version)),
            Some((start, end)) => {
                out.push(span(start, end));
                Some((version, version))
            }
            None => Some((version, version)),
        };
    }
    if let Some((start, end)) = run {
        out.push(span(start, end));
    }
    if out.is_empty() {
        "-".into()
    } else {
        out.join(",")
    }
}

fn span(start: i16, end: i16) -> String {
    if start == end {
        start.to_string()
    } else {
        format!("{start}-{end}")
    }
}

fn error_name(code: i16) -> String {
    format!("{:?}", ErrorCode::from_code(code))
}

/// The table and the exceptions, as text.
pub fn render(rows: &[Row]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\n{:<38} {:>3}  {:<6} {:<6} {:<8} {:<8} {:<4} ERROR CODES ANSWERED",
        "API", "KEY", "KAFKA", "SENT", "ACCEPTED", "DECODED", "TAGS"
    );
    let (mut pairs, mut passed) = (0, 0);
    for row in rows {
        let sent = ranges(
            row.probed()
                .filter(|(_, p)| !matches!(p, Probe::NotSent(_)))
                .map(|(v, _)| v),
        );
        let accepted = ranges(
            row.probed()
                .filter(|(_, p)| matches!(p, Probe::Answered(_) | Probe::Undecoded(_)))
                .map(|(v, _)| v),
        );
        let decoded = ranges(row.probed().filter(|(_, p)| p.passed()).map(|(v, _)| v));
        let tags: usize = row.judged().map(|judged| judged.unknown_tags).sum();
        let errors: BTreeSet<i16> = row
            .judged()
            .flat_map(|judged| judged.errors.iter().copied())
            .collect();
        let errors: Vec<String> = errors.into_iter().map(error_name).collect();
        let _ = writeln!(
            out,
            "{:<38} {:>3}  {:<6} {:<6} {:<8} {:<8} {:<4} {}",
            row.name(),
            row.key,
            span(row.min, row.max),
            sent,
            accepted,
            decoded,
            tags,
            if errors.is_empty() {
                "-".into()
            } else {
                errors.join(" ")
            }
        );
        for (_, probe) in row.probed() {
            pairs += 1;
            passed += usize::from(probe.passed());
        }
    }
    let _ = writeln!(out, "\nexceptions:");
    let (mut explained, mut gaps, mut failed) = (0, 0, 0);
    for row in rows {
        if ApiKey::from_i16(row.key).is_err() {
            let _ = writeln!(
                out,
                "  key {} v{}-{}: advertised, an API this code does not know (finding)",
                row.key, row.min, row.max
            );
        }
        for version in &row.versions {
            if let Version::NotOurs { version, seen } = version {
                let _ = writeln!(
                    out,
                    "  {} v{version}: advertised, unknown to this code (finding): {seen}",
                    row.name()
                );
            }
        }
        for (version, probe, verdict) in row.verdicts() {
            let judged = match &verdict {
                Verdict::Passed => continue,
                Verdict::Explained(why) => {
                    explained += 1;
                    format!("explained: {why}")
                }
                Verdict::KnownGap(why) => {
                    gaps += 1;
                    format!("known gap of ours: {why}")
                }
                Verdict::GapGone(why) => {
                    failed += 1;
                    format!("FAILED: a known gap no longer shows; remove its entry ({why})")
                }
                Verdict::Failed => {
                    failed += 1;
                    "FAILED".to_owned()
                }
            };
            let _ = writeln!(
                out,
                "  {} v{version}: {}\n      {judged}",
                row.name(),
                why(probe)
            );
        }
    }
    let _ = writeln!(
        out,
        "\n{} APIs advertised; {pairs} (API, version) pairs known to both: {passed} answered and \
         decoded, {explained} refused for what the cluster is (explained), {gaps} known gaps of \
         ours, {failed} failed",
        rows.len(),
    );
    out
}

/// What became of a probe, in words.
pub fn why(probe: &Probe) -> String {
    match probe {
        Probe::Answered(judged) if judged.errors.is_empty() => "answered".into(),
        Probe::Answered(judged) => format!(
            "answered {}",
            judged
                .errors
                .iter()
                .map(|&c| error_name(c))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Probe::Refused(judged) => format!(
            "refused: the answer holds {} ({})",
            judged
                .errors
                .iter()
                .map(|&c| error_name(c))
                .collect::<Vec<_>>()
                .join(", "),
            judged
                .messages
                .iter()
                .cloned()
                .collect::<Vec<_>>()
                .join("; ")
        ),
        Probe::NotSent(why) => format!("not sent: {why}"),
        Probe::Unanswered(why) => format!("unanswered: {why}"),
        Probe::Undecoded(why) => format!("the answer did not decode: {why}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_shown_as_ranges() {
        assert_eq!(ranges([0, 1, 2, 5, 7, 8]), "0-2,5,7-8");
        assert_eq!(ranges([3]), "3");
        assert_eq!(ranges(Vec::<i16>::new()), "-");
    }
}

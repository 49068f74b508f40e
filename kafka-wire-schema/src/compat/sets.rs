//! Two sets of schemas, an older and a newer, message by message.

use super::{compare_released, CompatError, Finding, Rule, Types};
use crate::meaning;
use crate::model::SchemaMessage;

/// What comparing two sets found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SetFindings {
    /// Every finding, message by message in the older set's order.
    pub findings: Vec<Finding>,
    /// Schemas that could not be compared.
    pub errors: Vec<CompatError>,
    /// Messages only the newer set has (not a finding: adding is compatible).
    pub added: Vec<String>,
}

/// Compares every message of `old` with the message of the same name in `new`.
///
/// A message missing from `new` is matched by its API key and kind when one has
/// them (an API renamed keeps its key: reported as [`Rule::MessageRenamed`] and
/// compared), and is otherwise [`Rule::MessageRemoved`]. Retired messages
/// (`validVersions` `none`) in the older set have nothing released to keep, and
/// an unstable latest version (`latestVersionUnstable` on a request, which covers
/// its response too) was never released.
pub fn compare_sets(old: &[SchemaMessage], new: &[SchemaMessage]) -> SetFindings {
    let mut out = SetFindings::default();
    let mut matched = vec![false; new.len()];
    for older in old {
        if older.is_retired() {
            continue;
        }
        let by_name = new.iter().position(|n| n.name == older.name);
        let by_key = || {
            older.api_key.and_then(|key| {
                new.iter().position(|n| {
                    n.api_key == Some(key)
                        && n.kind == older.kind
                        && !old.iter().any(|o| o.name == n.name)
                })
            })
        };
        match by_name.or_else(by_key) {
            Some(index) => {
                matched[index] = true;
                match compare_released(older, &new[index], Types::Compared, unstable(old, older)) {
                    Ok(findings) => out.findings.extend(findings),
                    Err(error) => out.errors.push(error),
                }
            }
            None => {
                let versions = meaning::range(Some(&older.valid_versions))
                    .unwrap_or(kwire_version::VersionRange::NONE);
                out.findings.push(Finding::whole(
                    &older.name,
                    versions,
                    Rule::MessageRemoved,
                    String::new(),
                ));
            }
        }
    }
    out.added = new
        .iter()
        .zip(&matched)
        .filter(|(n, matched)| !**matched && !n.is_retired())
        .map(|(n, _)| n.name.clone())
        .collect();
    out
}

/// Whether `message`'s latest version is unstable: its own flag, or for a
/// response its request's, where Kafka writes it.
fn unstable(set: &[SchemaMessage], message: &SchemaMessage) -> bool {
    message.latest_version_unstable
        || (message.kind == "response"
            && set.iter().any(|request| {
                request.kind == "request"
                    && request.api_key == message.api_key
                    && request.latest_version_unstable
            }))
}

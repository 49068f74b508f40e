//! The exceptions the sweep knows the reason for, each with it. Two kinds:
//!
//! - Kafka read the request and refused it for what the cluster is, with an
//!   error code that would otherwise count as a refusal of the request's form
//!   (UNSUPPORTED_VERSION for a feature the cluster has not enabled): matched
//!   by API, code and Kafka's message, so another refusal still fails.
//! - A gap of ours against Kafka 4.4.0: expected to fail as described until it
//!   is fixed; when it no longer fails, the sweep fails too, so that the entry
//!   goes and the version is checked again.

use kwire_messages::ApiKey;

use crate::probe::Probe;

/// A refusal Kafka gives for what the cluster is, not for the request.
struct ClusterRefusal {
    api: ApiKey,
    code: i16,
    /// Words of Kafka's error message.
    says: &'static str,
    why: &'static str,
}

const CLUSTER_REFUSALS: [ClusterRefusal; 3] = [
    ClusterRefusal {
        api: ApiKey::AddRaftVoter,
        code: 35,
        says: "kraft.version feature is 0",
        why: "the peer's quorum is static (controller.quorum.voters, kraft.version 0); \
              Kafka changes voters only in a quorum formatted with --standalone or \
              --initial-controllers (kraft.version 1). The request was read and answered",
    },
    ClusterRefusal {
        api: ApiKey::RemoveRaftVoter,
        code: 35,
        says: "kraft.version feature is 0",
        why: "as AddRaftVoter: a static quorum cannot lose a voter",
    },
    ClusterRefusal {
        api: ApiKey::StreamsGroupTopologyDescriptionUpdate,
        code: 35,
        says: "no streams group topology description plugin configured",
        why: "KIP-1331: Kafka stores topology descriptions only through a plugin the \
              broker is configured with; without one it answers every version so",
    },
];

/// A gap of ours, expected until fixed.
struct KnownGap {
    api: ApiKey,
    version: i16,
    /// Words of the failure it causes.
    shows: &'static str,
    why: &'static str,
}

// None now. StreamsGroupDescribe v1 was one until the struct followed Kafka 4.4.0's
// release: the release added AssignorName (nullable string, KIP-1357) to
// DescribedGroup in v1, which the pinned trunk schemas (678c0e07) lack
// (tests/schemas/README.md).
const KNOWN_GAPS: [KnownGap; 0] = [];

/// How the sweep counts an (API, version).
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// Sent, answered without a refusal, decoded to the last byte.
    Passed,
    /// Refused for what the cluster is, as explained.
    Explained(&'static str),
    /// Failed as a known gap of ours, as explained.
    KnownGap(&'static str),
    /// A known gap that no longer shows: the entry must go.
    GapGone(&'static str),
    /// Failed.
    Failed,
}

impl Verdict {
    /// Whether the sweep may pass with it.
    pub fn acceptable(&self) -> bool {
        matches!(
            self,
            Verdict::Passed | Verdict::Explained(_) | Verdict::KnownGap(_)
        )
    }
}

/// The verdict on `probe`, the outcome of `api` at `version`.
pub fn verdict(api: ApiKey, version: i16, probe: &Probe) -> Verdict {
    verdict_with(&KNOWN_GAPS, api, version, probe)
}

/// [`verdict`] with `gaps` as the known gaps (the tests give their own).
fn verdict_with(gaps: &[KnownGap], api: ApiKey, version: i16, probe: &Probe) -> Verdict {
    let gap = gaps
        .iter()
        .find(|gap| gap.api == api && gap.version == version);
    match (probe, gap) {
        (Probe::Answered(_), Some(gap)) => Verdict::GapGone(gap.why),
        (Probe::Answered(_), None) => Verdict::Passed,
        (Probe::Undecoded(why), Some(gap)) if why.contains(gap.shows) => Verdict::KnownGap(gap.why),
        (Probe::Refused(judged), _) => CLUSTER_REFUSALS
            .iter()
            .find(|refusal| {
                refusal.api == api
                    && judged.errors.iter().all(|&code| code == refusal.code)
                    && judged
                        .messages
                        .iter()
                        .any(|text| text.contains(refusal.says))
            })
            .map_or(Verdict::Failed, |refusal| Verdict::Explained(refusal.why)),
        _ => Verdict::Failed,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::judge::Judged;

    fn refused(code: i16, message: &str) -> Probe {
        Probe::Refused(Judged {
            unknown_tags: 0,
            errors: BTreeSet::from([code]),
            messages: BTreeSet::from([message.to_owned()]),
        })
    }

    #[test]
    fn only_the_refusal_explained_is_accepted() {
        let static_quorum =
            "Cluster doesn't support adding voter because the kraft.version feature is 0";
        assert!(matches!(
            verdict(ApiKey::AddRaftVoter, 0, &refused(35, static_quorum)),
            Verdict::Explained(_)
        ));
        assert_eq!(
            verdict(ApiKey::AddRaftVoter, 0, &refused(42, static_quorum)),
            Verdict::Failed
        );
        assert_eq!(
            verdict(ApiKey::AddRaftVoter, 0, &refused(35, "something else")),
            Verdict::Failed
        );
        assert_eq!(
            verdict(ApiKey::Heartbeat, 0, &refused(35, static_quorum)),
            Verdict::Failed
        );
    }

    #[test]
    fn a_known_gap_that_closes_fails_the_sweep() {
        let answered = Probe::Answered(Judged::default());
        let gaps = [KnownGap {
            api: ApiKey::StreamsGroupDescribe,
            version: 1,
            shows: "StreamsGroupDescribeResponse.Groups[0]",
            why: "a gap for the test",
        }];
        let closed = verdict_with(&gaps, ApiKey::StreamsGroupDescribe, 1, &answered);
        assert!(matches!(closed, Verdict::GapGone(_)));
        assert!(!closed.acceptable());
        let undecoded =
            Probe::Undecoded("StreamsGroupDescribeResponse.Groups[0]: short".to_owned());
        let open = verdict_with(&gaps, ApiKey::StreamsGroupDescribe, 1, &undecoded);
        assert_eq!(open, Verdict::KnownGap("a gap for the test"));
        assert!(open.acceptable());
        // Without the entry, the same version is checked like any other.
        assert_eq!(
            verdict(ApiKey::StreamsGroupDescribe, 1, &answered),
            Verdict::Passed
        );
    }
}

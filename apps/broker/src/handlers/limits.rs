//! The partition limits, checked before a topic is created: CreateTopics and
//! Metadata's auto-creation both come here, so that no count a client sends
//! sizes an allocation before it is known to be within `--max-partitions-per-topic`
//! and `--max-partitions`.

use kwire_messages::ErrorCode;

use crate::config::Limits;

/// Kafka's controller refuses a CreateTopics asking for more partitions than this
/// in all its topics together (`ReplicationControlManager.MAX_PARTITIONS_PER_BATCH`),
/// answering every topic with POLICY_VIOLATION.
pub const MAX_PARTITIONS_PER_REQUEST: u64 = 10_000;

/// A refusal: the error code and the message CreateTopics sends with it.
pub type Refusal = (ErrorCode, String);

/// Whether a topic of `partitions` partitions may be added to `existing` ones.
pub fn check_new_topic(limits: &Limits, existing: usize, partitions: i32) -> Result<(), Refusal> {
    if partitions <= 0 {
        return Err((
            ErrorCode::InvalidPartitions,
            "Number of partitions was set to an invalid non-positive value.".into(),
        ));
    }
    if partitions > limits.max_partitions_per_topic {
        return Err((
            ErrorCode::PolicyViolation,
            format!(
                "Number of partitions {partitions} exceeds this broker's limit of {} per topic \
                 (--max-partitions-per-topic).",
                limits.max_partitions_per_topic
            ),
        ));
    }
    let total = (existing as u64).saturating_add(partitions as u64);
    let max = limits.max_partitions.max(0) as u64;
    if total > max {
        return Err((
            ErrorCode::PolicyViolation,
            format!(
                "Creating {partitions} partitions would make {total}, over this broker's limit \
                 of {max} partitions in all topics (--max-partitions)."
            ),
        ));
    }
    Ok(())
}

/// Kafka's per-request check (`validateTotalNumberOfPartitions`): the partitions
/// asked for by every topic of one CreateTopics, `-1` counting as the default and
/// non-positive counts as nothing (they are refused one by one).
pub fn check_request_total(
    counts: impl Iterator<Item = i32>,
    default_partitions: i32,
) -> Result<(), Refusal> {
    let total = counts
        .map(|count| match count {
            -1 => default_partitions.max(0) as u64,
            n => n.max(0) as u64,
        })
        .fold(0u64, u64::saturating_add);
    if total > MAX_PARTITIONS_PER_REQUEST {
        return Err((
            ErrorCode::PolicyViolation,
            "Excessively large number of partitions per request.".into(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_refused_by_the_limit_they_break() {
        let limits = Limits::default();
        let code =
            |existing, partitions| check_new_topic(&limits, existing, partitions).map_err(|e| e.0);
        assert_eq!(code(0, 0), Err(ErrorCode::InvalidPartitions));
        assert_eq!(code(0, -7), Err(ErrorCode::InvalidPartitions));
        assert_eq!(code(0, i32::MAX), Err(ErrorCode::PolicyViolation));
        assert_eq!(code(0, 1000), Ok(()));
        assert_eq!(code(9_000, 1000), Ok(()));
        assert_eq!(code(9_001, 1000), Err(ErrorCode::PolicyViolation));
        assert_eq!(code(usize::MAX, 1), Err(ErrorCode::PolicyViolation));
    }

    #[test]
    fn a_request_over_ten_thousand_partitions_is_refused_whole() {
        assert!(check_request_total([5_000, 5_000].into_iter(), 1).is_ok());
        assert!(check_request_total([5_000, 5_000, -1].into_iter(), 1).is_err());
        assert!(check_request_total([i32::MAX, i32::MAX].into_iter(), 1).is_err());
        assert!(check_request_total([i32::MIN, 3].into_iter(), 1).is_ok());
    }
}

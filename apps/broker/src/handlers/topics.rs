//! CreateTopics and DeleteTopics.

use kwire::{KafkaString, Uuid};
use std::collections::HashSet;

use kwire_messages::api::create_topics::{
    CreatableTopic, CreatableTopicConfigs, CreatableTopicResult,
};
use kwire_messages::api::delete_topics::DeletableTopicResult;
use kwire_messages::ErrorCode;
use kwire_messages::{
    api::CreateTopicsRequest, api::CreateTopicsResponse, api::DeleteTopicsRequest,
    api::DeleteTopicsResponse,
};

use crate::handlers::limits::{self, Refusal};
use crate::log::Topics;
use crate::topic_configs::TopicConfigs;
use crate::Broker;

/// Kafka's rule (`Topic.validate`): 1 to 249 of `[a-zA-Z0-9._-]`, not `.` or `..`.
pub fn valid_topic_name(name: &str) -> bool {
    topic_name_error(name).is_none()
}

/// Why `name` is not a valid topic name, in Kafka's words; `None` if it is.
pub fn topic_name_error(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("Topic name is illegal, it can't be empty".into());
    }
    if name == "." || name == ".." {
        return Some("Topic name cannot be \".\" or \"..\"".into());
    }
    if name.len() > 249 {
        return Some(format!(
            "Topic name is illegal, it can't be longer than 249 characters, topic name: {name}"
        ));
    }
    let legal = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-');
    if !name.bytes().all(legal) {
        return Some(format!(
            "Topic name is invalid: '{name}' contains one or more characters other than ASCII \
             alphanumerics, '.', '_' and '-'"
        ));
    }
    None
}

pub fn create(broker: &Broker, request: CreateTopicsRequest, version: i16) -> CreateTopicsResponse {
    let config = &broker.config;
    let mut topics = broker.topics();
    // Checked over the whole request first, as Kafka's controller does: over the
    // cap, every topic is refused.
    let request_total = limits::check_request_total(
        request.topics.iter().map(|t| t.num_partitions),
        config.default_partitions,
    );
    // Kafka answers every topic named twice in one request INVALID_REQUEST.
    let mut seen = HashSet::new();
    let duplicated: HashSet<&str> = request
        .topics
        .iter()
        .map(|t| t.name.as_str())
        .filter(|name| !seen.insert(*name))
        .collect();
    let results = request
        .topics
        .iter()
        .map(|asked| {
            let name = asked.name.as_str();
            let partitions = match asked.num_partitions {
                -1 => config.default_partitions,
                n => n,
            };
            let checked = request_total
                .clone()
                .and_then(|()| refusal(asked, duplicated.contains(name), &topics))
                .and_then(|()| {
                    limits::check_new_topic(&config.limits, topics.partition_count(), partitions)
                })
                .and_then(|()| topic_configs(asked));
            let mut result = CreatableTopicResult::default();
            result.name = asked.name.clone();
            let configs = match checked {
                Ok(configs) => configs,
                Err((error, message)) => {
                    result.error_code = error.code();
                    result.error_message = Some(KafkaString::from(message));
                    return result;
                }
            };
            result.num_partitions = partitions;
            result.replication_factor = 1;
            // v5 answers with the topic's configs, as DescribeConfigs would
            // (a validation too).
            if version >= 5 {
                result.configs = Some(
                    configs
                        .all()
                        .map(|(definition, value, source)| {
                            let mut entry = CreatableTopicConfigs::default();
                            entry.name = definition.name.into();
                            entry.value = Some(value.into());
                            entry.config_source = source as i8;
                            entry
                        })
                        .collect(),
                );
            }
            if !request.validate_only {
                // `check_new_topic` bounded `partitions` to 1..=max per topic.
                result.topic_id = topics.create(name, partitions as usize);
                if let Some(topic) = topics.get_mut(name) {
                    topic.configs = configs;
                }
                tracing::info!(topic = name, partitions, version, "created");
            }
            result
        })
        .collect();
    let mut response = CreateTopicsResponse::default();
    response.topics = results;
    response
}

/// The configs a new topic is created with, each checked as Kafka checks it.
fn topic_configs(asked: &CreatableTopic) -> Result<TopicConfigs, Refusal> {
    let mut configs = TopicConfigs::default();
    for config in &asked.configs {
        let name = config.name.as_str();
        let Some(value) = &config.value else {
            return Err((
                ErrorCode::InvalidConfig,
                format!("Null value not supported for topic configs: {name}"),
            ));
        };
        let definition = crate::topic_configs::validate(name, value.as_str())
            .map_err(|error| (error.code, error.message))?;
        configs.set(definition, value.as_str().to_owned());
    }
    Ok(configs)
}

/// Why Kafka would refuse `asked` before looking at partition limits, in the
/// order its controller checks, with its messages.
fn refusal(asked: &CreatableTopic, duplicated: bool, topics: &Topics) -> Result<(), Refusal> {
    let name = asked.name.as_str();
    let refuse = |error: ErrorCode, message: String| Err((error, message));
    if duplicated {
        return refuse(ErrorCode::InvalidRequest, "Duplicate topic name.".into());
    }
    if !valid_topic_name(name) {
        return refuse(
            ErrorCode::InvalidTopicException,
            format!("Topic name {name:?} is illegal: 1 to 249 of [a-zA-Z0-9._-], not . or .."),
        );
    }
    if topics.get(name).is_some() {
        return refuse(
            ErrorCode::TopicAlreadyExists,
            format!("Topic '{name}' already exists."),
        );
    }
    if !asked.assignments.is_empty() {
        // Replica assignments name brokers; there is one, and it would have to
        // check them: refused rather than half-honoured.
        return refuse(
            ErrorCode::InvalidRequest,
            "Manual partition assignments are not supported by this broker.".into(),
        );
    }
    if asked.num_partitions < -1 || asked.num_partitions == 0 {
        return refuse(
            ErrorCode::InvalidPartitions,
            "Number of partitions was set to an invalid non-positive value.".into(),
        );
    }
    match asked.replication_factor {
        -1 | 1 => Ok(()),
        factor if factor <= 0 => refuse(
            ErrorCode::InvalidReplicationFactor,
            "Replication factor must be larger than 0, or -1 to use the default value.".into(),
        ),
        factor => refuse(
            ErrorCode::InvalidReplicationFactor,
            format!(
                "Unable to replicate the partition {factor} time(s): The target replication \
                 factor of {factor} cannot be reached because only 1 broker(s) are registered."
            ),
        ),
    }
}

pub fn delete(broker: &Broker, request: DeleteTopicsRequest, version: i16) -> DeleteTopicsResponse {
    let mut topics = broker.topics();
    // One fixed-size row per name or ID asked; a repeat finds nothing left to
    // delete and is answered UNKNOWN_TOPIC_OR_PARTITION (or UNKNOWN_TOPIC_ID).
    // v6 names topics by name or ID; earlier versions by name only.
    let asked: Vec<(Option<KafkaString>, Uuid)> = if version >= 6 {
        request
            .topics
            .into_iter()
            .map(|t| (t.name, t.topic_id))
            .collect()
    } else {
        request
            .topic_names
            .into_iter()
            .map(|n| (Some(n), Uuid::ZERO))
            .collect()
    };
    let results = asked
        .into_iter()
        .map(|(name, id)| {
            let mut result = DeletableTopicResult::default();
            let name = match name {
                Some(name) => Some(name.as_str().to_owned()),
                None => topics.name_of(&id).map(str::to_owned),
            };
            let deleted = name.as_deref().and_then(|name| topics.delete(name));
            result.name = name.map(KafkaString::from);
            result.topic_id = id;
            result.error_code = match (deleted, id == Uuid::ZERO) {
                (Some(topic), _) => {
                    result.topic_id = topic.id;
                    ErrorCode::None
                }
                (None, true) => ErrorCode::UnknownTopicOrPartition,
                (None, false) => ErrorCode::UnknownTopicId,
            }
            .code();
            result
        })
        .collect();
    let mut response = DeleteTopicsResponse::default();
    response.responses = results;
    response
}

#[cfg(test)]
mod tests {
    use kwire_messages::api::create_topics::CreatableTopic;
    use kwire_messages::api::metadata::MetadataRequestTopic;
    use kwire_messages::api::MetadataRequest;

    use super::*;
    use crate::config::Limits;
    use crate::handlers::{metadata, testing};

    fn asking(topics: &[(&str, i32)]) -> CreateTopicsRequest {
        let mut request = CreateTopicsRequest::default();
        request.topics = topics
            .iter()
            .map(|&(name, partitions)| {
                let mut topic = CreatableTopic::default();
                topic.name = name.into();
                topic.num_partitions = partitions;
                topic.replication_factor = -1;
                topic
            })
            .collect();
        request
    }

    fn codes(response: &CreateTopicsResponse) -> Vec<ErrorCode> {
        response
            .topics
            .iter()
            .map(|t| ErrorCode::from(t.error_code))
            .collect()
    }

    /// The 35-byte request that aborted the broker allocating 171 GB.
    #[test]
    fn i32_max_partitions_is_a_policy_violation_and_creates_nothing() {
        let broker = testing::broker(Limits::default());
        let response = create(&broker, asking(&[("big", i32::MAX)]), 7);
        assert_eq!(codes(&response), [ErrorCode::PolicyViolation]);
        assert!(broker.topics().get("big").is_none());
        // Under Kafka's per-request cap, the message names the per-topic limit.
        let response = create(&broker, asking(&[("big", 5000)]), 7);
        assert_eq!(codes(&response), [ErrorCode::PolicyViolation]);
        let message = response.topics[0]
            .error_message
            .as_ref()
            .expect("a message");
        assert!(message.as_str().contains("1000 per topic"), "{message:?}");
        assert_eq!(broker.topics().partition_count(), 0);
    }

    /// A million partitions was accepted and made a 35-byte Metadata request
    /// answer 24.8 MiB.
    #[test]
    fn a_million_partitions_is_refused_even_under_a_generous_topic_limit() {
        let limits = Limits {
            max_partitions_per_topic: i32::MAX,
            ..Limits::default()
        };
        let broker = testing::broker(limits);
        let response = create(&broker, asking(&[("big", 1_000_000)]), 7);
        assert_eq!(codes(&response), [ErrorCode::PolicyViolation]);
        assert!(broker.topics().get("big").is_none());
    }

    #[test]
    fn the_broker_wide_total_counts_every_topic_created_so_far() {
        let limits = Limits {
            max_partitions: 2500,
            ..Limits::default()
        };
        let broker = testing::broker(limits);
        let response = create(&broker, asking(&[("a", 1000), ("b", 1000), ("c", 1000)]), 7);
        assert_eq!(
            codes(&response),
            [ErrorCode::None, ErrorCode::None, ErrorCode::PolicyViolation]
        );
        assert_eq!(broker.topics().partition_count(), 2000);
        // Auto-creation counts too: 500 left, one default partition each.
        let mut metadata_request = MetadataRequest::default();
        metadata_request.allow_auto_topic_creation = true;
        metadata_request.topics = Some(
            (0..501)
                .map(|i| {
                    let mut topic = MetadataRequestTopic::default();
                    topic.name = Some(format!("auto-{i}").into());
                    topic
                })
                .collect(),
        );
        let answer = metadata::answer(&broker, metadata_request, 12);
        let refused = answer
            .topics
            .iter()
            .filter(|t| t.error_code == ErrorCode::UnknownTopicOrPartition.code())
            .count();
        assert_eq!(refused, 1);
        assert_eq!(broker.topics().partition_count(), 2500);
    }

    #[test]
    fn counts_and_factors_get_kafkas_codes() {
        let broker = testing::broker(Limits::default());
        let mut request = asking(&[("zero", 0), ("minus", -2), ("rf", 1), ("rf0", 1)]);
        request.topics[2].replication_factor = 3;
        request.topics[3].replication_factor = 0;
        let response = create(&broker, request, 7);
        assert_eq!(
            codes(&response),
            [
                ErrorCode::InvalidPartitions,
                ErrorCode::InvalidPartitions,
                ErrorCode::InvalidReplicationFactor,
                ErrorCode::InvalidReplicationFactor,
            ]
        );
        assert_eq!(broker.topics().partition_count(), 0);
    }

    #[test]
    fn a_request_over_ten_thousand_partitions_refuses_every_topic() {
        let limits = Limits {
            max_partitions_per_topic: 100_000,
            max_partitions: 100_000,
            ..Limits::default()
        };
        let broker = testing::broker(limits);
        let response = create(&broker, asking(&[("small", 1), ("big", 10_000)]), 7);
        assert_eq!(
            codes(&response),
            [ErrorCode::PolicyViolation, ErrorCode::PolicyViolation]
        );
        assert_eq!(broker.topics().partition_count(), 0);
    }

    #[test]
    fn configs_given_at_creation_are_checked_kept_and_answered() {
        use kwire_messages::api::create_topics::CreatableTopicConfig;
        let config = |name: &str, value: Option<&str>| {
            let mut config = CreatableTopicConfig::default();
            config.name = name.into();
            config.value = value.map(KafkaString::from);
            config
        };
        let broker = testing::broker(Limits::default());
        let mut request = asking(&[("good", 1), ("bad", 1), ("unset", 1)]);
        request.topics[0].configs = vec![config("retention.ms", Some("5000"))];
        request.topics[1].configs = vec![config("retention.ms", Some("soon"))];
        request.topics[2].configs = vec![config("retention.ms", None)];
        let response = create(&broker, request, 7);
        assert_eq!(
            codes(&response),
            [
                ErrorCode::None,
                ErrorCode::InvalidConfig,
                ErrorCode::InvalidConfig
            ]
        );
        let answered = response.topics[0]
            .configs
            .as_ref()
            .expect("v5+ has configs");
        assert_eq!(answered.len(), crate::topic_configs::TOPIC_CONFIGS.len());
        let retention = answered
            .iter()
            .find(|c| c.name.as_str() == "retention.ms")
            .expect("answered");
        assert_eq!(retention.value.as_ref().map(|v| v.as_str()), Some("5000"));
        assert_eq!(retention.config_source, 1, "DYNAMIC_TOPIC_CONFIG");
        let kept = crate::topic_configs::definition("retention.ms").expect("known");
        let topics = broker.topics();
        assert_eq!(
            topics.get("good").expect("created").configs.value(kept).0,
            "5000"
        );
        assert!(topics.get("bad").is_none() && topics.get("unset").is_none());
    }

    #[test]
    fn a_name_twice_in_one_request_is_invalid_both_times() {
        let broker = testing::broker(Limits::default());
        let response = create(&broker, asking(&[("t", 1), ("t", 1)]), 7);
        assert_eq!(
            codes(&response),
            [ErrorCode::InvalidRequest, ErrorCode::InvalidRequest]
        );
    }
}

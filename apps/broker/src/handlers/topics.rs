//! CreateTopics and DeleteTopics.

use kwire::{KafkaString, Uuid};
use kwire_messages::api::create_topics::CreatableTopicResult;
use kwire_messages::api::delete_topics::DeletableTopicResult;
use kwire_messages::ErrorCode;
use kwire_messages::{
    api::CreateTopicsRequest, api::CreateTopicsResponse, api::DeleteTopicsRequest,
    api::DeleteTopicsResponse,
};

use crate::Broker;

/// Kafka's rule (`Topic.validate`): 1 to 249 of `[a-zA-Z0-9._-]`, not `.` or `..`.
pub fn valid_topic_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 249
        && name != "."
        && name != ".."
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

pub fn create(broker: &Broker, request: CreateTopicsRequest, version: i16) -> CreateTopicsResponse {
    let mut topics = broker.topics();
    let results = request
        .topics
        .into_iter()
        .map(|asked| {
            let name = asked.name.as_str();
            let partitions = match asked.num_partitions {
                -1 => broker.config.default_partitions,
                n => n,
            };
            let error = if !valid_topic_name(name) {
                ErrorCode::InvalidTopicException
            } else if topics.get(name).is_some() {
                ErrorCode::TopicAlreadyExists
            } else if !asked.assignments.is_empty() {
                // Replica assignments name brokers; there is one, and it would
                // have to check them: refused rather than half-honoured.
                ErrorCode::InvalidRequest
            } else if partitions <= 0 {
                ErrorCode::InvalidPartitions
            } else if !matches!(asked.replication_factor, -1 | 1) {
                ErrorCode::InvalidReplicationFactor
            } else {
                ErrorCode::None
            };
            let mut result = CreatableTopicResult::default();
            result.name = asked.name.clone();
            result.error_code = error.code();
            if error != ErrorCode::None {
                result.error_message = Some(KafkaString::from(error.message()));
                return result;
            }
            result.num_partitions = partitions;
            result.replication_factor = 1;
            if !request.validate_only {
                result.topic_id = topics.create(name, partitions as usize);
                tracing::info!(topic = name, partitions, version, "created");
            }
            result
        })
        .collect();
    let mut response = CreateTopicsResponse::default();
    response.topics = results;
    response
}

pub fn delete(broker: &Broker, request: DeleteTopicsRequest, version: i16) -> DeleteTopicsResponse {
    let mut topics = broker.topics();
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

//! Metadata (with Kafka's auto-creation) and DescribeCluster.

use std::collections::HashSet;

use kwire::{KafkaString, Uuid};
use kwire_messages::api::describe_cluster::DescribeClusterBroker;
use kwire_messages::api::metadata::{
    MetadataResponseBroker, MetadataResponsePartition, MetadataResponseTopic,
};
use kwire_messages::ErrorCode;
use kwire_messages::{
    api::DescribeClusterRequest, api::DescribeClusterResponse, api::MetadataRequest,
    api::MetadataResponse,
};

use crate::config::Config;
use crate::handlers::limits;
use crate::handlers::topics::valid_topic_name;
use crate::log::{Topic, Topics, LEADER_EPOCH};
use crate::Broker;

pub fn answer(broker: &Broker, request: MetadataRequest, version: i16) -> MetadataResponse {
    let config = &broker.config;
    // Before v4 there is no flag: the broker's setting decides alone.
    let may_create = config.auto_create && (version < 4 || request.allow_auto_topic_creation);
    let mut topics = broker.topics();
    let asked = match request.topics {
        // v0 has no null: an empty list meant every topic.
        Some(asked) if !(version == 0 && asked.is_empty()) => asked,
        _ => {
            let all = topics
                .iter()
                .map(|(name, topic)| described(name, topic, config.node_id))
                .collect();
            return response(broker, all);
        }
    };
    // Kafka takes the topics asked for as a set: a name (or ID) repeated is
    // answered once, so that a short name repeated cannot multiply the answer
    // by its topic's partitions. The first occurrence keeps its place.
    let mut seen_names = HashSet::new();
    let mut seen_ids = HashSet::new();
    let mut answers = Vec::new();
    for wanted in asked {
        let name = match (&wanted.name, wanted.topic_id) {
            (Some(name), _) => name.as_str().to_owned(),
            (None, id) => match topics.name_of(&id) {
                Some(name) => name.to_owned(),
                None => {
                    if seen_ids.insert(id) {
                        answers.push(failed(None, id, ErrorCode::UnknownTopicId));
                    }
                    continue;
                }
            },
        };
        if !seen_names.insert(name.clone()) {
            continue;
        }
        answers.push(answer_for(&mut topics, name, may_create, config));
    }
    drop(topics);
    response(broker, answers)
}

/// One named topic's answer, auto-creating it when allowed and within limits.
fn answer_for(
    topics: &mut Topics,
    name: String,
    may_create: bool,
    config: &Config,
) -> MetadataResponseTopic {
    if let Some(topic) = topics.get(&name) {
        return described(&name, topic, config.node_id);
    }
    if !valid_topic_name(&name) {
        return failed(Some(&name), Uuid::ZERO, ErrorCode::InvalidTopicException);
    }
    if !may_create {
        return failed(Some(&name), Uuid::ZERO, ErrorCode::UnknownTopicOrPartition);
    }
    let partitions = config.default_partitions;
    if let Err((_, message)) =
        limits::check_new_topic(&config.limits, topics.partition_count(), partitions)
    {
        // Kafka's broker does not pass the controller's refusal of an
        // auto-creation on to Metadata: the topic just does not exist.
        tracing::warn!(topic = %name, "not auto-created: {message}");
        return failed(Some(&name), Uuid::ZERO, ErrorCode::UnknownTopicOrPartition);
    }
    // Kafka answers the request that creates a topic with LEADER_NOT_AVAILABLE
    // and no partitions; the client asks again.
    let id = topics.create(&name, partitions as usize);
    tracing::info!(topic = %name, partitions, "auto-created");
    failed(Some(&name), id, ErrorCode::LeaderNotAvailable)
}

fn response(broker: &Broker, topics: Vec<MetadataResponseTopic>) -> MetadataResponse {
    let config = &broker.config;
    let mut us = MetadataResponseBroker::default();
    us.node_id = config.node_id;
    us.host = config.host.clone();
    us.port = config.port;
    let mut response = MetadataResponse::default();
    response.brokers = vec![us];
    response.cluster_id = Some(config.cluster_id.clone());
    response.controller_id = config.node_id;
    response.topics = topics;
    response
}

fn described(name: &str, topic: &Topic, node_id: i32) -> MetadataResponseTopic {
    let mut answer = failed(Some(name), topic.id, ErrorCode::None);
    answer.partitions = (0..topic.partitions.len() as i32)
        .map(|index| {
            let mut partition = MetadataResponsePartition::default();
            partition.partition_index = index;
            partition.leader_id = node_id;
            partition.leader_epoch = LEADER_EPOCH;
            partition.replica_nodes = [node_id].into_iter().collect();
            partition.isr_nodes = [node_id].into_iter().collect();
            partition
        })
        .collect();
    answer
}

fn failed(name: Option<&str>, id: Uuid, error: ErrorCode) -> MetadataResponseTopic {
    let mut answer = MetadataResponseTopic::default();
    answer.error_code = error.code();
    answer.name = name.map(KafkaString::from);
    answer.topic_id = id;
    answer
}

pub fn describe_cluster(
    broker: &Broker,
    _request: DescribeClusterRequest,
) -> DescribeClusterResponse {
    let config = &broker.config;
    let mut us = DescribeClusterBroker::default();
    us.broker_id = config.node_id;
    us.host = config.host.clone();
    us.port = config.port;
    let mut response = DescribeClusterResponse::default();
    response.cluster_id = config.cluster_id.clone();
    response.controller_id = config.node_id;
    response.brokers = vec![us];
    response
}

#[cfg(test)]
mod tests {
    use kwire_messages::api::metadata::MetadataRequestTopic;

    use super::*;
    use crate::config::Limits;
    use crate::handlers::testing;

    /// A short name repeated was answered once per repeat, each with every
    /// partition of its topic: Kafka answers a set of topics.
    #[test]
    fn a_topic_named_many_times_is_answered_once() {
        let broker = testing::broker(Limits::default());
        broker.topics().create("t", 1000);
        let mut request = MetadataRequest::default();
        request.topics = Some(
            (0..500)
                .map(|_| {
                    let mut topic = MetadataRequestTopic::default();
                    topic.name = Some("t".into());
                    topic
                })
                .collect(),
        );
        let answer = answer(&broker, request, 12);
        assert_eq!(answer.topics.len(), 1);
        assert_eq!(answer.topics[0].partitions.len(), 1000);
    }
}

//! OffsetCommit and OffsetFetch, stored by the group coordinator.

use std::time::Instant;

use kwire::{KafkaString, Uuid};
use kwire_messages::api::offset_commit::{
    OffsetCommitResponsePartition, OffsetCommitResponseTopic,
};
use kwire_messages::api::offset_fetch::{
    OffsetFetchResponseGroup, OffsetFetchResponsePartition, OffsetFetchResponsePartitions,
    OffsetFetchResponseTopic, OffsetFetchResponseTopics,
};
use kwire_messages::{
    api::OffsetCommitRequest, api::OffsetCommitResponse, api::OffsetFetchRequest,
    api::OffsetFetchResponse,
};

use crate::groups::Committed;
use crate::handlers::topic_name;
use crate::log::Topics;
use crate::Broker;

pub fn commit(broker: &Broker, request: OffsetCommitRequest, version: i16) -> OffsetCommitResponse {
    let topics = broker.topics();
    let mut offsets = Vec::new();
    let mut answers = Vec::new();
    for asked in request.topics {
        let name = topic_name(&topics, &asked.name, &asked.topic_id);
        let mut answer = OffsetCommitResponseTopic::default();
        if version < 10 {
            answer.name = asked.name;
        }
        answer.topic_id = asked.topic_id;
        for p in asked.partitions {
            let mut partition = OffsetCommitResponsePartition::default();
            partition.partition_index = p.partition_index;
            match &name {
                Ok(name) => offsets.push((
                    (name.clone(), p.partition_index),
                    Committed {
                        offset: p.committed_offset,
                        leader_epoch: p.committed_leader_epoch,
                        metadata: p.committed_metadata.map(|m| m.as_str().to_owned()),
                    },
                )),
                Err(code) => partition.error_code = *code,
            }
            answer.partitions.push(partition);
        }
        answers.push(answer);
    }
    drop(topics);
    let error = broker.groups().commit(
        request.group_id.as_str(),
        request.generation_id_or_member_epoch,
        request.member_id.as_str(),
        offsets,
        Instant::now(),
    );
    // A group-level refusal is every partition's error.
    for partition in answers.iter_mut().flat_map(|t| t.partitions.iter_mut()) {
        if partition.error_code == 0 {
            partition.error_code = error.code();
        }
    }
    let mut response = OffsetCommitResponse::default();
    response.topics = answers;
    response
}

/// One group's committed offsets, as (topic, topic ID, partition, offset).
type Found = Vec<(String, Uuid, i32, Option<Committed>)>;

fn committed(
    broker: &Broker,
    topics: &Topics,
    group: &str,
    asked: Option<Vec<(String, Uuid, Vec<i32>)>>,
) -> Found {
    let wanted = asked.map(|asked| {
        asked
            .into_iter()
            .flat_map(|(name, _, partitions)| {
                partitions.into_iter().map(move |p| (name.clone(), p))
            })
            .collect()
    });
    broker
        .groups()
        .committed(group, wanted)
        .into_iter()
        .map(|((name, partition), found)| {
            let id = topics.get(&name).map_or(Uuid::ZERO, |t| t.id);
            (name, id, partition, found)
        })
        .collect()
}

/// Kafka's answer for a partition without an offset: -1 and empty metadata.
fn offset_fields(found: Option<Committed>) -> (i64, i32, Option<KafkaString>) {
    match found {
        Some(c) => (
            c.offset,
            c.leader_epoch,
            Some(c.metadata.unwrap_or_default().into()),
        ),
        None => (-1, -1, Some(KafkaString::from(""))),
    }
}

pub fn fetch(broker: &Broker, request: OffsetFetchRequest, version: i16) -> OffsetFetchResponse {
    let topics = broker.topics();
    let mut response = OffsetFetchResponse::default();
    if version < 8 {
        let asked = request.topics.map(|asked| {
            asked
                .into_iter()
                .map(|t| (t.name.as_str().to_owned(), Uuid::ZERO, t.partition_indexes))
                .collect()
        });
        let found = committed(broker, &topics, request.group_id.as_str(), asked);
        for (name, _, partition, found) in found {
            let (offset, epoch, metadata) = offset_fields(found);
            let mut answer = OffsetFetchResponsePartition::default();
            answer.partition_index = partition;
            answer.committed_offset = offset;
            answer.committed_leader_epoch = epoch;
            answer.metadata = metadata;
            match response.topics.iter_mut().find(|t| t.name.as_str() == name) {
                Some(topic) => topic.partitions.push(answer),
                None => {
                    let mut topic = OffsetFetchResponseTopic::default();
                    topic.name = name.into();
                    topic.partitions.push(answer);
                    response.topics.push(topic);
                }
            }
        }
        return response;
    }
    // v8 batches groups; v10 names topics by ID.
    for group in request.groups {
        let asked = group.topics.map(|asked| {
            asked
                .into_iter()
                .map(|t| {
                    let name = topic_name(&topics, &t.name, &t.topic_id).unwrap_or_default();
                    (name, t.topic_id, t.partition_indexes)
                })
                .collect()
        });
        let found = committed(broker, &topics, group.group_id.as_str(), asked);
        let mut answer = OffsetFetchResponseGroup::default();
        answer.group_id = group.group_id;
        for (name, id, partition, found) in found {
            let (offset, epoch, metadata) = offset_fields(found);
            let mut p = OffsetFetchResponsePartitions::default();
            p.partition_index = partition;
            p.committed_offset = offset;
            p.committed_leader_epoch = epoch;
            p.metadata = metadata;
            match answer.topics.iter_mut().find(|t| t.name.as_str() == name) {
                Some(topic) => topic.partitions.push(p),
                None => {
                    let mut topic = OffsetFetchResponseTopics::default();
                    if version < 10 {
                        topic.name = name.into();
                    }
                    topic.topic_id = id;
                    topic.partitions.push(p);
                    answer.topics.push(topic);
                }
            }
        }
        response.groups.push(answer);
    }
    response
}

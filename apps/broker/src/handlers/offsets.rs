//! OffsetCommit and OffsetFetch, stored by the group coordinator.

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use kwire::{KafkaString, Uuid};
use kwire_messages::api::offset_commit::{
    OffsetCommitResponsePartition, OffsetCommitResponseTopic,
};
use kwire_messages::api::offset_fetch::{
    OffsetFetchResponseGroup, OffsetFetchResponsePartition, OffsetFetchResponsePartitions,
    OffsetFetchResponseTopic, OffsetFetchResponseTopics,
};
use kwire_messages::ErrorCode;
use kwire_messages::{
    api::OffsetCommitRequest, api::OffsetCommitResponse, api::OffsetFetchRequest,
    api::OffsetFetchResponse,
};

use crate::groups::Committed;
use crate::handlers::topic_name;
use crate::log::Topics;
use crate::Broker;

pub fn commit(broker: &Broker, request: OffsetCommitRequest, version: i16) -> OffsetCommitResponse {
    let metadata_max = broker.config.limits.offset_metadata_max_bytes.max(0) as usize;
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
            let committed = Committed {
                offset: p.committed_offset,
                leader_epoch: p.committed_leader_epoch,
                metadata: p.committed_metadata.map(|m| m.as_str().to_owned()),
            };
            match commit_key(&topics, &name, p.partition_index, &committed, metadata_max) {
                Ok(key) => offsets.push((key, committed)),
                Err(code) => partition.error_code = code,
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

/// One group's committed offsets, as (topic, topic ID, partition, offset),
/// `Err` for a partition a consumer asking for stable offsets must wait for.
type Found = Vec<(String, Uuid, i32, Result<Option<Committed>, ErrorCode>)>;

fn committed(
    broker: &Broker,
    topics: &Topics,
    group: &str,
    asked: Option<Vec<(String, Uuid, Vec<i32>)>>,
    require_stable: bool,
) -> Found {
    // A partition named again is answered once: its row carries up to
    // `offset.metadata.max.bytes` of metadata, so repeats of a four-byte index
    // would multiply that. Clients look answers up by partition.
    let wanted = asked.map(|asked| {
        let mut seen = HashSet::new();
        asked
            .into_iter()
            .flat_map(|(name, _, partitions)| {
                partitions.into_iter().map(move |p| (name.clone(), p))
            })
            .filter(|key| seen.insert(key.clone()))
            .collect()
    });
    let groups = broker.groups();
    groups
        .committed(group, wanted)
        .into_iter()
        .map(|((name, partition), found)| {
            let id = topics.get(&name).map_or(Uuid::ZERO, |t| t.id);
            // KIP-447: an offset an open transaction commits is not stable
            // yet; the consumer asks again.
            let key = (name, partition);
            let found = if require_stable && groups.unstable(group, &key) {
                Err(ErrorCode::UnstableOffsetCommit)
            } else {
                Ok(found)
            };
            (key.0, id, partition, found)
        })
        .collect()
}

/// Kafka's answer for a partition without an offset: -1 and empty metadata.
/// Also the error the partition's row carries.
fn offset_fields(
    found: Result<Option<Committed>, ErrorCode>,
) -> (i64, i32, Option<KafkaString>, ErrorCode) {
    match found {
        Ok(Some(c)) => (
            c.offset,
            c.leader_epoch,
            Some(c.metadata.unwrap_or_default().into()),
            ErrorCode::None,
        ),
        Ok(None) => (-1, -1, Some(KafkaString::from("")), ErrorCode::None),
        Err(error) => (-1, -1, Some(KafkaString::from("")), error),
    }
}

/// Where a committed offset is stored (topic, partition), or the error code
/// Kafka refuses it with; OffsetCommit and TxnOffsetCommit alike.
pub(crate) fn commit_key(
    topics: &Topics,
    name: &Result<String, i16>,
    partition: i32,
    committed: &Committed,
    metadata_max: usize,
) -> Result<(String, i32), i16> {
    let name = name.as_ref().map_err(|code| *code)?;
    // Kafka refuses offsets for partitions it does not have, so what a group
    // stores is bounded by the partitions that exist.
    if topics.partition(name, partition).is_none() {
        return Err(ErrorCode::UnknownTopicOrPartition.code());
    }
    // Kafka's `offset.metadata.max.bytes`: the metadata is stored and sent
    // back by every OffsetFetch naming the partition.
    if committed.metadata.as_ref().map_or(0, String::len) > metadata_max {
        return Err(ErrorCode::OffsetMetadataTooLarge.code());
    }
    Ok((name.clone(), partition))
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
        let found = committed(
            broker,
            &topics,
            request.group_id.as_str(),
            asked,
            request.require_stable,
        );
        // Each topic's place in the answer: a search of the answer for each row
        // was quadratic in the topics a request names.
        let mut places: HashMap<String, usize> = HashMap::new();
        for (name, _, partition, found) in found {
            let (offset, epoch, metadata, error) = offset_fields(found);
            let mut answer = OffsetFetchResponsePartition::default();
            answer.partition_index = partition;
            answer.committed_offset = offset;
            answer.committed_leader_epoch = epoch;
            answer.metadata = metadata;
            answer.error_code = error.code();
            let place = *places.entry(name).or_insert_with_key(|name| {
                let mut topic = OffsetFetchResponseTopic::default();
                topic.name = name.as_str().into();
                response.topics.push(topic);
                response.topics.len() - 1
            });
            response.topics[place].partitions.push(answer);
        }
        return response;
    }
    // v8 batches groups; v10 names topics by ID. A group named again is
    // answered once, at its first place: asking for all its offsets (topics
    // null) costs a few bytes a repeat and answers every committed partition.
    let mut seen_groups = HashSet::new();
    for group in request.groups {
        if !seen_groups.insert(group.group_id.as_str().to_owned()) {
            continue;
        }
        let asked = group.topics.map(|asked| {
            asked
                .into_iter()
                .map(|t| {
                    let name = topic_name(&topics, &t.name, &t.topic_id).unwrap_or_default();
                    (name, t.topic_id, t.partition_indexes)
                })
                .collect()
        });
        let found = committed(
            broker,
            &topics,
            group.group_id.as_str(),
            asked,
            request.require_stable,
        );
        let mut answer = OffsetFetchResponseGroup::default();
        answer.group_id = group.group_id;
        let mut places: HashMap<String, usize> = HashMap::new();
        for (name, id, partition, found) in found {
            let (offset, epoch, metadata, error) = offset_fields(found);
            let mut p = OffsetFetchResponsePartitions::default();
            p.partition_index = partition;
            p.committed_offset = offset;
            p.committed_leader_epoch = epoch;
            p.metadata = metadata;
            p.error_code = error.code();
            let place = *places.entry(name).or_insert_with_key(|name| {
                let mut topic = OffsetFetchResponseTopics::default();
                if version < 10 {
                    topic.name = name.as_str().into();
                }
                topic.topic_id = id;
                answer.topics.push(topic);
                answer.topics.len() - 1
            });
            answer.topics[place].partitions.push(p);
        }
        response.groups.push(answer);
    }
    response
}

#[cfg(test)]
mod tests {
    use kwire_messages::api::offset_commit::{
        OffsetCommitRequestPartition, OffsetCommitRequestTopic,
    };
    use kwire_messages::api::offset_fetch::{
        OffsetFetchRequestGroup, OffsetFetchRequestTopic, OffsetFetchRequestTopics,
    };

    use super::*;
    use crate::config::Limits;
    use crate::handlers::testing;

    /// Offsets for any name and index were stored: a group's offsets grew with
    /// every made-up partition. Kafka answers UNKNOWN_TOPIC_OR_PARTITION.
    #[test]
    fn offsets_for_partitions_that_do_not_exist_are_refused() {
        let broker = testing::broker(Limits::default());
        broker.topics().create("t", 1);
        let topic = |name: &str, indexes: &[i32]| {
            let mut topic = OffsetCommitRequestTopic::default();
            topic.name = name.into();
            topic.partitions = indexes
                .iter()
                .map(|&index| {
                    let mut p = OffsetCommitRequestPartition::default();
                    p.partition_index = index;
                    p.committed_offset = 7;
                    p
                })
                .collect();
            topic
        };
        let mut request = OffsetCommitRequest::default();
        request.group_id = "g".into();
        request.generation_id_or_member_epoch = -1;
        request.topics = vec![topic("t", &[0, 5, -1]), topic("nope", &[0])];
        let response = commit(&broker, request, 8);
        let codes: Vec<Vec<i16>> = response
            .topics
            .iter()
            .map(|t| t.partitions.iter().map(|p| p.error_code).collect())
            .collect();
        let unknown = ErrorCode::UnknownTopicOrPartition.code();
        assert_eq!(codes, [vec![0, unknown, unknown], vec![unknown]]);
        let stored = broker.groups().committed("g", None);
        assert_eq!(stored.len(), 1, "only t-0");
    }

    /// Commits offset 7 with `metadata` for partition 0 of `t` in group `g`.
    fn commit_with(broker: &Broker, metadata: &str) -> i16 {
        let mut p = OffsetCommitRequestPartition::default();
        p.committed_offset = 7;
        p.committed_metadata = Some(metadata.into());
        let mut topic = OffsetCommitRequestTopic::default();
        topic.name = "t".into();
        topic.partitions = vec![p];
        let mut request = OffsetCommitRequest::default();
        request.group_id = "g".into();
        request.generation_id_or_member_epoch = -1;
        request.topics = vec![topic];
        commit(broker, request, 8).topics[0].partitions[0].error_code
    }

    #[test]
    fn metadata_over_offset_metadata_max_bytes_is_refused() {
        let broker = testing::broker(Limits::default());
        broker.topics().create("t", 1);
        let too_large = ErrorCode::OffsetMetadataTooLarge.code();
        assert_eq!(commit_with(&broker, &"m".repeat(4097)), too_large);
        assert!(broker.groups().committed("g", None).is_empty());
        assert_eq!(commit_with(&broker, &"m".repeat(4096)), 0);
    }

    /// Repeats of a partition, or of a group asking for all its offsets, cost
    /// a few bytes each and were each answered with the stored metadata.
    #[test]
    fn repeated_partitions_and_groups_are_answered_once() {
        let broker = testing::broker(Limits::default());
        broker.topics().create("t", 1);
        assert_eq!(commit_with(&broker, &"m".repeat(4096)), 0);

        let mut topic = OffsetFetchRequestTopic::default();
        topic.name = "t".into();
        topic.partition_indexes = vec![0; 500];
        let mut request = OffsetFetchRequest::default();
        request.group_id = "g".into();
        request.topics = Some(vec![topic.clone(), topic]);
        let response = fetch(&broker, request, 7);
        assert_eq!(response.topics.len(), 1);
        assert_eq!(response.topics[0].partitions.len(), 1);

        let mut topics = OffsetFetchRequestTopics::default();
        topics.name = "t".into();
        topics.partition_indexes = vec![0; 500];
        let mut named = OffsetFetchRequestGroup::default();
        named.group_id = "g".into();
        named.topics = Some(vec![topics]);
        let mut all = OffsetFetchRequestGroup::default();
        all.group_id = "g".into();
        all.topics = None;
        let mut request = OffsetFetchRequest::default();
        request.groups = vec![named, all.clone(), all];
        let response = fetch(&broker, request, 9);
        assert_eq!(response.groups.len(), 1);
        assert_eq!(response.groups[0].topics[0].partitions.len(), 1);
    }
}

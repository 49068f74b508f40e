//! The test values requests are built from, made on Kafka before the sweep: a
//! topic holding records (its name and id), one topic per DeleteTopics version
//! to delete, a group with a committed offset, a transactional producer, and
//! the cluster's id.

use std::collections::hash_map::DefaultHasher;
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};

use kwire::records::RecordBatchBuilder;
use kwire::{KafkaString, Records, Uuid};
use kwire_messages::api::offset_commit::{OffsetCommitRequestPartition, OffsetCommitRequestTopic};
use kwire_messages::api::produce::{PartitionProduceData, TopicProduceData};
use kwire_messages::api::{
    FindCoordinatorRequest, FindCoordinatorResponse, InitProducerIdRequest, InitProducerIdResponse,
    MetadataRequest, OffsetCommitRequest, OffsetCommitResponse, ProduceRequest,
};
use kwire_messages::ApiKey;
use kwire_net::client::Connection;
use kwire_tests::kafka_peer::setup::{
    common_versions, create_topic, no_error, retried, unique, Failure, Topic,
};

/// What the requests name.
#[derive(Debug, Clone)]
pub struct Values {
    /// Distinguishes this run's names.
    pub run: String,
    /// A topic with two partitions and three records in partition 0.
    pub topic: Topic,
    /// A topic to delete, per DeleteTopics version.
    pub doomed: BTreeMap<i16, Topic>,
    /// A classic group with offset 1 committed for the topic's partition 0.
    pub group: KafkaString,
    /// A transactional id with a producer id and epoch.
    pub transactional_id: KafkaString,
    /// Its producer id.
    pub producer_id: i64,
    /// Its producer epoch.
    pub producer_epoch: i16,
    /// The cluster's id.
    pub cluster_id: KafkaString,
}

impl Values {
    /// Makes them on `kafka`.
    pub async fn make(kafka: &Connection, run: &str) -> Result<Values, Failure> {
        let topic = create_topic(kafka, &unique("sweep", run), 2, &[]).await?;
        produce_three(kafka, &topic).await?;
        let mut doomed = BTreeMap::new();
        for version in common_versions(kafka, ApiKey::DeleteTopics)? {
            let name = unique(&format!("sweep-delete-v{version}"), run);
            doomed.insert(version, create_topic(kafka, &name, 1, &[]).await?);
        }
        let group = KafkaString::from(unique("sweep-group", run));
        coordinator(kafka, 0, group.as_str().to_owned()).await?;
        commit_one(kafka, &group, &topic).await?;
        let transactional_id = KafkaString::from(unique("sweep-txn", run));
        coordinator(kafka, 1, transactional_id.as_str().to_owned()).await?;
        let request = InitProducerIdRequest::default()
            .with_transactional_id(Some(transactional_id.clone()))
            .with_transaction_timeout_ms(60_000);
        let producer = retried(
            || async { Ok(kafka.send(request.clone()).await?) },
            |answer: &InitProducerIdResponse| answer.error_code,
        )
        .await?;
        no_error("InitProducerId", producer.error_code)?;
        let share_state = format!("{}:{}:0", named("share-state", 0, run), topic.id);
        coordinator(kafka, 2, share_state).await?;
        let metadata = kafka
            .send(MetadataRequest::default().with_topics(Some(Vec::new())))
            .await?;
        Ok(Values {
            run: run.to_owned(),
            topic,
            doomed,
            group,
            transactional_id,
            producer_id: producer.producer_id,
            producer_epoch: producer.producer_epoch,
            cluster_id: metadata.cluster_id.clone().unwrap_or_default(),
        })
    }

    /// A name for something this run makes at `version` (a group, a member).
    pub fn name(&self, what: &str, version: i16) -> KafkaString {
        named(what, version, &self.run).into()
    }

    /// A member id a client makes itself (KIP-848: a UUID's text), the same for
    /// the same `what` and `version` within a run.
    pub fn member(&self, what: &str, version: i16) -> KafkaString {
        let mut hasher = DefaultHasher::new();
        (what, version, &self.run).hash(&mut hasher);
        let most = hasher.finish();
        "member".hash(&mut hasher);
        Uuid::from_u64_pair(most, hasher.finish())
            .to_string()
            .into()
    }
}

/// The name of something a run makes at a version.
fn named(what: &str, version: i16, run: &str) -> String {
    format!("kwire-sweep-{what}-v{version}-{run}")
}

/// FindCoordinator with `key_type` (0 group, 1 transaction, 2 share state)
/// for `key`, until Kafka names a coordinator: the first ask of each kind
/// creates its internal topic (`__consumer_offsets`, `__transaction_state`,
/// `__share_group_state`), and until a partition of it loads, the coordinator's
/// requests are answered NOT_COORDINATOR, as clients find out first.
async fn coordinator(kafka: &Connection, key_type: i8, key: String) -> Result<(), Failure> {
    let request = FindCoordinatorRequest::default()
        .with_key_type(key_type)
        .with_coordinator_keys(vec![key.into()]);
    let answer = retried(
        || async { Ok(kafka.send(request.clone()).await?) },
        |answer: &FindCoordinatorResponse| {
            answer
                .coordinators
                .first()
                .map_or(answer.error_code, |c| c.error_code)
        },
    )
    .await?;
    let code = answer.coordinators.first().map_or(-1, |c| c.error_code);
    no_error(&format!("FindCoordinator (key type {key_type})"), code)
}

async fn produce_three(kafka: &Connection, topic: &Topic) -> Result<(), Failure> {
    let mut batch = RecordBatchBuilder::new(0);
    for value in [&b"one"[..], b"two", b"three"] {
        batch.append(0, None, Some(value), &[])?;
    }
    let request = ProduceRequest::default()
        .with_acks(-1)
        .with_timeout_ms(10_000)
        .with_topic_data(vec![TopicProduceData::default()
            .with_name(topic.name.clone())
            .with_partition_data(vec![PartitionProduceData::default()
                .with_index(0)
                .with_records(Some(Records(batch.build()?)))])]);
    let answer = kafka.send_at(request, 12).await?;
    for partition in answer.responses.iter().flat_map(|t| &t.partition_responses) {
        no_error("Produce", partition.error_code)?;
    }
    Ok(())
}

/// Commits offset 1 for the topic's partition 0 in `group`, as a consumer that
/// assigns itself partitions does (no generation, no member).
async fn commit_one(kafka: &Connection, group: &KafkaString, topic: &Topic) -> Result<(), Failure> {
    let request = OffsetCommitRequest::default()
        .with_group_id(group.clone())
        .with_topics(vec![OffsetCommitRequestTopic::default()
            .with_name(topic.name.clone())
            .with_partitions(vec![OffsetCommitRequestPartition::default()
                .with_partition_index(0)
                .with_committed_offset(1)
                .with_committed_metadata(Some("sweep".into()))])]);
    let answer = retried(
        || async { Ok(kafka.send_at(request.clone(), 9).await?) },
        |answer: &OffsetCommitResponse| {
            answer
                .topics
                .iter()
                .flat_map(|t| &t.partitions)
                .map(|p| p.error_code)
                .find(|&code| code != 0)
                .unwrap_or(0)
        },
    )
    .await?;
    for partition in answer.topics.iter().flat_map(|t| &t.partitions) {
        no_error("OffsetCommit", partition.error_code)?;
    }
    Ok(())
}

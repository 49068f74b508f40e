//! What the programs against Kafka need to set it up: topics created and ready
//! (their partitions leading), their ids, the versions both sides know, and
//! requests sent again while a coordinator loads, as Kafka's clients do.

use std::error::Error;
use std::ops::RangeInclusive;

use kwire::{KafkaString, Uuid};
use kwire_messages::api::create_topics::{CreatableTopic, CreatableTopicConfig};
use kwire_messages::api::list_offsets::{ListOffsetsPartition, ListOffsetsTopic};
use kwire_messages::api::metadata::MetadataRequestTopic;
use kwire_messages::api::{
    CreateTopicsRequest, ListOffsetsRequest, ListOffsetsResponse, MetadataRequest, MetadataResponse,
};
use kwire_messages::{ApiKey, ErrorCode};
use kwire_net::client::Connection;

/// A check's failure: what differed, in words.
pub type Failure = Box<dyn Error + Send + Sync>;

/// A topic: its name and the id Kafka gave it.
#[derive(Debug, Clone)]
pub struct Topic {
    /// The name.
    pub name: KafkaString,
    /// The id, from Metadata.
    pub id: Uuid,
}

/// The versions of `api` that both this code and the broker know, lowest first.
pub fn common_versions(kafka: &Connection, api: ApiKey) -> Result<RangeInclusive<i16>, Failure> {
    let choice = kafka
        .negotiated()
        .choice(api)
        .ok_or_else(|| format!("{} was not negotiated", api.name()))?;
    let (broker_min, broker_max) = choice
        .broker
        .ok_or_else(|| format!("Kafka does not offer {}", api.name()))?;
    let (ours_min, ours_max) = (
        choice.ours.min().ok_or("no version of ours")?,
        choice.ours.max().ok_or("no version of ours")?,
    );
    Ok(broker_min.max(ours_min)..=broker_max.min(ours_max))
}

/// Checks a Kafka error code, naming what answered it.
pub fn no_error(what: &str, code: i16) -> Result<(), Failure> {
    match ErrorCode::from_code(code) {
        ErrorCode::None => Ok(()),
        error => Err(format!("{what} answered {error:?} ({code})").into()),
    }
}

/// Creates `name` with `partitions` partitions and `configs`, and reads its id back
/// from Metadata; the id CreateTopics gave must be the same.
pub async fn create_topic(
    kafka: &Connection,
    name: &str,
    partitions: i32,
    configs: &[(&str, &str)],
) -> Result<Topic, Failure> {
    let topic = CreatableTopic::default()
        .with_name(name.into())
        .with_num_partitions(partitions)
        .with_replication_factor(1)
        .with_configs(
            configs
                .iter()
                .map(|(key, value)| {
                    CreatableTopicConfig::default()
                        .with_name((*key).into())
                        .with_value(Some((*value).into()))
                })
                .collect(),
        );
    let created = kafka
        .send(
            CreateTopicsRequest::default()
                .with_timeout_ms(10_000)
                .with_topics(vec![topic]),
        )
        .await?;
    let result = created
        .topics
        .first()
        .ok_or("CreateTopics answered no topic")?;
    no_error(&format!("CreateTopics {name}"), result.error_code)?;
    let id = topic_id(kafka, name).await?;
    if kafka.version(ApiKey::CreateTopics)? >= 7 && result.topic_id != id {
        return Err(format!(
            "CreateTopics gave {name} the id {}, Metadata {id}",
            result.topic_id
        )
        .into());
    }
    let topic = Topic {
        name: name.into(),
        id,
    };
    // Metadata names the topic before its partitions lead: until they do,
    // Produce answers NOT_LEADER_OR_FOLLOWER. ListOffsets asks the leaders.
    let asked = ListOffsetsRequest::default()
        .with_replica_id(-1)
        .with_topics(vec![ListOffsetsTopic::default()
            .with_name(topic.name.clone())
            .with_partitions(
                (0..partitions)
                    .map(|index| {
                        ListOffsetsPartition::default()
                            .with_partition_index(index)
                            .with_timestamp(-1)
                    })
                    .collect(),
            )]);
    let answer = retried(
        || async { Ok(kafka.send(asked.clone()).await?) },
        |answer: &ListOffsetsResponse| {
            answer
                .topics
                .iter()
                .flat_map(|topic| &topic.partitions)
                .map(|partition| partition.error_code)
                .find(|&code| code != 0)
                .unwrap_or(0)
        },
    )
    .await?;
    for partition in answer.topics.iter().flat_map(|topic| &topic.partitions) {
        no_error(&format!("ListOffsets {name}"), partition.error_code)?;
    }
    Ok(topic)
}

/// The id Metadata gives `name`; an error if Kafka does not know the topic.
pub async fn topic_id(kafka: &Connection, name: &str) -> Result<Uuid, Failure> {
    // The broker learns of a topic from the controller a moment after
    // CreateTopics answers: until then it is UNKNOWN_TOPIC_OR_PARTITION.
    let request = MetadataRequest::default()
        .with_topics(Some(vec![
            MetadataRequestTopic::default().with_name(Some(name.into()))
        ]))
        .with_allow_auto_topic_creation(false);
    let metadata = retried(
        || async { Ok(kafka.send(request.clone()).await?) },
        |answer: &MetadataResponse| answer.topics.first().map_or(0, |topic| topic.error_code),
    )
    .await?;
    let topic = metadata
        .topics
        .first()
        .ok_or("Metadata answered no topic")?;
    no_error(&format!("Metadata {name}"), topic.error_code)?;
    if topic.topic_id == Uuid::ZERO {
        return Err(format!("Metadata gave {name} no id").into());
    }
    Ok(topic.topic_id)
}

/// Asks with `attempt` until `done` holds for the answer: what the controller
/// changed reaches the broker's metadata a moment after it answered. 100
/// attempts at most, 100 ms apart; the last answer either way.
pub async fn until<T, F, Fut>(attempt: F, done: impl Fn(&T) -> bool) -> Result<T, Failure>
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = Result<T, Failure>>,
{
    let mut tries = 0;
    loop {
        let answer = attempt().await?;
        tries += 1;
        if tries >= 100 || done(&answer) {
            return Ok(answer);
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// A name unique to this run, so that runs against one cluster do not meet.
pub fn unique(prefix: &str, run: &str) -> String {
    format!("kwire-{prefix}-{run}")
}

/// The errors Kafka answers while a coordinator is still starting or a
/// transaction is still ending: Kafka's own clients retry on them.
const RETRIABLE: [ErrorCode; 7] = [
    ErrorCode::CoordinatorLoadInProgress,
    ErrorCode::CoordinatorNotAvailable,
    ErrorCode::NotCoordinator,
    ErrorCode::ConcurrentTransactions,
    ErrorCode::UnknownTopicOrPartition,
    ErrorCode::NotLeaderOrFollower,
    ErrorCode::LeaderNotAvailable,
];

/// Sends what `attempt` sends until its answer's error code (`code`) is not one
/// Kafka's clients retry on: 100 attempts at most, 100 ms apart.
pub async fn retried<T, F, Fut>(attempt: F, code: fn(&T) -> i16) -> Result<T, Failure>
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = Result<T, Failure>>,
{
    let mut tries = 0;
    loop {
        let answer = attempt().await?;
        tries += 1;
        if tries >= 100 || !RETRIABLE.contains(&ErrorCode::from_code(code(&answer))) {
            return Ok(answer);
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

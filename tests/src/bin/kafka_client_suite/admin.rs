//! Topics and configs: CreateTopics at every version (a validate-only one
//! creating nothing), each topic's partitions and configs as asked; DeleteTopics
//! at every version (by name, from v6 by id), the topic gone; a topic's config
//! set, read, changed and removed with IncrementalAlterConfigs and
//! DescribeConfigs, and set with the older AlterConfigs.

use kwire::KafkaString;
use kwire_messages::api::create_topics::{CreatableTopic, CreatableTopicConfig};
use kwire_messages::api::delete_topics::DeleteTopicState;
use kwire_messages::api::describe_configs::DescribeConfigsResource;
use kwire_messages::api::metadata::MetadataRequestTopic;
use kwire_messages::api::{alter_configs, incremental_alter_configs};
use kwire_messages::api::{
    AlterConfigsRequest, CreateTopicsRequest, DeleteTopicsRequest, DescribeConfigsRequest,
    IncrementalAlterConfigsRequest, MetadataRequest,
};
use kwire_messages::{ApiKey, ErrorCode};
use kwire_net::client::Connection;
use kwire_tests::kafka_peer::report::Report;

use crate::support::{
    common_versions, ensure, no_error, topic_id, unique, until, Failure, Outcome, Topic,
};

/// DescribeConfigs' resource type of a topic.
const TOPIC_RESOURCE: i8 = 2;
/// DescribeConfigs' config sources: set on the topic, and Kafka's default.
const TOPIC_CONFIG: i8 = 1;
const DEFAULT_CONFIG: i8 = 5;
/// Kafka's default `retention.ms`: seven days.
const DEFAULT_RETENTION_MS: &str = "604800000";

pub async fn run(kafka: &Connection, report: &mut Report, run: &str) {
    report.record(
        "admin",
        "CreateTopics validate_only creates nothing",
        validate_only(kafka, run).await,
    );
    let mut created = Vec::new();
    match common_versions(kafka, ApiKey::CreateTopics) {
        Ok(versions) => {
            for version in versions {
                let outcome = create_at(kafka, run, version).await.map(|topic| {
                    let seen = format!(
                        "{} with 3 partitions and retention.ms 123456",
                        topic.name.as_str()
                    );
                    created.push(topic);
                    seen
                });
                report.record("admin", &format!("CreateTopics v{version}"), outcome);
            }
        }
        Err(error) => {
            report.record("admin", "CreateTopics", Err(error));
        }
    }
    if let Some(topic) = created.first() {
        report.record(
            "admin",
            "IncrementalAlterConfigs SET, DescribeConfigs, DELETE",
            incremental(kafka, topic).await,
        );
        report.record(
            "admin",
            "AlterConfigs replaces the topic's configs",
            alter(kafka, topic).await,
        );
    }
    if let Ok(versions) = common_versions(kafka, ApiKey::DeleteTopics) {
        for (version, topic) in versions.zip(created.iter()) {
            report.record(
                "admin",
                &format!("DeleteTopics v{version}"),
                delete_at(kafka, version, topic).await,
            );
        }
    }
}

fn topic_request(name: &str) -> CreatableTopic {
    CreatableTopic::default()
        .with_name(name.into())
        .with_num_partitions(3)
        .with_replication_factor(1)
        .with_configs(vec![CreatableTopicConfig::default()
            .with_name("retention.ms".into())
            .with_value(Some("123456".into()))])
}

/// Metadata's answer for `name`: its error code and partition count.
async fn described(kafka: &Connection, name: &str) -> Result<(ErrorCode, usize), Failure> {
    let answer = kafka
        .send(
            MetadataRequest::default()
                .with_topics(Some(vec![
                    MetadataRequestTopic::default().with_name(Some(name.into()))
                ]))
                .with_allow_auto_topic_creation(false),
        )
        .await?;
    let topic = answer.topics.first().ok_or("Metadata answered no topic")?;
    Ok((
        ErrorCode::from_code(topic.error_code),
        topic.partitions.len(),
    ))
}

async fn validate_only(kafka: &Connection, run: &str) -> Outcome {
    let name = unique("admin-validate", run);
    let answer = kafka
        .send(
            CreateTopicsRequest::default()
                .with_validate_only(true)
                .with_topics(vec![topic_request(&name)]),
        )
        .await?;
    let result = answer
        .topics
        .first()
        .ok_or("CreateTopics answered no topic")?;
    no_error("CreateTopics validate_only", result.error_code)?;
    let (code, _) = described(kafka, &name).await?;
    ensure!(
        code == ErrorCode::UnknownTopicOrPartition,
        "after validate_only, Metadata answered {code:?} for the topic"
    );
    Ok(format!(
        "NONE, {} partitions announced; Metadata: UNKNOWN_TOPIC_OR_PARTITION",
        result.num_partitions
    ))
}

async fn create_at(kafka: &Connection, run: &str, version: i16) -> Result<Topic, Failure> {
    let name = unique(&format!("admin-v{version}"), run);
    let answer = kafka
        .send_at(
            CreateTopicsRequest::default()
                .with_timeout_ms(10_000)
                .with_topics(vec![topic_request(&name)]),
            version,
        )
        .await?;
    let [result] = &answer.topics[..] else {
        return Err(format!(
            "CreateTopics v{version} answered {} topics",
            answer.topics.len()
        )
        .into());
    };
    ensure!(
        result.name.as_str() == name,
        "answered for {:?}",
        result.name.as_str()
    );
    no_error(&format!("CreateTopics v{version}"), result.error_code)?;
    // From v5 the answer says what was made.
    if version >= 5 {
        ensure!(
            result.num_partitions == 3 && result.replication_factor == 1,
            "v{version} answered {} partitions, replication {}",
            result.num_partitions,
            result.replication_factor
        );
        let retention = result
            .configs
            .iter()
            .flatten()
            .find(|config| config.name.as_str() == "retention.ms");
        ensure!(
            retention
                .and_then(|c| c.value.as_ref())
                .map(KafkaString::as_str)
                == Some("123456"),
            "v{version} answered retention.ms {retention:?}"
        );
    }
    let (code, partitions) = until(
        || described(kafka, &name),
        |answer| *answer == (ErrorCode::None, 3),
    )
    .await?;
    ensure!(
        (code, partitions) == (ErrorCode::None, 3),
        "Metadata answered {code:?} with {partitions} partitions"
    );
    let id = topic_id(kafka, &name).await?;
    if version >= 7 {
        ensure!(
            result.topic_id == id,
            "v{version} gave id {}, Metadata {id}",
            result.topic_id
        );
    }
    Ok(Topic {
        name: name.as_str().into(),
        id,
    })
}

/// The topic's `retention.ms` as DescribeConfigs gives it: value and source.
async fn retention(kafka: &Connection, topic: &Topic) -> Result<(Option<String>, i8), Failure> {
    let answer = kafka
        .send(DescribeConfigsRequest::default().with_resources(vec![
            DescribeConfigsResource::default()
                .with_resource_type(TOPIC_RESOURCE)
                .with_resource_name(topic.name.clone())
                .with_configuration_keys(Some(vec!["retention.ms".into()])),
        ]))
        .await?;
    let [result] = &answer.results[..] else {
        return Err("DescribeConfigs answered no resource".into());
    };
    no_error("DescribeConfigs", result.error_code)?;
    let [config] = &result.configs[..] else {
        return Err(format!("DescribeConfigs answered {} configs", result.configs.len()).into());
    };
    ensure!(
        config.name.as_str() == "retention.ms",
        "answered {:?}",
        config.name.as_str()
    );
    Ok((
        config.value.as_ref().map(|v| v.as_str().to_owned()),
        config.config_source,
    ))
}

async fn incremental_one(
    kafka: &Connection,
    topic: &Topic,
    operation: i8,
    value: Option<&str>,
) -> Result<(), Failure> {
    let answer = kafka
        .send(
            IncrementalAlterConfigsRequest::default().with_resources(vec![
                incremental_alter_configs::AlterConfigsResource::default()
                    .with_resource_type(TOPIC_RESOURCE)
                    .with_resource_name(topic.name.clone())
                    .with_configs(vec![incremental_alter_configs::AlterableConfig::default()
                        .with_name("retention.ms".into())
                        .with_config_operation(operation)
                        .with_value(value.map(KafkaString::from))]),
            ]),
        )
        .await?;
    let [result] = &answer.responses[..] else {
        return Err("IncrementalAlterConfigs answered no resource".into());
    };
    no_error("IncrementalAlterConfigs", result.error_code)
}

async fn incremental(kafka: &Connection, topic: &Topic) -> Outcome {
    let created = retention(kafka, topic).await?;
    ensure!(
        created == (Some("123456".into()), TOPIC_CONFIG),
        "as created, retention.ms is {created:?}"
    );
    incremental_one(kafka, topic, 0, Some("654321")).await?;
    let set = until(
        || retention(kafka, topic),
        |now| now.0.as_deref() == Some("654321"),
    )
    .await?;
    ensure!(
        set == (Some("654321".into()), TOPIC_CONFIG),
        "after SET: {set:?}"
    );
    incremental_one(kafka, topic, 1, None).await?;
    let deleted = until(|| retention(kafka, topic), |now| now.1 == DEFAULT_CONFIG).await?;
    ensure!(
        deleted == (Some(DEFAULT_RETENTION_MS.into()), DEFAULT_CONFIG),
        "after DELETE: {deleted:?}"
    );
    Ok(format!(
        "123456 (topic) -> SET 654321 (topic) -> DELETE {DEFAULT_RETENTION_MS} (default)"
    ))
}

async fn alter(kafka: &Connection, topic: &Topic) -> Outcome {
    let answer = kafka
        .send(AlterConfigsRequest::default().with_resources(vec![
            alter_configs::AlterConfigsResource::default()
                .with_resource_type(TOPIC_RESOURCE)
                .with_resource_name(topic.name.clone())
                .with_configs(vec![alter_configs::AlterableConfig::default()
                    .with_name("retention.ms".into())
                    .with_value(Some("111111".into()))]),
        ]))
        .await?;
    let [result] = &answer.responses[..] else {
        return Err("AlterConfigs answered no resource".into());
    };
    no_error("AlterConfigs", result.error_code)?;
    let now = until(
        || retention(kafka, topic),
        |now| now.0.as_deref() == Some("111111"),
    )
    .await?;
    ensure!(
        now == (Some("111111".into()), TOPIC_CONFIG),
        "after AlterConfigs: {now:?}"
    );
    Ok(format!(
        "retention.ms 111111 (topic), v{}",
        kafka.version(ApiKey::AlterConfigs)?
    ))
}

async fn delete_at(kafka: &Connection, version: i16, topic: &Topic) -> Outcome {
    let request = if version >= 6 {
        DeleteTopicsRequest::default().with_topics(vec![DeleteTopicState::default()
            .with_name(None)
            .with_topic_id(topic.id)])
    } else {
        DeleteTopicsRequest::default().with_topic_names(vec![topic.name.clone()])
    };
    let answer = kafka
        .send_at(request.with_timeout_ms(10_000), version)
        .await?;
    let [result] = &answer.responses[..] else {
        return Err(format!(
            "DeleteTopics v{version} answered {} topics",
            answer.responses.len()
        )
        .into());
    };
    no_error(&format!("DeleteTopics v{version}"), result.error_code)?;
    if version >= 6 {
        ensure!(
            result.topic_id == topic.id && result.name.as_ref() == Some(&topic.name),
            "v{version} answered for {:?} / {}",
            result.name.as_ref().map(KafkaString::as_str),
            result.topic_id
        );
    } else {
        ensure!(
            result.name.as_ref() == Some(&topic.name),
            "v{version} answered for {:?}",
            result.name.as_ref().map(KafkaString::as_str)
        );
    }
    // Deletion is the controller's: the broker's metadata follows shortly.
    for _ in 0..100 {
        let (code, _) = described(kafka, topic.name.as_str()).await?;
        if code == ErrorCode::UnknownTopicOrPartition {
            let by = if version >= 6 { "id" } else { "name" };
            return Ok(format!("by {by}; Metadata: UNKNOWN_TOPIC_OR_PARTITION"));
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    Err(format!(
        "{} still there 5 s after DeleteTopics v{version}",
        topic.name.as_str()
    )
    .into())
}

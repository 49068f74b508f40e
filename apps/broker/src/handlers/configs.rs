//! DescribeConfigs, IncrementalAlterConfigs and AlterConfigs.
//!
//! Topics have Kafka's topic configs (`topic_configs.rs`), kept per topic and
//! changed as Kafka changes them, with its checks and messages. The broker
//! resource describes this broker's own settings by Kafka's names, read-only:
//! nothing here is dynamic, so an alteration is refused as Kafka refuses one
//! of its static configs. Other resource types (broker loggers, client
//! metrics, groups) are not kept: refused as Kafka refuses a type it does not
//! handle.

use std::collections::HashSet;

use kwire::KafkaString;
use kwire_messages::api::describe_configs::{
    DescribeConfigsResourceResult, DescribeConfigsResult, DescribeConfigsSynonym,
};
use kwire_messages::api::{
    alter_configs, incremental_alter_configs, AlterConfigsRequest, AlterConfigsResponse,
    DescribeConfigsRequest, DescribeConfigsResponse, IncrementalAlterConfigsRequest,
    IncrementalAlterConfigsResponse,
};
use kwire_messages::ErrorCode;

use crate::config::Config;
use crate::handlers::topics::topic_name_error;
use crate::log::Topics;
use crate::topic_configs::{self, list_items, ConfigError, Kind, Source, TopicConfigs};
use crate::Broker;

/// Kafka's `ConfigResource.Type` codes.
const TOPIC: i8 = 2;
const BROKER: i8 = 4;

fn type_name(code: i8) -> &'static str {
    match code {
        TOPIC => "TOPIC",
        BROKER => "BROKER",
        8 => "BROKER_LOGGER",
        16 => "CLIENT_METRICS",
        32 => "GROUP",
        _ => "UNKNOWN",
    }
}

/// One described config, whatever the resource.
struct Described {
    name: &'static str,
    value: String,
    source: Source,
    kind: Kind,
    read_only: bool,
    /// The broker setting its default comes from, with that default.
    synonym: Option<(&'static str, &'static str)>,
}

pub fn describe(
    broker: &Broker,
    request: DescribeConfigsRequest,
    version: i16,
) -> DescribeConfigsResponse {
    let topics = broker.topics();
    // A resource named again is answered once, at its first place: an answer
    // is some 40 rows, the request's entry a few bytes.
    let mut seen = HashSet::new();
    let results = request
        .resources
        .into_iter()
        .filter(|r| seen.insert((r.resource_type, r.resource_name.as_str().to_owned())))
        .map(|resource| {
            let mut result = DescribeConfigsResult::default();
            result.resource_type = resource.resource_type;
            // Null or empty: every config, as Kafka answers both.
            let keys: Option<HashSet<String>> = resource
                .configuration_keys
                .filter(|keys| !keys.is_empty())
                .map(|keys| keys.iter().map(|k| k.as_str().to_owned()).collect());
            let found = described(
                &broker.config,
                &topics,
                resource.resource_type,
                resource.resource_name.as_str(),
            );
            result.resource_name = resource.resource_name;
            match found {
                // Kafka describes a missing topic without a message.
                Err(error) if error.code == ErrorCode::UnknownTopicOrPartition => {
                    result.error_code = error.code.code();
                    result.error_message = Some("".into());
                }
                Ok(configs) => {
                    result.configs = configs
                        .into_iter()
                        .filter(|c| keys.as_ref().is_none_or(|k| k.contains(c.name)))
                        .map(|c| entry(c, request.include_synonyms, version))
                        .collect();
                }
                Err(error) => {
                    result.error_code = error.code.code();
                    result.error_message = Some(error.message.into());
                }
            }
            result
        })
        .collect();
    let mut response = DescribeConfigsResponse::default();
    response.results = results;
    response
}

/// Every config of one resource.
fn described(
    config: &Config,
    topics: &Topics,
    resource_type: i8,
    name: &str,
) -> Result<Vec<Described>, ConfigError> {
    match resource_type {
        TOPIC => {
            let configs = topic(topics, name)?;
            Ok(configs
                .all()
                .map(|(d, value, source)| Described {
                    name: d.name,
                    value: value.to_owned(),
                    source,
                    kind: d.kind,
                    read_only: false,
                    synonym: d.synonym.map(|s| (s, d.default)),
                })
                .collect())
        }
        BROKER => {
            if name.is_empty() {
                // The cluster-wide dynamic defaults: there are none.
                return Ok(Vec::new());
            }
            this_broker(config, name)?;
            Ok(broker_configs(config))
        }
        other => Err(unsupported(other)),
    }
}

fn unsupported(resource_type: i8) -> ConfigError {
    ConfigError::invalid_request(format!(
        "Unsupported resource type: {}",
        type_name(resource_type)
    ))
}

/// The configs of topic `name`, or Kafka's error for it.
fn topic<'a>(topics: &'a Topics, name: &str) -> Result<&'a TopicConfigs, ConfigError> {
    if let Some(message) = topic_name_error(name) {
        return Err(ConfigError {
            code: ErrorCode::InvalidTopicException,
            message,
        });
    }
    topics
        .get(name)
        .map(|t| &t.configs)
        .ok_or_else(|| ConfigError {
            code: ErrorCode::UnknownTopicOrPartition,
            message: format!("The topic '{name}' does not exist."),
        })
}

/// Checks a broker resource's name: ours, as Kafka's `ConfigHelper` does.
fn this_broker(config: &Config, name: &str) -> Result<(), ConfigError> {
    let id: i32 = name.parse().map_err(|_| {
        ConfigError::invalid_request(format!("Broker id must be an integer, but it is: {name}"))
    })?;
    if id != config.node_id {
        return Err(ConfigError::invalid_request(format!(
            "Unexpected broker id, expected {} or empty string, but received {name}",
            config.node_id
        )));
    }
    Ok(())
}

/// This broker's settings by Kafka's names, with Kafka's defaults: the source
/// is the default where the value is Kafka's default, the broker's own
/// configuration otherwise. None can be changed while it runs.
fn broker_configs(config: &Config) -> Vec<Described> {
    let limits = &config.limits;
    let settings: [(&'static str, Kind, String, &'static str); 8] = [
        (
            "auto.create.topics.enable",
            Kind::Boolean,
            config.auto_create.to_string(),
            "true",
        ),
        ("broker.id", Kind::Int, config.node_id.to_string(), "-1"),
        (
            "fetch.max.bytes",
            Kind::Int,
            limits.fetch_max_bytes.to_string(),
            "57671680",
        ),
        (
            "group.max.size",
            Kind::Int,
            limits.group_max_size.to_string(),
            "2147483647",
        ),
        ("node.id", Kind::Int, config.node_id.to_string(), "-1"),
        (
            "num.partitions",
            Kind::Int,
            config.default_partitions.to_string(),
            "1",
        ),
        (
            "offset.metadata.max.bytes",
            Kind::Int,
            limits.offset_metadata_max_bytes.to_string(),
            "4096",
        ),
        (
            "transaction.max.timeout.ms",
            Kind::Int,
            crate::transactions::MAX_TIMEOUT_MS.to_string(),
            "900000",
        ),
    ];
    settings
        .into_iter()
        .map(|(name, kind, value, default)| {
            let source = if value == default {
                Source::Default
            } else {
                Source::StaticBroker
            };
            Described {
                name,
                value,
                source,
                kind,
                read_only: true,
                synonym: Some((name, default)),
            }
        })
        .collect()
}

fn entry(c: Described, include_synonyms: bool, version: i16) -> DescribeConfigsResourceResult {
    let mut entry = DescribeConfigsResourceResult::default();
    entry.name = c.name.into();
    entry.read_only = c.read_only;
    entry.config_source = c.source as i8;
    entry.is_sensitive = false;
    if version >= 3 {
        entry.config_type = c.kind as i8;
    }
    // Asked for or not, none: Kafka's words are not copied here.
    entry.documentation = None;
    if include_synonyms {
        // As Kafka lists them: the value's own source first, then the
        // broker's default it would fall back to.
        let synonym = |name: &str, value: &str, source: Source| {
            let mut s = DescribeConfigsSynonym::default();
            s.name = name.into();
            s.value = Some(value.into());
            s.source = source as i8;
            s
        };
        if c.source != Source::Default {
            entry.synonyms.push(synonym(c.name, &c.value, c.source));
        }
        if let Some((name, default)) = c.synonym {
            entry.synonyms.push(synonym(name, default, Source::Default));
        }
    }
    entry.value = Some(c.value.into());
    entry
}

/// Kafka's `AlterConfigOp.OpType` codes.
const SET: i8 = 0;
const DELETE: i8 = 1;
const APPEND: i8 = 2;
const SUBTRACT: i8 = 3;

fn op_name(op: i8) -> &'static str {
    match op {
        SET => "SET",
        DELETE => "DELETE",
        APPEND => "APPEND",
        _ => "SUBTRACT",
    }
}

pub fn incremental_alter(
    broker: &Broker,
    request: IncrementalAlterConfigsRequest,
) -> IncrementalAlterConfigsResponse {
    let mut topics = broker.topics();
    let duplicated = Duplicated::among(
        request
            .resources
            .iter()
            .map(|r| (r.resource_type, &r.resource_name)),
    );
    let responses = request
        .resources
        .into_iter()
        .map(|resource| {
            let outcome = duplicated
                .check(resource.resource_type, &resource.resource_name)
                .and_then(|()| {
                    let ops: Vec<(&str, i8, Option<&str>)> = resource
                        .configs
                        .iter()
                        .map(|c| {
                            (
                                c.name.as_str(),
                                c.config_operation,
                                c.value.as_ref().map(|v| v.as_str()),
                            )
                        })
                        .collect();
                    alter_resource(
                        &broker.config,
                        &mut topics,
                        resource.resource_type,
                        resource.resource_name.as_str(),
                        request.validate_only,
                        |configs| apply_ops(configs, &ops),
                        ops.iter().map(|(name, ..)| *name),
                    )
                });
            let mut answer = incremental_alter_configs::AlterConfigsResourceResponse::default();
            answer.resource_type = resource.resource_type;
            answer.resource_name = resource.resource_name;
            (answer.error_code, answer.error_message) = error_fields(outcome);
            answer
        })
        .collect();
    let mut response = IncrementalAlterConfigsResponse::default();
    response.responses = responses;
    response
}

pub fn alter(broker: &Broker, request: AlterConfigsRequest) -> AlterConfigsResponse {
    let mut topics = broker.topics();
    let duplicated = Duplicated::among(
        request
            .resources
            .iter()
            .map(|r| (r.resource_type, &r.resource_name)),
    );
    let responses = request
        .resources
        .into_iter()
        .map(|resource| {
            let outcome = duplicated
                .check(resource.resource_type, &resource.resource_name)
                .and_then(|()| {
                    let given: Vec<(&str, Option<&str>)> = resource
                        .configs
                        .iter()
                        .map(|c| (c.name.as_str(), c.value.as_ref().map(|v| v.as_str())))
                        .collect();
                    alter_resource(
                        &broker.config,
                        &mut topics,
                        resource.resource_type,
                        resource.resource_name.as_str(),
                        request.validate_only,
                        |configs| replace_all(configs, &given),
                        given.iter().map(|(name, _)| *name),
                    )
                });
            let mut answer = alter_configs::AlterConfigsResourceResponse::default();
            answer.resource_type = resource.resource_type;
            answer.resource_name = resource.resource_name;
            (answer.error_code, answer.error_message) = error_fields(outcome);
            answer
        })
        .collect();
    let mut response = AlterConfigsResponse::default();
    response.responses = responses;
    response
}

/// The (type, name) pairs an alteration names more than once: each is
/// refused, rather than changed twice in an order the answer could not show.
struct Duplicated(HashSet<(i8, String)>);

impl Duplicated {
    fn among<'a>(resources: impl Iterator<Item = (i8, &'a KafkaString)>) -> Self {
        let mut seen = HashSet::new();
        Duplicated(
            resources
                .map(|(t, name)| (t, name.as_str().to_owned()))
                .filter(|key| !seen.insert(key.clone()))
                .collect(),
        )
    }

    fn check(&self, resource_type: i8, name: &KafkaString) -> Result<(), ConfigError> {
        if self.0.contains(&(resource_type, name.as_str().to_owned())) {
            return Err(ConfigError::invalid_request(
                "A resource appears more than once in the request.".into(),
            ));
        }
        Ok(())
    }
}

/// A resource's answer fields: error code 0 and no message, or the refusal's.
fn error_fields(outcome: Result<(), ConfigError>) -> (i16, Option<KafkaString>) {
    match outcome {
        Ok(()) => (0, None),
        Err(error) => (error.code.code(), Some(error.message.into())),
    }
}

/// One resource's alteration, all or nothing: `change` turns a copy of a
/// topic's configs into the new ones (or refuses), stored unless
/// `validate_only`. A broker resource's configs are all static.
fn alter_resource<'a>(
    config: &Config,
    topics: &mut Topics,
    resource_type: i8,
    name: &str,
    validate_only: bool,
    change: impl FnOnce(&mut TopicConfigs) -> Result<(), ConfigError>,
    names: impl Iterator<Item = &'a str>,
) -> Result<(), ConfigError> {
    match resource_type {
        TOPIC => {
            let mut configs = topic(topics, name)?.clone();
            change(&mut configs)?;
            if !validate_only {
                if let Some(topic) = topics.get_mut(name) {
                    topic.configs = configs;
                }
            }
            Ok(())
        }
        BROKER => {
            if !name.is_empty() {
                this_broker(config, name)?;
            }
            let names: Vec<&str> = names.collect();
            if names.is_empty() {
                return Ok(());
            }
            Err(ConfigError::invalid_request(format!(
                "Cannot update these configs dynamically: [{}]",
                names.join(", ")
            )))
        }
        other => Err(unsupported(other)),
    }
}

/// IncrementalAlterConfigs' operations on one topic's configs, checked as
/// Kafka checks them: the request's shape first (a key twice, a missing value,
/// an unknown operation), then each config and the value it would end with.
fn apply_ops(
    configs: &mut TopicConfigs,
    ops: &[(&str, i8, Option<&str>)],
) -> Result<(), ConfigError> {
    let mut names = HashSet::new();
    if !ops.iter().all(|(name, ..)| names.insert(*name)) {
        return Err(ConfigError::invalid_request(
            "Error due to duplicate config keys".into(),
        ));
    }
    for &(name, op, value) in ops {
        if !(SET..=SUBTRACT).contains(&op) {
            return Err(ConfigError::invalid_request(format!(
                "Unknown operation {op} for config {name}"
            )));
        }
        if op != DELETE && value.is_none() {
            return Err(ConfigError::invalid_request(format!(
                "Null value not supported for : {name}"
            )));
        }
    }
    for &(name, op, value) in ops {
        let definition = topic_configs::definition(name).ok_or_else(|| {
            ConfigError::invalid_config(format!("Unknown topic config name: {name}"))
        })?;
        let value = value.unwrap_or_default();
        let new = match op {
            SET => value.to_owned(),
            DELETE => {
                configs.remove(definition);
                continue;
            }
            _ if definition.kind != Kind::List => {
                return Err(ConfigError::invalid_config(format!(
                    "Can't {} to key {name} because its type is not LIST.",
                    op_name(op)
                )));
            }
            APPEND => {
                let mut items: Vec<&str> = list_items(configs.value(definition).0);
                for item in list_items(value) {
                    if !items.contains(&item) {
                        items.push(item);
                    }
                }
                items.join(",")
            }
            _ => {
                let removed = list_items(value);
                list_items(configs.value(definition).0)
                    .into_iter()
                    .filter(|item| !removed.contains(item))
                    .collect::<Vec<_>>()
                    .join(",")
            }
        };
        definition.validate(&new)?;
        configs.set(definition, new);
    }
    Ok(())
}

/// AlterConfigs: the configs given replace every override.
fn replace_all(
    configs: &mut TopicConfigs,
    given: &[(&str, Option<&str>)],
) -> Result<(), ConfigError> {
    let mut names = HashSet::new();
    if !given.iter().all(|(name, _)| names.insert(*name)) {
        return Err(ConfigError::invalid_request(
            "Error due to duplicate config keys".into(),
        ));
    }
    let mut replaced = TopicConfigs::default();
    for &(name, value) in given {
        let value = value.ok_or_else(|| {
            ConfigError::invalid_request(format!("Null value not supported for : {name}"))
        })?;
        let definition = topic_configs::validate(name, value)?;
        replaced.set(definition, value.to_owned());
    }
    *configs = replaced;
    Ok(())
}

#[cfg(test)]
mod tests {
    use kwire_messages::api::describe_configs::DescribeConfigsResource;
    use kwire_messages::api::incremental_alter_configs::{AlterConfigsResource, AlterableConfig};

    use super::*;
    use crate::config::Limits;
    use crate::handlers::testing;

    fn describe_topic(broker: &Broker, name: &str, synonyms: bool) -> DescribeConfigsResult {
        let mut request = DescribeConfigsRequest::default();
        let mut resource = DescribeConfigsResource::default();
        resource.resource_type = TOPIC;
        resource.resource_name = name.into();
        request.resources = vec![resource];
        request.include_synonyms = synonyms;
        describe(broker, request, 4).results.remove(0)
    }

    fn value_of(result: &DescribeConfigsResult, name: &str) -> (String, i8) {
        let entry = result
            .configs
            .iter()
            .find(|c| c.name.as_str() == name)
            .expect("described");
        (
            entry.value.as_ref().expect("a value").as_str().to_owned(),
            entry.config_source,
        )
    }

    fn alter(
        broker: &Broker,
        topic: &str,
        ops: &[(&str, i8, Option<&str>)],
    ) -> (ErrorCode, String) {
        let mut request = IncrementalAlterConfigsRequest::default();
        let mut resource = AlterConfigsResource::default();
        resource.resource_type = TOPIC;
        resource.resource_name = topic.into();
        resource.configs = ops
            .iter()
            .map(|&(name, op, value)| {
                let mut c = AlterableConfig::default();
                c.name = name.into();
                c.config_operation = op;
                c.value = value.map(KafkaString::from);
                c
            })
            .collect();
        request.resources = vec![resource];
        let answer = incremental_alter(broker, request).responses.remove(0);
        (
            ErrorCode::from(answer.error_code),
            answer
                .error_message
                .map(|m| m.as_str().to_owned())
                .unwrap_or_default(),
        )
    }

    #[test]
    fn a_topic_is_described_with_every_kafka_topic_config() {
        let broker = testing::broker(Limits::default());
        broker.topics().create("t", 1);
        let result = describe_topic(&broker, "t", true);
        assert_eq!(result.error_code, 0);
        assert_eq!(result.configs.len(), topic_configs::TOPIC_CONFIGS.len());
        assert_eq!(
            value_of(&result, "cleanup.policy"),
            ("delete".into(), Source::Default as i8)
        );
        let retention = result
            .configs
            .iter()
            .find(|c| c.name.as_str() == "retention.bytes")
            .expect("described");
        assert_eq!(retention.config_type, Kind::Long as i8);
        assert_eq!(retention.synonyms.len(), 1);
        assert_eq!(retention.synonyms[0].name.as_str(), "log.retention.bytes");
    }

    /// Kafka 4.4.0 answers an empty key list with every config, as null.
    #[test]
    fn keys_pick_configs_and_an_empty_list_means_all() {
        let broker = testing::broker(Limits::default());
        broker.topics().create("t", 1);
        let mut counts = Vec::new();
        for keys in [
            None,
            Some(vec![]),
            Some(vec!["retention.ms".into(), "nope".into()]),
        ] {
            let mut request = DescribeConfigsRequest::default();
            let mut resource = DescribeConfigsResource::default();
            resource.resource_type = TOPIC;
            resource.resource_name = "t".into();
            resource.configuration_keys = keys;
            request.resources = vec![resource];
            counts.push(describe(&broker, request, 4).results[0].configs.len());
        }
        assert_eq!(counts, [37, 37, 1]);
    }

    #[test]
    fn set_append_subtract_and_delete_change_what_is_described() {
        let broker = testing::broker(Limits::default());
        broker.topics().create("t", 1);
        let ok = (ErrorCode::None, String::new());
        assert_eq!(
            alter(&broker, "t", &[("retention.ms", SET, Some("5000"))]),
            ok
        );
        assert_eq!(
            alter(&broker, "t", &[("cleanup.policy", APPEND, Some("compact"))]),
            ok
        );
        let result = describe_topic(&broker, "t", false);
        assert_eq!(
            value_of(&result, "retention.ms"),
            ("5000".into(), Source::DynamicTopic as i8)
        );
        assert_eq!(value_of(&result, "cleanup.policy").0, "delete,compact");
        assert_eq!(
            alter(
                &broker,
                "t",
                &[("cleanup.policy", SUBTRACT, Some("delete"))]
            ),
            ok
        );
        assert_eq!(alter(&broker, "t", &[("retention.ms", DELETE, None)]), ok);
        let result = describe_topic(&broker, "t", false);
        assert_eq!(value_of(&result, "cleanup.policy").0, "compact");
        assert_eq!(
            value_of(&result, "retention.ms"),
            ("604800000".into(), Source::Default as i8)
        );
    }

    /// Kafka 4.4.0's answers to the same requests; a refused request changes
    /// nothing, not even its valid parts.
    #[test]
    fn refusals_are_kafkas_and_change_nothing() {
        let broker = testing::broker(Limits::default());
        broker.topics().create("t", 1);
        assert_eq!(
            alter(
                &broker,
                "t",
                &[
                    ("segment.ms", SET, Some("10")),
                    ("retention.ms", SET, Some("soon"))
                ]
            ),
            (
                ErrorCode::InvalidConfig,
                "Invalid value soon for configuration retention.ms: Not a number of type LONG"
                    .into()
            )
        );
        assert_eq!(
            alter(&broker, "t", &[("retention.ms", APPEND, Some("5"))]),
            (
                ErrorCode::InvalidConfig,
                "Can't APPEND to key retention.ms because its type is not LIST.".into()
            )
        );
        assert_eq!(
            alter(
                &broker,
                "t",
                &[
                    ("retention.ms", SET, Some("5")),
                    ("retention.ms", SET, Some("6"))
                ]
            ),
            (
                ErrorCode::InvalidRequest,
                "Error due to duplicate config keys".into()
            )
        );
        assert_eq!(
            alter(&broker, "t", &[("retention.ms", SET, None)]),
            (
                ErrorCode::InvalidRequest,
                "Null value not supported for : retention.ms".into()
            )
        );
        assert_eq!(
            alter(&broker, "nope", &[("retention.ms", SET, Some("5"))]),
            (
                ErrorCode::UnknownTopicOrPartition,
                "The topic 'nope' does not exist.".into()
            )
        );
        assert_eq!(
            broker.topics().get("t").expect("t").configs,
            TopicConfigs::default()
        );
    }

    #[test]
    fn broker_configs_are_described_and_cannot_be_altered() {
        let broker = testing::broker(Limits::default());
        let mut request = DescribeConfigsRequest::default();
        for name in ["1", "", "7"] {
            let mut resource = DescribeConfigsResource::default();
            resource.resource_type = BROKER;
            resource.resource_name = name.into();
            request.resources.push(resource);
        }
        let results = describe(&broker, request, 4).results;
        let ours = &results[0];
        assert_eq!(
            value_of(ours, "num.partitions"),
            ("1".into(), Source::Default as i8)
        );
        assert_eq!(
            value_of(ours, "group.max.size"),
            ("1000".into(), Source::StaticBroker as i8)
        );
        assert!(ours.configs.iter().all(|c| c.read_only));
        assert!(results[1].configs.is_empty() && results[1].error_code == 0);
        assert_eq!(results[2].error_code, ErrorCode::InvalidRequest.code());

        let mut request = IncrementalAlterConfigsRequest::default();
        let mut resource = AlterConfigsResource::default();
        resource.resource_type = BROKER;
        resource.resource_name = "1".into();
        let mut config = AlterableConfig::default();
        config.name = "num.partitions".into();
        config.value = Some("5".into());
        resource.configs = vec![config];
        request.resources = vec![resource];
        let answer = incremental_alter(&broker, request).responses.remove(0);
        assert_eq!(answer.error_code, ErrorCode::InvalidRequest.code());
        assert_eq!(
            answer.error_message.as_ref().map(|m| m.as_str()),
            Some("Cannot update these configs dynamically: [num.partitions]")
        );
    }

    #[test]
    fn alter_configs_replaces_every_override() {
        let broker = testing::broker(Limits::default());
        broker.topics().create("t", 1);
        alter(&broker, "t", &[("retention.ms", SET, Some("5000"))]);
        let mut request = AlterConfigsRequest::default();
        let mut resource = alter_configs::AlterConfigsResource::default();
        resource.resource_type = TOPIC;
        resource.resource_name = "t".into();
        let mut config = alter_configs::AlterableConfig::default();
        config.name = "segment.ms".into();
        config.value = Some("1000".into());
        resource.configs = vec![config];
        request.resources = vec![resource];
        assert_eq!(super::alter(&broker, request).responses[0].error_code, 0);
        let result = describe_topic(&broker, "t", false);
        assert_eq!(value_of(&result, "retention.ms").1, Source::Default as i8);
        assert_eq!(
            value_of(&result, "segment.ms"),
            ("1000".into(), Source::DynamicTopic as i8)
        );
    }
}

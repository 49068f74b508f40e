//! Topic configurations: Kafka 4.4's topic configs (name, type, default, the
//! broker setting a default comes from, and the check a value must pass), and
//! each topic's overrides.
//!
//! The broker keeps and reports them (CreateTopics, DescribeConfigs,
//! IncrementalAlterConfigs, AlterConfigs) as Kafka does, refusing what Kafka
//! refuses with its error and message; it does not act on them: nothing is
//! retained less, compacted or refused for its size because of a topic config.
//! The table, the checks and the messages were taken from a Kafka 4.4.0
//! broker's answers (each config set to values on both sides of its bounds).

use std::collections::BTreeMap;

use kwire_messages::ErrorCode;

/// A config's type, by Kafka's `DescribeConfigsResponse.ConfigType` codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Boolean = 1,
    String = 2,
    Int = 3,
    Long = 5,
    Double = 6,
    List = 7,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Boolean => "BOOLEAN",
            Kind::String => "STRING",
            Kind::Int => "INT",
            Kind::Long => "LONG",
            Kind::Double => "DOUBLE",
            Kind::List => "LIST",
        }
    }
}

/// What a value must be beyond its type.
#[derive(Debug, Clone, Copy)]
enum Check {
    Any,
    AtLeast(i64),
    Between(i64, i64),
    /// gzip's levels: 1 to 9, or -1 for the codec's default.
    GzipLevel,
    /// A string, one of these.
    OneOf(&'static [&'static str]),
    /// A list, each item one of these.
    ListOf(&'static [&'static str]),
    /// `*`, or `partition:broker` pairs.
    ThrottledReplicas,
    /// Only `false`: tiered storage is not there to switch on.
    TieredStorage,
}

/// One topic config.
#[derive(Debug)]
pub struct Definition {
    pub name: &'static str,
    pub kind: Kind,
    pub default: &'static str,
    /// The broker setting the default comes from, which Kafka lists as the
    /// config's synonym.
    pub synonym: Option<&'static str>,
    check: Check,
}

const COMPRESSION_TYPES: &[&str] = &["uncompressed", "zstd", "lz4", "snappy", "gzip", "producer"];
const TIMESTAMP_TYPES: &[&str] = &["CreateTime", "LogAppendTime"];
const CLEANUP_POLICIES: &[&str] = &["compact", "delete"];
const MAX: &str = "9223372036854775807";

const fn def(
    name: &'static str,
    kind: Kind,
    default: &'static str,
    synonym: Option<&'static str>,
    check: Check,
) -> Definition {
    Definition {
        name,
        kind,
        default,
        synonym,
        check,
    }
}

/// Every topic config of Kafka 4.4, by name.
pub const TOPIC_CONFIGS: &[Definition] = {
    use Check::*;
    use Kind::*;
    &[
        def(
            "cleanup.policy",
            List,
            "delete",
            Some("log.cleanup.policy"),
            ListOf(CLEANUP_POLICIES),
        ),
        def(
            "compression.gzip.level",
            Int,
            "-1",
            Some("compression.gzip.level"),
            GzipLevel,
        ),
        def(
            "compression.lz4.level",
            Int,
            "9",
            Some("compression.lz4.level"),
            Between(1, 17),
        ),
        def(
            "compression.type",
            String,
            "producer",
            Some("compression.type"),
            OneOf(COMPRESSION_TYPES),
        ),
        def(
            "compression.zstd.level",
            Int,
            "3",
            Some("compression.zstd.level"),
            Between(-131_072, 22),
        ),
        def(
            "delete.retention.ms",
            Long,
            "86400000",
            Some("log.cleaner.delete.retention.ms"),
            AtLeast(0),
        ),
        def(
            "errors.deadletterqueue.group.enable",
            Boolean,
            "false",
            None,
            Any,
        ),
        def(
            "file.delete.delay.ms",
            Long,
            "60000",
            Some("log.segment.delete.delay.ms"),
            AtLeast(0),
        ),
        def(
            "flush.messages",
            Long,
            MAX,
            Some("log.flush.interval.messages"),
            AtLeast(1),
        ),
        def("flush.ms", Long, MAX, None, AtLeast(0)),
        def(
            "follower.replication.throttled.replicas",
            List,
            "",
            None,
            ThrottledReplicas,
        ),
        def(
            "index.interval.bytes",
            Int,
            "4096",
            Some("log.index.interval.bytes"),
            AtLeast(0),
        ),
        def(
            "leader.replication.throttled.replicas",
            List,
            "",
            None,
            ThrottledReplicas,
        ),
        def(
            "local.retention.bytes",
            Long,
            "-2",
            Some("log.local.retention.bytes"),
            AtLeast(-2),
        ),
        def(
            "local.retention.ms",
            Long,
            "-2",
            Some("log.local.retention.ms"),
            AtLeast(-2),
        ),
        def(
            "max.compaction.lag.ms",
            Long,
            MAX,
            Some("log.cleaner.max.compaction.lag.ms"),
            AtLeast(1),
        ),
        def(
            "max.decompressed.message.bytes",
            Int,
            "2147483639",
            Some("max.decompressed.message.bytes"),
            Between(1, 2_147_483_639),
        ),
        def(
            "max.message.bytes",
            Int,
            "1048588",
            Some("message.max.bytes"),
            AtLeast(0),
        ),
        def(
            "message.timestamp.after.max.ms",
            Long,
            "3600000",
            Some("log.message.timestamp.after.max.ms"),
            AtLeast(0),
        ),
        def(
            "message.timestamp.before.max.ms",
            Long,
            MAX,
            Some("log.message.timestamp.before.max.ms"),
            AtLeast(0),
        ),
        def(
            "message.timestamp.type",
            String,
            "CreateTime",
            Some("log.message.timestamp.type"),
            OneOf(TIMESTAMP_TYPES),
        ),
        def(
            "min.cleanable.dirty.ratio",
            Double,
            "0.5",
            Some("log.cleaner.min.cleanable.ratio"),
            Between(0, 1),
        ),
        def(
            "min.compaction.lag.ms",
            Long,
            "0",
            Some("log.cleaner.min.compaction.lag.ms"),
            AtLeast(0),
        ),
        def(
            "min.insync.replicas",
            Int,
            "1",
            Some("min.insync.replicas"),
            AtLeast(1),
        ),
        def(
            "preallocate",
            Boolean,
            "false",
            Some("log.preallocate"),
            Any,
        ),
        def(
            "remote.copy.lag.bytes",
            Long,
            "-1",
            Some("log.remote.copy.lag.bytes"),
            AtLeast(-1),
        ),
        def(
            "remote.copy.lag.ms",
            Long,
            "0",
            Some("log.remote.copy.lag.ms"),
            AtLeast(-1),
        ),
        def("remote.log.copy.disable", Boolean, "false", None, Any),
        def("remote.log.delete.on.disable", Boolean, "false", None, Any),
        def(
            "remote.storage.enable",
            Boolean,
            "false",
            None,
            TieredStorage,
        ),
        def(
            "retention.bytes",
            Long,
            "-1",
            Some("log.retention.bytes"),
            Any,
        ),
        def("retention.ms", Long, "604800000", None, AtLeast(-1)),
        def(
            "segment.bytes",
            Int,
            "1073741824",
            Some("log.segment.bytes"),
            AtLeast(1_048_576),
        ),
        def(
            "segment.index.bytes",
            Int,
            "10485760",
            Some("log.index.size.max.bytes"),
            AtLeast(4),
        ),
        def("segment.jitter.ms", Long, "0", None, AtLeast(0)),
        def("segment.ms", Long, "604800000", None, AtLeast(1)),
        def(
            "unclean.leader.election.enable",
            Boolean,
            "false",
            Some("unclean.leader.election.enable"),
            Any,
        ),
    ]
};

/// The longest value kept: a config value travels as a Kafka string, which
/// cannot be longer. It also bounds what APPEND can grow a list to.
pub const MAX_VALUE_BYTES: usize = i16::MAX as usize;

/// The topic config called `name`.
pub fn definition(name: &str) -> Option<&'static Definition> {
    TOPIC_CONFIGS
        .binary_search_by(|d| d.name.cmp(name))
        .ok()
        .map(|i| &TOPIC_CONFIGS[i])
}

/// Why a value or a change is refused: Kafka's error code and message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    pub code: ErrorCode,
    pub message: String,
}

impl ConfigError {
    pub fn invalid_config(message: String) -> Self {
        ConfigError {
            code: ErrorCode::InvalidConfig,
            message,
        }
    }

    pub fn invalid_request(message: String) -> Self {
        ConfigError {
            code: ErrorCode::InvalidRequest,
            message,
        }
    }
}

/// A list config's items, as Kafka splits them: on commas, each trimmed; the
/// empty string is the empty list.
pub fn list_items(value: &str) -> Vec<&str> {
    let value = value.trim();
    if value.is_empty() {
        return Vec::new();
    }
    value.split(',').map(str::trim).collect()
}

impl Definition {
    /// Checks `value` as Kafka's broker does before storing it.
    pub fn validate(&self, value: &str) -> Result<(), ConfigError> {
        let invalid = |shown: &str, why: String| {
            Err(ConfigError::invalid_config(format!(
                "Invalid value {shown} for configuration {}: {why}",
                self.name
            )))
        };
        if value.len() > MAX_VALUE_BYTES {
            return invalid(
                "(too long)",
                format!("A value may be at most {MAX_VALUE_BYTES} bytes"),
            );
        }
        let trimmed = value.trim();
        let not_a_number = || format!("Not a number of type {}", self.kind.name());
        let number = match self.kind {
            Kind::Boolean => {
                if !trimmed.eq_ignore_ascii_case("true") && !trimmed.eq_ignore_ascii_case("false") {
                    return invalid(value, "Expected value to be either true or false".into());
                }
                None
            }
            Kind::Int => match trimmed.parse::<i32>() {
                Ok(n) => Some(f64::from(n)),
                Err(_) => return invalid(value, not_a_number()),
            },
            Kind::Long => match trimmed.parse::<i64>() {
                Ok(n) => Some(n as f64),
                Err(_) => return invalid(value, not_a_number()),
            },
            Kind::Double => match trimmed.parse::<f64>() {
                Ok(n) => Some(n),
                Err(_) => return invalid(value, not_a_number()),
            },
            Kind::String | Kind::List => None,
        };
        // The bounds are small enough that an i64 compares exactly as an f64
        // (Long bounds are all near zero).
        let below = |min: i64| number.is_some_and(|n| n < min as f64);
        let above = |max: i64| number.is_some_and(|n| n > max as f64);
        match self.check {
            Check::Any => Ok(()),
            Check::AtLeast(min) if below(min) => {
                invalid(value, format!("Value must be at least {min}"))
            }
            Check::Between(min, _) if below(min) => {
                invalid(value, format!("Value must be at least {min}"))
            }
            Check::Between(_, max) if above(max) => {
                invalid(value, format!("Value must be no more than {max}"))
            }
            Check::AtLeast(_) | Check::Between(..) => Ok(()),
            Check::GzipLevel => match number {
                Some(n) if n == -1.0 || (1.0..=9.0).contains(&n) => Ok(()),
                _ => invalid(value, "Value must be between 1 and 9 or equal to -1".into()),
            },
            Check::OneOf(allowed) if !allowed.contains(&trimmed) => invalid(
                value,
                format!("String must be one of: {}", allowed.join(", ")),
            ),
            Check::OneOf(_) => Ok(()),
            Check::ListOf(allowed) => match list_items(value)
                .into_iter()
                .find(|item| !allowed.contains(item))
            {
                Some(item) => invalid(
                    item,
                    format!("String must be one of: {}", allowed.join(", ")),
                ),
                None => Ok(()),
            },
            Check::ThrottledReplicas => {
                let items = list_items(value);
                let pair = |item: &str| {
                    item.split_once(':').is_some_and(|(p, b)| {
                        [p, b]
                            .iter()
                            .all(|n| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()))
                    })
                };
                if items == ["*"] || items.iter().all(|item| pair(item)) {
                    Ok(())
                } else {
                    invalid(
                        &format!("[{}]", items.join(", ")),
                        format!(
                            "{} must be the literal '*' or a list of replicas in the \
                             following format: [partitionId]:[brokerId],[partitionId]:[brokerId],...",
                            self.name
                        ),
                    )
                }
            }
            Check::TieredStorage if trimmed.eq_ignore_ascii_case("true") => {
                Err(ConfigError::invalid_config(
                    "Tiered Storage functionality is disabled in the broker. Topic cannot be \
                     configured with remote log storage."
                        .into(),
                ))
            }
            Check::TieredStorage => Ok(()),
        }
    }
}

/// Checks a config named in a request: known, and its value valid.
pub fn validate(name: &str, value: &str) -> Result<&'static Definition, ConfigError> {
    let definition = definition(name)
        .ok_or_else(|| ConfigError::invalid_config(format!("Unknown topic config name: {name}")))?;
    definition.validate(value)?;
    Ok(definition)
}

/// Where a value comes from, by Kafka's `ConfigSource` codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    DynamicTopic = 1,
    StaticBroker = 4,
    Default = 5,
}

/// One topic's overrides of the defaults, values as given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TopicConfigs {
    overrides: BTreeMap<&'static str, String>,
}

impl TopicConfigs {
    /// The value of `definition` and where it comes from.
    pub fn value(&self, definition: &'static Definition) -> (&str, Source) {
        match self.overrides.get(definition.name) {
            Some(value) => (value, Source::DynamicTopic),
            None => (definition.default, Source::Default),
        }
    }

    /// Sets an override; `value` must have passed [`Definition::validate`].
    pub fn set(&mut self, definition: &'static Definition, value: String) {
        self.overrides.insert(definition.name, value);
    }

    /// Removes an override: back to the default.
    pub fn remove(&mut self, definition: &'static Definition) {
        self.overrides.remove(definition.name);
    }

    /// Every config with its value and source, by name.
    pub fn all(&self) -> impl Iterator<Item = (&'static Definition, &str, Source)> + '_ {
        TOPIC_CONFIGS.iter().map(|d| {
            let (value, source) = self.value(d);
            (d, value, source)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_by_name_and_every_default_is_valid() {
        assert!(TOPIC_CONFIGS.windows(2).all(|w| w[0].name < w[1].name));
        for definition in TOPIC_CONFIGS {
            assert_eq!(
                definition.validate(definition.default),
                Ok(()),
                "{}",
                definition.name
            );
        }
        assert_eq!(
            TOPIC_CONFIGS.len(),
            37,
            "Kafka 4.4 describes 37 topic configs"
        );
    }

    fn refusal(name: &str, value: &str) -> String {
        match validate(name, value) {
            Ok(_) => "accepted".into(),
            Err(error) => {
                assert_eq!(error.code, ErrorCode::InvalidConfig);
                error.message
            }
        }
    }

    /// What Kafka 4.4.0 answered for the same values.
    #[test]
    fn values_are_refused_with_kafkas_messages() {
        assert_eq!(
            refusal("retention.ms", "soon"),
            "Invalid value soon for configuration retention.ms: Not a number of type LONG"
        );
        assert_eq!(
            refusal("retention.ms", "-2"),
            "Invalid value -2 for configuration retention.ms: Value must be at least -1"
        );
        assert_eq!(refusal("retention.ms", "-1"), "accepted");
        assert_eq!(
            refusal("segment.bytes", "1048575"),
            "Invalid value 1048575 for configuration segment.bytes: Value must be at least 1048576"
        );
        assert_eq!(
            refusal("segment.bytes", "2147483648"),
            "Invalid value 2147483648 for configuration segment.bytes: Not a number of type INT"
        );
        assert_eq!(
            refusal("compression.lz4.level", "18"),
            "Invalid value 18 for configuration compression.lz4.level: Value must be no more than 17"
        );
        assert_eq!(
            refusal("compression.gzip.level", "0"),
            "Invalid value 0 for configuration compression.gzip.level: Value must be between 1 \
             and 9 or equal to -1"
        );
        assert_eq!(refusal("compression.gzip.level", "-1"), "accepted");
        assert_eq!(
            refusal("cleanup.policy", "delete,keep"),
            "Invalid value keep for configuration cleanup.policy: String must be one of: \
             compact, delete"
        );
        assert_eq!(refusal("cleanup.policy", ""), "accepted");
        assert_eq!(refusal("cleanup.policy", "compact, delete"), "accepted");
        assert_eq!(
            refusal("compression.type", "brotli"),
            "Invalid value brotli for configuration compression.type: String must be one of: \
             uncompressed, zstd, lz4, snappy, gzip, producer"
        );
        assert_eq!(
            refusal("preallocate", "yes"),
            "Invalid value yes for configuration preallocate: Expected value to be either true \
             or false"
        );
        assert_eq!(refusal("preallocate", " TRUE"), "accepted");
        assert_eq!(refusal("min.insync.replicas", " 5"), "accepted");
        assert_eq!(
            refusal("min.cleanable.dirty.ratio", "1.1"),
            "Invalid value 1.1 for configuration min.cleanable.dirty.ratio: Value must be no \
             more than 1"
        );
        assert_eq!(
            refusal("leader.replication.throttled.replicas", "0:1,x"),
            "Invalid value [0:1, x] for configuration leader.replication.throttled.replicas: \
             leader.replication.throttled.replicas must be the literal '*' or a list of replicas \
             in the following format: [partitionId]:[brokerId],[partitionId]:[brokerId],..."
        );
        assert_eq!(
            refusal("leader.replication.throttled.replicas", "*"),
            "accepted"
        );
        assert_eq!(
            refusal("leader.replication.throttled.replicas", "0:1, 1:1"),
            "accepted"
        );
        assert_eq!(
            refusal("remote.storage.enable", "true"),
            "Tiered Storage functionality is disabled in the broker. Topic cannot be configured \
             with remote log storage."
        );
        assert_eq!(
            refusal("foo.bar", "1"),
            "Unknown topic config name: foo.bar"
        );
    }

    #[test]
    fn a_value_longer_than_a_kafka_string_is_refused() {
        let long = "0:1,".repeat(MAX_VALUE_BYTES / 4 + 1);
        assert!(refusal("leader.replication.throttled.replicas", &long).contains("at most"));
    }

    #[test]
    fn overrides_replace_defaults_until_removed() {
        let retention = definition("retention.ms").expect("a topic config");
        let mut configs = TopicConfigs::default();
        assert_eq!(configs.value(retention), ("604800000", Source::Default));
        configs.set(retention, " 5000".into());
        assert_eq!(configs.value(retention), (" 5000", Source::DynamicTopic));
        assert_eq!(
            configs
                .all()
                .filter(|(_, _, s)| *s == Source::DynamicTopic)
                .count(),
            1
        );
        configs.remove(retention);
        assert_eq!(configs, TopicConfigs::default());
    }
}

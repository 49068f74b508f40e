//! AlterClientQuotas (API key 49): sets or removes client quotas.

use kwire::{KafkaString, UnknownTaggedFields};

/// AlterClientQuotas request: the quota changes of each entity.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 49, kind = request, response = AlterClientQuotasResponse, versions = "0-1",
        flexible = "1+", listeners = "broker, controller")]
pub struct AlterClientQuotasRequest {
    /// The quota configuration entries to alter.
    #[kafka(versions = "0+")]
    pub entries: Vec<EntryData>,
    /// Whether the alteration should be validated, but not performed.
    #[kafka(versions = "0+")]
    pub validate_only: bool,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A quota entity and the quota changes to apply to it.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct EntryData {
    /// The quota entity to alter.
    #[kafka(versions = "0+")]
    pub entity: Vec<EntityData>,
    /// An individual quota configuration entry to alter.
    #[kafka(versions = "0+")]
    pub ops: Vec<OpData>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One component of a quota entity: its type and name.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct EntityData {
    /// The entity type.
    #[kafka(versions = "0+")]
    pub entity_type: KafkaString,
    /// The name of the entity, or null if the default.
    #[kafka(versions = "0+", nullable = "0+")]
    pub entity_name: Option<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One quota change: set a key to a value, or remove it.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct OpData {
    /// The quota configuration key.
    #[kafka(versions = "0+")]
    pub key: KafkaString,
    /// The value to set, otherwise ignored if the value is to be removed.
    #[kafka(versions = "0+")]
    pub value: f64,
    /// Whether the quota configuration value should be removed, otherwise set.
    #[kafka(versions = "0+")]
    pub remove: bool,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// AlterClientQuotas response: the outcome for each entity.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 49, kind = response, versions = "0-1", flexible = "1+")]
pub struct AlterClientQuotasResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// The quota configuration entries to alter.
    #[kafka(versions = "0+")]
    pub entries: Vec<EntryResultData>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The outcome of altering one entity's quotas (Kafka's response `EntryData`).
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "EntryData")]
pub struct EntryResultData {
    /// The error code, or `0` if the quota alteration succeeded.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The error message, or `null` if the quota alteration succeeded.
    #[kafka(versions = "0+", nullable = "0+")]
    pub error_message: Option<KafkaString>,
    /// The quota entity to alter.
    #[kafka(versions = "0+")]
    pub entity: Vec<EntityData>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

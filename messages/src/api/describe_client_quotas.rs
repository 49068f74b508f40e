//! DescribeClientQuotas (API key 48): reads the client quotas matching a filter.

use kwire::{KafkaString, UnknownTaggedFields};

/// DescribeClientQuotas request: the filter that selects quota entities.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 48, kind = request, response = DescribeClientQuotasResponse, versions = "0-1",
        flexible = "1+", listeners = "broker")]
pub struct DescribeClientQuotasRequest {
    /// Filter components to apply to quota entities.
    #[kafka(versions = "0+")]
    pub components: Vec<ComponentData>,
    /// Whether the match is strict, i.e. should exclude entities with unspecified
    /// entity types.
    #[kafka(versions = "0+")]
    pub strict: bool,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One filter component: an entity type and how to match its name.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct ComponentData {
    /// The entity type that the filter component applies to.
    #[kafka(versions = "0+")]
    pub entity_type: KafkaString,
    /// How to match the entity {0 = exact name, 1 = default name, 2 = any specified
    /// name}.
    #[kafka(versions = "0+")]
    pub match_type: i8,
    /// The string to match against, or null if unused for the match type.
    #[kafka(versions = "0+", nullable = "0+")]
    pub r#match: Option<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// DescribeClientQuotas response: the matching entities and their quota values.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 48, kind = response, versions = "0-1", flexible = "1+")]
pub struct DescribeClientQuotasResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// The error code, or `0` if the quota description succeeded.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The error message, or `null` if the quota description succeeded.
    #[kafka(versions = "0+", nullable = "0+")]
    pub error_message: Option<KafkaString>,
    /// A result entry.
    #[kafka(versions = "0+", nullable = "0+")]
    pub entries: Option<Vec<EntryData>>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A quota entity and its quota values.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct EntryData {
    /// The quota entity description.
    #[kafka(versions = "0+")]
    pub entity: Vec<EntityData>,
    /// The quota values for the entity.
    #[kafka(versions = "0+")]
    pub values: Vec<ValueData>,
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
    /// The entity name, or null if the default.
    #[kafka(versions = "0+", nullable = "0+")]
    pub entity_name: Option<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One quota configuration key and its value.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct ValueData {
    /// The quota configuration key.
    #[kafka(versions = "0+")]
    pub key: KafkaString,
    /// The quota configuration value.
    #[kafka(versions = "0+")]
    pub value: f64,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

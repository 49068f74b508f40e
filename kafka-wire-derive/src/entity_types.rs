//! Kafka's `EntityType` values, and the trait (in `kwire`'s private module) a field's
//! type must implement to carry each: Kafka's generator ties each entity to a type.

/// Each entity type with the trait its field's type needs (`None`: any type).
pub const ENTITY_TYPES: &[(&str, Option<&str>)] = &[
    ("unknown", None),
    ("transactionalId", Some("StringEntity")),
    ("producerId", Some("ProducerIdEntity")),
    ("groupId", Some("StringEntity")),
    ("topicName", Some("StringEntity")),
    ("brokerId", Some("BrokerIdEntity")),
];

/// The trait an entity type needs: `None` for an unknown entity type,
/// `Some(None)` for one that allows any type.
pub fn required_trait(entity: &str) -> Option<Option<&'static str>> {
    ENTITY_TYPES
        .iter()
        .find(|(name, _)| *name == entity)
        .map(|(_, required)| *required)
}

/// The entity types, for an error message.
pub fn names() -> String {
    ENTITY_TYPES
        .iter()
        .map(|(name, _)| format!("`{name}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

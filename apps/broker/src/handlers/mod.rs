//! One module per group of APIs; each turns a request into its response.

pub mod configs;
pub mod coordinator;
pub mod fetch;
pub mod limits;
pub mod list_offsets;
pub mod metadata;
pub mod offsets;
pub mod produce;
pub mod producer_id;
pub mod sasl;
pub mod topics;
pub mod transactions;

use kwire::{KafkaString, Uuid};

use crate::log::Topics;

/// The topic a request names: by ID when it carries one (newer versions), by name
/// otherwise. `Err` holds the error code for an unknown ID.
pub fn topic_name(topics: &Topics, name: &KafkaString, id: &Uuid) -> Result<String, i16> {
    if *id == Uuid::ZERO {
        return Ok(name.as_str().to_owned());
    }
    topics
        .name_of(id)
        .map(str::to_owned)
        .ok_or(kwire_messages::ErrorCode::UnknownTopicId.code())
}

#[cfg(test)]
pub mod testing;

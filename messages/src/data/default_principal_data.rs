//! DefaultPrincipalData: a serialized Kafka principal, sent by a forwarding broker in
//! Envelope requests to the controller.

use kwire::{KafkaString, UnknownTaggedFields};

/// The principal a forwarded request was authenticated as.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(kind = data, versions = "0", flexible = "0+")]
pub struct DefaultPrincipalData {
    /// The principal type.
    #[kafka(versions = "0+")]
    pub r#type: KafkaString,
    /// The principal name.
    #[kafka(versions = "0+")]
    pub name: KafkaString,
    /// Whether the principal was authenticated by a delegation token on the forwarding
    /// broker.
    #[kafka(versions = "0+")]
    pub token_authenticated: bool,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

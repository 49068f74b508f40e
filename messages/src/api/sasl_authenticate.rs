//! SaslAuthenticate (API key 36): carries SASL authentication tokens in Kafka frames.

use bytes::Bytes;
use kwire::{KafkaString, UnknownTaggedFields};

/// SaslAuthenticate request: the client's next SASL token.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 36, kind = request, response = SaslAuthenticateResponse, versions = "0-2",
        flexible = "2+", listeners = "broker, controller")]
pub struct SaslAuthenticateRequest {
    /// The SASL authentication bytes from the client, as defined by the SASL mechanism.
    #[kafka(versions = "0+")]
    pub auth_bytes: Bytes,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// SaslAuthenticate response: the server's SASL token, or why authentication failed.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 36, kind = response, versions = "0-2", flexible = "2+")]
pub struct SaslAuthenticateResponse {
    /// The error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The error message, or null if there was no error.
    #[kafka(versions = "0+", nullable = "0+")]
    pub error_message: Option<KafkaString>,
    /// The SASL authentication bytes from the server, as defined by the SASL mechanism.
    #[kafka(versions = "0+")]
    pub auth_bytes: Bytes,
    /// Number of milliseconds after which only re-authentication over the existing
    /// connection to create a new session can occur.
    #[kafka(versions = "1+", default = 0, ignorable)]
    pub session_lifetime_ms: i64,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

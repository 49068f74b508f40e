//! CreateDelegationToken (API key 38): creates a delegation token for a principal.

use bytes::Bytes;
use kwire::{KafkaString, UnknownTaggedFields};

/// CreateDelegationToken request: asks for a new delegation token.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 38, kind = request, response = CreateDelegationTokenResponse, versions = "1-3",
        flexible = "2+", listeners = "broker, controller")]
pub struct CreateDelegationTokenRequest {
    /// The principal type of the owner of the token. If it's null it defaults to the
    /// token request principal.
    #[kafka(versions = "3+", nullable = "3+")]
    pub owner_principal_type: Option<KafkaString>,
    /// The principal name of the owner of the token. If it's null it defaults to the
    /// token request principal.
    #[kafka(versions = "3+", nullable = "3+")]
    pub owner_principal_name: Option<KafkaString>,
    /// A list of those who are allowed to renew this token before it expires.
    #[kafka(versions = "0+")]
    pub renewers: Vec<CreatableRenewers>,
    /// The maximum lifetime of the token in milliseconds, or -1 to use the server side
    /// default.
    #[kafka(versions = "0+")]
    pub max_lifetime_ms: i64,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A principal allowed to renew the token.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct CreatableRenewers {
    /// The type of the Kafka principal.
    #[kafka(versions = "0+")]
    pub principal_type: KafkaString,
    /// The name of the Kafka principal.
    #[kafka(versions = "0+")]
    pub principal_name: KafkaString,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// CreateDelegationToken response: the new token, its owner and its lifetimes.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 38, kind = response, versions = "1-3", flexible = "2+")]
pub struct CreateDelegationTokenResponse {
    /// The top-level error, or zero if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The principal type of the token owner.
    #[kafka(versions = "0+")]
    pub principal_type: KafkaString,
    /// The name of the token owner.
    #[kafka(versions = "0+")]
    pub principal_name: KafkaString,
    /// The principal type of the requester of the token.
    #[kafka(versions = "3+")]
    pub token_requester_principal_type: KafkaString,
    /// The principal type of the requester of the token.
    #[kafka(versions = "3+")]
    pub token_requester_principal_name: KafkaString,
    /// When this token was generated.
    #[kafka(versions = "0+")]
    pub issue_timestamp_ms: i64,
    /// When this token expires.
    #[kafka(versions = "0+")]
    pub expiry_timestamp_ms: i64,
    /// The maximum lifetime of this token.
    #[kafka(versions = "0+")]
    pub max_timestamp_ms: i64,
    /// The token UUID.
    #[kafka(versions = "0+")]
    pub token_id: KafkaString,
    /// HMAC of the delegation token.
    #[kafka(versions = "0+")]
    pub hmac: Bytes,
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

//! DescribeDelegationToken (API key 41): lists delegation tokens, optionally by owner.

use bytes::Bytes;
use kwire::{KafkaString, UnknownTaggedFields};

/// DescribeDelegationToken request: the owners whose tokens to describe.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 41, kind = request, response = DescribeDelegationTokenResponse, versions = "1-3",
        flexible = "2+", listeners = "broker, controller")]
pub struct DescribeDelegationTokenRequest {
    /// Each owner that we want to describe delegation tokens for, or null to describe
    /// all tokens.
    #[kafka(versions = "0+", nullable = "0+")]
    pub owners: Option<Vec<DescribeDelegationTokenOwner>>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A token owner to describe tokens for.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct DescribeDelegationTokenOwner {
    /// The owner principal type.
    #[kafka(versions = "0+")]
    pub principal_type: KafkaString,
    /// The owner principal name.
    #[kafka(versions = "0+")]
    pub principal_name: KafkaString,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// DescribeDelegationToken response: the matching tokens.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 41, kind = response, versions = "1-3", flexible = "2+")]
pub struct DescribeDelegationTokenResponse {
    /// The error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The tokens.
    #[kafka(versions = "0+")]
    pub tokens: Vec<DescribedDelegationToken>,
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One delegation token with its owner, lifetimes and renewers.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct DescribedDelegationToken {
    /// The token principal type.
    #[kafka(versions = "0+")]
    pub principal_type: KafkaString,
    /// The token principal name.
    #[kafka(versions = "0+")]
    pub principal_name: KafkaString,
    /// The principal type of the requester of the token.
    #[kafka(versions = "3+")]
    pub token_requester_principal_type: KafkaString,
    /// The principal type of the requester of the token.
    #[kafka(versions = "3+")]
    pub token_requester_principal_name: KafkaString,
    /// The token issue timestamp in milliseconds.
    #[kafka(versions = "0+")]
    pub issue_timestamp: i64,
    /// The token expiry timestamp in milliseconds.
    #[kafka(versions = "0+")]
    pub expiry_timestamp: i64,
    /// The token maximum timestamp length in milliseconds.
    #[kafka(versions = "0+")]
    pub max_timestamp: i64,
    /// The token ID.
    #[kafka(versions = "0+")]
    pub token_id: KafkaString,
    /// The token HMAC.
    #[kafka(versions = "0+")]
    pub hmac: Bytes,
    /// Those who are able to renew this token before it expires.
    #[kafka(versions = "0+")]
    pub renewers: Vec<DescribedDelegationTokenRenewer>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A principal able to renew a described token.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct DescribedDelegationTokenRenewer {
    /// The renewer principal type.
    #[kafka(versions = "0+")]
    pub principal_type: KafkaString,
    /// The renewer principal name.
    #[kafka(versions = "0+")]
    pub principal_name: KafkaString,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

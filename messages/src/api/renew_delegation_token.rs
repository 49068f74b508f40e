//! RenewDelegationToken (API key 39): extends the expiry time of a delegation token.

use bytes::Bytes;
use kwire::UnknownTaggedFields;

/// RenewDelegationToken request: asks to renew the token with the given HMAC.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 39, kind = request, response = RenewDelegationTokenResponse, versions = "1-2",
        flexible = "2+", listeners = "broker, controller")]
pub struct RenewDelegationTokenRequest {
    /// The HMAC of the delegation token to be renewed.
    #[kafka(versions = "0+")]
    pub hmac: Bytes,
    /// The renewal time period in milliseconds.
    #[kafka(versions = "0+")]
    pub renew_period_ms: i64,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// RenewDelegationToken response: the token's new expiry time.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 39, kind = response, versions = "1-2", flexible = "2+")]
pub struct RenewDelegationTokenResponse {
    /// The error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The timestamp in milliseconds at which this token expires.
    #[kafka(versions = "0+")]
    pub expiry_timestamp_ms: i64,
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

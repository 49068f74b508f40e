//! DescribeUserScramCredentials (API key 50): lists users' SCRAM credentials (their
//! mechanisms and iteration counts, never the secrets), for admin clients.

use kwire::{KafkaString, UnknownTaggedFields};

/// DescribeUserScramCredentials request: the users to describe (null or empty for all).
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 50, kind = request, response = DescribeUserScramCredentialsResponse,
        versions = "0", flexible = "0+", listeners = "broker, controller")]
pub struct DescribeUserScramCredentialsRequest {
    /// The users to describe, or null/empty to describe all users.
    #[kafka(versions = "0+", nullable = "0+")]
    pub users: Option<Vec<DescribeUserScramCredentialsUser>>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A user whose SCRAM credentials to describe.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "UserName")]
pub struct DescribeUserScramCredentialsUser {
    /// The user name.
    #[kafka(versions = "0+")]
    pub name: KafkaString,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// DescribeUserScramCredentials response: each user's SCRAM credentials, or why not.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 50, kind = response, versions = "0", flexible = "0+")]
pub struct DescribeUserScramCredentialsResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// The message-level error code, 0 except for user authorization or infrastructure
    /// issues.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The message-level error message, if any.
    #[kafka(versions = "0+", nullable = "0+")]
    pub error_message: Option<KafkaString>,
    /// The results for descriptions, one per user.
    #[kafka(versions = "0+")]
    pub results: Vec<DescribeUserScramCredentialsResult>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The SCRAM credentials of one user, or why they could not be described.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct DescribeUserScramCredentialsResult {
    /// The user name.
    #[kafka(versions = "0+")]
    pub user: KafkaString,
    /// The user-level error code.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The user-level error message, if any.
    #[kafka(versions = "0+", nullable = "0+")]
    pub error_message: Option<KafkaString>,
    /// The mechanism and related information associated with the user's SCRAM
    /// credentials.
    #[kafka(versions = "0+")]
    pub credential_infos: Vec<CredentialInfo>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One SCRAM credential of a user: its mechanism and iteration count.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct CredentialInfo {
    /// The SCRAM mechanism.
    #[kafka(versions = "0+")]
    pub mechanism: i8,
    /// The number of iterations used in the SCRAM credential.
    #[kafka(versions = "0+")]
    pub iterations: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

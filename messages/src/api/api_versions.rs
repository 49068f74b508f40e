//! ApiVersions (API key 18): which API versions a broker supports.

use kwire::{KafkaString, UnknownTaggedFields};

/// ApiVersions request: asks a broker which API versions it supports.
///
/// ```
/// use kwire::{KafkaString, Message};
/// use kwire_messages::api::ApiVersionsRequest;
///
/// let request = ApiVersionsRequest::default()
///     .with_client_software_name(KafkaString::from_static("u03-app"))
///     .with_client_software_version(KafkaString::from_static("1.0"));
/// assert_eq!(&request.encode(3).unwrap()[..], b"\x08u03-app\x041.0\0");
/// assert!(request.encode(2).unwrap().is_empty()); // ignorable fields dropped
/// ```
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 18, kind = request, response = ApiVersionsResponse, versions = "0-5",
        flexible = "3+", listeners = "broker, controller")]
pub struct ApiVersionsRequest {
    /// The name of the client.
    #[kafka(versions = "3+", ignorable)]
    pub client_software_name: KafkaString,
    /// The version of the client.
    #[kafka(versions = "3+", ignorable)]
    pub client_software_version: KafkaString,
    /// The cluster ID the client intends to connect to. Provide both ClusterId and
    /// NodeId, if known.
    #[kafka(versions = "5+", nullable = "5+", default = null, ignorable)]
    pub cluster_id: Option<KafkaString>,
    /// The node ID the client intends to connect to. Provide both ClusterId and NodeId,
    /// if known.
    #[kafka(versions = "5+", default = -1, ignorable)]
    pub node_id: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// ApiVersions response: the API versions, features and finalized features of a broker.
///
/// ```
/// use kwire::Message;
/// use kwire_messages::api::api_versions::{ApiVersion, ApiVersionsResponse};
///
/// let version = ApiVersion::default()
///     .with_api_key(18)
///     .with_min_version(0)
///     .with_max_version(5);
/// let response = ApiVersionsResponse::default().with_api_keys(vec![version]);
/// let bytes = response.encode(3).unwrap();
/// assert_eq!(ApiVersionsResponse::decode(&bytes, 3).unwrap(), response);
/// ```
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 18, kind = response, versions = "0-5", flexible = "3+")]
pub struct ApiVersionsResponse {
    /// The top-level error code.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The APIs supported by the broker.
    #[kafka(versions = "0+")]
    pub api_keys: Vec<ApiVersion>,
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "1+", ignorable)]
    pub throttle_time_ms: i32,
    /// Features supported by the broker. Note: in v0-v3, features with
    /// MinSupportedVersion = 0 are omitted.
    #[kafka(versions = "3+", tag = 0, tagged = "3+", ignorable)]
    pub supported_features: Vec<SupportedFeatureKey>,
    /// The monotonically increasing epoch for the finalized features information. Valid
    /// values are >= 0. A value of -1 is special and represents unknown epoch.
    #[kafka(versions = "3+", tag = 1, tagged = "3+", default = -1, ignorable)]
    pub finalized_features_epoch: i64,
    /// List of cluster-wide finalized features. The information is valid only if
    /// FinalizedFeaturesEpoch >= 0.
    #[kafka(versions = "3+", tag = 2, tagged = "3+", ignorable)]
    pub finalized_features: Vec<FinalizedFeatureKey>,
    /// Set by a KRaft controller if the required configurations for ZK migration are
    /// present.
    #[kafka(versions = "3+", tag = 3, tagged = "3+", default = false, ignorable)]
    pub zk_migration_ready: bool,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One API the broker supports, with its version range.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct ApiVersion {
    /// The API index.
    #[kafka(versions = "0+", map_key)]
    pub api_key: i16,
    /// The minimum supported version, inclusive.
    #[kafka(versions = "0+")]
    pub min_version: i16,
    /// The maximum supported version, inclusive.
    #[kafka(versions = "0+")]
    pub max_version: i16,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A feature the broker supports, with its version range.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct SupportedFeatureKey {
    /// The name of the feature.
    #[kafka(versions = "3+", map_key)]
    pub name: KafkaString,
    /// The minimum supported version for the feature.
    #[kafka(versions = "3+")]
    pub min_version: i16,
    /// The maximum supported version for the feature.
    #[kafka(versions = "3+")]
    pub max_version: i16,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A cluster-wide finalized feature and its version levels.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct FinalizedFeatureKey {
    /// The name of the feature.
    #[kafka(versions = "3+", map_key)]
    pub name: KafkaString,
    /// The cluster-wide finalized max version level for the feature.
    #[kafka(versions = "3+")]
    pub max_version_level: i16,
    /// The cluster-wide finalized min version level for the feature.
    #[kafka(versions = "3+")]
    pub min_version_level: i16,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

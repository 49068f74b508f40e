//! PushTelemetry (API key 72): a client pushes its subscribed metrics to a broker (KIP-714).

use bytes::Bytes;
use kwire::{UnknownTaggedFields, Uuid};

/// PushTelemetry request: the client's metrics, OpenTelemetry-encoded and maybe compressed.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 72, kind = request, response = PushTelemetryResponse, versions = "0",
        flexible = "0+", listeners = "broker")]
pub struct PushTelemetryRequest {
    /// Unique id for this client instance.
    #[kafka(versions = "0+")]
    pub client_instance_id: Uuid,
    /// Unique identifier for the current subscription.
    #[kafka(versions = "0+")]
    pub subscription_id: i32,
    /// Client is terminating the connection.
    #[kafka(versions = "0+")]
    pub terminating: bool,
    /// Compression codec used to compress the metrics.
    #[kafka(versions = "0+")]
    pub compression_type: i8,
    /// Metrics encoded in OpenTelemetry MetricsData v1 protobuf format.
    #[kafka(versions = "0+", zero_copy)]
    pub metrics: Bytes,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// PushTelemetry response: whether the broker accepted the metrics.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 72, kind = response, versions = "0", flexible = "0+")]
pub struct PushTelemetryResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// The error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

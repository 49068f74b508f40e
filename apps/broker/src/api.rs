//! Which APIs this broker serves, at which versions, and which handler answers.
//!
//! Only these are advertised in ApiVersions. A request for anything else (or at a
//! version outside the range) closes the connection, as Kafka's broker does when a
//! request cannot be parsed; clients only send what was advertised.

use kwire_messages::api::api_versions::ApiVersion;
use kwire_messages::ErrorCode;
use kwire_messages::{api::ApiVersionsResponse, ApiKey, Request, Response};

use crate::handlers;
use crate::Broker;

/// The APIs served, at every version Kafka calls stable.
pub const SERVED: &[ApiKey] = &[
    ApiKey::Produce,
    ApiKey::Fetch,
    ApiKey::ListOffsets,
    ApiKey::Metadata,
    ApiKey::OffsetCommit,
    ApiKey::OffsetFetch,
    ApiKey::FindCoordinator,
    ApiKey::JoinGroup,
    ApiKey::Heartbeat,
    ApiKey::LeaveGroup,
    ApiKey::SyncGroup,
    ApiKey::ApiVersions,
    ApiKey::CreateTopics,
    ApiKey::DeleteTopics,
    ApiKey::InitProducerId,
    ApiKey::OffsetForLeaderEpoch,
    ApiKey::DescribeCluster,
];

/// The version range served for `api`, if it is served.
pub fn served_versions(api: ApiKey) -> Option<(i16, i16)> {
    SERVED
        .contains(&api)
        .then(|| api.stable_versions())
        .flatten()
}

/// The ApiVersions answer: the APIs above and their ranges.
pub fn api_versions() -> ApiVersionsResponse {
    let keys = SERVED
        .iter()
        .filter_map(|&api| {
            let (min, max) = served_versions(api)?;
            Some(
                ApiVersion::default()
                    .with_api_key(api.key())
                    .with_min_version(min)
                    .with_max_version(max),
            )
        })
        .collect();
    ApiVersionsResponse::default()
        .with_error_code(ErrorCode::None.code())
        .with_api_keys(keys)
}

/// Answers one request; `None` for a Produce with `acks = 0`, which Kafka never
/// answers.
pub async fn answer(
    broker: &Broker,
    client_id: &str,
    request: Request,
    version: i16,
) -> Option<Response> {
    let response = match request {
        Request::ApiVersions(_) => Response::ApiVersions(api_versions()),
        Request::Metadata(r) => Response::Metadata(handlers::metadata::answer(broker, r, version)),
        Request::CreateTopics(r) => {
            Response::CreateTopics(handlers::topics::create(broker, r, version))
        }
        Request::DeleteTopics(r) => {
            Response::DeleteTopics(handlers::topics::delete(broker, r, version))
        }
        Request::DescribeCluster(r) => {
            Response::DescribeCluster(handlers::metadata::describe_cluster(broker, r))
        }
        Request::Produce(r) => Response::Produce(handlers::produce::answer(broker, r, version)?),
        Request::Fetch(r) => Response::Fetch(handlers::fetch::answer(broker, r, version).await),
        Request::ListOffsets(r) => {
            Response::ListOffsets(handlers::list_offsets::answer(broker, r, version))
        }
        Request::OffsetForLeaderEpoch(r) => {
            Response::OffsetForLeaderEpoch(handlers::list_offsets::leader_epoch(broker, r))
        }
        Request::InitProducerId(r) => {
            Response::InitProducerId(handlers::producer_id::answer(broker, r))
        }
        Request::FindCoordinator(r) => {
            Response::FindCoordinator(handlers::coordinator::find(broker, r, version))
        }
        Request::JoinGroup(r) => {
            Response::JoinGroup(handlers::coordinator::join(broker, r, version, client_id).await)
        }
        Request::SyncGroup(r) => Response::SyncGroup(handlers::coordinator::sync(broker, r).await),
        Request::Heartbeat(r) => Response::Heartbeat(handlers::coordinator::heartbeat(broker, r)),
        Request::LeaveGroup(r) => {
            Response::LeaveGroup(handlers::coordinator::leave(broker, r, version))
        }
        Request::OffsetCommit(r) => {
            Response::OffsetCommit(handlers::offsets::commit(broker, r, version))
        }
        Request::OffsetFetch(r) => {
            Response::OffsetFetch(handlers::offsets::fetch(broker, r, version))
        }
        // `connection` checks `served_versions` before decoding, so nothing else
        // arrives here; answering anyway keeps this total.
        other => {
            tracing::warn!(api = other.api().name(), "not served; no answer");
            return None;
        }
    };
    Some(response)
}

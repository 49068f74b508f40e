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

/// Makes [`SERVED`] and [`answer`] from one list of `Api(request) => handler`
/// entries, so that an API cannot be advertised without a handler nor handled
/// without being advertised. Each handler gives the body of the response of its
/// own API (the compiler checks that it is that API's response type), or, with
/// `?`, no answer at all.
///
/// The first line names `answer`'s parameters: the handlers use them, and names
/// declared inside a macro are not visible to the code it is given.
macro_rules! served {
    (
        fn answer($broker:ident, $client_id:ident, $request:ident, $version:ident);
        $($api:ident($body:pat) => $handler:expr,)+
    ) => {
        /// The APIs served, at every version Kafka calls stable, in the order
        /// ApiVersions lists them.
        pub const SERVED: &[ApiKey] = &[$(ApiKey::$api),+];

        /// Answers one request, or says why it gets no answer (a Produce with
        /// `acks = 0`, which Kafka never answers).
        pub async fn answer(
            $broker: &Broker,
            $client_id: &str,
            $request: Request,
            $version: i16,
        ) -> Result<Response, Unanswered> {
            let response = match $request {
                $(Request::$api($body) => Response::$api($handler),)+
                // `connection` checks `served_versions` before decoding, so
                // nothing else arrives here; answering anyway keeps this total.
                other => {
                    tracing::warn!(api = other.api().name(), "not served; no answer");
                    return Err(Unanswered::NotServed);
                }
            };
            Ok(response)
        }
    };
}

/// Why a request gets no answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unanswered {
    /// A Produce with `acks = 0`, every partition written: Kafka sends nothing
    /// back.
    Written,
    /// A Produce with `acks = 0` that a partition refused, with this error:
    /// Kafka closes the connection unanswered, the only way a producer that
    /// waits for nothing learns that it must refresh its metadata.
    Refused(ErrorCode),
    /// An API this broker does not serve (see `answer`).
    NotServed,
}

served! {
    fn answer(broker, client_id, request, version);
    Produce(r) => handlers::produce::answer(broker, r, version)?,
    Fetch(r) => handlers::fetch::answer(broker, r, version).await,
    ListOffsets(r) => handlers::list_offsets::answer(broker, r, version),
    Metadata(r) => handlers::metadata::answer(broker, r, version),
    OffsetCommit(r) => handlers::offsets::commit(broker, r, version),
    OffsetFetch(r) => handlers::offsets::fetch(broker, r, version),
    FindCoordinator(r) => handlers::coordinator::find(broker, r, version),
    JoinGroup(r) => handlers::coordinator::join(broker, r, version, client_id).await,
    Heartbeat(r) => handlers::coordinator::heartbeat(broker, r),
    LeaveGroup(r) => handlers::coordinator::leave(broker, r, version),
    SyncGroup(r) => handlers::coordinator::sync(broker, r).await,
    SaslHandshake(_) => handlers::sasl::handshake(),
    ApiVersions(_) => api_versions(),
    CreateTopics(r) => handlers::topics::create(broker, r, version),
    DeleteTopics(r) => handlers::topics::delete(broker, r, version),
    InitProducerId(r) => handlers::producer_id::answer(broker, r, version),
    OffsetForLeaderEpoch(r) => handlers::list_offsets::leader_epoch(broker, r),
    AddPartitionsToTxn(r) => handlers::transactions::add_partitions_to_txn(broker, r, version),
    AddOffsetsToTxn(r) => handlers::transactions::add_offsets_to_txn(broker, r, version),
    EndTxn(r) => handlers::transactions::end_txn(broker, r, version),
    TxnOffsetCommit(r) => handlers::transactions::txn_offset_commit(broker, r, version),
    DescribeConfigs(r) => handlers::configs::describe(broker, r, version),
    AlterConfigs(r) => handlers::configs::alter(broker, r),
    SaslAuthenticate(_) => handlers::sasl::authenticate(),
    IncrementalAlterConfigs(r) => handlers::configs::incremental_alter(broker, r),
    DescribeCluster(r) => handlers::metadata::describe_cluster(broker, r),
}

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

#[cfg(test)]
mod tests {
    use super::*;

    /// The table makes the names agree; what it cannot see is a range: an API
    /// with no stable version would be handled yet left out of ApiVersions (and
    /// refused by `connection`).
    #[test]
    fn every_handled_api_is_advertised_once_in_key_order() {
        let served: Vec<i16> = SERVED.iter().map(|api| api.key()).collect();
        assert!(served.windows(2).all(|w| w[0] < w[1]), "{served:?}");
        let advertised: Vec<i16> = api_versions()
            .api_keys
            .iter()
            .map(|entry| entry.api_key)
            .collect();
        assert_eq!(advertised, served);
    }
}

//! Where responses name brokers: the (host, port) fields a proxy must rewrite so
//! that clients keep connecting through it rather than to the brokers directly.
//!
//! Every response field a peer may connect to, by the versions that carry it on the
//! wire (from Kafka's schemas):
//!
//! - Metadata `brokers[]` (all versions): every broker.
//! - FindCoordinator: the top-level `host`/`port` up to v3, `coordinators[]` from
//!   v4; entries with an error are placeholders and left out.
//! - DescribeCluster `brokers[]` (all versions): every broker, or every controller
//!   when the request asked for controllers (v1+).
//! - Produce `node_endpoints[]` (v10+) and Fetch `node_endpoints[]` (v16+), and
//!   ShareFetch and ShareAcknowledge `node_endpoints[]` (all versions): the new
//!   leader of a partition answered NOT_LEADER_OR_FOLLOWER (KIP-951, KIP-932);
//!   the client connects there without asking Metadata first.
//! - DescribeQuorum `nodes[].listeners[]` (v2+, a uint16 port): every listener of
//!   every controller, which admin clients bootstrapped at controllers connect to.
//! - The KRaft RPCs' leader endpoints, for a proxy in front of a controller (the
//!   brokers and controllers are then its clients): Vote, BeginQuorumEpoch,
//!   EndQuorumEpoch and FetchSnapshot `node_endpoints[]` (v1+, a uint16 port),
//!   UpdateRaftVoter `current_leader` (v0, when the leader is known).
//!
//! Host and port fields the proxy leaves alone, and why:
//!
//! - StreamsGroupDescribe `members[].user_endpoint` and StreamsGroupHeartbeat
//!   `partitions_by_user_endpoint[].user_endpoint`: a Streams application's own
//!   server (for interactive queries), not a Kafka listener; a proxy listener in
//!   its place would forward Kafka frames to an application.
//! - DescribeAcls and DeleteAcls `host`: the host an ACL applies to, no port.
//! - The `client_host` of DescribeGroups, ConsumerGroupDescribe, ShareGroupDescribe
//!   and StreamsGroupDescribe members: where a client connected from.
//! - Addresses inside record batches (the KRaft voter set's VotersRecord in a
//!   Fetch response's records): the proxy forwards records as they came.
//!
//! Requests carry addresses too (BrokerRegistration, AddRaftVoter, ...), but they
//! tell a broker where the sender listens; the proxy rewrites only what a client is
//! told.

use kwire::KafkaString;
use kwire_messages::Response;

/// A broker address inside a decoded response, to read and overwrite in place.
///
/// Port fields are int32 in some schemas and uint16 in others; both hold every
/// TCP port, so reading widens to `i32` and writing takes the local listener's
/// `u16`: neither direction can lose a bit. (A narrower port type would need a
/// fallible conversion here; no schema has one.)
pub struct Endpoint<'a> {
    host: &'a mut KafkaString,
    port: Port<'a>,
}

/// A port field, by its wire type.
enum Port<'a> {
    Int32(&'a mut i32),
    Uint16(&'a mut u16),
}

impl<'a> Endpoint<'a> {
    fn int32(host: &'a mut KafkaString, port: &'a mut i32) -> Self {
        Endpoint {
            host,
            port: Port::Int32(port),
        }
    }

    fn uint16(host: &'a mut KafkaString, port: &'a mut u16) -> Self {
        Endpoint {
            host,
            port: Port::Uint16(port),
        }
    }

    /// The host the broker wrote.
    pub fn host(&self) -> &KafkaString {
        self.host
    }

    /// The port the broker wrote, widened to `i32` whatever its wire type, so that
    /// one check ([`BrokerAddress::new`](crate::routes::BrokerAddress::new))
    /// decides whether it is a TCP port.
    pub fn port(&self) -> i32 {
        match &self.port {
            Port::Int32(port) => **port,
            Port::Uint16(port) => i32::from(**port),
        }
    }

    /// Points the endpoint at `host`:`port`; whether that changed anything.
    pub fn point_at(&mut self, host: KafkaString, port: u16) -> bool {
        let mut changed = *self.host != host;
        *self.host = host;
        match &mut self.port {
            Port::Int32(field) => {
                changed |= **field != i32::from(port);
                **field = i32::from(port);
            }
            Port::Uint16(field) => {
                changed |= **field != port;
                **field = port;
            }
        }
        changed
    }
}

/// The endpoints of every element of `$nodes`, each a struct with a `host` and a
/// `port` whose wire type is `$port` (`int32` or `uint16`): one line per field
/// in [`endpoints`], since each schema has its own struct.
macro_rules! each {
    ($nodes:expr, $port:ident) => {
        $nodes
            .iter_mut()
            .map(|node| Endpoint::$port(&mut node.host, &mut node.port))
            .collect()
    };
}

/// Every broker address in `response` (read at `version`) that a client may connect
/// to. Fields a version does not carry are left out, even when the decoded value
/// holds something there: what is not on the wire is not rewritten, and a caller
/// asking whether a response names brokers gets the wire's answer.
pub fn endpoints(response: &mut Response, version: i16) -> Vec<Endpoint<'_>> {
    match response {
        Response::Metadata(metadata) => each!(metadata.brokers, int32),
        Response::FindCoordinator(found) => {
            // Up to v3 the one coordinator is in top-level fields; v4+ has an array
            // of them instead (the old fields hold defaults, and are not written).
            // Entries that carry an error are left out: their host and port are
            // placeholders (an empty host, port -1), not a broker.
            if version >= 4 {
                found
                    .coordinators
                    .iter_mut()
                    .filter(|coordinator| coordinator.error_code == 0)
                    .map(|coordinator| {
                        Endpoint::int32(&mut coordinator.host, &mut coordinator.port)
                    })
                    .collect()
            } else if found.error_code == 0 {
                vec![Endpoint::int32(&mut found.host, &mut found.port)]
            } else {
                Vec::new()
            }
        }
        Response::DescribeCluster(cluster) => each!(cluster.brokers, int32),
        Response::Produce(produce) if version >= 10 => each!(produce.node_endpoints, int32),
        Response::Fetch(fetch) if version >= 16 => each!(fetch.node_endpoints, int32),
        Response::ShareFetch(share) => each!(share.node_endpoints, int32),
        Response::ShareAcknowledge(share) => each!(share.node_endpoints, int32),
        Response::DescribeQuorum(quorum) if version >= 2 => quorum
            .nodes
            .iter_mut()
            .flat_map(|node| node.listeners.iter_mut())
            .map(|listener| Endpoint::uint16(&mut listener.host, &mut listener.port))
            .collect(),
        Response::Vote(vote) if version >= 1 => each!(vote.node_endpoints, uint16),
        Response::BeginQuorumEpoch(begin) if version >= 1 => each!(begin.node_endpoints, uint16),
        Response::EndQuorumEpoch(end) if version >= 1 => each!(end.node_endpoints, uint16),
        Response::FetchSnapshot(snapshot) if version >= 1 => each!(snapshot.node_endpoints, uint16),
        Response::UpdateRaftVoter(update) => {
            // A tagged field, written only when it is not its default: an unknown
            // leader (-1) comes with a placeholder address, and giving it a real one
            // would put on the wire a leader the controller never named.
            let leader = &mut update.current_leader;
            if leader.leader_id >= 0 {
                vec![Endpoint::int32(&mut leader.host, &mut leader.port)]
            } else {
                Vec::new()
            }
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use kwire::schema::StructSchema;
    use kwire_messages::api::describe_cluster::DescribeClusterBroker;
    use kwire_messages::api::describe_quorum::{DescribeQuorumNode, Listener};
    use kwire_messages::api::find_coordinator::Coordinator;
    use kwire_messages::api::metadata::MetadataResponseBroker;
    use kwire_messages::api::update_raft_voter::CurrentLeader;
    use kwire_messages::api::{
        begin_quorum_epoch, end_quorum_epoch, fetch, fetch_snapshot, produce, share_acknowledge,
        share_fetch, vote, BeginQuorumEpochResponse, DescribeClusterResponse,
        DescribeQuorumResponse, EndQuorumEpochResponse, FetchResponse, FetchSnapshotResponse,
        FindCoordinatorResponse, MetadataResponse, ProduceResponse, ShareAcknowledgeResponse,
        ShareFetchResponse, UpdateRaftVoterResponse, VoteResponse,
    };
    use kwire_messages::{frame, ApiKey, ResponseHeader};

    use super::*;

    /// Hosts and ports as read.
    type Addresses = Vec<(String, i32)>;

    fn addresses(response: &mut Response, version: i16) -> Addresses {
        endpoints(response, version)
            .into_iter()
            .map(|e| (e.host().to_string(), e.port()))
            .collect()
    }

    fn b() -> KafkaString {
        KafkaString::from_static("b")
    }

    /// One response of each kind that names `b:9092` (and, where the field is a
    /// uint16, `b:65535`, the largest port), with the first version that carries
    /// the address on the wire.
    fn every_kind() -> Vec<(Response, i16, Addresses)> {
        let one = || vec![("b".to_string(), 9092)];
        vec![
            (
                Response::Metadata(MetadataResponse::default().with_brokers(vec![
                    MetadataResponseBroker::default().with_host(b()).with_port(9092),
                ])),
                0,
                one(),
            ),
            (
                Response::FindCoordinator(FindCoordinatorResponse::default().with_coordinators(
                    vec![Coordinator::default().with_host(b()).with_port(9092)],
                )),
                4,
                one(),
            ),
            (
                Response::DescribeCluster(DescribeClusterResponse::default().with_brokers(vec![
                    DescribeClusterBroker::default().with_host(b()).with_port(9092),
                ])),
                0,
                one(),
            ),
            (
                Response::Produce(ProduceResponse::default().with_node_endpoints(vec![
                    produce::NodeEndpoint::default().with_host(b()).with_port(9092),
                ])),
                10,
                one(),
            ),
            (
                Response::Fetch(FetchResponse::default().with_node_endpoints(vec![
                    fetch::NodeEndpoint::default().with_host(b()).with_port(9092),
                ])),
                16,
                one(),
            ),
            (
                Response::ShareFetch(ShareFetchResponse::default().with_node_endpoints(vec![
                    share_fetch::NodeEndpoint::default().with_host(b()).with_port(9092),
                ])),
                1,
                one(),
            ),
            (
                Response::ShareAcknowledge(
                    ShareAcknowledgeResponse::default().with_node_endpoints(vec![
                        share_acknowledge::NodeEndpoint::default()
                            .with_host(b())
                            .with_port(9092),
                    ]),
                ),
                1,
                one(),
            ),
            (
                Response::DescribeQuorum(DescribeQuorumResponse::default().with_nodes(vec![
                    DescribeQuorumNode::default().with_listeners(vec![
                        Listener::default()
                            .with_name("CONTROLLER".into())
                            .with_host(b())
                            .with_port(9092),
                        Listener::default()
                            .with_name("OTHER".into())
                            .with_host(b())
                            .with_port(65535),
                    ]),
                ])),
                2,
                vec![("b".into(), 9092), ("b".into(), 65535)],
            ),
            (
                Response::Vote(VoteResponse::default().with_node_endpoints(vec![
                    vote::NodeEndpoint::default().with_host(b()).with_port(65535),
                ])),
                1,
                vec![("b".into(), 65535)],
            ),
            (
                Response::BeginQuorumEpoch(
                    BeginQuorumEpochResponse::default().with_node_endpoints(vec![
                        begin_quorum_epoch::NodeEndpoint::default()
                            .with_host(b())
                            .with_port(9092),
                    ]),
                ),
                1,
                one(),
            ),
            (
                Response::EndQuorumEpoch(EndQuorumEpochResponse::default().with_node_endpoints(
                    vec![end_quorum_epoch::NodeEndpoint::default()
                        .with_host(b())
                        .with_port(9092)],
                )),
                1,
                one(),
            ),
            (
                Response::FetchSnapshot(FetchSnapshotResponse::default().with_node_endpoints(
                    vec![
                    fetch_snapshot::NodeEndpoint::default().with_host(b()).with_port(9092),
                ],
                )),
                1,
                one(),
            ),
            (
                Response::UpdateRaftVoter(
                    UpdateRaftVoterResponse::default().with_current_leader(
                        CurrentLeader::default()
                            .with_leader_id(1)
                            .with_leader_epoch(3)
                            .with_host(b())
                            .with_port(9092),
                    ),
                ),
                0,
                one(),
            ),
        ]
    }

    #[test]
    fn every_kind_from_the_first_version_that_carries_it() {
        for (mut response, first, expected) in every_kind() {
            let api = response.api();
            assert_eq!(
                addresses(&mut response, first),
                expected,
                "{api:?} v{first}"
            );
            // The version before has no such field on the wire: nothing to rewrite,
            // and nothing to warn about when a response does not verify.
            // (FindCoordinator before v4 has its address elsewhere: tested below.)
            let oldest = api.valid_versions().min().unwrap();
            if first > oldest && api != ApiKey::FindCoordinator {
                let before = first - 1;
                assert!(
                    addresses(&mut response, before).is_empty(),
                    "{api:?} v{before}"
                );
            }
        }
    }

    /// A rewrite reaches the wire: point every endpoint at a local port, encode at
    /// the newest version, decode, and read the local address back, for int32 and
    /// uint16 ports alike (40000 does not fit an int16: a narrowing would show).
    #[test]
    fn every_kind_rewritten_reads_back_from_the_wire() {
        for (mut response, _, expected) in every_kind() {
            let api = response.api();
            let newest = api.valid_versions().max().unwrap();
            let mut changed = 0;
            for mut endpoint in endpoints(&mut response, newest) {
                assert!(endpoint.point_at("127.0.0.1".into(), 40000), "{api:?}");
                // Pointing again at the same address is no change.
                assert!(!endpoint.point_at("127.0.0.1".into(), 40000), "{api:?}");
                changed += 1;
            }
            assert_eq!(changed, expected.len(), "{api:?}");
            let header = ResponseHeader::default().with_correlation_id(7);
            let bytes = frame::encode_any_response(&header, &response, newest).unwrap();
            let (_, mut read) = frame::decode_any_response(&bytes, api, newest).unwrap();
            let local = vec![("127.0.0.1".to_string(), 40000); expected.len()];
            assert_eq!(addresses(&mut read, newest), local, "{api:?}");
        }
    }

    #[test]
    fn find_coordinator_by_version_and_without_errors() {
        let old = FindCoordinatorResponse::default()
            .with_host("c".into())
            .with_port(9092);
        let mut ok = Response::FindCoordinator(old.clone());
        assert_eq!(addresses(&mut ok, 3), [("c".into(), 9092)]);
        // At v4+ the old fields are not on the wire: only the array counts.
        assert!(addresses(&mut ok, 4).is_empty());
        let mut failed = Response::FindCoordinator(old.with_error_code(15));
        assert!(addresses(&mut failed, 3).is_empty());

        let coordinator = |host: &'static str, error_code| {
            Coordinator::default()
                .with_host(KafkaString::from_static(host))
                .with_port(9092)
                .with_error_code(error_code)
        };
        let mut new = Response::FindCoordinator(
            FindCoordinatorResponse::default()
                .with_coordinators(vec![coordinator("a", 0), coordinator("", 15)]),
        );
        assert_eq!(addresses(&mut new, 6), [("a".into(), 9092)]);
    }

    #[test]
    fn update_raft_voter_without_a_known_leader_names_nobody() {
        // The default CurrentLeader (leader -1, empty host, port 0) is not on the
        // wire; rewriting it would invent a leader.
        let mut unknown = Response::UpdateRaftVoter(UpdateRaftVoterResponse::default());
        assert!(addresses(&mut unknown, 0).is_empty());
    }

    /// Every struct of every response schema that has a field named like a host or
    /// a port, as `ResponseName.Field.Field` (the message itself when the fields
    /// are top-level). A new Kafka version that adds an address fails
    /// `every_address_field_is_rewritten_or_explained` until it is classified.
    fn host_or_port_structs() -> Vec<String> {
        fn walk(schema: &StructSchema, path: String, found: &mut Vec<String>) {
            let named = |field: &&kwire::schema::FieldSchema| {
                field.name.ends_with("Host") || field.name.ends_with("Port")
            };
            if schema.fields.iter().any(|field| named(&field)) {
                found.push(path.clone());
            }
            for field in schema.fields {
                if let Some(inner) = field.ty.struct_schema() {
                    walk(inner, format!("{path}.{}", field.name), found);
                }
            }
        }
        let mut found = Vec::new();
        for api in ApiKey::ALL {
            let schema = api.response_schema();
            walk(&schema.body, schema.name.to_string(), &mut found);
        }
        found.sort();
        found
    }

    #[test]
    fn every_address_field_is_rewritten_or_explained() {
        // Rewritten by `endpoints` (and tested above).
        let rewritten = [
            "BeginQuorumEpochResponse.NodeEndpoints",
            "DescribeClusterResponse.Brokers",
            "DescribeQuorumResponse.Nodes.Listeners",
            "EndQuorumEpochResponse.NodeEndpoints",
            "FetchResponse.NodeEndpoints",
            "FetchSnapshotResponse.NodeEndpoints",
            "FindCoordinatorResponse",
            "FindCoordinatorResponse.Coordinators",
            "MetadataResponse.Brokers",
            "ProduceResponse.NodeEndpoints",
            "ShareAcknowledgeResponse.NodeEndpoints",
            "ShareFetchResponse.NodeEndpoints",
            "UpdateRaftVoterResponse.CurrentLeader",
            "VoteResponse.NodeEndpoints",
        ];
        // Left alone, for the reasons in the module documentation.
        let not_connectable = [
            "ConsumerGroupDescribeResponse.Groups.Members",
            "DeleteAclsResponse.FilterResults.MatchingAcls",
            "DescribeAclsResponse.Resources.Acls",
            "DescribeGroupsResponse.Groups.Members",
            "ShareGroupDescribeResponse.Groups.Members",
            "StreamsGroupDescribeResponse.Groups.Members",
            "StreamsGroupDescribeResponse.Groups.Members.UserEndpoint",
            "StreamsGroupHeartbeatResponse.PartitionsByUserEndpoint.UserEndpoint",
        ];
        let mut classified: Vec<String> = rewritten
            .iter()
            .chain(&not_connectable)
            .map(|path| path.to_string())
            .collect();
        classified.sort();
        assert_eq!(host_or_port_structs(), classified);
    }
}

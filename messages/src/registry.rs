//! Every message this crate defines, listed once, for code that is generic over
//! messages: visit them all, or find one's schema by name.

use std::fmt::Debug;

use kafka_wire::schema::MessageSchema;
use kafka_wire::Message;

/// API keys whose messages Kafka removed (`"validVersions": "none"`), with the API's
/// name. They have no structs.
pub const RETIRED_API_KEYS: &[(i16, &str)] = &[
    (4, "LeaderAndIsr"),
    (5, "StopReplica"),
    (6, "UpdateMetadata"),
    (7, "ControlledShutdown"),
];

/// Code to run once for each message type, knowing the type: to decode or encode
/// any message, build a table of functions, or collect schemas.
///
/// ```
/// use kafka_wire::Message;
/// use kafka_wire_messages::registry::{self, MessageVisitor};
///
/// /// Counts the messages that have a version 0.
/// struct SinceVersionZero(usize);
///
/// impl MessageVisitor for SinceVersionZero {
///     fn visit<M: Message + Clone + PartialEq + std::fmt::Debug>(&mut self) {
///         if M::SCHEMA.valid_versions.contains(0) {
///             self.0 += 1;
///         }
///     }
/// }
///
/// let mut count = SinceVersionZero(0);
/// registry::visit_all(&mut count);
/// assert!(count.0 > 50);
/// ```
pub trait MessageVisitor {
    /// Called once for message type `M`.
    fn visit<M: Message + Clone + PartialEq + Debug>(&mut self);
}

/// Calls `visitor` once for every message defined here: headers, requests and
/// responses, in API key order.
pub fn visit_all(visitor: &mut impl MessageVisitor) {
    visitor.visit::<crate::header::RequestHeader>();
    visitor.visit::<crate::header::ResponseHeader>();
    visitor.visit::<crate::produce::ProduceRequest>();
    visitor.visit::<crate::produce::ProduceResponse>();
    visitor.visit::<crate::fetch::FetchRequest>();
    visitor.visit::<crate::fetch::FetchResponse>();
    visitor.visit::<crate::list_offsets::ListOffsetsRequest>();
    visitor.visit::<crate::list_offsets::ListOffsetsResponse>();
    visitor.visit::<crate::metadata::MetadataRequest>();
    visitor.visit::<crate::metadata::MetadataResponse>();
    visitor.visit::<crate::offset_commit::OffsetCommitRequest>();
    visitor.visit::<crate::offset_commit::OffsetCommitResponse>();
    visitor.visit::<crate::offset_fetch::OffsetFetchRequest>();
    visitor.visit::<crate::offset_fetch::OffsetFetchResponse>();
    visitor.visit::<crate::find_coordinator::FindCoordinatorRequest>();
    visitor.visit::<crate::find_coordinator::FindCoordinatorResponse>();
    visitor.visit::<crate::join_group::JoinGroupRequest>();
    visitor.visit::<crate::join_group::JoinGroupResponse>();
    visitor.visit::<crate::heartbeat::HeartbeatRequest>();
    visitor.visit::<crate::heartbeat::HeartbeatResponse>();
    visitor.visit::<crate::leave_group::LeaveGroupRequest>();
    visitor.visit::<crate::leave_group::LeaveGroupResponse>();
    visitor.visit::<crate::sync_group::SyncGroupRequest>();
    visitor.visit::<crate::sync_group::SyncGroupResponse>();
    visitor.visit::<crate::describe_groups::DescribeGroupsRequest>();
    visitor.visit::<crate::describe_groups::DescribeGroupsResponse>();
    visitor.visit::<crate::list_groups::ListGroupsRequest>();
    visitor.visit::<crate::list_groups::ListGroupsResponse>();
    visitor.visit::<crate::sasl_handshake::SaslHandshakeRequest>();
    visitor.visit::<crate::sasl_handshake::SaslHandshakeResponse>();
    visitor.visit::<crate::api_versions::ApiVersionsRequest>();
    visitor.visit::<crate::api_versions::ApiVersionsResponse>();
    visitor.visit::<crate::create_topics::CreateTopicsRequest>();
    visitor.visit::<crate::create_topics::CreateTopicsResponse>();
    visitor.visit::<crate::delete_topics::DeleteTopicsRequest>();
    visitor.visit::<crate::delete_topics::DeleteTopicsResponse>();
    visitor.visit::<crate::delete_records::DeleteRecordsRequest>();
    visitor.visit::<crate::delete_records::DeleteRecordsResponse>();
    visitor.visit::<crate::init_producer_id::InitProducerIdRequest>();
    visitor.visit::<crate::init_producer_id::InitProducerIdResponse>();
    visitor.visit::<crate::offset_for_leader_epoch::OffsetForLeaderEpochRequest>();
    visitor.visit::<crate::offset_for_leader_epoch::OffsetForLeaderEpochResponse>();
    visitor.visit::<crate::add_partitions_to_txn::AddPartitionsToTxnRequest>();
    visitor.visit::<crate::add_partitions_to_txn::AddPartitionsToTxnResponse>();
    visitor.visit::<crate::add_offsets_to_txn::AddOffsetsToTxnRequest>();
    visitor.visit::<crate::add_offsets_to_txn::AddOffsetsToTxnResponse>();
    visitor.visit::<crate::end_txn::EndTxnRequest>();
    visitor.visit::<crate::end_txn::EndTxnResponse>();
    visitor.visit::<crate::write_txn_markers::WriteTxnMarkersRequest>();
    visitor.visit::<crate::write_txn_markers::WriteTxnMarkersResponse>();
    visitor.visit::<crate::txn_offset_commit::TxnOffsetCommitRequest>();
    visitor.visit::<crate::txn_offset_commit::TxnOffsetCommitResponse>();
    visitor.visit::<crate::describe_acls::DescribeAclsRequest>();
    visitor.visit::<crate::describe_acls::DescribeAclsResponse>();
    visitor.visit::<crate::create_acls::CreateAclsRequest>();
    visitor.visit::<crate::create_acls::CreateAclsResponse>();
    visitor.visit::<crate::delete_acls::DeleteAclsRequest>();
    visitor.visit::<crate::delete_acls::DeleteAclsResponse>();
    visitor.visit::<crate::describe_configs::DescribeConfigsRequest>();
    visitor.visit::<crate::describe_configs::DescribeConfigsResponse>();
    visitor.visit::<crate::alter_configs::AlterConfigsRequest>();
    visitor.visit::<crate::alter_configs::AlterConfigsResponse>();
    visitor.visit::<crate::alter_replica_log_dirs::AlterReplicaLogDirsRequest>();
    visitor.visit::<crate::alter_replica_log_dirs::AlterReplicaLogDirsResponse>();
    visitor.visit::<crate::describe_log_dirs::DescribeLogDirsRequest>();
    visitor.visit::<crate::describe_log_dirs::DescribeLogDirsResponse>();
    visitor.visit::<crate::sasl_authenticate::SaslAuthenticateRequest>();
    visitor.visit::<crate::sasl_authenticate::SaslAuthenticateResponse>();
    visitor.visit::<crate::create_partitions::CreatePartitionsRequest>();
    visitor.visit::<crate::create_partitions::CreatePartitionsResponse>();
    visitor.visit::<crate::create_delegation_token::CreateDelegationTokenRequest>();
    visitor.visit::<crate::create_delegation_token::CreateDelegationTokenResponse>();
    visitor.visit::<crate::renew_delegation_token::RenewDelegationTokenRequest>();
    visitor.visit::<crate::renew_delegation_token::RenewDelegationTokenResponse>();
    visitor.visit::<crate::expire_delegation_token::ExpireDelegationTokenRequest>();
    visitor.visit::<crate::expire_delegation_token::ExpireDelegationTokenResponse>();
    visitor.visit::<crate::describe_delegation_token::DescribeDelegationTokenRequest>();
    visitor.visit::<crate::describe_delegation_token::DescribeDelegationTokenResponse>();
    visitor.visit::<crate::delete_groups::DeleteGroupsRequest>();
    visitor.visit::<crate::delete_groups::DeleteGroupsResponse>();
    visitor.visit::<crate::elect_leaders::ElectLeadersRequest>();
    visitor.visit::<crate::elect_leaders::ElectLeadersResponse>();
    visitor.visit::<crate::incremental_alter_configs::IncrementalAlterConfigsRequest>();
    visitor.visit::<crate::incremental_alter_configs::IncrementalAlterConfigsResponse>();
    visitor.visit::<crate::alter_partition_reassignments::AlterPartitionReassignmentsRequest>();
    visitor.visit::<crate::alter_partition_reassignments::AlterPartitionReassignmentsResponse>();
    visitor.visit::<crate::list_partition_reassignments::ListPartitionReassignmentsRequest>();
    visitor.visit::<crate::list_partition_reassignments::ListPartitionReassignmentsResponse>();
    visitor.visit::<crate::offset_delete::OffsetDeleteRequest>();
    visitor.visit::<crate::offset_delete::OffsetDeleteResponse>();
    visitor.visit::<crate::describe_client_quotas::DescribeClientQuotasRequest>();
    visitor.visit::<crate::describe_client_quotas::DescribeClientQuotasResponse>();
    visitor.visit::<crate::alter_client_quotas::AlterClientQuotasRequest>();
    visitor.visit::<crate::alter_client_quotas::AlterClientQuotasResponse>();
    visitor.visit::<crate::describe_user_scram_credentials::DescribeUserScramCredentialsRequest>();
    visitor.visit::<crate::describe_user_scram_credentials::DescribeUserScramCredentialsResponse>();
    visitor.visit::<crate::alter_user_scram_credentials::AlterUserScramCredentialsRequest>();
    visitor.visit::<crate::alter_user_scram_credentials::AlterUserScramCredentialsResponse>();
    visitor.visit::<crate::vote::VoteRequest>();
    visitor.visit::<crate::vote::VoteResponse>();
    visitor.visit::<crate::begin_quorum_epoch::BeginQuorumEpochRequest>();
    visitor.visit::<crate::begin_quorum_epoch::BeginQuorumEpochResponse>();
    visitor.visit::<crate::end_quorum_epoch::EndQuorumEpochRequest>();
    visitor.visit::<crate::end_quorum_epoch::EndQuorumEpochResponse>();
    visitor.visit::<crate::describe_quorum::DescribeQuorumRequest>();
    visitor.visit::<crate::describe_quorum::DescribeQuorumResponse>();
    visitor.visit::<crate::alter_partition::AlterPartitionRequest>();
    visitor.visit::<crate::alter_partition::AlterPartitionResponse>();
    visitor.visit::<crate::update_features::UpdateFeaturesRequest>();
    visitor.visit::<crate::update_features::UpdateFeaturesResponse>();
    visitor.visit::<crate::envelope::EnvelopeRequest>();
    visitor.visit::<crate::envelope::EnvelopeResponse>();
    visitor.visit::<crate::fetch_snapshot::FetchSnapshotRequest>();
    visitor.visit::<crate::fetch_snapshot::FetchSnapshotResponse>();
    visitor.visit::<crate::describe_cluster::DescribeClusterRequest>();
    visitor.visit::<crate::describe_cluster::DescribeClusterResponse>();
    visitor.visit::<crate::describe_producers::DescribeProducersRequest>();
    visitor.visit::<crate::describe_producers::DescribeProducersResponse>();
    visitor.visit::<crate::broker_registration::BrokerRegistrationRequest>();
    visitor.visit::<crate::broker_registration::BrokerRegistrationResponse>();
    visitor.visit::<crate::broker_heartbeat::BrokerHeartbeatRequest>();
    visitor.visit::<crate::broker_heartbeat::BrokerHeartbeatResponse>();
    visitor.visit::<crate::unregister_broker::UnregisterBrokerRequest>();
    visitor.visit::<crate::unregister_broker::UnregisterBrokerResponse>();
    visitor.visit::<crate::describe_transactions::DescribeTransactionsRequest>();
    visitor.visit::<crate::describe_transactions::DescribeTransactionsResponse>();
    visitor.visit::<crate::list_transactions::ListTransactionsRequest>();
    visitor.visit::<crate::list_transactions::ListTransactionsResponse>();
    visitor.visit::<crate::allocate_producer_ids::AllocateProducerIdsRequest>();
    visitor.visit::<crate::allocate_producer_ids::AllocateProducerIdsResponse>();
    visitor.visit::<crate::consumer_group_heartbeat::ConsumerGroupHeartbeatRequest>();
    visitor.visit::<crate::consumer_group_heartbeat::ConsumerGroupHeartbeatResponse>();
    visitor.visit::<crate::consumer_group_describe::ConsumerGroupDescribeRequest>();
    visitor.visit::<crate::consumer_group_describe::ConsumerGroupDescribeResponse>();
    visitor.visit::<crate::controller_registration::ControllerRegistrationRequest>();
    visitor.visit::<crate::controller_registration::ControllerRegistrationResponse>();
    visitor.visit::<crate::get_telemetry_subscriptions::GetTelemetrySubscriptionsRequest>();
    visitor.visit::<crate::get_telemetry_subscriptions::GetTelemetrySubscriptionsResponse>();
    visitor.visit::<crate::push_telemetry::PushTelemetryRequest>();
    visitor.visit::<crate::push_telemetry::PushTelemetryResponse>();
    visitor.visit::<crate::assign_replicas_to_dirs::AssignReplicasToDirsRequest>();
    visitor.visit::<crate::assign_replicas_to_dirs::AssignReplicasToDirsResponse>();
    visitor.visit::<crate::list_config_resources::ListConfigResourcesRequest>();
    visitor.visit::<crate::list_config_resources::ListConfigResourcesResponse>();
    visitor.visit::<crate::describe_topic_partitions::DescribeTopicPartitionsRequest>();
    visitor.visit::<crate::describe_topic_partitions::DescribeTopicPartitionsResponse>();
    visitor.visit::<crate::share_group_heartbeat::ShareGroupHeartbeatRequest>();
    visitor.visit::<crate::share_group_heartbeat::ShareGroupHeartbeatResponse>();
    visitor.visit::<crate::share_group_describe::ShareGroupDescribeRequest>();
    visitor.visit::<crate::share_group_describe::ShareGroupDescribeResponse>();
    visitor.visit::<crate::share_fetch::ShareFetchRequest>();
    visitor.visit::<crate::share_fetch::ShareFetchResponse>();
    visitor.visit::<crate::share_acknowledge::ShareAcknowledgeRequest>();
    visitor.visit::<crate::share_acknowledge::ShareAcknowledgeResponse>();
    visitor.visit::<crate::add_raft_voter::AddRaftVoterRequest>();
    visitor.visit::<crate::add_raft_voter::AddRaftVoterResponse>();
    visitor.visit::<crate::remove_raft_voter::RemoveRaftVoterRequest>();
    visitor.visit::<crate::remove_raft_voter::RemoveRaftVoterResponse>();
    visitor.visit::<crate::update_raft_voter::UpdateRaftVoterRequest>();
    visitor.visit::<crate::update_raft_voter::UpdateRaftVoterResponse>();
    visitor.visit::<crate::initialize_share_group_state::InitializeShareGroupStateRequest>();
    visitor.visit::<crate::initialize_share_group_state::InitializeShareGroupStateResponse>();
    visitor.visit::<crate::read_share_group_state::ReadShareGroupStateRequest>();
    visitor.visit::<crate::read_share_group_state::ReadShareGroupStateResponse>();
    visitor.visit::<crate::write_share_group_state::WriteShareGroupStateRequest>();
    visitor.visit::<crate::write_share_group_state::WriteShareGroupStateResponse>();
    visitor.visit::<crate::delete_share_group_state::DeleteShareGroupStateRequest>();
    visitor.visit::<crate::delete_share_group_state::DeleteShareGroupStateResponse>();
    visitor.visit::<crate::read_share_group_state_summary::ReadShareGroupStateSummaryRequest>();
    visitor.visit::<crate::read_share_group_state_summary::ReadShareGroupStateSummaryResponse>();
    visitor.visit::<crate::streams_group_heartbeat::StreamsGroupHeartbeatRequest>();
    visitor.visit::<crate::streams_group_heartbeat::StreamsGroupHeartbeatResponse>();
    visitor.visit::<crate::streams_group_describe::StreamsGroupDescribeRequest>();
    visitor.visit::<crate::streams_group_describe::StreamsGroupDescribeResponse>();
    visitor.visit::<crate::describe_share_group_offsets::DescribeShareGroupOffsetsRequest>();
    visitor.visit::<crate::describe_share_group_offsets::DescribeShareGroupOffsetsResponse>();
    visitor.visit::<crate::alter_share_group_offsets::AlterShareGroupOffsetsRequest>();
    visitor.visit::<crate::alter_share_group_offsets::AlterShareGroupOffsetsResponse>();
    visitor.visit::<crate::delete_share_group_offsets::DeleteShareGroupOffsetsRequest>();
    visitor.visit::<crate::delete_share_group_offsets::DeleteShareGroupOffsetsResponse>();
    visitor.visit::<crate::streams_group_topology_description_update::StreamsGroupTopologyDescriptionUpdateRequest>();
    visitor.visit::<crate::streams_group_topology_description_update::StreamsGroupTopologyDescriptionUpdateResponse>();
    visitor.visit::<crate::data::AbortedTxn>();
    visitor.visit::<crate::data::ConsumerProtocolAssignment>();
    visitor.visit::<crate::data::ConsumerProtocolSubscription>();
    visitor.visit::<crate::data::ControlRecordTypeSchema>();
    visitor.visit::<crate::data::DefaultPrincipalData>();
    visitor.visit::<crate::data::EndTxnMarker>();
    visitor.visit::<crate::data::KRaftVersionRecord>();
    visitor.visit::<crate::data::LeaderChangeMessage>();
    visitor.visit::<crate::data::SnapshotFooterRecord>();
    visitor.visit::<crate::data::SnapshotHeaderRecord>();
    visitor.visit::<crate::data::VotersRecord>();
}

/// The schema of every message defined here, in [`visit_all`]'s order.
///
/// ```
/// let all = kafka_wire_messages::registry::schemas();
/// assert!(all.iter().any(|schema| schema.name == "ApiVersionsResponse"));
/// ```
pub fn schemas() -> Vec<&'static MessageSchema> {
    struct Schemas(Vec<&'static MessageSchema>);
    impl MessageVisitor for Schemas {
        fn visit<M: Message + Clone + PartialEq + Debug>(&mut self) {
            self.0.push(&M::SCHEMA);
        }
    }
    let mut schemas = Schemas(Vec::new());
    visit_all(&mut schemas);
    schemas.0
}

/// The schema of the message called `name` (e.g. `FetchResponse`), if this crate
/// defines it.
pub fn by_name(name: &str) -> Option<&'static MessageSchema> {
    schemas().into_iter().find(|schema| schema.name == name)
}

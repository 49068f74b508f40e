//! A request for every API Kafka's broker listener serves, at any version, built
//! from the test values: what Kafka would accept from a client that means it,
//! so that an error it answers is about the values, never the request's form.

mod admin;
mod groups;
mod records;
mod share_state;
mod transactions;

use kwire_messages::{ApiKey, Request};

use crate::values::Values;

/// Builds a request at a version.
pub type Builder = fn(&Values, i16) -> Request;

/// The builder for `api`; `None` for SaslHandshake and SaslAuthenticate, which
/// the sweep sends on a SASL listener of their own, and for the APIs only
/// controllers or brokers among themselves serve.
pub fn builder(api: ApiKey) -> Option<Builder> {
    use ApiKey as A;
    Some(match api {
        A::Produce => records::produce,
        A::Fetch => records::fetch,
        A::ListOffsets => records::list_offsets,
        A::Metadata => records::metadata,
        A::OffsetForLeaderEpoch => records::offset_for_leader_epoch,
        A::DeleteRecords => records::delete_records,
        A::DescribeProducers => records::describe_producers,
        A::DescribeTopicPartitions => records::describe_topic_partitions,
        A::OffsetCommit => groups::offset_commit,
        A::OffsetFetch => groups::offset_fetch,
        A::FindCoordinator => groups::find_coordinator,
        A::JoinGroup => groups::join_group,
        A::Heartbeat => groups::heartbeat,
        A::LeaveGroup => groups::leave_group,
        A::SyncGroup => groups::sync_group,
        A::DescribeGroups => groups::describe_groups,
        A::ListGroups => groups::list_groups,
        A::DeleteGroups => groups::delete_groups,
        A::OffsetDelete => groups::offset_delete,
        A::ConsumerGroupHeartbeat => groups::consumer_group_heartbeat,
        A::ConsumerGroupDescribe => groups::consumer_group_describe,
        A::ShareGroupHeartbeat => groups::share_group_heartbeat,
        A::ShareGroupDescribe => groups::share_group_describe,
        A::ShareFetch => groups::share_fetch,
        A::ShareAcknowledge => groups::share_acknowledge,
        A::DescribeShareGroupOffsets => groups::describe_share_group_offsets,
        A::AlterShareGroupOffsets => groups::alter_share_group_offsets,
        A::DeleteShareGroupOffsets => groups::delete_share_group_offsets,
        A::StreamsGroupHeartbeat => groups::streams_group_heartbeat,
        A::StreamsGroupDescribe => groups::streams_group_describe,
        A::StreamsGroupTopologyDescriptionUpdate => {
            groups::streams_group_topology_description_update
        }
        A::InitProducerId => transactions::init_producer_id,
        A::AddPartitionsToTxn => transactions::add_partitions_to_txn,
        A::AddOffsetsToTxn => transactions::add_offsets_to_txn,
        A::EndTxn => transactions::end_txn,
        A::WriteTxnMarkers => transactions::write_txn_markers,
        A::TxnOffsetCommit => transactions::txn_offset_commit,
        A::DescribeTransactions => transactions::describe_transactions,
        A::ListTransactions => transactions::list_transactions,
        A::ApiVersions => admin::api_versions,
        A::CreateTopics => admin::create_topics,
        A::DeleteTopics => admin::delete_topics,
        A::DescribeAcls => admin::describe_acls,
        A::CreateAcls => admin::create_acls,
        A::DeleteAcls => admin::delete_acls,
        A::DescribeConfigs => admin::describe_configs,
        A::AlterConfigs => admin::alter_configs,
        A::IncrementalAlterConfigs => admin::incremental_alter_configs,
        A::AlterReplicaLogDirs => admin::alter_replica_log_dirs,
        A::DescribeLogDirs => admin::describe_log_dirs,
        A::CreatePartitions => admin::create_partitions,
        A::CreateDelegationToken => admin::create_delegation_token,
        A::RenewDelegationToken => admin::renew_delegation_token,
        A::ExpireDelegationToken => admin::expire_delegation_token,
        A::DescribeDelegationToken => admin::describe_delegation_token,
        A::ElectLeaders => admin::elect_leaders,
        A::AlterPartitionReassignments => admin::alter_partition_reassignments,
        A::ListPartitionReassignments => admin::list_partition_reassignments,
        A::DescribeClientQuotas => admin::describe_client_quotas,
        A::AlterClientQuotas => admin::alter_client_quotas,
        A::DescribeUserScramCredentials => admin::describe_user_scram_credentials,
        A::AlterUserScramCredentials => admin::alter_user_scram_credentials,
        A::DescribeQuorum => admin::describe_quorum,
        A::UpdateFeatures => admin::update_features,
        A::DescribeCluster => admin::describe_cluster,
        A::UnregisterBroker => admin::unregister_broker,
        A::UnregisterController => admin::unregister_controller,
        A::ListConfigResources => admin::list_config_resources,
        A::AddRaftVoter => admin::add_raft_voter,
        A::RemoveRaftVoter => admin::remove_raft_voter,
        A::InitializeShareGroupState => share_state::initialize,
        A::ReadShareGroupState => share_state::read,
        A::WriteShareGroupState => share_state::write,
        A::DeleteShareGroupState => share_state::delete,
        A::ReadShareGroupStateSummary => share_state::read_summary,
        _ => return None,
    })
}

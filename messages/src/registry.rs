//! Every message this crate defines, by schema, and the API keys Kafka retired.

use kafka_wire::schema::MessageSchema;

/// API keys whose messages Kafka removed (`"validVersions": "none"`), with the API's
/// name. They have no structs; a peer sending one gets an unsupported-version answer.
pub const RETIRED_API_KEYS: &[(i16, &str)] = &[
    (4, "LeaderAndIsr"),
    (5, "StopReplica"),
    (6, "UpdateMetadata"),
    (7, "ControlledShutdown"),
];

/// The schema of every message defined here: headers, requests and responses.
///
/// ```
/// let all = kafka_wire_messages::registry::messages();
/// assert!(all.iter().any(|m| m.name == "ApiVersionsResponse"));
/// ```
pub fn messages() -> Vec<&'static MessageSchema> {
    let groups: &[&[&'static MessageSchema]] = &[
        crate::header::SCHEMAS,
        crate::produce::SCHEMAS,
        crate::fetch::SCHEMAS,
        crate::list_offsets::SCHEMAS,
        crate::metadata::SCHEMAS,
        crate::offset_commit::SCHEMAS,
        crate::offset_fetch::SCHEMAS,
        crate::find_coordinator::SCHEMAS,
        crate::join_group::SCHEMAS,
        crate::heartbeat::SCHEMAS,
        crate::leave_group::SCHEMAS,
        crate::sync_group::SCHEMAS,
        crate::describe_groups::SCHEMAS,
        crate::list_groups::SCHEMAS,
        crate::sasl_handshake::SCHEMAS,
        crate::api_versions::SCHEMAS,
        crate::create_topics::SCHEMAS,
        crate::delete_topics::SCHEMAS,
        crate::delete_records::SCHEMAS,
        crate::init_producer_id::SCHEMAS,
        crate::offset_for_leader_epoch::SCHEMAS,
        crate::add_partitions_to_txn::SCHEMAS,
        crate::add_offsets_to_txn::SCHEMAS,
        crate::end_txn::SCHEMAS,
        crate::write_txn_markers::SCHEMAS,
        crate::txn_offset_commit::SCHEMAS,
        crate::describe_acls::SCHEMAS,
        crate::create_acls::SCHEMAS,
        crate::delete_acls::SCHEMAS,
        crate::describe_configs::SCHEMAS,
        crate::alter_configs::SCHEMAS,
        crate::alter_replica_log_dirs::SCHEMAS,
        crate::describe_log_dirs::SCHEMAS,
        crate::sasl_authenticate::SCHEMAS,
        crate::create_partitions::SCHEMAS,
        crate::create_delegation_token::SCHEMAS,
        crate::renew_delegation_token::SCHEMAS,
        crate::expire_delegation_token::SCHEMAS,
        crate::describe_delegation_token::SCHEMAS,
        crate::delete_groups::SCHEMAS,
        crate::elect_leaders::SCHEMAS,
        crate::incremental_alter_configs::SCHEMAS,
        crate::alter_partition_reassignments::SCHEMAS,
        crate::list_partition_reassignments::SCHEMAS,
        crate::offset_delete::SCHEMAS,
        crate::describe_client_quotas::SCHEMAS,
        crate::alter_client_quotas::SCHEMAS,
    ];
    groups
        .iter()
        .flat_map(|group| group.iter().copied())
        .collect()
}

//! Kafka's messages, one module per API (named after it) holding its request, its
//! response and the structs nested in them. The requests and responses themselves
//! are also here, at the top: `api::MetadataRequest` is `api::metadata::MetadataRequest`.
//!
//! ```
//! use kwire::{KafkaString, Message};
//! use kwire_messages::api::metadata::MetadataRequestTopic;
//! use kwire_messages::api::MetadataRequest;
//!
//! let topic = MetadataRequestTopic::default().with_name(Some(KafkaString::from_static("orders")));
//! let request = MetadataRequest::default().with_topics(Some(vec![topic]));
//! assert_eq!(MetadataRequest::decode(&request.encode(12)?, 12)?, request);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod add_offsets_to_txn;
pub mod add_partitions_to_txn;
pub mod add_raft_voter;
pub mod allocate_producer_ids;
pub mod alter_client_quotas;
pub mod alter_configs;
pub mod alter_partition;
pub mod alter_partition_reassignments;
pub mod alter_replica_log_dirs;
pub mod alter_share_group_offsets;
pub mod alter_user_scram_credentials;
pub mod api_versions;
pub mod assign_replicas_to_dirs;
pub mod begin_quorum_epoch;
pub mod broker_heartbeat;
pub mod broker_registration;
pub mod consumer_group_describe;
pub mod consumer_group_heartbeat;
pub mod controller_registration;
pub mod create_acls;
pub mod create_delegation_token;
pub mod create_partitions;
pub mod create_topics;
pub mod delete_acls;
pub mod delete_groups;
pub mod delete_records;
pub mod delete_share_group_offsets;
pub mod delete_share_group_state;
pub mod delete_topics;
pub mod describe_acls;
pub mod describe_client_quotas;
pub mod describe_cluster;
pub mod describe_configs;
pub mod describe_delegation_token;
pub mod describe_groups;
pub mod describe_log_dirs;
pub mod describe_producers;
pub mod describe_quorum;
pub mod describe_share_group_offsets;
pub mod describe_topic_partitions;
pub mod describe_transactions;
pub mod describe_user_scram_credentials;
pub mod elect_leaders;
pub mod end_quorum_epoch;
pub mod end_txn;
pub mod envelope;
pub mod expire_delegation_token;
pub mod fetch;
pub mod fetch_snapshot;
pub mod find_coordinator;
pub mod get_telemetry_subscriptions;
pub mod heartbeat;
pub mod incremental_alter_configs;
pub mod init_producer_id;
pub mod initialize_share_group_state;
pub mod join_group;
pub mod leave_group;
pub mod list_config_resources;
pub mod list_groups;
pub mod list_offsets;
pub mod list_partition_reassignments;
pub mod list_transactions;
pub mod metadata;
pub mod offset_commit;
pub mod offset_delete;
pub mod offset_fetch;
pub mod offset_for_leader_epoch;
pub mod produce;
pub mod push_telemetry;
pub mod read_share_group_state;
pub mod read_share_group_state_summary;
pub mod remove_raft_voter;
pub mod renew_delegation_token;
pub mod sasl_authenticate;
pub mod sasl_handshake;
pub mod share_acknowledge;
pub mod share_fetch;
pub mod share_group_describe;
pub mod share_group_heartbeat;
pub mod streams_group_describe;
pub mod streams_group_heartbeat;
pub mod streams_group_topology_description_update;
pub mod sync_group;
pub mod txn_offset_commit;
pub mod unregister_broker;
pub mod unregister_controller;
pub mod update_features;
pub mod update_raft_voter;
pub mod vote;
pub mod write_share_group_state;
pub mod write_txn_markers;

pub use crate::api_table::requests_and_responses::*;

//! Apache Kafka's messages, hand-written as [`kwire`] structs, with framing.
//!
//! Each API lives in its own module (named after the API) with its request, response
//! and nested structs; the requests and responses are also re-exported here, and
//! [`registry`] lists every message once.
//!
//! Kafka adds fields to its messages in every release, so the structs are
//! `#[non_exhaustive]`: build them from `Default` (the schema defaults) with the
//! `with_<field>` setters, and code that builds them keeps compiling when fields
//! are added.
//!
//! ```
//! use kwire::{KafkaString, Message};
//! use kwire_messages::metadata::MetadataRequestTopic;
//! use kwire_messages::MetadataRequest;
//!
//! assert_eq!(MetadataRequest::SCHEMA.api_key, Some(3));
//! let topic = MetadataRequestTopic::default().with_name(Some(KafkaString::from_static("orders")));
//! let request = MetadataRequest::default()
//!     .with_topics(Some(vec![topic]))
//!     .with_allow_auto_topic_creation(false);
//! let bytes = request.encode(12).unwrap();
//! assert_eq!(MetadataRequest::decode(&bytes, 12).unwrap(), request);
//! ```
#![forbid(unsafe_code)]

#[macro_use]
mod api_table;
mod broker_ids;

pub mod api_key;
pub mod apis;
pub mod control_records;
pub mod frame;
pub mod header;
pub mod net;
pub mod registry;

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
pub mod data;
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
pub mod update_features;
pub mod update_raft_voter;
pub mod vote;
pub mod write_share_group_state;
pub mod write_txn_markers;

pub use api_key::ApiKeyError;
pub use apis::*;
pub use broker_ids::BrokerIds;

pub use frame::FrameError;
pub use header::{RequestHeader, ResponseHeader};

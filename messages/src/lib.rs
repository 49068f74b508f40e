//! Apache Kafka's messages, hand-written as [`kafka_wire`] structs, with framing.
//!
//! Each API lives in its own module (named after the API) with its request, response
//! and nested structs; [`registry`] lists every message's schema.
//!
//! ```
//! use kafka_wire::Message;
//! use kafka_wire_messages::ApiVersionsRequest;
//!
//! assert_eq!(ApiVersionsRequest::SCHEMA.api_key, Some(18));
//! assert_eq!(ApiVersionsRequest::SCHEMA.max_version(), 5);
//! ```
#![forbid(unsafe_code)]

pub mod frame;
pub mod header;
pub mod registry;

pub mod add_offsets_to_txn;
pub mod add_partitions_to_txn;
pub mod alter_client_quotas;
pub mod alter_configs;
pub mod alter_partition_reassignments;
pub mod alter_replica_log_dirs;
pub mod api_versions;
pub mod create_acls;
pub mod create_delegation_token;
pub mod create_partitions;
pub mod create_topics;
pub mod delete_acls;
pub mod delete_groups;
pub mod delete_records;
pub mod delete_topics;
pub mod describe_acls;
pub mod describe_client_quotas;
pub mod describe_configs;
pub mod describe_delegation_token;
pub mod describe_groups;
pub mod describe_log_dirs;
pub mod elect_leaders;
pub mod end_txn;
pub mod expire_delegation_token;
pub mod fetch;
pub mod find_coordinator;
pub mod heartbeat;
pub mod incremental_alter_configs;
pub mod init_producer_id;
pub mod join_group;
pub mod leave_group;
pub mod list_groups;
pub mod list_offsets;
pub mod list_partition_reassignments;
pub mod metadata;
pub mod offset_commit;
pub mod offset_delete;
pub mod offset_fetch;
pub mod offset_for_leader_epoch;
pub mod produce;
pub mod renew_delegation_token;
pub mod sasl_authenticate;
pub mod sasl_handshake;
pub mod sync_group;
pub mod txn_offset_commit;
pub mod write_txn_markers;

pub use api_versions::{ApiVersionsRequest, ApiVersionsResponse};
pub use frame::FrameError;
pub use header::{RequestHeader, ResponseHeader};

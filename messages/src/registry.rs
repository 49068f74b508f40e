//! Every message this crate defines, reachable at run time by name, and the API
//! keys Kafka retired.

use bytes::Bytes;
use kafka_wire::schema::MessageSchema;
use kafka_wire::{DecodeError, EncodeError, Message};

/// API keys whose messages Kafka removed (`"validVersions": "none"`), with the API's
/// name. They have no structs.
pub const RETIRED_API_KEYS: &[(i16, &str)] = &[
    (4, "LeaderAndIsr"),
    (5, "StopReplica"),
    (6, "UpdateMetadata"),
    (7, "ControlledShutdown"),
];

/// Why a byte round trip failed.
#[derive(Debug, thiserror::Error)]
pub enum RecodeError {
    /// The input did not decode.
    #[error("decode: {0}")]
    Decode(#[from] DecodeError),
    /// The decoded value did not encode again.
    #[error("encode: {0}")]
    Encode(#[from] EncodeError),
}

/// One message type, known at run time by its schema.
#[derive(Debug, Clone, Copy)]
pub struct Registered {
    /// The message's schema.
    pub schema: &'static MessageSchema,
    /// Decodes a body at a version and encodes the result again at that version.
    pub recode: fn(&Bytes, i16) -> Result<Bytes, RecodeError>,
    /// Encodes the message's `Default` value (its schema defaults) at a version.
    pub encode_default: fn(i16) -> Result<Bytes, EncodeError>,
}

impl Registered {
    /// The entry for message type `M`.
    pub const fn of<M: Message>() -> Self {
        Registered {
            schema: &M::SCHEMA,
            recode: recode::<M>,
            encode_default: encode_default::<M>,
        }
    }
}

fn encode_default<M: Message>(version: i16) -> Result<Bytes, EncodeError> {
    M::default().encode(version)
}

fn recode<M: Message>(input: &Bytes, version: i16) -> Result<Bytes, RecodeError> {
    Ok(M::decode(input, version)?.encode(version)?)
}

/// Every message defined here: headers, requests and responses.
///
/// ```
/// let all = kafka_wire_messages::registry::messages();
/// assert!(all.iter().any(|m| m.schema.name == "ApiVersionsResponse"));
/// ```
pub fn messages() -> Vec<Registered> {
    let groups: &[&[Registered]] = &[
        crate::header::MESSAGES,
        crate::produce::MESSAGES,
        crate::fetch::MESSAGES,
        crate::list_offsets::MESSAGES,
        crate::metadata::MESSAGES,
        crate::offset_commit::MESSAGES,
        crate::offset_fetch::MESSAGES,
        crate::find_coordinator::MESSAGES,
        crate::join_group::MESSAGES,
        crate::heartbeat::MESSAGES,
        crate::leave_group::MESSAGES,
        crate::sync_group::MESSAGES,
        crate::describe_groups::MESSAGES,
        crate::list_groups::MESSAGES,
        crate::sasl_handshake::MESSAGES,
        crate::api_versions::MESSAGES,
        crate::create_topics::MESSAGES,
        crate::delete_topics::MESSAGES,
        crate::delete_records::MESSAGES,
        crate::init_producer_id::MESSAGES,
        crate::offset_for_leader_epoch::MESSAGES,
        crate::add_partitions_to_txn::MESSAGES,
        crate::add_offsets_to_txn::MESSAGES,
        crate::end_txn::MESSAGES,
        crate::write_txn_markers::MESSAGES,
        crate::txn_offset_commit::MESSAGES,
        crate::describe_acls::MESSAGES,
        crate::create_acls::MESSAGES,
        crate::delete_acls::MESSAGES,
        crate::describe_configs::MESSAGES,
        crate::alter_configs::MESSAGES,
        crate::alter_replica_log_dirs::MESSAGES,
        crate::describe_log_dirs::MESSAGES,
        crate::sasl_authenticate::MESSAGES,
        crate::create_partitions::MESSAGES,
        crate::create_delegation_token::MESSAGES,
        crate::renew_delegation_token::MESSAGES,
        crate::expire_delegation_token::MESSAGES,
        crate::describe_delegation_token::MESSAGES,
        crate::delete_groups::MESSAGES,
        crate::elect_leaders::MESSAGES,
        crate::incremental_alter_configs::MESSAGES,
        crate::alter_partition_reassignments::MESSAGES,
        crate::list_partition_reassignments::MESSAGES,
        crate::offset_delete::MESSAGES,
        crate::describe_client_quotas::MESSAGES,
        crate::alter_client_quotas::MESSAGES,
    ];
    groups
        .iter()
        .flat_map(|group| group.iter().copied())
        .collect()
}

/// The message called `name` (e.g. `FetchResponse`), if this crate defines it.
pub fn by_name(name: &str) -> Option<Registered> {
    messages().into_iter().find(|m| m.schema.name == name)
}

//! Kafka's `data` schemas: structures that are not requests or responses but travel
//! inside them (consumer group assignments, control records, snapshot and KRaft
//! records), each in its own module and re-exported here.

pub mod aborted_txn;
pub mod consumer_protocol_assignment;
pub mod consumer_protocol_subscription;
pub mod control_record_type_schema;
pub mod default_principal_data;
pub mod end_txn_marker;
pub mod kraft_version_record;
pub mod leader_change_message;
pub mod snapshot_footer_record;
pub mod snapshot_header_record;
pub mod voters_record;

pub use aborted_txn::AbortedTxn;
pub use consumer_protocol_assignment::ConsumerProtocolAssignment;
pub use consumer_protocol_subscription::ConsumerProtocolSubscription;
pub use control_record_type_schema::ControlRecordTypeSchema;
pub use default_principal_data::DefaultPrincipalData;
pub use end_txn_marker::EndTxnMarker;
pub use kraft_version_record::KRaftVersionRecord;
pub use leader_change_message::LeaderChangeMessage;
pub use snapshot_footer_record::SnapshotFooterRecord;
pub use snapshot_header_record::SnapshotHeaderRecord;
pub use voters_record::VotersRecord;

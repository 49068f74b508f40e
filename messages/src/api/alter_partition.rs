//! AlterPartition (API key 56): a partition leader asks the controller to change the
//! partition's ISR or leader recovery state.

use crate::BrokerIds;
use kwire::{UnknownTaggedFields, Uuid};

/// AlterPartition request: the new ISR the leader proposes for each partition.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 56, kind = request, response = AlterPartitionResponse, versions = "2-3",
        flexible = "0+", listeners = "controller")]
pub struct AlterPartitionRequest {
    /// The ID of the requesting broker.
    #[kafka(versions = "0+", entity_type = "brokerId")]
    pub broker_id: i32,
    /// The epoch of the requesting broker.
    #[kafka(versions = "0+", default = -1)]
    pub broker_epoch: i64,
    /// The topics to alter ISRs for.
    #[kafka(versions = "0+")]
    pub topics: Vec<AlterPartitionRequestTopic>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A topic, by ID, and the partitions of it whose ISR to change.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "TopicData")]
pub struct AlterPartitionRequestTopic {
    /// The ID of the topic to alter ISRs for.
    #[kafka(versions = "2+", ignorable)]
    pub topic_id: Uuid,
    /// The partitions to alter ISRs for.
    #[kafka(versions = "0+")]
    pub partitions: Vec<AlterPartitionRequestPartition>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The proposed ISR of one partition and the epochs it is based on.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "PartitionData")]
pub struct AlterPartitionRequestPartition {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition_index: i32,
    /// The leader epoch of this partition.
    #[kafka(versions = "0+")]
    pub leader_epoch: i32,
    /// The ISR for this partition. Deprecated since version 3.
    #[kafka(versions = "0-2", entity_type = "brokerId")]
    pub new_isr: BrokerIds,
    /// The ISR for this partition.
    #[kafka(versions = "3+")]
    pub new_isr_with_epochs: Vec<BrokerState>,
    /// 1 if the partition is recovering from an unclean leader election; 0 otherwise.
    #[kafka(versions = "1+", default = 0)]
    pub leader_recovery_state: i8,
    /// The expected epoch of the partition which is being updated.
    #[kafka(versions = "0+")]
    pub partition_epoch: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A broker of the proposed ISR, with its broker epoch.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct BrokerState {
    /// The ID of the broker.
    #[kafka(versions = "3+", entity_type = "brokerId")]
    pub broker_id: i32,
    /// The epoch of the broker. It will be -1 if the epoch check is not supported.
    #[kafka(versions = "3+", default = -1)]
    pub broker_epoch: i64,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// AlterPartition response: each partition's state as the controller committed it, or why not.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 56, kind = response, versions = "2-3", flexible = "0+")]
pub struct AlterPartitionResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// The top level response error code.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The responses for each topic.
    #[kafka(versions = "0+")]
    pub topics: Vec<AlterPartitionResponseTopic>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The results for one topic.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "TopicData")]
pub struct AlterPartitionResponseTopic {
    /// The ID of the topic.
    #[kafka(versions = "2+", ignorable)]
    pub topic_id: Uuid,
    /// The responses for each partition.
    #[kafka(versions = "0+")]
    pub partitions: Vec<AlterPartitionResponsePartition>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The state of one partition after the change: leader, ISR and epochs.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
#[kafka(name = "PartitionData")]
pub struct AlterPartitionResponsePartition {
    /// The partition index.
    #[kafka(versions = "0+")]
    pub partition_index: i32,
    /// The partition level error code.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The broker ID of the leader.
    #[kafka(versions = "0+", entity_type = "brokerId")]
    pub leader_id: i32,
    /// The leader epoch.
    #[kafka(versions = "0+")]
    pub leader_epoch: i32,
    /// The in-sync replica IDs.
    #[kafka(versions = "0+", entity_type = "brokerId")]
    pub isr: BrokerIds,
    /// 1 if the partition is recovering from an unclean leader election; 0 otherwise.
    #[kafka(versions = "1+", default = 0, ignorable)]
    pub leader_recovery_state: i8,
    /// The current epoch for the partition for KRaft controllers.
    #[kafka(versions = "0+")]
    pub partition_epoch: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

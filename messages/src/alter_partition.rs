//! AlterPartition (API key 56).

use crate::BrokerIds;
use kafka_wire::{UnknownTaggedFields, Uuid};

/// AlterPartition request.
#[derive(Debug, Clone, PartialEq, kafka_wire::Message)]
#[non_exhaustive]
#[kafka(api_key = 56, kind = request, versions = "2-3", flexible = "0+", listeners = "controller")]
pub struct AlterPartitionRequest {
    /// The ID of the requesting broker.
    #[kafka(versions = "0+", entity_type = "brokerId")]
    pub broker_id: i32,
    /// The epoch of the requesting broker.
    #[kafka(versions = "0+", default = -1)]
    pub broker_epoch: i64,
    /// The topics to alter ISRs for.
    #[kafka(versions = "0+")]
    pub topics: Vec<TopicData>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One entry of `AlterPartitionRequest.Topics`.
#[derive(Debug, Clone, PartialEq, kafka_wire::Struct)]
#[non_exhaustive]
pub struct TopicData {
    /// The ID of the topic to alter ISRs for.
    #[kafka(versions = "2+", ignorable)]
    pub topic_id: Uuid,
    /// The partitions to alter ISRs for.
    #[kafka(versions = "0+")]
    pub partitions: Vec<PartitionData>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One entry of `AlterPartitionRequest.Topics[].Partitions`.
#[derive(Debug, Clone, PartialEq, kafka_wire::Struct)]
#[non_exhaustive]
pub struct PartitionData {
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

/// One entry of `AlterPartitionRequest.Topics[].Partitions[].NewIsrWithEpochs`.
#[derive(Debug, Clone, PartialEq, kafka_wire::Struct)]
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

/// AlterPartition response.
#[derive(Debug, Clone, PartialEq, kafka_wire::Message)]
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
    pub topics: Vec<ResponseTopicData>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One entry of `AlterPartitionResponse.Topics`.
#[derive(Debug, Clone, PartialEq, kafka_wire::Struct)]
#[non_exhaustive]
#[kafka(name = "TopicData")]
pub struct ResponseTopicData {
    /// The ID of the topic.
    #[kafka(versions = "2+", ignorable)]
    pub topic_id: Uuid,
    /// The responses for each partition.
    #[kafka(versions = "0+")]
    pub partitions: Vec<ResponsePartitionData>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One entry of `AlterPartitionResponse.Topics[].Partitions`.
#[derive(Debug, Clone, PartialEq, kafka_wire::Struct)]
#[non_exhaustive]
#[kafka(name = "PartitionData")]
pub struct ResponsePartitionData {
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

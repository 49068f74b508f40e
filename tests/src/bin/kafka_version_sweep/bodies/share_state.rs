//! The share coordinator's state RPCs (KIP-932), which brokers send each other
//! and Kafka advertises on the broker listener too: the state of one share
//! group's partition 0 of the topic, the same group at every version, so that
//! what InitializeShareGroupState made is there for the others.

use kwire_messages::api::{
    delete_share_group_state, initialize_share_group_state, read_share_group_state,
    read_share_group_state_summary, write_share_group_state, DeleteShareGroupStateRequest,
    InitializeShareGroupStateRequest, ReadShareGroupStateRequest,
    ReadShareGroupStateSummaryRequest, WriteShareGroupStateRequest,
};
use kwire_messages::Request;

use crate::values::Values;

pub fn initialize(values: &Values, _version: i16) -> Request {
    InitializeShareGroupStateRequest::default()
        .with_group_id(values.name("share-state", 0))
        .with_topics(vec![
            initialize_share_group_state::InitializeStateTopic::default()
                .with_topic_id(values.topic.id)
                .with_partitions(vec![
                    initialize_share_group_state::InitializeStatePartition::default()
                        .with_partition(0)
                        .with_state_epoch(0)
                        .with_start_offset(0),
                ]),
        ])
        .into()
}

pub fn read(values: &Values, _version: i16) -> Request {
    ReadShareGroupStateRequest::default()
        .with_group_id(values.name("share-state", 0))
        .with_topics(vec![read_share_group_state::ReadStateTopic::default()
            .with_topic_id(values.topic.id)
            .with_partitions(vec![
                read_share_group_state::ReadStatePartition::default()
                    .with_partition(0)
                    .with_leader_epoch(0),
            ])])
        .into()
}

pub fn write(values: &Values, _version: i16) -> Request {
    WriteShareGroupStateRequest::default()
        .with_group_id(values.name("share-state", 0))
        .with_topics(vec![write_share_group_state::WriteStateTopic::default()
            .with_topic_id(values.topic.id)
            .with_partitions(vec![
                write_share_group_state::WriteStatePartition::default()
                    .with_partition(0)
                    .with_state_epoch(0)
                    .with_leader_epoch(0)
                    .with_start_offset(0),
            ])])
        .into()
}

pub fn delete(values: &Values, _version: i16) -> Request {
    DeleteShareGroupStateRequest::default()
        .with_group_id(values.name("share-state", 0))
        .with_topics(vec![delete_share_group_state::DeleteStateTopic::default()
            .with_topic_id(values.topic.id)
            .with_partitions(vec![
                delete_share_group_state::DeleteStatePartition::default().with_partition(0),
            ])])
        .into()
}

pub fn read_summary(values: &Values, _version: i16) -> Request {
    ReadShareGroupStateSummaryRequest::default()
        .with_group_id(values.name("share-state", 0))
        .with_topics(vec![
            read_share_group_state_summary::ReadStateSummaryTopic::default()
                .with_topic_id(values.topic.id)
                .with_partitions(vec![
                    read_share_group_state_summary::ReadStateSummaryPartition::default()
                        .with_partition(0)
                        .with_leader_epoch(0),
                ]),
        ])
        .into()
}

//! Requests about groups: the classic protocol (FindCoordinator, JoinGroup,
//! SyncGroup, Heartbeat, LeaveGroup, OffsetCommit, OffsetFetch, DescribeGroups,
//! ListGroups, DeleteGroups, OffsetDelete), the consumer protocol of KIP-848,
//! share groups (KIP-932) and streams groups (KIP-1071).

use bytes::Bytes;
use kwire::{KafkaString, Uuid};
use kwire_messages::api::{
    alter_share_group_offsets, consumer_group_heartbeat, delete_share_group_offsets,
    describe_share_group_offsets, join_group, leave_group, offset_commit, offset_delete,
    offset_fetch, share_acknowledge, share_fetch, streams_group_heartbeat,
    AlterShareGroupOffsetsRequest, ConsumerGroupDescribeRequest, ConsumerGroupHeartbeatRequest,
    DeleteGroupsRequest, DeleteShareGroupOffsetsRequest, DescribeGroupsRequest,
    DescribeShareGroupOffsetsRequest, FindCoordinatorRequest, HeartbeatRequest, JoinGroupRequest,
    LeaveGroupRequest, ListGroupsRequest, OffsetCommitRequest, OffsetDeleteRequest,
    OffsetFetchRequest, ShareAcknowledgeRequest, ShareFetchRequest, ShareGroupDescribeRequest,
    ShareGroupHeartbeatRequest, StreamsGroupDescribeRequest, StreamsGroupHeartbeatRequest,
    StreamsGroupTopologyDescriptionUpdateRequest, SyncGroupRequest,
};
use kwire_messages::Request;

use crate::values::Values;

/// A member id no group has: what Heartbeat, SyncGroup and LeaveGroup name, to
/// be told UNKNOWN_MEMBER_ID.
const STRANGER: &str = "kwire-sweep-stranger";

pub fn find_coordinator(values: &Values, version: i16) -> Request {
    if version >= 4 {
        FindCoordinatorRequest::default().with_coordinator_keys(vec![values.group.clone()])
    } else {
        FindCoordinatorRequest::default().with_key(values.group.clone())
    }
    .into()
}

/// A consumer joining a group of its own: from v4 Kafka first answers
/// MEMBER_ID_REQUIRED with an id; below, the join completes at once (the
/// cluster's initial rebalance delay is 0).
pub fn join_group(values: &Values, version: i16) -> Request {
    JoinGroupRequest::default()
        .with_group_id(values.name("join", version))
        .with_session_timeout_ms(10_000)
        .with_rebalance_timeout_ms(if version >= 1 { 10_000 } else { -1 })
        .with_member_id(KafkaString::default())
        .with_protocol_type("consumer".into())
        .with_protocols(vec![join_group::JoinGroupRequestProtocol::default()
            .with_name("range".into())
            .with_metadata(Bytes::from_static(&[0, 0, 0, 0, 0, 0, 0, 0, 0, 0]))])
        .into()
}

pub fn heartbeat(values: &Values, _version: i16) -> Request {
    HeartbeatRequest::default()
        .with_group_id(values.group.clone())
        .with_generation_id(1)
        .with_member_id(STRANGER.into())
        .into()
}

pub fn leave_group(values: &Values, version: i16) -> Request {
    let request = LeaveGroupRequest::default().with_group_id(values.group.clone());
    if version >= 3 {
        request.with_members(vec![
            leave_group::MemberIdentity::default().with_member_id(STRANGER.into())
        ])
    } else {
        request.with_member_id(STRANGER.into())
    }
    .into()
}

pub fn sync_group(values: &Values, version: i16) -> Request {
    let request = SyncGroupRequest::default()
        .with_group_id(values.group.clone())
        .with_generation_id(1)
        .with_member_id(STRANGER.into());
    if version >= 5 {
        request
            .with_protocol_type(Some("consumer".into()))
            .with_protocol_name(Some("range".into()))
    } else {
        request
    }
    .into()
}

pub fn describe_groups(values: &Values, _version: i16) -> Request {
    DescribeGroupsRequest::default()
        .with_groups(vec![values.group.clone()])
        .into()
}

pub fn list_groups(_values: &Values, _version: i16) -> Request {
    ListGroupsRequest::default().into()
}

pub fn delete_groups(values: &Values, version: i16) -> Request {
    DeleteGroupsRequest::default()
        .with_groups_names(vec![values.name("never-made", version)])
        .into()
}

/// Offset 1 again, as a consumer that assigns itself partitions (v10: by topic id).
pub fn offset_commit(values: &Values, version: i16) -> Request {
    let (name, id) = if version >= 10 {
        (KafkaString::default(), values.topic.id)
    } else {
        (values.topic.name.clone(), Uuid::ZERO)
    };
    OffsetCommitRequest::default()
        .with_group_id(values.group.clone())
        .with_topics(vec![offset_commit::OffsetCommitRequestTopic::default()
            .with_name(name)
            .with_topic_id(id)
            .with_partitions(vec![
                offset_commit::OffsetCommitRequestPartition::default()
                    .with_partition_index(0)
                    .with_committed_offset(1)
                    .with_committed_metadata(Some("sweep".into())),
            ])])
        .into()
}

pub fn offset_fetch(values: &Values, version: i16) -> Request {
    if version >= 8 {
        let (name, id) = if version >= 10 {
            (KafkaString::default(), values.topic.id)
        } else {
            (values.topic.name.clone(), Uuid::ZERO)
        };
        OffsetFetchRequest::default().with_groups(vec![
            offset_fetch::OffsetFetchRequestGroup::default()
                .with_group_id(values.group.clone())
                .with_topics(Some(vec![offset_fetch::OffsetFetchRequestTopics::default(
                )
                .with_name(name)
                .with_topic_id(id)
                .with_partition_indexes(vec![0])])),
        ])
    } else {
        OffsetFetchRequest::default()
            .with_group_id(values.group.clone())
            .with_topics(Some(vec![offset_fetch::OffsetFetchRequestTopic::default()
                .with_name(values.topic.name.clone())
                .with_partition_indexes(vec![0])]))
    }
    .into()
}

pub fn offset_delete(values: &Values, _version: i16) -> Request {
    OffsetDeleteRequest::default()
        .with_group_id(values.group.clone())
        .with_topics(vec![offset_delete::OffsetDeleteRequestTopic::default()
            .with_name(values.topic.name.clone())
            .with_partitions(vec![
                offset_delete::OffsetDeleteRequestPartition::default().with_partition_index(1),
            ])])
        .into()
}

/// A member joining a consumer group of its own (epoch 0), subscribed to the
/// topic. From v1 the member makes its own id.
pub fn consumer_group_heartbeat(values: &Values, version: i16) -> Request {
    let member = if version >= 1 {
        values.member("consumer", version)
    } else {
        KafkaString::default()
    };
    ConsumerGroupHeartbeatRequest::default()
        .with_group_id(values.name("consumer", version))
        .with_member_id(member)
        .with_member_epoch(0)
        .with_rebalance_timeout_ms(10_000)
        .with_subscribed_topic_names(Some(vec![values.topic.name.clone()]))
        .with_topic_partitions(Some(Vec::<consumer_group_heartbeat::TopicPartitions>::new()))
        .into()
}

pub fn consumer_group_describe(values: &Values, version: i16) -> Request {
    ConsumerGroupDescribeRequest::default()
        .with_group_ids(vec![values.name("consumer", version)])
        .into()
}

/// A member joining a share group of its own (epoch 0), subscribed to the topic.
pub fn share_group_heartbeat(values: &Values, version: i16) -> Request {
    ShareGroupHeartbeatRequest::default()
        .with_group_id(values.name("share", version))
        .with_member_id(values.member("share", version))
        .with_member_epoch(0)
        .with_subscribed_topic_names(Some(vec![values.topic.name.clone()]))
        .into()
}

pub fn share_group_describe(values: &Values, version: i16) -> Request {
    ShareGroupDescribeRequest::default()
        .with_group_ids(vec![values.name("share", version)])
        .into()
}

/// Opens a share session (epoch 0) for the share group's member, reading the
/// topic's partition 0.
pub fn share_fetch(values: &Values, _version: i16) -> Request {
    let group_version = 1;
    ShareFetchRequest::default()
        .with_group_id(Some(values.name("share", group_version)))
        .with_member_id(Some(values.member("share", group_version)))
        .with_share_session_epoch(0)
        .with_max_wait_ms(0)
        .with_min_bytes(1)
        .with_max_records(100)
        .with_batch_size(100)
        .with_topics(vec![share_fetch::FetchTopic::default()
            .with_topic_id(values.topic.id)
            .with_partitions(vec![
                share_fetch::FetchPartition::default().with_partition_index(0)
            ])])
        .into()
}

/// Acknowledges nothing in a share session the member never opened at this
/// epoch: Kafka answers with a share session error.
pub fn share_acknowledge(values: &Values, _version: i16) -> Request {
    let group_version = 1;
    ShareAcknowledgeRequest::default()
        .with_group_id(Some(values.name("share", group_version)))
        .with_member_id(Some(values.member("share", group_version)))
        .with_share_session_epoch(1)
        .with_topics(vec![share_acknowledge::AcknowledgeTopic::default()
            .with_topic_id(values.topic.id)
            .with_partitions(vec![
                share_acknowledge::AcknowledgePartition::default()
                    .with_partition_index(0)
                    .with_acknowledgement_batches(vec![
                        share_acknowledge::AcknowledgementBatch::default()
                            .with_first_offset(0)
                            .with_last_offset(0)
                            .with_acknowledge_types(vec![1]),
                    ]),
            ])])
        .into()
}

pub fn describe_share_group_offsets(values: &Values, _version: i16) -> Request {
    DescribeShareGroupOffsetsRequest::default()
        .with_groups(vec![
            describe_share_group_offsets::DescribeShareGroupOffsetsRequestGroup::default()
                .with_group_id(values.name("share", 1))
                .with_topics(None),
        ])
        .into()
}

pub fn alter_share_group_offsets(values: &Values, version: i16) -> Request {
    AlterShareGroupOffsetsRequest::default()
        .with_group_id(values.name("share-offsets", version))
        .with_topics(vec![
            alter_share_group_offsets::AlterShareGroupOffsetsRequestTopic::default()
                .with_topic_name(values.topic.name.clone())
                .with_partitions(vec![
                    alter_share_group_offsets::AlterShareGroupOffsetsRequestPartition::default()
                        .with_partition_index(0)
                        .with_start_offset(0),
                ]),
        ])
        .into()
}

pub fn delete_share_group_offsets(values: &Values, version: i16) -> Request {
    DeleteShareGroupOffsetsRequest::default()
        .with_group_id(values.name("share-offsets", version))
        .with_topics(vec![
            delete_share_group_offsets::DeleteShareGroupOffsetsRequestTopic::default()
                .with_topic_name(values.topic.name.clone()),
        ])
        .into()
}

/// A streams member joining (epoch 0) with a topology of one subtopology that
/// reads the topic.
pub fn streams_group_heartbeat(values: &Values, version: i16) -> Request {
    let topology = streams_group_heartbeat::Topology::default()
        .with_epoch(0)
        .with_subtopologies(vec![streams_group_heartbeat::Subtopology::default()
            .with_subtopology_id("0".into())
            .with_source_topics(vec![values.topic.name.clone()])]);
    StreamsGroupHeartbeatRequest::default()
        .with_group_id(values.name("streams", version))
        .with_member_id(values.member("streams", version))
        .with_member_epoch(0)
        .with_endpoint_information_epoch(0)
        .with_rebalance_timeout_ms(10_000)
        .with_topology(Some(topology))
        .with_active_tasks(Some(Vec::new()))
        .with_standby_tasks(Some(Vec::new()))
        .with_warmup_tasks(Some(Vec::new()))
        .with_process_id(Some(values.member("process", version)))
        .with_client_tags(Some(Vec::new()))
        .with_task_offsets(Some(Vec::new()))
        .with_task_end_offsets(Some(Vec::new()))
        .into()
}

pub fn streams_group_describe(values: &Values, version: i16) -> Request {
    StreamsGroupDescribeRequest::default()
        .with_group_ids(vec![values.name("streams", version)])
        .into()
}

/// A topology description from a member the group does not have.
pub fn streams_group_topology_description_update(values: &Values, _version: i16) -> Request {
    StreamsGroupTopologyDescriptionUpdateRequest::default()
        .with_group_id(values.name("streams", 1))
        .with_member_id(values.member("streams", 1))
        .with_topology_epoch(0)
        .into()
}

//! ConsumerGroupDescribe (API key 69): describes KIP-848 consumer groups and their members.

use kwire::{KafkaString, UnknownTaggedFields, Uuid};

/// ConsumerGroupDescribe request: the groups to describe.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 69, kind = request, response = ConsumerGroupDescribeResponse, versions = "0-1",
        flexible = "0+", listeners = "broker")]
pub struct ConsumerGroupDescribeRequest {
    /// The ids of the groups to describe.
    #[kafka(versions = "0+", entity_type = "groupId")]
    pub group_ids: Vec<KafkaString>,
    /// Whether to include authorized operations.
    #[kafka(versions = "0+")]
    pub include_authorized_operations: bool,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// ConsumerGroupDescribe response: each group's state, epochs and members.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 69, kind = response, versions = "0-1", flexible = "0+")]
pub struct ConsumerGroupDescribeResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// Each described group.
    #[kafka(versions = "0+")]
    pub groups: Vec<DescribedGroup>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One described group: its state, epochs, assignor and members.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct DescribedGroup {
    /// The describe error, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The top-level error message, or null if there was no error.
    #[kafka(versions = "0+", nullable = "0+", default = null)]
    pub error_message: Option<KafkaString>,
    /// The group ID string.
    #[kafka(versions = "0+", entity_type = "groupId")]
    pub group_id: KafkaString,
    /// The group state string, or the empty string.
    #[kafka(versions = "0+")]
    pub group_state: KafkaString,
    /// The group epoch.
    #[kafka(versions = "0+")]
    pub group_epoch: i32,
    /// The assignment epoch.
    #[kafka(versions = "0+")]
    pub assignment_epoch: i32,
    /// The selected assignor.
    #[kafka(versions = "0+")]
    pub assignor_name: KafkaString,
    /// The members.
    #[kafka(versions = "0+")]
    pub members: Vec<Member>,
    /// 32-bit bitfield to represent authorized operations for this group.
    #[kafka(versions = "0+", default = -2147483648)]
    pub authorized_operations: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One member of a described group, with its subscription and assignments.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct Member {
    /// The member ID.
    #[kafka(versions = "0+")]
    pub member_id: KafkaString,
    /// The member instance ID.
    #[kafka(versions = "0+", nullable = "0+", default = null)]
    pub instance_id: Option<KafkaString>,
    /// The member rack ID.
    #[kafka(versions = "0+", nullable = "0+", default = null)]
    pub rack_id: Option<KafkaString>,
    /// The current member epoch.
    #[kafka(versions = "0+")]
    pub member_epoch: i32,
    /// The client ID.
    #[kafka(versions = "0+")]
    pub client_id: KafkaString,
    /// The client host.
    #[kafka(versions = "0+")]
    pub client_host: KafkaString,
    /// The subscribed topic names.
    #[kafka(versions = "0+", entity_type = "topicName")]
    pub subscribed_topic_names: Vec<KafkaString>,
    /// the subscribed topic regex otherwise or null of not provided.
    #[kafka(versions = "0+", nullable = "0+", default = null)]
    pub subscribed_topic_regex: Option<KafkaString>,
    /// The current assignment.
    #[kafka(versions = "0+")]
    pub assignment: Assignment,
    /// The target assignment.
    #[kafka(versions = "0+")]
    pub target_assignment: Assignment,
    /// -1 for unknown. 0 for classic member. +1 for consumer member.
    #[kafka(versions = "1+", default = -1, ignorable)]
    pub member_type: i8,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The partitions assigned to a member (current or target).
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct Assignment {
    /// The assigned topic-partitions to the member.
    #[kafka(versions = "0+")]
    pub topic_partitions: Vec<TopicPartitions>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A topic, by ID and name, and partitions of it.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct TopicPartitions {
    /// The topic ID.
    #[kafka(versions = "0+")]
    pub topic_id: Uuid,
    /// The topic name.
    #[kafka(versions = "0+", entity_type = "topicName")]
    pub topic_name: KafkaString,
    /// The partitions.
    #[kafka(versions = "0+")]
    pub partitions: Vec<i32>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

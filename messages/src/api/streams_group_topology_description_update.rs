//! StreamsGroupTopologyDescriptionUpdate (API key 93): a streams group member sends
//! the full description of its topology to the group coordinator.

use kwire::{KafkaString, UnknownTaggedFields};

/// StreamsGroupTopologyDescriptionUpdate request: the member, topology epoch and
/// topology description.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 93, kind = request, response = StreamsGroupTopologyDescriptionUpdateResponse,
        versions = "0", flexible = "0+", listeners = "broker")]
pub struct StreamsGroupTopologyDescriptionUpdateRequest {
    /// The streams group identifier.
    #[kafka(versions = "0+", entity_type = "groupId")]
    pub group_id: KafkaString,
    /// The ID of the streams group member sending the push. The broker validates that
    /// this member is still in the group; mismatches (including when the group itself
    /// has been deleted) are rejected with UNKNOWN_MEMBER_ID so the client treats
    /// itself as fenced and rejoins.
    #[kafka(versions = "0+")]
    pub member_id: KafkaString,
    /// The epoch of the topology being described.
    #[kafka(versions = "0+")]
    pub topology_epoch: i32,
    /// The topology description.
    #[kafka(versions = "0+")]
    pub topology_description: TopologyDescription,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// The full description of a topology: its subtopologies and global stores.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct TopologyDescription {
    /// The subtopologies that make up this topology.
    #[kafka(versions = "0+")]
    pub subtopologies: Vec<TopologyDescriptionSubtopology>,
    /// Global state stores used by this topology.
    #[kafka(versions = "0+")]
    pub global_stores: Vec<TopologyDescriptionGlobalStore>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A subtopology of a topology description, with its processing nodes.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct TopologyDescriptionSubtopology {
    /// The subtopology identifier, unique within the topology.
    #[kafka(versions = "0+")]
    pub subtopology_id: KafkaString,
    /// The processing nodes in this subtopology.
    #[kafka(versions = "0+")]
    pub nodes: Vec<TopologyDescriptionNode>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A source, processor or sink node of a topology description.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct TopologyDescriptionNode {
    /// The name of this node (e.g., KSTREAM-SOURCE-0000000000).
    #[kafka(versions = "0+")]
    pub name: KafkaString,
    /// The type of this node: 1=SOURCE, 2=PROCESSOR, 3=SINK.
    #[kafka(versions = "0+")]
    pub node_type: i8,
    /// The source topics this node reads from. Defined only for source nodes, may be
    /// empty if source topics are dynamically determined.
    #[kafka(versions = "0+", entity_type = "topicName")]
    pub source_topics: Vec<KafkaString>,
    /// The topic this node writes to. Defined only for sink nodes, may be null if sink
    /// topic is dynamically determined.
    #[kafka(versions = "0+", nullable = "0+", default = null, entity_type = "topicName")]
    pub sink_topic: Option<KafkaString>,
    /// The state store names accessed by this node. Defined only for processor nodes.
    #[kafka(versions = "0+")]
    pub stores: Vec<KafkaString>,
    /// The names of successor nodes in the processing graph. Predecessor relationships
    /// are reconstructed from this field.
    #[kafka(versions = "0+")]
    pub successors: Vec<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// A global state store, with the source and processor nodes that fill it.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
#[non_exhaustive]
pub struct TopologyDescriptionGlobalStore {
    /// The source node providing data to the global store.
    #[kafka(versions = "0+")]
    pub source: TopologyDescriptionNode,
    /// The processor node that populates the global store.
    #[kafka(versions = "0+")]
    pub processor: TopologyDescriptionNode,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// StreamsGroupTopologyDescriptionUpdate response: whether the description was stored.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 93, kind = response, versions = "0", flexible = "0+")]
pub struct StreamsGroupTopologyDescriptionUpdateResponse {
    /// The duration in milliseconds for which the request was throttled due to a quota
    /// violation, or zero if the request did not violate any quota.
    #[kafka(versions = "0+")]
    pub throttle_time_ms: i32,
    /// The top-level error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The top-level error message, or null if there was no error.
    #[kafka(versions = "0+", nullable = "0+", default = null)]
    pub error_message: Option<KafkaString>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

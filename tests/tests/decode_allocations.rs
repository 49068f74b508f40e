//! What decoding allocates: strings, bytes and records are slices of the input, short
//! replica lists are held in place, so a decoded MetadataResponse costs one
//! allocation per array of structs and nothing per partition.
//!
//! A counting global allocator counts the allocations made inside `decode`.

#[path = "common/counting_allocator.rs"]
mod counting_allocator;

use bytes::Bytes;
use counting_allocator::allocated_during;
use kwire::{KafkaString, Message, Uuid};
use kwire_messages::api::metadata::{
    MetadataResponse, MetadataResponseBroker, MetadataResponsePartition, MetadataResponseTopic,
};

const TOPICS: usize = 10;
const PARTITIONS: usize = 10;

/// A cluster map with `replicas` brokers per partition, all of them in sync.
fn metadata(replicas: i32) -> MetadataResponse {
    let brokers = (1..=replicas)
        .map(|node_id| {
            MetadataResponseBroker::default()
                .with_node_id(node_id)
                .with_host(KafkaString::from(format!("broker-{node_id}")))
                .with_port(9092)
                .with_rack(Some(KafkaString::from("rack-a")))
        })
        .collect();
    let partitions = |replicas: i32| {
        (0..PARTITIONS as i32)
            .map(|index| {
                MetadataResponsePartition::default()
                    .with_partition_index(index)
                    .with_leader_id(1)
                    .with_replica_nodes((1..=replicas).collect())
                    .with_isr_nodes((1..=replicas).collect())
            })
            .collect()
    };
    let topics = (0..TOPICS)
        .map(|t| {
            MetadataResponseTopic::default()
                .with_name(Some(KafkaString::from(format!("topic-{t}"))))
                .with_topic_id(Uuid::from_u64_pair(t as u64, 1))
                .with_partitions(partitions(replicas))
        })
        .collect();
    MetadataResponse::default()
        .with_brokers(brokers)
        .with_cluster_id(Some(KafkaString::from("cluster")))
        .with_topics(topics)
}

/// Decodes `value`'s encoding at `version` and returns the allocations it made.
fn decode_allocations(value: &MetadataResponse, version: i16) -> usize {
    let bytes: Bytes = value.encode(version).expect("encodes");
    // Sharing the input once (the first zero-copy string turns the buffer into a
    // shared one) is done before counting, as it would be by any earlier reader.
    let shared = bytes.slice(..);
    let (decoded, allocated) = allocated_during(|| MetadataResponse::decode(&bytes, version));
    let decoded = decoded.expect("decodes");
    // Versions before a field drop it, so compare bytes, not values.
    assert!(decoded.encode(version).expect("re-encodes") == bytes);
    drop(shared);
    allocated.calls
}

/// The brokers array, the topics array, and one partitions array per topic.
const ARRAYS_OF_STRUCTS: usize = 2 + TOPICS;

#[test]
fn replica_lists_up_to_four_long_allocate_nothing() {
    for version in [0, 9, 12, 13] {
        for replicas in [1, 3, 4] {
            assert_eq!(
                decode_allocations(&metadata(replicas), version),
                ARRAYS_OF_STRUCTS,
                "v{version}, {replicas} replicas per partition"
            );
        }
    }
}

#[test]
fn longer_replica_lists_are_each_one_allocation() {
    // Five replicas spill to the heap: the counter sees the two lists of every
    // partition, so it would see them at three as well if they were not inline.
    assert_eq!(
        decode_allocations(&metadata(5), 12),
        ARRAYS_OF_STRUCTS + 2 * TOPICS * PARTITIONS
    );
}

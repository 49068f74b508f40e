//! kafka-wire against `kafka-protocol` on the same MetadataResponse v12: 3 brokers and
//! 100 topics of 10 partitions each, the cluster map a client refreshes regularly.
//!
//! Decode, encode and size, each the way a user of each library writes it (see
//! `side_by_side`); setup panics unless both sides encode the same bytes and read each
//! other's. After criterion's report, a summary times both sides again in interleaved
//! rounds and prints one line per operation with both throughputs and the ratio.
//!
//! Decoding this message used to be mostly allocating: a replica list and an in-sync
//! list per partition. kafka-protocol still allocates those 2 000 `Vec`s; kafka-wire's
//! `BrokerIds` hold up to four IDs in place, so it allocates only the 102 arrays of
//! structs. The summary also times a clone of each side's value, which makes and frees
//! the same allocations as a decode without parsing anything.
//!
//! It also decodes the same bytes through the `Response` enum (the API key picks
//! the type at run time) against decoding `MetadataResponse` directly, interleaved,
//! and prints the overhead of dispatch.
//!
//! Run: `cargo bench -p kwire-tests --bench metadata`.

mod side_by_side;

use std::hint::black_box;

use bytes::Bytes;
use kwire::{KafkaString, MessageEnum, Uuid};
use kwire_messages::api::metadata::{
    MetadataResponse, MetadataResponseBroker, MetadataResponsePartition, MetadataResponseTopic,
};
use kwire_messages::{ApiKey, Response};

use kafka_protocol::messages::metadata_response as kp;
use kafka_protocol::messages::{BrokerId, TopicName};
use kafka_protocol::protocol::StrBytes;

use side_by_side::{Fixture, Ops};

const VERSION: i16 = 12;
const BROKERS: i32 = 3;
const TOPICS: u64 = 100;
const PARTITIONS: i32 = 10;
const CLUSTER_ID: &str = "5Xc2nrRJQnGhMr7ZZ9bA1w";
const CONTROLLER_ID: i32 = 2;
const OPS: Ops = Ops {
    decode: true,
    encode: true,
    size: true,
};

/// A broker both sides list: node ID, host, port, rack.
fn brokers() -> impl Iterator<Item = (i32, String, i32, String)> {
    (1..=BROKERS).map(|id| {
        (
            id,
            format!("broker-{id}.kafka.svc.cluster.local"),
            9092,
            format!("eu-west-1{}", ['a', 'b', 'c'][(id - 1) as usize % 3]),
        )
    })
}

/// A topic both sides list: name, the two halves of its ID, and its partitions.
struct TopicSpec {
    name: String,
    id: (u64, u64),
    partitions: Vec<PartitionSpec>,
}

/// A partition: index, leader, leader epoch, replicas and in-sync replicas.
struct PartitionSpec {
    index: i32,
    leader: i32,
    epoch: i32,
    replicas: Vec<i32>,
    isr: Vec<i32>,
}

fn topics() -> impl Iterator<Item = TopicSpec> {
    (0..TOPICS).map(|t| TopicSpec {
        name: format!("orders.events.region-{t:03}"),
        id: (
            0x5f3a_91c2_0e47_4b8d ^ t,
            0x9e37_79b9_7f4a_7c15_u64.wrapping_mul(t + 1),
        ),
        partitions: (0..PARTITIONS)
            .map(|index| {
                let leader = (t as i32 + index) % BROKERS + 1;
                let replicas: Vec<i32> = (0..BROKERS)
                    .map(|r| (leader - 1 + r) % BROKERS + 1)
                    .collect();
                // Every seventh partition has a lagging follower.
                let isr = if (t as i32 + index) % 7 == 0 {
                    replicas[..2].to_vec()
                } else {
                    replicas.clone()
                };
                PartitionSpec {
                    index,
                    leader,
                    epoch: (t as i32 * 3 + index) % 40,
                    replicas,
                    isr,
                }
            })
            .collect(),
    })
}

fn kafka_wire_value() -> MetadataResponse {
    let brokers = brokers()
        .map(|(node_id, host, port, rack)| {
            MetadataResponseBroker::default()
                .with_node_id(node_id)
                .with_host(host.into())
                .with_port(port)
                .with_rack(Some(rack.into()))
        })
        .collect();
    let partition = |p: PartitionSpec| {
        MetadataResponsePartition::default()
            .with_partition_index(p.index)
            .with_leader_id(p.leader)
            .with_leader_epoch(p.epoch)
            .with_replica_nodes(p.replicas.into())
            .with_isr_nodes(p.isr.into())
    };
    let topics = topics()
        .map(|topic| {
            MetadataResponseTopic::default()
                .with_name(Some(topic.name.into()))
                .with_topic_id(Uuid::from_u64_pair(topic.id.0, topic.id.1))
                .with_partitions(topic.partitions.into_iter().map(partition).collect())
        })
        .collect();
    MetadataResponse::default()
        .with_brokers(brokers)
        .with_cluster_id(Some(KafkaString::from(CLUSTER_ID)))
        .with_controller_id(CONTROLLER_ID)
        .with_topics(topics)
}

fn kafka_protocol_value() -> kp::MetadataResponse {
    let broker_ids = |ids: Vec<i32>| ids.into_iter().map(BrokerId).collect();
    kp::MetadataResponse::default()
        .with_brokers(
            brokers()
                .map(|(node_id, host, port, rack)| {
                    kp::MetadataResponseBroker::default()
                        .with_node_id(BrokerId(node_id))
                        .with_host(StrBytes::from_string(host))
                        .with_port(port)
                        .with_rack(Some(StrBytes::from_string(rack)))
                })
                .collect(),
        )
        .with_cluster_id(Some(StrBytes::from_static_str(CLUSTER_ID)))
        .with_controller_id(BrokerId(CONTROLLER_ID))
        .with_topics(
            topics()
                .map(|topic| {
                    // kafka-protocol's UUID type is the `uuid` crate's, reached by parsing.
                    let id = (u128::from(topic.id.0) << 64) | u128::from(topic.id.1);
                    kp::MetadataResponseTopic::default()
                        .with_name(Some(TopicName(StrBytes::from_string(topic.name))))
                        .with_topic_id(format!("{id:032x}").parse().expect("a UUID"))
                        .with_partitions(
                            topic
                                .partitions
                                .into_iter()
                                .map(|p| {
                                    kp::MetadataResponsePartition::default()
                                        .with_partition_index(p.index)
                                        .with_leader_id(BrokerId(p.leader))
                                        .with_leader_epoch(p.epoch)
                                        .with_replica_nodes(broker_ids(p.replicas))
                                        .with_isr_nodes(broker_ids(p.isr))
                                })
                                .collect(),
                        )
                })
                .collect(),
        )
}

/// kafka-wire's decode through the `Response` enum, the way a program that learns
/// the API key at run time writes it.
#[inline(never)]
fn kw_decode_any(input: &Bytes, version: i16) -> Response {
    Response::decode(ApiKey::Metadata.key(), version, input).expect("kafka-wire decodes")
}

fn main() {
    let fixture = Fixture::new(kafka_wire_value(), kafka_protocol_value(), VERSION);
    side_by_side::write_body("metadata_response_v12.bin", &fixture.bytes);
    side_by_side::run(
        |c| {
            side_by_side::bench_group(c, "metadata_response_v12", &fixture, OPS);
            c.bench_function(
                "metadata_response_v12/decode/kafka-wire via Response",
                |b| b.iter(|| kw_decode_any(black_box(&fixture.bytes), VERSION)),
            );
        },
        || {
            side_by_side::summary_header(&format!(
                "MetadataResponse v{VERSION}, {BROKERS} brokers, {TOPICS} topics x {PARTITIONS} \
                 partitions, {} bytes",
                fixture.bytes.len()
            ));
            side_by_side::summarize("", &fixture, OPS);
            // The same allocations as a decode, copied rather than parsed.
            side_by_side::compare(
                "clone",
                fixture.bytes.len(),
                || black_box(&fixture.kw).clone(),
                || black_box(&fixture.kp).clone(),
            );
            let (direct, through_enum) = side_by_side::interleaved(
                || side_by_side::kw_decode::<MetadataResponse>(black_box(&fixture.bytes), VERSION),
                || kw_decode_any(black_box(&fixture.bytes), VERSION),
            );
            println!(
                "dispatch     kafka-wire decode direct {direct:>9.1} ns | through Response \
                 {through_enum:>9.1} ns | overhead {:+.1}%",
                (through_enum / direct - 1.0) * 100.0
            );
        },
    );
}

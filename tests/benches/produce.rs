//! kafka-wire against `kafka-protocol` on the same ProduceRequest v9: one topic, 10
//! partitions, 16 KiB of records each, what a producer sends when its batches fill.
//!
//! Decode and encode, each the way a user of each library writes it (see
//! `side_by_side`); setup panics unless both sides encode the same bytes and read each
//! other's. Both sides decode records as slices of the input and copy them once when
//! encoding. After criterion's report, a summary times both sides again in interleaved
//! rounds and prints one line per operation with both throughputs and the ratio.
//! Run: `cargo bench -p kwire-tests --bench produce`.

mod side_by_side;

use bytes::Bytes;
use kwire::{KafkaString, Records};
use kwire_messages::api::produce::{PartitionProduceData, ProduceRequest, TopicProduceData};

use kafka_protocol::messages::produce_request as kp;
use kafka_protocol::messages::TopicName;
use kafka_protocol::protocol::StrBytes;

use side_by_side::{Fixture, Ops};

const VERSION: i16 = 9;
const TOPIC: &str = "orders.events";
const PARTITIONS: i32 = 10;
const RECORDS_LEN: usize = 16 * 1024;
const ACKS: i16 = -1;
const TIMEOUT_MS: i32 = 30_000;
const OPS: Ops = Ops {
    decode: true,
    encode: true,
    size: false,
};

/// Each partition's records: opaque to both sides, so any bytes do; distinct per
/// partition so a mix-up would show.
fn partitions() -> impl Iterator<Item = (i32, Bytes)> {
    (0..PARTITIONS).map(|index| {
        let records: Vec<u8> = (0..RECORDS_LEN)
            .map(|i| (i as u32).wrapping_mul(31).wrapping_add(index as u32) as u8)
            .collect();
        (index, Bytes::from(records))
    })
}

fn kafka_wire_value() -> ProduceRequest {
    let partition_data = partitions()
        .map(|(index, records)| {
            PartitionProduceData::default()
                .with_index(index)
                .with_records(Some(Records(records)))
        })
        .collect();
    let topic = TopicProduceData::default()
        .with_name(KafkaString::from(TOPIC))
        .with_partition_data(partition_data);
    ProduceRequest::default()
        .with_acks(ACKS)
        .with_timeout_ms(TIMEOUT_MS)
        .with_topic_data(vec![topic])
}

fn kafka_protocol_value() -> kp::ProduceRequest {
    kp::ProduceRequest::default()
        .with_acks(ACKS)
        .with_timeout_ms(TIMEOUT_MS)
        .with_topic_data(vec![kp::TopicProduceData::default()
            .with_name(TopicName(StrBytes::from_static_str(TOPIC)))
            .with_partition_data(
                partitions()
                    .map(|(index, records)| {
                        kp::PartitionProduceData::default()
                            .with_index(index)
                            .with_records(Some(records))
                    })
                    .collect(),
            )])
}

fn main() {
    let fixture = Fixture::new(kafka_wire_value(), kafka_protocol_value(), VERSION);
    side_by_side::run(
        |c| side_by_side::bench_group(c, "produce_request_v9", &fixture, OPS),
        || {
            side_by_side::summary_header(&format!(
                "ProduceRequest v{VERSION}, 1 topic x {PARTITIONS} partitions x {} KiB of \
                 records, {} bytes",
                RECORDS_LEN / 1024,
                fixture.bytes.len()
            ));
            side_by_side::summarize("", &fixture, OPS);
        },
    );
}

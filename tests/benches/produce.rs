//! kafka-wire against `kafka-protocol` on the same ProduceRequest v9: one topic, 10
//! partitions, 16 KiB of records each, what a producer sends when its batches fill.
//!
//! Decode and encode, each the way a user of each library writes it (see
//! `side_by_side`); setup panics unless both sides encode the same bytes and read each
//! other's. Both sides decode records as slices of the input; a contiguous encode
//! copies them once, kafka-wire's vectored encode (what its client sends) attaches
//! them. After criterion's report, a summary times both sides again in interleaved
//! rounds and prints one line per operation with both throughputs and the ratio, then
//! kafka-wire's vectored encode against kafka-protocol's encode, the vectored encode
//! of 10 x 1 MiB against 10 x 1 KiB (its cost should not depend on the payload), and
//! the allocations one encode makes on each side (counted by a global allocator that
//! every allocation of both sides goes through alike).
//! Run: `cargo bench -p kwire-tests --bench produce`.

#[path = "../tests/common/counting_allocator.rs"]
mod counting_allocator;
mod side_by_side;

use std::hint::black_box;

use bytes::Bytes;
use kwire::{KafkaString, Records};
use kwire_messages::api::produce::{PartitionProduceData, ProduceRequest, TopicProduceData};

use kafka_protocol::messages::produce_request as kp;
use kafka_protocol::messages::TopicName;
use kafka_protocol::protocol::StrBytes;

use counting_allocator::allocated_during;
use side_by_side::{kp_encode, kw_encode, kw_encode_vectored, Fixture, Ops};

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

/// Each partition's records, `len` bytes: opaque to both sides, so any bytes do;
/// distinct per partition so a mix-up would show.
fn partitions(len: usize) -> impl Iterator<Item = (i32, Bytes)> {
    (0..PARTITIONS).map(move |index| {
        let records: Vec<u8> = (0..len)
            .map(|i| (i as u32).wrapping_mul(31).wrapping_add(index as u32) as u8)
            .collect();
        (index, Bytes::from(records))
    })
}

fn kafka_wire_value(records_len: usize) -> ProduceRequest {
    let partition_data = partitions(records_len)
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
                partitions(RECORDS_LEN)
                    .map(|(index, records)| {
                        kp::PartitionProduceData::default()
                            .with_index(index)
                            .with_records(Some(records))
                    })
                    .collect(),
            )])
}

fn main() {
    let fixture = Fixture::new(
        kafka_wire_value(RECORDS_LEN),
        kafka_protocol_value(),
        VERSION,
    );
    side_by_side::write_body("produce_request_v9.bin", &fixture.bytes);
    let small = kafka_wire_value(1024);
    let large = kafka_wire_value(1024 * 1024);
    side_by_side::run(
        |c| {
            side_by_side::bench_group(c, "produce_request_v9", &fixture, OPS);
            let mut group = c.benchmark_group("produce_request_v9_vectored");
            group.throughput(criterion::Throughput::Bytes(fixture.bytes.len() as u64));
            group.bench_function("encode_vectored/kafka-wire", |b| {
                b.iter(|| kw_encode_vectored(black_box(&fixture.kw), VERSION))
            });
            group.finish();
        },
        || {
            side_by_side::summary_header(&format!(
                "ProduceRequest v{VERSION}, 1 topic x {PARTITIONS} partitions x {} KiB of \
                 records, {} bytes",
                RECORDS_LEN / 1024,
                fixture.bytes.len()
            ));
            side_by_side::summarize("", &fixture, OPS);
            side_by_side::compare(
                "encode vectored",
                fixture.bytes.len(),
                || kw_encode_vectored(black_box(&fixture.kw), VERSION),
                || kp_encode(black_box(&fixture.kp), VERSION),
            );
            let (small_ns, large_ns) = side_by_side::interleaved(
                || kw_encode_vectored(black_box(&small), VERSION),
                || kw_encode_vectored(black_box(&large), VERSION),
            );
            println!(
                "vectored encode time {PARTITIONS} x 1 MiB / {PARTITIONS} x 1 KiB: kafka-wire \
                 {:.2}x ({large_ns:.1} / {small_ns:.1} ns)",
                large_ns / small_ns
            );
            let count = |what: &str, f: &dyn Fn() -> usize| {
                let (len, allocated) = allocated_during(f);
                format!(
                    "{what} {} ({} bytes of {len})",
                    allocated.calls, allocated.bytes
                )
            };
            println!(
                "allocations per encode: {} | {} | {}",
                count("kafka-wire vectored", &|| {
                    kw_encode_vectored(&fixture.kw, VERSION).len()
                }),
                count("kafka-wire contiguous", &|| kw_encode(&fixture.kw, VERSION)
                    .len()),
                count("kafka-protocol", &|| kp_encode(&fixture.kp, VERSION).len()),
            );
        },
    );
}

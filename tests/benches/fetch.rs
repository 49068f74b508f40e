//! kafka-wire against `kafka-protocol` on the same FetchResponse v16, once with 1 KiB
//! and once with 1 MiB of records: one topic, one partition.
//!
//! Decode and encode, the way a user of each library writes them (see
//! `side_by_side`); setup panics unless both sides encode the same bytes and read
//! each other's. Records are zero-copy slices of the input on both sides, so decoding
//! should not get slower with more records; a broker sends a FetchResponse with
//! kafka-wire's vectored encode, which attaches the records instead of copying them,
//! so neither should that. Besides the usual lines, the summary times the two sizes
//! against each other (interleaved) and prints the 1 MiB / 1 KiB time ratios of
//! decode on both sides and of kafka-wire's vectored encode, which it also sets
//! against kafka-protocol's encode (a copy).
//! Run: `cargo bench -p kwire-tests --bench fetch`.

mod side_by_side;

use std::hint::black_box;

use bytes::Bytes;
use kwire::{Records, Uuid};
use kwire_messages::api::fetch::{FetchResponse, FetchableTopicResponse, PartitionData};

use kafka_protocol::messages::fetch_response as kp;

use side_by_side::{kp_decode, kp_encode, kw_decode, kw_encode_vectored, Fixture, Ops};

const VERSION: i16 = 16;
const SMALL: usize = 1024;
const LARGE: usize = 1024 * 1024;
const SESSION_ID: i32 = 1_234_567;
const TOPIC_ID: (u64, u64) = (0x5f3a_91c2_0e47_4b8d, 0x9e37_79b9_7f4a_7c15);
const HIGH_WATERMARK: i64 = 8_412_337;
const LOG_START_OFFSET: i64 = 1_024;
const OPS: Ops = Ops {
    decode: true,
    encode: true,
    size: false,
};

/// Records of `len` bytes: opaque to both sides, so any bytes do.
fn records(len: usize) -> Bytes {
    (0..len)
        .map(|i| (i as u32).wrapping_mul(31) as u8)
        .collect::<Vec<u8>>()
        .into()
}

fn kafka_wire_value(records: Bytes) -> FetchResponse {
    let partition = PartitionData::default()
        .with_high_watermark(HIGH_WATERMARK)
        .with_last_stable_offset(HIGH_WATERMARK)
        .with_log_start_offset(LOG_START_OFFSET)
        .with_records(Some(Records(records)));
    let topic = FetchableTopicResponse::default()
        .with_topic_id(Uuid::from_u64_pair(TOPIC_ID.0, TOPIC_ID.1))
        .with_partitions(vec![partition]);
    FetchResponse::default()
        .with_session_id(SESSION_ID)
        .with_responses(vec![topic])
}

fn kafka_protocol_value(records: Bytes) -> kp::FetchResponse {
    // kafka-protocol's UUID type is the `uuid` crate's, reached by parsing.
    let topic_id = (u128::from(TOPIC_ID.0) << 64) | u128::from(TOPIC_ID.1);
    kp::FetchResponse::default()
        .with_session_id(SESSION_ID)
        .with_responses(vec![kp::FetchableTopicResponse::default()
            .with_topic_id(format!("{topic_id:032x}").parse().expect("a UUID"))
            .with_partitions(vec![kp::PartitionData::default()
                .with_high_watermark(HIGH_WATERMARK)
                .with_last_stable_offset(HIGH_WATERMARK)
                .with_log_start_offset(LOG_START_OFFSET)
                .with_records(Some(records))])])
}

fn fixture(len: usize) -> Fixture<FetchResponse, kp::FetchResponse> {
    let records = records(len);
    Fixture::new(
        kafka_wire_value(records.clone()),
        kafka_protocol_value(records),
        VERSION,
    )
}

fn main() {
    let small = fixture(SMALL);
    let large = fixture(LARGE);
    side_by_side::write_body("fetch_response_v16_1MiB.bin", &large.bytes);
    side_by_side::run(
        |c| {
            side_by_side::bench_group(c, "fetch_response_v16_1KiB", &small, OPS);
            side_by_side::bench_group(c, "fetch_response_v16_1MiB", &large, OPS);
        },
        || {
            side_by_side::summary_header(&format!(
                "FetchResponse v{VERSION}, 1 topic x 1 partition, {} and {} bytes",
                small.bytes.len(),
                large.bytes.len()
            ));
            side_by_side::summarize(" 1KiB", &small, OPS);
            side_by_side::summarize(" 1MiB", &large, OPS);
            let (kw_small, kw_large) = side_by_side::interleaved(
                || kw_decode::<FetchResponse>(black_box(&small.bytes), VERSION),
                || kw_decode::<FetchResponse>(black_box(&large.bytes), VERSION),
            );
            let (kp_small, kp_large) = side_by_side::interleaved(
                || kp_decode::<kp::FetchResponse>(black_box(&small.bytes), VERSION),
                || kp_decode::<kp::FetchResponse>(black_box(&large.bytes), VERSION),
            );
            println!(
                "decode time 1MiB / 1KiB: kafka-wire {:.3}x ({kw_large:.1} / {kw_small:.1} ns) \
                 | kafka-protocol {:.3}x ({kp_large:.1} / {kp_small:.1} ns)",
                kw_large / kw_small,
                kp_large / kp_small
            );
            for (label, fixture) in [(" 1KiB", &small), (" 1MiB", &large)] {
                side_by_side::compare(
                    &format!("encode vectored{label}"),
                    fixture.bytes.len(),
                    || kw_encode_vectored(black_box(&fixture.kw), VERSION),
                    || kp_encode(black_box(&fixture.kp), VERSION),
                );
            }
            let (small_ns, large_ns) = side_by_side::interleaved(
                || kw_encode_vectored(black_box(&small.kw), VERSION),
                || kw_encode_vectored(black_box(&large.kw), VERSION),
            );
            println!(
                "vectored encode time 1MiB / 1KiB: kafka-wire {:.3}x ({large_ns:.1} / {small_ns:.1} ns)",
                large_ns / small_ns
            );
        },
    );
}

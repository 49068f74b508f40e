//! kafka-wire against `kafka-protocol` 0.18 reading the same record batches: 1 MiB
//! uncompressed (once of 1 KiB records, once of 100-byte records), and 1 MiB of
//! records compressed with lz4 and with zstd.
//!
//! Each side does what a consumer does with a batch: check its CRC-32C (kafka-protocol
//! always does) and read every record, summing the value lengths so nothing is
//! optimised away. kafka-protocol decodes into a `Vec<Record>`; kafka-wire iterates
//! views. The summary also times kafka-wire without the CRC check, which a reader of
//! headers or a proxy may skip. Setup fails unless both sides read the same records
//! from the bytes (written by kafka-wire's builder).
//! Run: `cargo bench -p kwire-tests --bench records -- summary-only`.

#[allow(dead_code, reason = "the records bench uses only the timing helpers")]
mod side_by_side;

use std::hint::black_box;

use bytes::Bytes;
use criterion::{Criterion, Throughput};
use kafka_protocol::records::RecordBatchDecoder;
use kwire::records::{Batches, Compression, RecordBatchBuilder};

use side_by_side::{compare, interleaved};

struct Case {
    name: &'static str,
    bytes: Bytes,
    uncompressed: usize,
}

/// One batch of `count` records with `value_len`-byte values, a key and a header.
fn batch(count: usize, value_len: usize, compression: Compression) -> Bytes {
    let mut builder = RecordBatchBuilder::new(1_000)
        .compression(compression)
        .producer(7_000, 3, 0);
    for i in 0..count {
        let key = format!("key-{i:08}");
        let value: Vec<u8> = (0..value_len).map(|b| ((b * 7 + i) % 251) as u8).collect();
        builder
            .append(
                1_700_000_000_000 + i as i64,
                Some(key.as_bytes()),
                Some(&value),
                &[("trace", Some(b"0123456789abcdef"))],
            )
            .expect("append");
    }
    builder.build().expect("build")
}

const MIB: usize = 1024 * 1024;

fn cases() -> Vec<Case> {
    let case = |name, count: usize, value_len: usize, compression| {
        let uncompressed = batch(count, value_len, Compression::None).len();
        Case {
            name,
            bytes: batch(count, value_len, compression),
            uncompressed,
        }
    };
    vec![
        case(
            "1 MiB of 1 KiB records",
            MIB / 1024,
            1000,
            Compression::None,
        ),
        case("1 MiB of 100 B records", MIB / 128, 100, Compression::None),
        case(
            "lz4, 1 MiB of 1 KiB records",
            MIB / 1024,
            1000,
            Compression::Lz4,
        ),
        case(
            "zstd, 1 MiB of 1 KiB records",
            MIB / 1024,
            1000,
            Compression::Zstd,
        ),
    ]
}

/// kafka-wire: every batch's CRC checked, every record read.
#[inline(never)]
fn kw_read(bytes: &Bytes) -> (usize, usize) {
    kw_walk(bytes, true)
}

/// kafka-wire without the CRC check.
#[inline(never)]
fn kw_read_unchecked(bytes: &Bytes) -> (usize, usize) {
    kw_walk(bytes, false)
}

fn kw_walk(bytes: &Bytes, check_crc: bool) -> (usize, usize) {
    let (mut records, mut value_bytes) = (0, 0);
    for batch in Batches::new(bytes.clone()) {
        let batch = batch.expect("batch");
        if check_crc {
            batch.verify_crc().expect("crc");
        }
        for record in batch.records().expect("records") {
            let record = record.expect("record");
            records += 1;
            value_bytes += record.value.map_or(0, |v| v.len());
        }
    }
    (records, value_bytes)
}

/// kafka-protocol: decode (it checks the CRC) and read every record.
#[inline(never)]
fn kp_read(bytes: &Bytes) -> (usize, usize) {
    let mut buf = bytes.clone();
    let set = RecordBatchDecoder::decode(&mut buf).expect("kafka-protocol decode");
    let mut value_bytes = 0;
    for record in &set.records {
        value_bytes += record.value.as_ref().map_or(0, |v| v.len());
    }
    (set.records.len(), value_bytes)
}

fn check(case: &Case) {
    let kw = kw_read(&case.bytes);
    assert!(kw.0 > 0);
    assert_eq!(
        kw,
        kp_read(&case.bytes),
        "{}: both sides read the same records",
        case.name
    );
}

fn benches(c: &mut Criterion) {
    for case in cases() {
        check(&case);
        let mut group = c.benchmark_group(format!("records/{}", case.name));
        group.throughput(Throughput::Bytes(case.uncompressed as u64));
        group.bench_function("kafka-wire", |b| b.iter(|| kw_read(black_box(&case.bytes))));
        group.bench_function("kafka-protocol", |b| {
            b.iter(|| kp_read(black_box(&case.bytes)))
        });
        group.finish();
    }
}

fn summary() {
    side_by_side::summary_header(
        "Record batches read, CRC checked, every record visited; throughput over the \
         uncompressed batch",
    );
    for case in cases() {
        check(&case);
        println!("{} ({} bytes on the wire)", case.name, case.bytes.len());
        compare(
            "read",
            case.uncompressed,
            || kw_read(&case.bytes),
            || kp_read(&case.bytes),
        );
        let (unchecked, checked) =
            interleaved(|| kw_read_unchecked(&case.bytes), || kw_read(&case.bytes));
        println!(
            "{:<12} kafka-wire without the CRC check {unchecked:>9.1} ns, with it {checked:>9.1} ns",
            "no-crc"
        );
    }
}

fn main() {
    side_by_side::run(benches, summary);
}

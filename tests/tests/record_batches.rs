//! Record batches written by four real producers with every codec
//! (`tests/fixtures/records/`, with how each was made) read back to what each client
//! was told to send, and the uncompressed ones written again byte for byte; hostile
//! batches refused with allocation bounded by the input (a counting allocator
//! measures).

#[path = "common/counting_allocator.rs"]
mod counting_allocator;
#[path = "common/hex_fixtures.rs"]
mod hex_fixtures;

use bytes::Bytes;
use counting_allocator::allocated_during;
use kwire::records::{Batches, Compression, RecordBatchBuilder, RecordsError};

fn fixtures() -> Vec<(String, Bytes)> {
    hex_fixtures::load("records")
}

/// A record as read: key, value, headers.
type Sent = (
    Option<Vec<u8>>,
    Option<Vec<u8>>,
    Vec<(String, Option<Vec<u8>>)>,
);

/// What every client was told to send (tests/fixtures/records/README.md); record 4's
/// header value is empty instead of null where the client cannot send null.
fn told_to_send(null_header_value: bool) -> Vec<(i64, Sent)> {
    let s = |v: &str| Some(v.as_bytes().to_vec());
    let h = |k: &str, v: Option<&str>| (k.to_string(), v.map(|v| v.as_bytes().to_vec()));
    vec![
        (1_700_000_000_000, (s("k1"), s("v1"), vec![])),
        (1_700_000_000_001, (None, s("v2"), vec![h("h1", Some("x"))])),
        (1_700_000_000_002, (s("k3"), None, vec![])),
        (
            1_700_000_000_003,
            (
                s(""),
                s(""),
                vec![h("h2", if null_header_value { None } else { Some("") })],
            ),
        ),
        (
            1_700_000_000_004,
            (
                s("k5"),
                s(&"abcdefghij".repeat(100)),
                vec![h("a", Some("1")), h("b", Some("2"))],
            ),
        ),
    ]
}

fn read_all(bytes: &Bytes) -> Vec<(i64, i64, Sent)> {
    let mut read = Vec::new();
    for batch in Batches::new(bytes.clone()) {
        let batch = batch.expect("batch");
        batch.verify_crc().expect("crc");
        for record in batch.records().expect("records") {
            let record = record.expect("record");
            let headers = record
                .headers
                .clone()
                .map(|h| {
                    let h = h.expect("header");
                    (h.key.to_string(), h.value.map(|v| v.to_vec()))
                })
                .collect();
            read.push((
                record.offset,
                record.timestamp,
                (
                    record.key.map(|k| k.to_vec()),
                    record.value.map(|v| v.to_vec()),
                    headers,
                ),
            ));
        }
    }
    read
}

#[test]
fn every_fixture_reads_back_to_what_its_client_was_told_to_send() {
    let all = fixtures();
    assert_eq!(all.len(), 24, "4 clients x (5 codecs + idempotent)");
    for (name, bytes) in &all {
        let null_header = name.starts_with("librdkafka") || name.starts_with("aiokafka");
        let expected = told_to_send(null_header);
        let read = read_all(bytes);
        assert_eq!(read.len(), expected.len(), "{name}");
        for (i, ((offset, timestamp, record), (sent_ts, sent))) in
            read.iter().zip(&expected).enumerate()
        {
            assert_eq!(*offset, i as i64, "{name} record {i}");
            assert_eq!(timestamp, sent_ts, "{name} record {i}");
            assert_eq!(record, sent, "{name} record {i}");
        }
        let batch = Batches::new(bytes.clone()).next().unwrap().unwrap();
        let codec = name.split('-').nth(2).unwrap_or_default();
        let expected_codec = match () {
            _ if name.contains("-gzip") => Compression::Gzip,
            _ if name.contains("-snappy") => Compression::Snappy,
            _ if name.contains("-lz4") => Compression::Lz4,
            _ if name.contains("-zstd") => Compression::Zstd,
            _ => Compression::None,
        };
        assert_eq!(
            batch.compression().unwrap(),
            expected_codec,
            "{name} {codec}"
        );
        if name.contains("idempotent") {
            assert_eq!(
                (
                    batch.producer_id(),
                    batch.producer_epoch(),
                    batch.base_sequence()
                ),
                (1000, 0, 0),
                "{name}"
            );
        }
    }
}

#[test]
fn our_writer_reproduces_every_uncompressed_fixture_byte_for_byte() {
    let uncompressed: Vec<_> = fixtures()
        .into_iter()
        .filter(|(name, _)| name.contains("-none"))
        .collect();
    assert_eq!(uncompressed.len(), 8);
    for (name, bytes) in uncompressed {
        let batch = Batches::new(bytes.clone()).next().unwrap().unwrap();
        let mut builder = RecordBatchBuilder::new(batch.base_offset())
            .partition_leader_epoch(batch.partition_leader_epoch())
            .producer(
                batch.producer_id(),
                batch.producer_epoch(),
                batch.base_sequence(),
            );
        for (_, timestamp, (key, value, headers)) in read_all(&bytes) {
            let headers: Vec<(&str, Option<&[u8]>)> = headers
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_deref()))
                .collect();
            builder
                .append(timestamp, key.as_deref(), value.as_deref(), &headers)
                .unwrap();
        }
        assert_eq!(builder.build().unwrap(), bytes, "{name}");
    }
}

#[test]
fn a_batch_claiming_two_billion_records_costs_only_what_it_holds() {
    let mut builder = RecordBatchBuilder::new(0);
    for i in 0..3 {
        builder.append(i, Some(b"k"), Some(b"v"), &[]).unwrap();
    }
    let mut bytes = builder.build().unwrap().to_vec();
    bytes[57..61].copy_from_slice(&i32::MAX.to_be_bytes());
    let bytes = Bytes::from(bytes);
    let (last, allocated) = allocated_during(|| {
        let batch = Batches::new(bytes.clone()).next().unwrap().unwrap();
        let mut results = batch.records().unwrap().collect::<Vec<_>>();
        // The records borrow the batch: what leaves is the last result, owned.
        results.pop().map(|result| result.map(|_| ()))
    });
    assert!(
        matches!(last, Some(Err(RecordsError::RecordCount { found: 3, .. }))),
        "{last:?}"
    );
    assert!(allocated.peak < 4096, "{allocated:?}");
}

#[test]
fn a_compression_bomb_is_refused_at_the_cap() {
    // 64 MiB of zeros as one record's value, gzip-compressed to a few dozen KiB.
    let zeros = vec![0u8; 64 * 1024 * 1024];
    let mut builder = RecordBatchBuilder::new(0).compression(Compression::Gzip);
    builder.append(0, None, Some(&zeros), &[]).unwrap();
    let bytes = builder.build().unwrap();
    drop(zeros);
    assert!(bytes.len() < 256 * 1024, "{}", bytes.len());
    let cap = 1024 * 1024;
    let (result, allocated) = allocated_during(|| {
        let batch = Batches::new(bytes.clone()).next().unwrap().unwrap();
        batch.records_with_limit(cap).map(|_| ())
    });
    assert!(
        matches!(result, Err(RecordsError::DecompressedTooLarge { limit, .. }) if limit == cap),
        "{result:?}"
    );
    assert!(allocated.peak <= 4 * cap, "{allocated:?}");
}

#[test]
fn an_overlong_varint_inside_a_record_is_a_typed_error() {
    let mut builder = RecordBatchBuilder::new(0);
    builder
        .append(0, Some(b"key"), Some(b"value"), &[])
        .unwrap();
    let mut bytes = builder.build().unwrap().to_vec();
    // The record starts after the 61-byte header: its length varint, its attributes,
    // then the timestamp delta, made an endless varlong (continuation bits only).
    let len = bytes.len();
    for byte in &mut bytes[63..len] {
        *byte = 0xff;
    }
    let crc = crc32c::crc32c(&bytes[21..]);
    bytes[17..21].copy_from_slice(&crc.to_be_bytes());
    let bytes = Bytes::from(bytes);
    let (result, allocated) = allocated_during(|| {
        let batch = Batches::new(bytes.clone()).next().unwrap().unwrap();
        batch.verify_crc().unwrap();
        batch.records().unwrap().next().unwrap().map(|_| ())
    });
    assert!(result.is_err(), "{result:?}");
    assert!(allocated.peak < 1024, "{allocated:?}");
}

#[test]
fn reading_a_batch_allocates_a_constant_number_of_times() {
    for count in [10, 1000] {
        let mut builder = RecordBatchBuilder::new(0);
        for i in 0..count {
            builder
                .append(i, Some(b"key"), Some(&[7; 100]), &[("h", Some(b"v"))])
                .unwrap();
        }
        let bytes = builder.build().unwrap();
        let (read, allocated) = allocated_during(|| read_count(&bytes));
        assert_eq!(read, count as usize);
        assert_eq!(allocated.calls, 0, "{count} records: {allocated:?}");
    }
}

fn read_count(bytes: &Bytes) -> usize {
    let mut n = 0;
    for batch in Batches::new(bytes.clone()) {
        for record in batch.unwrap().records().unwrap() {
            let record = record.unwrap();
            for header in record.headers {
                header.unwrap();
            }
            n += 1;
        }
    }
    n
}

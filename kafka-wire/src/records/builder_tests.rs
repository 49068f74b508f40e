//! The builder's tests: what it writes, read back, and refusals.

use super::*;
use crate::records::batch::{Batches, RecordBatch, ATTRIBUTES_OFFSET};
use crate::records::record::Record;
use proptest::prelude::*;

type Header = (String, Option<Vec<u8>>);
type Input = (i64, Option<Vec<u8>>, Option<Vec<u8>>, Vec<Header>);

fn build(base_offset: i64, records: &[Input]) -> Bytes {
    let mut builder = RecordBatchBuilder::new(base_offset);
    for (timestamp, key, value, headers) in records {
        let headers: Vec<(&str, Option<&[u8]>)> = headers
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_deref()))
            .collect();
        builder
            .append(*timestamp, key.as_deref(), value.as_deref(), &headers)
            .unwrap();
    }
    builder.build().unwrap()
}

fn bytes() -> impl Strategy<Value = Option<Vec<u8>>> {
    proptest::option::of(proptest::collection::vec(any::<u8>(), 0..40))
}

fn input() -> impl Strategy<Value = Input> {
    (
        prop_oneof![Just(-1i64), 0..4_000_000_000_000i64],
        bytes(),
        bytes(),
        proptest::collection::vec((".{0,8}", bytes()), 0..4),
    )
}

/// Reads a batch back completely; any failure is an `Err`.
/// A read record's headers as owned `(key, value)` pairs, to compare with what was
/// appended.
fn owned_headers(record: &Record<'_>) -> Vec<(String, Option<Vec<u8>>)> {
    record
        .headers
        .clone()
        .map(|h| h.map(|h| (h.key.to_string(), h.value.map(|v| v.to_vec()))))
        .collect::<Result<_, _>>()
        .unwrap()
}

fn read_all(bytes: Bytes) -> Result<(), RecordsError> {
    let (batch, _) = RecordBatch::parse(bytes)?;
    batch.verify_crc()?;
    for record in batch.records()? {
        for header in record?.headers {
            header?;
        }
    }
    Ok(())
}

#[test]
fn empty_builder_writes_nothing() {
    let builder = RecordBatchBuilder::new(0);
    assert!(builder.is_empty());
    assert!(builder.build().unwrap().is_empty());
    assert!(Batches::new(builder.build().unwrap()).next().is_none());
}

#[test]
fn header_fields_are_written() {
    let mut builder = RecordBatchBuilder::new(1 << 40)
        .partition_leader_epoch(7)
        .transactional(true)
        .control(true)
        .producer(99, 3, 12)
        .base_timestamp(500);
    builder.append(400, None, None, &[]).unwrap();
    builder.append(600, None, None, &[]).unwrap();
    builder.append(550, None, None, &[]).unwrap();
    assert_eq!(builder.len(), 3);
    let (batch, _) = RecordBatch::parse(builder.build().unwrap()).unwrap();
    batch.verify_crc().unwrap();
    assert_eq!(batch.base_offset(), 1 << 40);
    assert_eq!(batch.partition_leader_epoch(), 7);
    assert!(batch.is_transactional() && batch.is_control());
    assert_eq!(batch.attributes(), Attributes(0x30));
    assert_eq!(
        (
            batch.producer_id(),
            batch.producer_epoch(),
            batch.base_sequence()
        ),
        (99, 3, 12)
    );
    assert_eq!(batch.base_timestamp(), 500);
    assert_eq!(batch.max_timestamp(), 600);
    assert_eq!(batch.last_offset_delta(), 2);
    let timestamps: Vec<(i64, i64)> = batch
        .records()
        .unwrap()
        .map(|r| r.map(|r| (r.timestamp_delta, r.timestamp)).unwrap())
        .collect();
    assert_eq!(timestamps, [(-100, 400), (100, 600), (50, 550)]);
}

#[test]
fn max_timestamp_starts_at_no_timestamp() {
    let mut builder = RecordBatchBuilder::new(0);
    builder.append(-1, None, None, &[]).unwrap();
    let (batch, _) = RecordBatch::parse(builder.build().unwrap()).unwrap();
    assert_eq!((batch.base_timestamp(), batch.max_timestamp()), (-1, -1));
}

#[test]
fn timestamp_delta_overflow_is_an_error() {
    let mut builder = RecordBatchBuilder::new(0);
    builder.append(i64::MIN, None, None, &[]).unwrap();
    builder.append(i64::MAX, None, None, &[]).unwrap();
    assert_eq!(
        builder.build(),
        Err(RecordsError::TooLarge {
            what: "record timestamp delta"
        })
    );
}

/// The codecs whose features are enabled.
fn enabled_codecs() -> Vec<Compression> {
    [
        (cfg!(feature = "gzip"), Compression::Gzip),
        (cfg!(feature = "snappy"), Compression::Snappy),
        (cfg!(feature = "lz4"), Compression::Lz4),
        (cfg!(feature = "zstd"), Compression::Zstd),
    ]
    .into_iter()
    .filter_map(|(enabled, codec)| enabled.then_some(codec))
    .collect()
}

#[test]
fn compressed_batches_read_back() {
    for codec in enabled_codecs() {
        let mut builder = RecordBatchBuilder::new(10).compression(codec);
        let mut plain = RecordBatchBuilder::new(10);
        for i in 0..20u8 {
            let value = vec![i; 100];
            let headers: &[(&str, Option<&[u8]>)] = &[("n", Some(&[i]))];
            builder
                .append(1_000 + i64::from(i), Some(&[i]), Some(&value), headers)
                .unwrap();
            plain
                .append(1_000 + i64::from(i), Some(&[i]), Some(&value), headers)
                .unwrap();
        }
        let bytes = builder.build().unwrap();
        let (batch, _) = RecordBatch::parse(bytes).unwrap();
        batch.verify_crc().unwrap();
        assert_eq!(batch.compression(), Ok(codec));
        let (plain, _) = RecordBatch::parse(plain.build().unwrap()).unwrap();
        // Same header fields apart from length, CRC and attributes.
        assert_eq!(batch.as_bytes()[23..61], plain.as_bytes()[23..61]);
        let read: Vec<_> = batch.records().unwrap().collect::<Result<_, _>>().unwrap();
        let expected: Vec<_> = plain.records().unwrap().collect::<Result<_, _>>().unwrap();
        assert_eq!(read, expected, "{codec:?}");
        // The decompressed records are exactly the uncompressed batch's.
        assert_eq!(batch.records().unwrap().bytes(), &plain.payload());
        // A cap below their size fails.
        assert!(batch.records_with_limit(100).is_err(), "{codec:?}");
        // Changed compressed bytes: a CRC mismatch, and never a panic.
        for at in HEADER_SIZE..batch.size() {
            let mut changed = batch.as_bytes().to_vec();
            changed[at] ^= 0x5a;
            let (changed, _) = RecordBatch::parse(Bytes::from(changed)).unwrap();
            assert!(changed.verify_crc().is_err());
            if let Ok(records) = changed.records() {
                for record in records.flatten() {
                    for _ in record.headers {}
                }
            }
        }
    }
}

#[cfg(not(feature = "gzip"))]
#[test]
fn codec_without_its_feature_is_an_error() {
    let mut builder = RecordBatchBuilder::new(0).compression(Compression::Gzip);
    builder.append(0, None, Some(b"v"), &[]).unwrap();
    assert!(matches!(
        builder.build(),
        Err(RecordsError::CodecNotEnabled(..))
    ));
}

proptest! {
    #[test]
    fn built_batches_read_back(
        base_offset in 0..i64::MAX / 2,
        records in proptest::collection::vec(input(), 1..50),
    ) {
        let bytes = build(base_offset, &records);
        let (batch, rest) = RecordBatch::parse(bytes.clone()).unwrap();
        prop_assert!(rest.is_empty());
        batch.verify_crc().unwrap();
        prop_assert_eq!(batch.base_offset(), base_offset);
        prop_assert_eq!(batch.records_count() as usize, records.len());
        prop_assert_eq!(batch.last_offset(), base_offset + records.len() as i64 - 1);
        prop_assert_eq!(batch.base_timestamp(), records[0].0);
        let max = records.iter().map(|r| r.0).max().unwrap().max(-1);
        prop_assert_eq!(batch.max_timestamp(), max);
        let read: Vec<_> = batch.records().unwrap().collect::<Result<_, _>>().unwrap();
        prop_assert_eq!(read.len(), records.len());
        for (i, (record, (timestamp, key, value, headers))) in read.iter().zip(&records).enumerate() {
            prop_assert_eq!(record.offset, base_offset + i as i64);
            prop_assert_eq!(record.offset_delta, i as i32);
            prop_assert_eq!(record.timestamp, *timestamp);
            prop_assert_eq!(record.attributes, 0);
            prop_assert_eq!(record.key, key.as_deref());
            prop_assert_eq!(record.value, value.as_deref());
            prop_assert_eq!(&owned_headers(record), headers);
        }
    }

    #[test]
    fn truncations_and_mutations_fail_cleanly(
        records in proptest::collection::vec(input(), 1..8),
        flip in 1..=255u8,
    ) {
        let bytes = build(3, &records).to_vec();
        // Every truncation: an error from parsing, or a partial tail in iteration.
        for cut in 0..bytes.len() {
            let short = Bytes::copy_from_slice(&bytes[..cut]);
            prop_assert!(read_all(short.clone()).is_err(), "cut at {}", cut);
            let mut batches = Batches::new(short);
            prop_assert!(batches.next().is_none());
            prop_assert_eq!(batches.partial_tail(), cut);
        }
        // Every single-byte change: an error, from the CRC at the latest for
        // the CRC'd bytes; before them, the fields the CRC does not cover.
        for at in 0..bytes.len() {
            let mut changed = bytes.clone();
            changed[at] ^= flip;
            let changed = Bytes::from(changed);
            let result = read_all(changed.clone());
            if at >= ATTRIBUTES_OFFSET - 4 {
                prop_assert!(result.is_err(), "changed byte {}", at);
                if let Ok((batch, _)) = RecordBatch::parse(changed.clone()) {
                    let crc = batch.verify_crc();
                    prop_assert!(
                        matches!(crc, Err(RecordsError::CrcMismatch { .. })),
                        "changed byte {}", at
                    );
                }
            } else if (8..12).contains(&at) || at == 16 {
                // batchLength and magic: the batch no longer parses whole.
                prop_assert!(result.is_err(), "changed byte {}", at);
            }
            // Iterating never panics, whatever the byte.
            for batch in Batches::new(changed).flatten() {
                let _ = batch.verify_crc();
                if let Ok(records) = batch.records() {
                    for record in records.flatten() {
                        for _ in record.headers {}
                    }
                }
            }
        }
    }
}

/// `bytes` with its CRC-32C filled in over the attributes to the end, as Kafka
/// computes it.
fn with_crc(bytes: &[u8]) -> Vec<u8> {
    let mut bytes = bytes.to_vec();
    let crc = crc32c::crc32c(&bytes[ATTRIBUTES_OFFSET..]);
    bytes[ATTRIBUTES_OFFSET - 4..ATTRIBUTES_OFFSET].copy_from_slice(&crc.to_be_bytes());
    bytes
}

/// A compacted batch written out from the format: base offset 100, the records at
/// offsets 100 and 102 (101 was removed and the survivors keep their offsets),
/// from producer 7, epoch 0, base sequence 40. The CRC is filled in by
/// [`with_crc`].
#[rustfmt::skip]
const GAPPED_BATCH: [u8; 79] = [
    0, 0, 0, 0, 0, 0, 0, 100,          // baseOffset 100
    0, 0, 0, 67,                       // batchLength 67 (79 - 12)
    0xff, 0xff, 0xff, 0xff,            // partitionLeaderEpoch -1
    2,                                 // magic 2
    0, 0, 0, 0,                        // crc (computed)
    0, 0,                              // attributes: none, create time
    0, 0, 0, 2,                        // lastOffsetDelta 2: the last record's
    0, 0, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x00, // baseTimestamp 1_700_000_000_000
    0, 0, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x05, // maxTimestamp 1_700_000_000_005
    0, 0, 0, 0, 0, 0, 0, 7,            // producerId 7
    0, 0,                              // producerEpoch 0
    0, 0, 0, 40,                       // baseSequence 40
    0, 0, 0, 2,                        // recordsCount 2, fewer than the offsets
    // record at offset delta 0 (8 body bytes)
    16,                                // length 8
    0,                                 // attributes
    0,                                 // timestampDelta 0
    0,                                 // offsetDelta 0
    2, b'a',                           // key "a"
    2, b'1',                           // value "1"
    0,                                 // no headers
    // record at offset delta 2 (8 body bytes)
    16,                                // length 8
    0,                                 // attributes
    10,                                // timestampDelta 5
    4,                                 // offsetDelta 2
    2, b'c',                           // key "c"
    2, b'3',                           // value "3"
    0,                                 // no headers
];

fn gapped_builder() -> RecordBatchBuilder {
    let mut builder = RecordBatchBuilder::new(100).producer(7, 0, 40);
    builder
        .append_at(0, 1_700_000_000_000, Some(b"a"), Some(b"1"), &[])
        .unwrap();
    builder
        .append_at(2, 1_700_000_000_005, Some(b"c"), Some(b"3"), &[])
        .unwrap();
    builder
}

#[test]
fn offset_gaps_are_written_as_kafka_writes_them() {
    let bytes = gapped_builder().build().unwrap();
    assert_eq!(&bytes[..], &with_crc(&GAPPED_BATCH)[..]);

    let (batch, rest) = RecordBatch::parse(bytes).unwrap();
    assert!(rest.is_empty());
    batch.verify_crc().unwrap();
    assert_eq!((batch.records_count(), batch.last_offset()), (2, 102));
    let read: Vec<_> = batch
        .records()
        .unwrap()
        .map(|r| r.map(|r| (r.offset, r.offset_delta, r.timestamp, r.key)))
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        read,
        [
            (100, 0, 1_700_000_000_000, Some(&b"a"[..])),
            (102, 2, 1_700_000_000_005, Some(&b"c"[..])),
        ]
    );
}

#[test]
fn a_last_offset_delta_beyond_the_last_record_keeps_the_batch_offsets() {
    // The cleaner removed offset 104, the batch's last: the header still ends there.
    let bytes = gapped_builder().last_offset_delta(4).build().unwrap();
    let mut expected = GAPPED_BATCH;
    expected[23..27].copy_from_slice(&4i32.to_be_bytes());
    assert_eq!(&bytes[..], &with_crc(&expected)[..]);
    let (batch, _) = RecordBatch::parse(bytes).unwrap();
    batch.verify_crc().unwrap();
    assert_eq!((batch.records_count(), batch.last_offset()), (2, 104));
    assert_eq!(batch.records().unwrap().count(), 2);
    // Its own last offset delta is allowed; below it, refused.
    assert!(gapped_builder().last_offset_delta(2).build().is_ok());
    assert_eq!(
        gapped_builder().last_offset_delta(1).build(),
        Err(RecordsError::LastOffsetDeltaTooSmall {
            last_offset_delta: 1,
            least: 2
        })
    );
}

/// The empty batch Kafka's cleaner keeps for a transactional producer's state
/// (`writeEmptyHeader`): base offset 500, offsets up to 509, no records.
#[rustfmt::skip]
const EMPTY_BATCH: [u8; 61] = [
    0, 0, 0, 0, 0, 0, 0x01, 0xf4,      // baseOffset 500
    0, 0, 0, 49,                       // batchLength 49: the header alone
    0, 0, 0, 3,                        // partitionLeaderEpoch 3
    2,                                 // magic 2
    0, 0, 0, 0,                        // crc (computed)
    0, 0x10,                           // attributes: transactional
    0, 0, 0, 9,                        // lastOffsetDelta 9, of the batch replaced
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, // baseTimestamp -1
    0, 0, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x00, // maxTimestamp 1_700_000_000_000
    0, 0, 0, 0, 0, 0, 0, 7,            // producerId 7
    0, 2,                              // producerEpoch 2
    0, 0, 0, 40,                       // baseSequence 40
    0, 0, 0, 0,                        // recordsCount 0
];

fn empty_builder() -> RecordBatchBuilder {
    RecordBatchBuilder::new(500)
        .partition_leader_epoch(3)
        .producer(7, 2, 40)
        .transactional(true)
        .last_offset_delta(9)
}

#[test]
fn empty_batches_are_written_as_kafka_writes_them() {
    let bytes = empty_builder().build_empty(1_700_000_000_000).unwrap();
    assert_eq!(&bytes[..], &with_crc(&EMPTY_BATCH)[..]);

    let mut batches = Batches::new(bytes);
    let batch = batches.next().unwrap().unwrap();
    assert!(batches.next().is_none());
    batch.verify_crc().unwrap();
    assert_eq!((batch.base_offset(), batch.last_offset()), (500, 509));
    assert_eq!(batch.records_count(), 0);
    assert!(batch.is_transactional());
    assert_eq!(
        (batch.base_timestamp(), batch.max_timestamp()),
        (-1, 1_700_000_000_000)
    );
    assert_eq!(
        (
            batch.producer_id(),
            batch.producer_epoch(),
            batch.base_sequence()
        ),
        (7, 2, 40)
    );
    assert_eq!(batch.records().unwrap().count(), 0);
    // `build` still writes nothing for no records, as Kafka's builder.
    assert!(empty_builder().build().unwrap().is_empty());
}

#[test]
fn empty_batches_keep_a_base_timestamp_and_log_append_time_when_given() {
    let bytes = empty_builder()
        .base_timestamp(1_699_999_999_000)
        .build_empty(1_700_000_000_000)
        .unwrap();
    let mut expected = EMPTY_BATCH;
    expected[27..35].copy_from_slice(&1_699_999_999_000i64.to_be_bytes());
    assert_eq!(&bytes[..], &with_crc(&expected)[..]);

    let bytes = empty_builder()
        .log_append_time(1_700_000_000_000)
        .build_empty(1_700_000_000_000)
        .unwrap();
    let mut expected = EMPTY_BATCH;
    expected[22] = 0x18; // transactional, LogAppendTime
    assert_eq!(&bytes[..], &with_crc(&expected)[..]);
}

#[test]
fn inconsistent_empty_batches_are_refused() {
    let inconsistent = |builder: RecordBatchBuilder| {
        assert!(
            matches!(
                builder.build_empty(1_000),
                Err(RecordsError::InconsistentBatch(_))
            ),
            "{builder:?}"
        );
    };
    let mut with_record = empty_builder();
    with_record.append(1_000, None, None, &[]).unwrap();
    inconsistent(with_record);
    inconsistent(empty_builder().compression(Compression::Gzip));
    inconsistent(empty_builder().delete_horizon(2_000));
    inconsistent(empty_builder().log_append_time(999));
    inconsistent(empty_builder().base_timestamp(1_001));
    assert_eq!(
        empty_builder().last_offset_delta(-1).build_empty(1_000),
        Err(RecordsError::LastOffsetDeltaTooSmall {
            last_offset_delta: -1,
            least: 0
        })
    );
    // A base timestamp above a LogAppendTime batch's max is a producer's clock
    // ahead of the broker's: allowed.
    assert!(empty_builder()
        .log_append_time(1_000)
        .base_timestamp(1_001)
        .build_empty(1_000)
        .is_ok());
}

/// A compacted batch holding a tombstone, with the delete horizon
/// 1_700_000_000_100 in the base timestamp field (KIP-534): the records'
/// timestamp deltas are relative to it, so negative.
#[rustfmt::skip]
const DELETE_HORIZON_BATCH: [u8; 79] = [
    0, 0, 0, 0, 0, 0, 0, 0,            // baseOffset 0
    0, 0, 0, 67,                       // batchLength 67 (79 - 12)
    0xff, 0xff, 0xff, 0xff,            // partitionLeaderEpoch -1
    2,                                 // magic 2
    0, 0, 0, 0,                        // crc (computed)
    0, 0x40,                           // attributes: delete horizon set
    0, 0, 0, 1,                        // lastOffsetDelta 1
    0, 0, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x64, // baseTimestamp: the horizon 1_700_000_000_100
    0, 0, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x32, // maxTimestamp 1_700_000_000_050, a record's
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, // producerId -1
    0xff, 0xff,                        // producerEpoch -1
    0xff, 0xff, 0xff, 0xff,            // baseSequence -1
    0, 0, 0, 2,                        // recordsCount 2
    // the tombstone (8 body bytes)
    16,                                // length 8
    0,                                 // attributes
    0xc7, 0x01,                        // timestampDelta -100
    0,                                 // offsetDelta 0
    2, b'k',                           // key "k"
    1,                                 // value null
    0,                                 // no headers
    // a record (8 body bytes)
    16,                                // length 8
    0,                                 // attributes
    0x63,                              // timestampDelta -50
    2,                                 // offsetDelta 1
    2, b'j',                           // key "j"
    2, b'v',                           // value "v"
    0,                                 // no headers
];

#[test]
fn delete_horizons_are_written_as_kafka_writes_them() {
    let mut builder = RecordBatchBuilder::new(0).delete_horizon(1_700_000_000_100);
    builder
        .append(1_700_000_000_000, Some(b"k"), None, &[])
        .unwrap();
    builder
        .append(1_700_000_000_050, Some(b"j"), Some(b"v"), &[])
        .unwrap();
    let bytes = builder.build().unwrap();
    assert_eq!(&bytes[..], &with_crc(&DELETE_HORIZON_BATCH)[..]);

    let (batch, _) = RecordBatch::parse(bytes).unwrap();
    batch.verify_crc().unwrap();
    assert_eq!(batch.attributes(), Attributes(0x40));
    assert_eq!(batch.delete_horizon_ms(), Some(1_700_000_000_100));
    assert_eq!(batch.max_timestamp(), 1_700_000_000_050);
    let read: Vec<_> = batch
        .records()
        .unwrap()
        .map(|r| r.map(|r| (r.timestamp_delta, r.timestamp, r.value)))
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        read,
        [
            (-100, 1_700_000_000_000, None),
            (-50, 1_700_000_000_050, Some(&b"v"[..])),
        ]
    );
    // The horizon is the base timestamp: setting both is refused.
    assert!(matches!(
        builder.base_timestamp(5).build(),
        Err(RecordsError::InconsistentBatch(_))
    ));
}

/// A broker's `LogAppendTime` batch: attribute bit 3, the append time as the max
/// timestamp, the producer's timestamp kept as the base.
#[rustfmt::skip]
const LOG_APPEND_TIME_BATCH: [u8; 69] = [
    0, 0, 0, 0, 0, 0, 0, 0,            // baseOffset 0
    0, 0, 0, 57,                       // batchLength 57 (69 - 12)
    0xff, 0xff, 0xff, 0xff,            // partitionLeaderEpoch -1
    2,                                 // magic 2
    0, 0, 0, 0,                        // crc (computed)
    0, 0x08,                           // attributes: LogAppendTime
    0, 0, 0, 0,                        // lastOffsetDelta 0
    0, 0, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x00, // baseTimestamp 1_700_000_000_000, the record's
    0, 0, 0x01, 0x8b, 0xcf, 0xe5, 0x69, 0xf4, // maxTimestamp 1_700_000_000_500, the append time
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, // producerId -1
    0xff, 0xff,                        // producerEpoch -1
    0xff, 0xff, 0xff, 0xff,            // baseSequence -1
    0, 0, 0, 1,                        // recordsCount 1
    14,                                // length 7
    0,                                 // attributes
    0,                                 // timestampDelta 0
    0,                                 // offsetDelta 0
    1,                                 // key null
    2, b'v',                           // value "v"
    0,                                 // no headers
];

#[test]
fn log_append_time_is_written_as_a_broker_writes_it() {
    let mut builder = RecordBatchBuilder::new(0).log_append_time(1_700_000_000_500);
    builder
        .append(1_700_000_000_000, None, Some(b"v"), &[])
        .unwrap();
    let bytes = builder.build().unwrap();
    assert_eq!(&bytes[..], &with_crc(&LOG_APPEND_TIME_BATCH)[..]);
    let (batch, _) = RecordBatch::parse(bytes).unwrap();
    batch.verify_crc().unwrap();
    let record = batch.records().unwrap().next().unwrap().unwrap();
    assert_eq!(
        (record.timestamp_delta, record.timestamp),
        (0, 1_700_000_000_500)
    );
}

#[test]
fn offset_deltas_must_ascend_within_an_int32() {
    let mut builder = RecordBatchBuilder::new(0);
    assert_eq!(
        builder.append_at(-1, 0, None, None, &[]),
        Err(RecordsError::OffsetDeltaOutOfRange { offset_delta: -1 })
    );
    let beyond = i64::from(i32::MAX) + 1;
    assert_eq!(
        builder.append_at(beyond, 0, None, None, &[]),
        Err(RecordsError::OffsetDeltaOutOfRange {
            offset_delta: beyond
        })
    );
    builder.append_at(5, 0, None, None, &[]).unwrap();
    for (delta, previous) in [(5, 5), (4, 5), (0, 5)] {
        assert_eq!(
            builder.append_at(delta, 0, None, None, &[]),
            Err(RecordsError::OffsetDeltaNotAscending {
                offset_delta: delta,
                previous
            })
        );
    }
    // The last int32 offset delta is a record's; after it, none.
    builder
        .append_at(i64::from(i32::MAX), 0, None, None, &[])
        .unwrap();
    assert_eq!(
        builder.append(0, None, None, &[]),
        Err(RecordsError::OffsetDeltaOutOfRange {
            offset_delta: beyond
        })
    );
    // Refusals left the builder as it was.
    assert_eq!(builder.len(), 2);
    let (batch, _) = RecordBatch::parse(builder.build().unwrap()).unwrap();
    batch.verify_crc().unwrap();
    assert_eq!(batch.last_offset_delta(), i32::MAX);
    let deltas: Vec<i32> = batch
        .records()
        .unwrap()
        .map(|r| r.map(|r| r.offset_delta))
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(deltas, [5, i32::MAX]);
}

#[test]
fn a_refused_record_leaves_the_next_offset_as_it_was() {
    let mut builder = RecordBatchBuilder::new(0);
    builder.append_at(3, 0, None, None, &[]).unwrap();
    assert!(builder.append_at(3, 0, Some(b"x"), None, &[]).is_err());
    builder.append(0, None, None, &[]).unwrap();
    let (batch, _) = RecordBatch::parse(builder.build().unwrap()).unwrap();
    assert_eq!(batch.last_offset_delta(), 4);
}

/// Everything a batch is built from, to compare with what reads back.
#[derive(Debug, Clone)]
struct Spec {
    base_offset: i64,
    /// Each record after the gap before its offset delta.
    records: Vec<(u8, Input)>,
    /// How far the last offset delta goes beyond the last record's.
    extra_offsets: Option<u8>,
    delete_horizon: Option<i64>,
    log_append_time: Option<i64>,
    /// The max timestamp of an empty batch.
    empty_max_timestamp: i64,
    producer: (i64, i16, i32),
    transactional: bool,
}

fn spec() -> impl Strategy<Value = Spec> {
    let timestamp = || prop_oneof![Just(-1i64), 0..4_000_000_000_000i64];
    (
        0..i64::MAX / 2,
        proptest::collection::vec((prop_oneof![Just(0u8), any::<u8>()], input()), 0..12),
        proptest::option::of(any::<u8>()),
        proptest::option::of(timestamp()),
        proptest::option::of(timestamp()),
        timestamp(),
        (any::<i64>(), any::<i16>(), any::<i32>()),
        any::<bool>(),
    )
        .prop_map(
            |(
                base_offset,
                records,
                extra_offsets,
                delete_horizon,
                log_append_time,
                empty_max_timestamp,
                producer,
                transactional,
            )| {
                let empty = records.is_empty();
                Spec {
                    base_offset,
                    records,
                    extra_offsets,
                    // Refused on empty batches.
                    delete_horizon: delete_horizon.filter(|_| !empty),
                    // An empty batch's max timestamp is its append time.
                    log_append_time: log_append_time.map(|time| {
                        if empty {
                            empty_max_timestamp
                        } else {
                            time
                        }
                    }),
                    empty_max_timestamp,
                    producer,
                    transactional,
                }
            },
        )
}

impl Spec {
    /// The records' offset deltas, each one past the last plus its gap.
    fn offset_deltas(&self) -> Vec<i32> {
        let mut next = 0i32;
        self.records
            .iter()
            .map(|(gap, _)| {
                let delta = next + i32::from(*gap);
                next = delta + 1;
                delta
            })
            .collect()
    }

    fn last_offset_delta(&self) -> i32 {
        let last = self.offset_deltas().last().copied().unwrap_or(0);
        last + self.extra_offsets.map_or(0, i32::from)
    }

    fn build(&self) -> Result<Bytes, RecordsError> {
        let (producer_id, epoch, sequence) = self.producer;
        let mut builder = RecordBatchBuilder::new(self.base_offset)
            .producer(producer_id, epoch, sequence)
            .transactional(self.transactional);
        if self.extra_offsets.is_some() {
            builder = builder.last_offset_delta(self.last_offset_delta());
        }
        if let Some(horizon) = self.delete_horizon {
            builder = builder.delete_horizon(horizon);
        }
        if let Some(time) = self.log_append_time {
            builder = builder.log_append_time(time);
        }
        for (delta, (_, (timestamp, key, value, headers))) in
            self.offset_deltas().into_iter().zip(&self.records)
        {
            let headers: Vec<(&str, Option<&[u8]>)> = headers
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_deref()))
                .collect();
            builder.append_at(
                i64::from(delta),
                *timestamp,
                key.as_deref(),
                value.as_deref(),
                &headers,
            )?;
        }
        if self.records.is_empty() {
            builder.build_empty(self.empty_max_timestamp)
        } else {
            builder.build()
        }
    }
}

proptest! {
    #[test]
    fn any_batch_reads_back_as_built(spec in spec()) {
        let bytes = spec.build().unwrap();
        let mut batches = Batches::new(bytes);
        let batch = batches.next().unwrap().unwrap();
        prop_assert!(batches.next().is_none());
        batch.verify_crc().unwrap();

        prop_assert_eq!(batch.base_offset(), spec.base_offset);
        prop_assert_eq!(batch.partition_leader_epoch(), -1);
        prop_assert_eq!(batch.last_offset_delta(), spec.last_offset_delta());
        prop_assert_eq!(batch.records_count() as usize, spec.records.len());
        prop_assert_eq!(
            (batch.producer_id(), batch.producer_epoch(), batch.base_sequence()),
            spec.producer
        );
        prop_assert_eq!(batch.is_transactional(), spec.transactional);
        prop_assert!(!batch.is_control());
        prop_assert_eq!(batch.delete_horizon_ms(), spec.delete_horizon);
        let expected_type = if spec.log_append_time.is_some() {
            TimestampType::LogAppendTime
        } else {
            TimestampType::CreateTime
        };
        prop_assert_eq!(batch.timestamp_type(), expected_type);
        let timestamps: Vec<i64> = spec.records.iter().map(|(_, r)| r.0).collect();
        let base_timestamp = spec
            .delete_horizon
            .or(timestamps.first().copied())
            .unwrap_or(-1);
        prop_assert_eq!(batch.base_timestamp(), base_timestamp);
        let max_timestamp = match (spec.log_append_time, spec.records.is_empty()) {
            (Some(time), _) => time,
            (None, true) => spec.empty_max_timestamp,
            (None, false) => timestamps.iter().copied().fold(-1, i64::max),
        };
        prop_assert_eq!(batch.max_timestamp(), max_timestamp);

        let read: Vec<_> = batch.records().unwrap().collect::<Result<_, _>>().unwrap();
        prop_assert_eq!(read.len(), spec.records.len());
        for ((record, delta), (_, (timestamp, key, value, headers))) in
            read.iter().zip(spec.offset_deltas()).zip(&spec.records)
        {
            prop_assert_eq!(record.offset_delta, delta);
            prop_assert_eq!(record.offset, spec.base_offset + i64::from(delta));
            prop_assert_eq!(record.timestamp, spec.log_append_time.unwrap_or(*timestamp));
            prop_assert_eq!(record.timestamp_delta, timestamp - base_timestamp);
            prop_assert_eq!(record.key, key.as_deref());
            prop_assert_eq!(record.value, value.as_deref());
            prop_assert_eq!(&owned_headers(record), headers);
        }
    }
}

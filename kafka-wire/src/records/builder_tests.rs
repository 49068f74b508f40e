//! The builder's tests: what it writes, read back, and refusals.

use super::*;
use crate::records::batch::{Batches, RecordBatch};
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
            let read_headers: Vec<_> = record
                .headers
                .clone()
                .map(|h| h.map(|h| (h.key.to_string(), h.value.map(|v| v.to_vec()))))
                .collect::<Result<_, _>>()
                .unwrap();
            prop_assert_eq!(&read_headers, headers);
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

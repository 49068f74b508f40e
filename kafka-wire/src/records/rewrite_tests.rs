//! The header rewrites: the bytes they change and keep, and what they refuse.

use super::*;
use crate::records::batch::{RecordBatch, HEADER_SIZE};
use crate::records::RecordBatchBuilder;
use bytes::Bytes;
use proptest::prelude::*;

/// A producer's batch: two records, create time, CRC valid.
fn produced() -> Vec<u8> {
    let mut builder = RecordBatchBuilder::new(0).producer(7, 0, 0);
    builder.append(1_000, Some(b"k"), Some(b"v"), &[]).unwrap();
    builder.append(1_010, None, Some(b"w"), &[]).unwrap();
    builder.build().unwrap().to_vec()
}

fn parse(bytes: &[u8]) -> RecordBatch {
    RecordBatch::parse(Bytes::copy_from_slice(bytes)).unwrap().0
}

#[test]
fn offsets_and_epoch_are_written_outside_the_crc() {
    let original = produced();
    let mut bytes = original.clone();
    set_base_offset(&mut bytes, 0x0102_0304_0506_0708).unwrap();
    set_partition_leader_epoch(&mut bytes, 0x0a0b_0c0d).unwrap();
    let mut expected = original.clone();
    expected[0..8].copy_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
    expected[12..16].copy_from_slice(&[0x0a, 0x0b, 0x0c, 0x0d]);
    assert_eq!(bytes, expected, "only the two fields change, the CRC kept");
    parse(&bytes).verify_crc().unwrap();

    set_last_offset(&mut bytes, 100).unwrap();
    let batch = parse(&bytes);
    assert_eq!((batch.base_offset(), batch.last_offset()), (99, 100));
    assert_eq!(bytes[8..], expected[8..]);
}

#[test]
fn log_append_time_in_place_is_what_the_builder_writes() {
    // Kafka's broker stamps a kept batch in place; its builder writes the same
    // batch anew when it recompresses: the bytes must agree.
    let mut stamped = produced();
    set_log_append_time(&mut stamped, 5_000).unwrap();
    let mut builder = RecordBatchBuilder::new(0)
        .producer(7, 0, 0)
        .log_append_time(5_000);
    builder.append(1_000, Some(b"k"), Some(b"v"), &[]).unwrap();
    builder.append(1_010, None, Some(b"w"), &[]).unwrap();
    assert_eq!(stamped, builder.build().unwrap());

    let batch = parse(&stamped);
    batch.verify_crc().unwrap();
    assert_eq!(batch.attributes(), Attributes(0x08));
    assert_eq!(batch.base_timestamp(), 1_000, "the producer's, kept");
    for record in batch.records().unwrap() {
        assert_eq!(record.unwrap().timestamp, 5_000);
    }

    // And back to create time, the max timestamp the records'.
    set_max_timestamp(&mut stamped, TimestampType::CreateTime, 1_010).unwrap();
    assert_eq!(stamped, produced());
}

#[test]
fn an_unchanged_max_timestamp_writes_nothing() {
    // A wrong CRC stays wrong: Kafka returns before recomputing it.
    let mut bytes = produced();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    let before = bytes.clone();
    set_max_timestamp(&mut bytes, TimestampType::CreateTime, 1_010).unwrap();
    assert_eq!(bytes, before);
    // A change recomputes it over the bytes as they are.
    set_log_append_time(&mut bytes, 1_010).unwrap();
    parse(&bytes).verify_crc().unwrap();
}

#[test]
fn attributes_are_recomputed_as_kafka_computes_them() {
    let mut builder = RecordBatchBuilder::new(0)
        .producer(7, 0, 0)
        .transactional(true)
        .control(true)
        .delete_horizon(2_000);
    builder.append(1_000, None, None, &[]).unwrap();
    let mut bytes = builder.build().unwrap().to_vec();
    // Bits Kafka does not define (7 to 15) set by some other writer.
    bytes[21] |= 0x81;
    bytes[22] |= 0x80;
    set_log_append_time(&mut bytes, 3_000).unwrap();
    let batch = parse(&bytes);
    batch.verify_crc().unwrap();
    assert_eq!(batch.attributes(), Attributes(0x78));
    assert_eq!(batch.delete_horizon_ms(), Some(2_000));
    assert_eq!(batch.max_timestamp(), 3_000);
}

#[test]
fn an_unknown_codec_is_refused_and_nothing_written() {
    let mut bytes = produced();
    bytes[22] = 0x05;
    let before = bytes.clone();
    assert_eq!(
        set_log_append_time(&mut bytes, 3_000),
        Err(RecordsError::UnknownCompression(5))
    );
    assert_eq!(bytes, before);
}

type Rewrite = fn(&mut [u8]) -> Result<(), RecordsError>;

#[test]
fn anything_but_one_whole_batch_is_refused_untouched() {
    let whole = produced();
    let all: [Rewrite; 5] = [
        |b| set_base_offset(b, 9),
        |b| set_last_offset(b, 9),
        |b| set_partition_leader_epoch(b, 9),
        |b| set_max_timestamp(b, TimestampType::CreateTime, 9),
        |b| set_log_append_time(b, 9),
    ];
    for rewrite in all {
        for cut in 0..whole.len() {
            let mut short = whole[..cut].to_vec();
            let result = rewrite(&mut short);
            assert!(
                matches!(result, Err(RecordsError::Truncated { needed, .. }) if needed > 0),
                "cut at {cut}: {result:?}"
            );
            assert_eq!(short, whole[..cut]);
        }
        let mut two = [whole.clone(), whole.clone()].concat();
        assert_eq!(
            rewrite(&mut two),
            Err(RecordsError::TrailingBytes {
                what: "record batch",
                left: whole.len()
            })
        );
        let mut legacy = whole.clone();
        legacy[16] = 1;
        assert_eq!(
            rewrite(&mut legacy),
            Err(RecordsError::UnsupportedMagic {
                base_offset: 0,
                magic: 1
            })
        );
        let mut short_length = whole.clone();
        short_length[8..12].copy_from_slice(&10i32.to_be_bytes());
        assert!(matches!(
            rewrite(&mut short_length),
            Err(RecordsError::BadLength { .. })
        ));
        assert!(rewrite(&mut []).is_err());
    }
}

#[test]
fn a_last_offset_below_the_smallest_base_is_refused() {
    let mut bytes = produced();
    assert_eq!(
        set_last_offset(&mut bytes, i64::MIN),
        Err(RecordsError::TooLarge {
            what: "base offset of the last offset"
        })
    );
    assert_eq!(bytes, produced());
}

proptest! {
    #[test]
    fn rewritten_batches_read_back_with_their_records(
        base_offset in any::<i64>(),
        epoch in any::<i32>(),
        append_time in proptest::option::of(any::<i64>()),
        values in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..20), 1..6),
    ) {
        let mut builder = RecordBatchBuilder::new(3);
        for (i, value) in values.iter().enumerate() {
            builder.append(i as i64, None, Some(value), &[]).unwrap();
        }
        let mut bytes = builder.build().unwrap().to_vec();
        set_base_offset(&mut bytes, base_offset).unwrap();
        set_partition_leader_epoch(&mut bytes, epoch).unwrap();
        if let Some(time) = append_time {
            set_log_append_time(&mut bytes, time).unwrap();
        }
        let batch = parse(&bytes);
        batch.verify_crc().unwrap();
        prop_assert_eq!(batch.base_offset(), base_offset);
        prop_assert_eq!(batch.partition_leader_epoch(), epoch);
        prop_assert_eq!(batch.size(), HEADER_SIZE + batch.payload().len());
        let read: Vec<_> = batch.records().unwrap().collect::<Result<_, _>>().unwrap();
        for (i, (record, value)) in read.iter().zip(&values).enumerate() {
            prop_assert_eq!(record.offset, base_offset.wrapping_add(i as i64));
            prop_assert_eq!(record.timestamp, append_time.unwrap_or(i as i64));
            prop_assert_eq!(record.value, Some(&value[..]));
        }
    }
}

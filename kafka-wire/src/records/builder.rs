//! Writing record batches (magic 2) byte for byte as Kafka's `MemoryRecordsBuilder`
//! writes them.

use bytes::{BufMut, Bytes};

use super::batch::{ATTRIBUTES_OFFSET, HEADER_SIZE, LOG_OVERHEAD, MAGIC};
use super::{Attributes, Compression, RecordsError, TimestampType};
use crate::wire::varint::{put_varint, put_varlong, varlong_size};

/// Writes one record batch (magic 2), the bytes Kafka's `MemoryRecordsBuilder` writes
/// for the same records and settings.
///
/// Records get consecutive offsets from the base offset. The defaults are those of
/// Kafka's producer without idempotence: partition leader epoch, producer ID,
/// producer epoch and base sequence -1, no compression, create time.
///
/// - **Base timestamp**: the first record's timestamp, as Kafka writes it, unless
///   set with [`base_timestamp`](Self::base_timestamp).
/// - **Max timestamp**: the largest record timestamp (at least -1, Kafka's "no
///   timestamp", as Kafka's builder starts from it) for create time; for
///   `LogAppendTime`, the log append time set with
///   [`log_append_time`](Self::log_append_time) (-1 when not set), as Kafka's
///   builder writes it. The records keep their own timestamp deltas either way;
///   readers give every record of a `LogAppendTime` batch the max timestamp.
/// - **No records**: [`build`](Self::build) returns empty bytes, as Kafka's builder
///   returns `MemoryRecords.EMPTY`: Kafka never writes an empty batch.
/// - **Not checked**: Kafka's builder refuses negative timestamps other than -1 and
///   inconsistent producer state (transactional without a producer ID, a producer ID
///   without an epoch or a sequence); this one writes what it is given.
///
/// ```
/// use kwire::records::builder::RecordBatchBuilder;
/// use kwire::records::Compression;
///
/// let mut builder = RecordBatchBuilder::new(0)
///     .producer(1_000, 0, 0)
///     .compression(Compression::None);
/// builder.append(1_700_000_000_000, Some(b"k"), Some(b"v"), &[("h", None)])?;
/// let batch = builder.build()?;
/// assert_eq!(batch[16], 2); // the magic byte
/// # Ok::<(), kwire::records::RecordsError>(())
/// ```
#[derive(Debug, Clone)]
pub struct RecordBatchBuilder {
    base_offset: i64,
    partition_leader_epoch: i32,
    compression: Compression,
    timestamp_type: TimestampType,
    log_append_time: i64,
    transactional: bool,
    control: bool,
    producer_id: i64,
    producer_epoch: i16,
    base_sequence: i32,
    base_timestamp: Option<i64>,
    /// Each record from its offset delta to its end (everything after the timestamp
    /// delta), one after another.
    tails: Vec<u8>,
    /// Per record: its timestamp and where its tail ends in `tails`.
    records: Vec<(i64, usize)>,
}

impl RecordBatchBuilder {
    /// A builder for a batch whose first record has offset `base_offset`.
    pub fn new(base_offset: i64) -> Self {
        RecordBatchBuilder {
            base_offset,
            partition_leader_epoch: -1,
            compression: Compression::None,
            timestamp_type: TimestampType::CreateTime,
            log_append_time: -1,
            transactional: false,
            control: false,
            producer_id: -1,
            producer_epoch: -1,
            base_sequence: -1,
            base_timestamp: None,
            tails: Vec::new(),
            records: Vec::new(),
        }
    }

    /// Sets the partition leader epoch (default -1, as producers write it; brokers
    /// stamp their own).
    pub fn partition_leader_epoch(mut self, epoch: i32) -> Self {
        self.partition_leader_epoch = epoch;
        self
    }

    /// Sets the compression codec of the records (default none). A codec whose
    /// cargo feature is not enabled makes [`build`](Self::build) fail.
    pub fn compression(mut self, compression: Compression) -> Self {
        self.compression = compression;
        self
    }

    /// Sets the timestamp type (default create time). With `LogAppendTime`, the max
    /// timestamp written is the one set by [`log_append_time`](Self::log_append_time)
    /// (-1 if never set).
    pub fn timestamp_type(mut self, timestamp_type: TimestampType) -> Self {
        self.timestamp_type = timestamp_type;
        self
    }

    /// Makes the batch a `LogAppendTime` batch appended at `time`: its max timestamp
    /// is `time`, as a broker writes it.
    pub fn log_append_time(mut self, time: i64) -> Self {
        self.timestamp_type = TimestampType::LogAppendTime;
        self.log_append_time = time;
        self
    }

    /// Marks the batch as part of a transaction (default not).
    pub fn transactional(mut self, transactional: bool) -> Self {
        self.transactional = transactional;
        self
    }

    /// Marks the batch as a control batch (default not).
    pub fn control(mut self, control: bool) -> Self {
        self.control = control;
        self
    }

    /// Sets the producer ID, epoch and base sequence (defaults -1, -1, -1: a producer
    /// without idempotence).
    pub fn producer(mut self, producer_id: i64, producer_epoch: i16, base_sequence: i32) -> Self {
        self.producer_id = producer_id;
        self.producer_epoch = producer_epoch;
        self.base_sequence = base_sequence;
        self
    }

    /// Sets the producer ID (default -1).
    pub fn producer_id(mut self, producer_id: i64) -> Self {
        self.producer_id = producer_id;
        self
    }

    /// Sets the producer epoch (default -1).
    pub fn producer_epoch(mut self, producer_epoch: i16) -> Self {
        self.producer_epoch = producer_epoch;
        self
    }

    /// Sets the base sequence (default -1).
    pub fn base_sequence(mut self, base_sequence: i32) -> Self {
        self.base_sequence = base_sequence;
        self
    }

    /// Sets the base timestamp the records' timestamp deltas are relative to,
    /// instead of the first record's timestamp (Kafka's choice, the default).
    pub fn base_timestamp(mut self, base_timestamp: i64) -> Self {
        self.base_timestamp = Some(base_timestamp);
        self
    }

    /// The number of records appended.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// True when no record was appended.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Appends a record at the next offset. A key, value or header too long for
    /// Kafka's int32 lengths, or a record beyond the int32 offset deltas, is
    /// [`TooLarge`](RecordsError::TooLarge), and leaves the builder as it was.
    pub fn append(
        &mut self,
        timestamp: i64,
        key: Option<&[u8]>,
        value: Option<&[u8]>,
        headers: &[(&str, Option<&[u8]>)],
    ) -> Result<(), RecordsError> {
        let start = self.tails.len();
        let result = self.write_tail(key, value, headers);
        if result.is_err() {
            self.tails.truncate(start);
            return result;
        }
        self.records.push((timestamp, self.tails.len()));
        Ok(())
    }

    /// Writes a record's fields after its timestamp delta.
    fn write_tail(
        &mut self,
        key: Option<&[u8]>,
        value: Option<&[u8]>,
        headers: &[(&str, Option<&[u8]>)],
    ) -> Result<(), RecordsError> {
        let offset_delta = i32::try_from(self.records.len())
            .ok()
            .filter(|&delta| delta < i32::MAX)
            .ok_or(RecordsError::TooLarge {
                what: "number of records",
            })?;
        let header_count = length("record headers count", headers.len())?;
        let out = &mut self.tails;
        put_varint(out, offset_delta);
        put_nullable(out, "record key", key)?;
        put_nullable(out, "record value", value)?;
        put_varint(out, header_count);
        for (name, value) in headers {
            put_nullable(out, "header key", Some(name.as_bytes()))?;
            put_nullable(out, "header value", *value)?;
        }
        Ok(())
    }

    /// Writes the batch: header, CRC-32C and records (compressed with the codec,
    /// if set). Empty bytes when no record was appended: Kafka writes no empty
    /// batches.
    pub fn build(&self) -> Result<Bytes, RecordsError> {
        let Some(&(first_timestamp, _)) = self.records.first() else {
            return Ok(Bytes::new());
        };
        let base_timestamp = self.base_timestamp.unwrap_or(first_timestamp);
        let max_timestamp = match self.timestamp_type {
            TimestampType::LogAppendTime => self.log_append_time,
            TimestampType::CreateTime => self
                .records
                .iter()
                .fold(-1, |max, &(timestamp, _)| max.max(timestamp)),
        };
        let count = length("number of records", self.records.len())?;

        // Each record adds at most 5 (length) + 1 (attributes) + 10 (timestamp delta)
        // bytes to its tail.
        let records_size = self
            .tails
            .len()
            .saturating_add(self.records.len().saturating_mul(16));
        let mut out = vec![0u8; HEADER_SIZE];
        if self.compression == Compression::None {
            out.reserve(records_size);
            self.write_records(base_timestamp, &mut out)?;
        } else {
            let mut records = Vec::with_capacity(records_size);
            self.write_records(base_timestamp, &mut records)?;
            let compressed = super::compression::compress(self.compression, &records)?;
            out.extend_from_slice(&compressed);
        }
        let batch_length =
            i32::try_from(out.len() - LOG_OVERHEAD).map_err(|_| RecordsError::TooLarge {
                what: "record batch",
            })?;

        let attributes = Attributes::new(
            self.compression,
            self.timestamp_type,
            self.transactional,
            self.control,
        );
        let mut header = [0u8; HEADER_SIZE];
        {
            let mut h = &mut header[..];
            h.put_i64(self.base_offset);
            h.put_i32(batch_length);
            h.put_i32(self.partition_leader_epoch);
            h.put_i8(MAGIC);
            h.put_u32(0); // the CRC, written below
            h.put_i16(attributes.0);
            h.put_i32(count - 1); // lastOffsetDelta
            h.put_i64(base_timestamp);
            h.put_i64(max_timestamp);
            h.put_i64(self.producer_id);
            h.put_i16(self.producer_epoch);
            h.put_i32(self.base_sequence);
            h.put_i32(count);
        }
        if let Some(slot) = out.get_mut(..HEADER_SIZE) {
            slot.copy_from_slice(&header);
        }
        let crc = crc32c::crc32c(out.get(ATTRIBUTES_OFFSET..).unwrap_or_default());
        if let Some(slot) = out.get_mut(ATTRIBUTES_OFFSET - 4..ATTRIBUTES_OFFSET) {
            slot.copy_from_slice(&crc.to_be_bytes());
        }
        Ok(Bytes::from(out))
    }

    /// Writes every record, its length, attributes and timestamp delta before its
    /// tail.
    fn write_records(&self, base_timestamp: i64, out: &mut Vec<u8>) -> Result<(), RecordsError> {
        let mut start = 0;
        for &(timestamp, end) in &self.records {
            let tail = self.tails.get(start..end).unwrap_or_default();
            start = end;
            let delta = timestamp
                .checked_sub(base_timestamp)
                .ok_or(RecordsError::TooLarge {
                    what: "record timestamp delta",
                })?;
            let body = 1usize
                .saturating_add(varlong_size(delta))
                .saturating_add(tail.len());
            put_varint(out, length("record", body)?);
            out.put_i8(0); // attributes
            put_varlong(out, delta);
            out.extend_from_slice(tail);
        }
        Ok(())
    }
}

/// `len` as an int32 length, or [`TooLarge`](RecordsError::TooLarge).
fn length(what: &'static str, len: usize) -> Result<i32, RecordsError> {
    i32::try_from(len).map_err(|_| RecordsError::TooLarge { what })
}

/// Writes a varint length (-1 for null) and the bytes.
fn put_nullable(
    out: &mut Vec<u8>,
    what: &'static str,
    value: Option<&[u8]>,
) -> Result<(), RecordsError> {
    match value {
        None => put_varint(out, -1),
        Some(bytes) => {
            put_varint(out, length(what, bytes.len())?);
            out.extend_from_slice(bytes);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
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
}

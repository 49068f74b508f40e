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
#[path = "builder_tests.rs"]
mod tests;

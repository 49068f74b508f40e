//! Writing record batches (magic 2) byte for byte as Kafka's `MemoryRecordsBuilder`
//! writes them, and the empty batches of Kafka's log cleaner
//! (`DefaultRecordBatch.writeEmptyHeader`).

use bytes::{BufMut, Bytes};

use super::batch::{stamp_crc, HEADER_SIZE, LOG_OVERHEAD, MAGIC};
use super::{Attributes, Compression, RecordsError, TimestampType};
use crate::wire::varint::{put_varint, put_varlong, varlong_size};

/// Writes one record batch (magic 2), the bytes Kafka's `MemoryRecordsBuilder` writes
/// for the same records and settings.
///
/// Records get consecutive offsets from the base offset with [`append`](Self::append),
/// or the offset deltas given with [`append_at`](Self::append_at): strictly
/// ascending, with gaps where compaction removed records. The defaults are those of
/// Kafka's producer without idempotence: partition leader epoch, producer ID,
/// producer epoch and base sequence -1, no compression, create time.
///
/// - **Last offset delta**: the last record's, unless set with
///   [`last_offset_delta`](Self::last_offset_delta) (Kafka's `overrideLastOffset`,
///   which the cleaner uses so that a producer's last sequence survives when its
///   last records do not).
/// - **Base timestamp**: the first record's timestamp, as Kafka writes it, unless
///   set with [`base_timestamp`](Self::base_timestamp), or the delete horizon set
///   with [`delete_horizon`](Self::delete_horizon). The records' timestamp deltas
///   are relative to it.
/// - **Max timestamp**: the largest record timestamp (at least -1, Kafka's "no
///   timestamp", as Kafka's builder starts from it) for create time; for
///   `LogAppendTime`, the log append time set with
///   [`log_append_time`](Self::log_append_time) (-1 when not set), as Kafka's
///   builder writes it. The records keep their own timestamp deltas either way;
///   readers give every record of a `LogAppendTime` batch the max timestamp.
/// - **No records**: [`build`](Self::build) returns empty bytes, as Kafka's builder
///   returns `MemoryRecords.EMPTY`; [`build_empty`](Self::build_empty) writes the
///   header-only batch Kafka's cleaner keeps for a producer's state.
/// - **Refused**: offset deltas that do not ascend or do not fit an int32, a last
///   offset delta below the last record's, a base timestamp set together with a
///   delete horizon (both are the same field), and empty batches Kafka would not
///   write (see [`build_empty`](Self::build_empty)).
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
    delete_horizon: Option<i64>,
    last_offset_delta: Option<i32>,
    /// Each record from its offset delta to its end (everything after the timestamp
    /// delta), one after another.
    tails: Vec<u8>,
    records: Vec<Appended>,
}

/// A record appended: what its tail does not hold.
#[derive(Debug, Clone, Copy)]
struct Appended {
    timestamp: i64,
    offset_delta: i32,
    /// Where its tail ends in `tails`.
    end: usize,
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
            delete_horizon: None,
            last_offset_delta: None,
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

    /// Makes the batch a `LogAppendTime` batch appended at `time`, as a broker
    /// stamps it (Kafka's `LogValidator`, through `MemoryRecordsBuilder` or
    /// `setMaxTimestamp`): attribute bit 3 set and the max timestamp `time`. The
    /// base timestamp and the records' timestamp deltas stay the producer's (the
    /// first record's timestamp, or the delete horizon): Kafka rewrites neither,
    /// and readers give every record the append time instead. To stamp a batch
    /// already written, see [`rewrite::set_log_append_time`](super::rewrite::set_log_append_time).
    ///
    /// ```
    /// use kwire::records::{RecordBatch, RecordBatchBuilder, TimestampType};
    ///
    /// let mut builder = RecordBatchBuilder::new(0).log_append_time(1_700_000_000_500);
    /// builder.append(1_700_000_000_000, None, Some(b"v"), &[])?;
    /// let (batch, _) = RecordBatch::parse(builder.build()?)?;
    /// assert_eq!(batch.timestamp_type(), TimestampType::LogAppendTime);
    /// assert_eq!(batch.base_timestamp(), 1_700_000_000_000);
    /// assert_eq!(batch.max_timestamp(), 1_700_000_000_500);
    /// assert_eq!(batch.records()?.next().unwrap()?.timestamp, 1_700_000_000_500);
    /// # Ok::<(), kwire::records::RecordsError>(())
    /// ```
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
    /// instead of the first record's timestamp (Kafka's choice, the default; -1 for
    /// an empty batch). Not with [`delete_horizon`](Self::delete_horizon), which
    /// sets the same field.
    pub fn base_timestamp(mut self, base_timestamp: i64) -> Self {
        self.base_timestamp = Some(base_timestamp);
        self
    }

    /// Marks the batch as compacted with tombstones kept until `delete_horizon_ms`
    /// (KIP-534), as Kafka's log cleaner writes it: attribute bit 6 set and the
    /// delete horizon written as the base timestamp, the records' timestamp deltas
    /// relative to it. Not with [`base_timestamp`](Self::base_timestamp), nor on an
    /// empty batch.
    ///
    /// ```
    /// use kwire::records::{RecordBatch, RecordBatchBuilder};
    ///
    /// let mut builder = RecordBatchBuilder::new(0).delete_horizon(1_700_000_086_400);
    /// builder.append(1_700_000_000_000, Some(b"k"), None, &[])?; // a tombstone
    /// let (batch, _) = RecordBatch::parse(builder.build()?)?;
    /// assert!(batch.attributes().has_delete_horizon());
    /// assert_eq!(batch.base_timestamp(), 1_700_000_086_400);
    /// let record = batch.records()?.next().unwrap()?;
    /// assert_eq!(record.timestamp_delta, -86_400);
    /// assert_eq!(record.timestamp, 1_700_000_000_000);
    /// # Ok::<(), kwire::records::RecordsError>(())
    /// ```
    pub fn delete_horizon(mut self, delete_horizon_ms: i64) -> Self {
        self.delete_horizon = Some(delete_horizon_ms);
        self
    }

    /// Sets the batch's last offset delta beyond its last record's, as Kafka's
    /// cleaner does (`overrideLastOffset`) when it removed a batch's last records:
    /// the batch keeps its offsets and the producer's last sequence
    /// (`baseSequence + lastOffsetDelta`). Also the last offset delta of an
    /// [empty batch](Self::build_empty). Below the last record's offset delta, or
    /// negative, it is [`LastOffsetDeltaTooSmall`](RecordsError::LastOffsetDeltaTooSmall)
    /// when built.
    ///
    /// ```
    /// use kwire::records::{RecordBatch, RecordBatchBuilder};
    ///
    /// // Compaction kept offsets 10 and 12 of a batch that ended at 14.
    /// let mut builder = RecordBatchBuilder::new(10).producer(7, 0, 100).last_offset_delta(4);
    /// builder.append_at(0, 1_000, Some(b"a"), Some(b"1"), &[])?;
    /// builder.append_at(2, 1_002, Some(b"b"), Some(b"2"), &[])?;
    /// let (batch, _) = RecordBatch::parse(builder.build()?)?;
    /// assert_eq!((batch.records_count(), batch.last_offset()), (2, 14));
    /// # Ok::<(), kwire::records::RecordsError>(())
    /// ```
    pub fn last_offset_delta(mut self, last_offset_delta: i32) -> Self {
        self.last_offset_delta = Some(last_offset_delta);
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

    /// Appends a record at the next offset: offset delta 0 for the first record,
    /// then one past the last record's. A key, value or header too long for
    /// Kafka's int32 lengths is [`TooLarge`](RecordsError::TooLarge), a record
    /// beyond the int32 offset deltas
    /// [`OffsetDeltaOutOfRange`](RecordsError::OffsetDeltaOutOfRange); either leaves
    /// the builder as it was.
    pub fn append(
        &mut self,
        timestamp: i64,
        key: Option<&[u8]>,
        value: Option<&[u8]>,
        headers: &[(&str, Option<&[u8]>)],
    ) -> Result<(), RecordsError> {
        let next = self
            .records
            .last()
            .map_or(0, |last| i64::from(last.offset_delta) + 1);
        self.append_at(next, timestamp, key, value, headers)
    }

    /// Appends a record at `offset_delta` from the base offset, as Kafka's
    /// `appendWithOffset` does: deltas strictly ascend, with gaps allowed (log
    /// compaction removes records without renumbering the rest). A delta not above
    /// the last record's is
    /// [`OffsetDeltaNotAscending`](RecordsError::OffsetDeltaNotAscending), one that
    /// is negative or beyond an int32
    /// [`OffsetDeltaOutOfRange`](RecordsError::OffsetDeltaOutOfRange), lengths beyond
    /// an int32 [`TooLarge`](RecordsError::TooLarge); each leaves the builder as it
    /// was.
    ///
    /// ```
    /// use kwire::records::{RecordBatch, RecordBatchBuilder, RecordsError};
    ///
    /// let mut builder = RecordBatchBuilder::new(100);
    /// builder.append_at(0, 1_000, Some(b"a"), Some(b"1"), &[])?;
    /// builder.append_at(2, 1_001, Some(b"b"), Some(b"2"), &[])?;
    /// assert!(matches!(
    ///     builder.append_at(2, 1_002, None, None, &[]),
    ///     Err(RecordsError::OffsetDeltaNotAscending { offset_delta: 2, previous: 2 })
    /// ));
    /// let (batch, _) = RecordBatch::parse(builder.build()?)?;
    /// assert_eq!((batch.records_count(), batch.last_offset_delta()), (2, 2));
    /// let offsets: Vec<i64> = batch.records()?.map(|r| r.map(|r| r.offset)).collect::<Result<_, _>>()?;
    /// assert_eq!(offsets, [100, 102]);
    /// # Ok::<(), kwire::records::RecordsError>(())
    /// ```
    pub fn append_at(
        &mut self,
        offset_delta: i64,
        timestamp: i64,
        key: Option<&[u8]>,
        value: Option<&[u8]>,
        headers: &[(&str, Option<&[u8]>)],
    ) -> Result<(), RecordsError> {
        let delta = i32::try_from(offset_delta)
            .ok()
            .filter(|&delta| delta >= 0)
            .ok_or(RecordsError::OffsetDeltaOutOfRange { offset_delta })?;
        if let Some(last) = self.records.last() {
            if delta <= last.offset_delta {
                return Err(RecordsError::OffsetDeltaNotAscending {
                    offset_delta,
                    previous: last.offset_delta,
                });
            }
        }
        let start = self.tails.len();
        let result = self.write_tail(delta, key, value, headers);
        if result.is_err() {
            self.tails.truncate(start);
            return result;
        }
        self.records.push(Appended {
            timestamp,
            offset_delta: delta,
            end: self.tails.len(),
        });
        Ok(())
    }

    /// Writes a record's fields after its timestamp delta.
    fn write_tail(
        &mut self,
        offset_delta: i32,
        key: Option<&[u8]>,
        value: Option<&[u8]>,
        headers: &[(&str, Option<&[u8]>)],
    ) -> Result<(), RecordsError> {
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
    /// if set). Empty bytes when no record was appended: Kafka's builder writes no
    /// empty batches (see [`build_empty`](Self::build_empty) for the cleaner's).
    pub fn build(&self) -> Result<Bytes, RecordsError> {
        let delete_horizon = self.checked_delete_horizon()?;
        let (Some(first), Some(last)) = (self.records.first(), self.records.last()) else {
            return Ok(Bytes::new());
        };
        let last_offset_delta = match self.last_offset_delta {
            Some(set) if set < last.offset_delta => {
                return Err(RecordsError::LastOffsetDeltaTooSmall {
                    last_offset_delta: set,
                    least: last.offset_delta,
                })
            }
            Some(set) => set,
            None => last.offset_delta,
        };
        // Kafka's `MemoryRecordsBuilder`: a delete horizon replaces the first
        // record's timestamp as the base the deltas are relative to. LogAppendTime
        // leaves the base alone (the producer's first timestamp, deltas unchanged):
        // readers never add the deltas to it but take the max timestamp instead,
        // which is all Kafka's broker rewrites when it stamps a batch.
        let base_timestamp = delete_horizon
            .or(self.base_timestamp)
            .unwrap_or(first.timestamp);
        let max_timestamp = match self.timestamp_type {
            TimestampType::LogAppendTime => self.log_append_time,
            TimestampType::CreateTime => self
                .records
                .iter()
                .fold(-1, |max, record| max.max(record.timestamp)),
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
        let header = Header {
            attributes: self.attributes(self.compression, delete_horizon.is_some()),
            last_offset_delta,
            base_timestamp,
            max_timestamp,
            records_count: count,
        };
        self.finish(header, out)
    }

    /// Writes an empty batch, as Kafka's log cleaner does
    /// (`DefaultRecordBatch.writeEmptyHeader`) when compaction removed every
    /// record of a batch whose producer state must survive: a header alone, with
    /// `recordsCount` 0 and the last offset delta, producer ID, epoch, base sequence,
    /// transactional and control bits, timestamp type and max timestamp of the
    /// batch it replaces. The last offset delta is the one set with
    /// [`last_offset_delta`](Self::last_offset_delta) (0 if not set). The base
    /// timestamp is -1 ("no timestamp"), as Kafka writes it, unless set with
    /// [`base_timestamp`](Self::base_timestamp).
    ///
    /// Refused, as no empty batch Kafka writes has them:
    /// [`InconsistentBatch`](RecordsError::InconsistentBatch) for appended records,
    /// a codec (Kafka writes it uncompressed), a delete horizon, a `LogAppendTime`
    /// batch whose append time is not `max_timestamp`, and a create-time base
    /// timestamp above `max_timestamp`;
    /// [`LastOffsetDeltaTooSmall`](RecordsError::LastOffsetDeltaTooSmall) for a
    /// negative last offset delta.
    ///
    /// ```
    /// use kwire::records::{RecordBatch, RecordBatchBuilder};
    ///
    /// let bytes = RecordBatchBuilder::new(500)
    ///     .producer(7, 2, 40)
    ///     .transactional(true)
    ///     .last_offset_delta(9)
    ///     .build_empty(1_700_000_000_000)?;
    /// assert_eq!(bytes.len(), 61); // the header alone
    /// let (batch, _) = RecordBatch::parse(bytes)?;
    /// batch.verify_crc()?;
    /// assert_eq!((batch.records_count(), batch.last_offset()), (0, 509));
    /// assert_eq!((batch.base_timestamp(), batch.max_timestamp()), (-1, 1_700_000_000_000));
    /// assert_eq!((batch.producer_id(), batch.producer_epoch(), batch.base_sequence()), (7, 2, 40));
    /// assert_eq!(batch.records()?.count(), 0);
    /// # Ok::<(), kwire::records::RecordsError>(())
    /// ```
    pub fn build_empty(&self, max_timestamp: i64) -> Result<Bytes, RecordsError> {
        self.checked_delete_horizon()?;
        let inconsistent = |reason| Err(RecordsError::InconsistentBatch(reason));
        if !self.records.is_empty() {
            return inconsistent("an empty batch with records appended");
        }
        if self.compression != Compression::None {
            return inconsistent("an empty batch is written uncompressed");
        }
        if self.delete_horizon.is_some() {
            return inconsistent("an empty batch has no tombstones to keep until a delete horizon");
        }
        let base_timestamp = self.base_timestamp.unwrap_or(-1);
        match self.timestamp_type {
            TimestampType::LogAppendTime
                if self.log_append_time != -1 && self.log_append_time != max_timestamp =>
            {
                return inconsistent("a LogAppendTime batch's max timestamp is its append time")
            }
            TimestampType::CreateTime if base_timestamp > max_timestamp => {
                return inconsistent("a create-time base timestamp above the max timestamp")
            }
            _ => {}
        }
        let last_offset_delta = self.last_offset_delta.unwrap_or(0);
        if last_offset_delta < 0 {
            return Err(RecordsError::LastOffsetDeltaTooSmall {
                last_offset_delta,
                least: 0,
            });
        }
        let header = Header {
            attributes: self.attributes(Compression::None, false),
            last_offset_delta,
            base_timestamp,
            max_timestamp,
            records_count: 0,
        };
        self.finish(header, vec![0u8; HEADER_SIZE])
    }

    /// The delete horizon, unless a base timestamp was set too: the two are the
    /// same field.
    fn checked_delete_horizon(&self) -> Result<Option<i64>, RecordsError> {
        match (self.delete_horizon, self.base_timestamp) {
            (Some(_), Some(_)) => Err(RecordsError::InconsistentBatch(
                "a delete horizon is the base timestamp: set one or the other",
            )),
            (horizon, _) => Ok(horizon),
        }
    }

    fn attributes(&self, compression: Compression, delete_horizon: bool) -> Attributes {
        Attributes::new(
            compression,
            self.timestamp_type,
            self.transactional,
            self.control,
        )
        .with_delete_horizon(delete_horizon)
    }

    /// Writes the header into the first [`HEADER_SIZE`] bytes of `out` (the
    /// records after them), then the CRC-32C of everything from the attributes on.
    fn finish(&self, header: Header, mut out: Vec<u8>) -> Result<Bytes, RecordsError> {
        let batch_length =
            i32::try_from(out.len() - LOG_OVERHEAD).map_err(|_| RecordsError::TooLarge {
                what: "record batch",
            })?;
        let mut bytes = [0u8; HEADER_SIZE];
        {
            let mut h = &mut bytes[..];
            h.put_i64(self.base_offset);
            h.put_i32(batch_length);
            h.put_i32(self.partition_leader_epoch);
            h.put_i8(MAGIC);
            h.put_u32(0); // the CRC, written below
            h.put_i16(header.attributes.0);
            h.put_i32(header.last_offset_delta);
            h.put_i64(header.base_timestamp);
            h.put_i64(header.max_timestamp);
            h.put_i64(self.producer_id);
            h.put_i16(self.producer_epoch);
            h.put_i32(self.base_sequence);
            h.put_i32(header.records_count);
        }
        if let Some(slot) = out.get_mut(..HEADER_SIZE) {
            slot.copy_from_slice(&bytes);
        }
        stamp_crc(&mut out);
        Ok(Bytes::from(out))
    }

    /// Writes every record, its length, attributes and timestamp delta before its
    /// tail.
    fn write_records(&self, base_timestamp: i64, out: &mut Vec<u8>) -> Result<(), RecordsError> {
        let mut start = 0;
        for record in &self.records {
            let tail = self.tails.get(start..record.end).unwrap_or_default();
            start = record.end;
            let delta =
                record
                    .timestamp
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

/// The header fields that differ between a batch of records and an empty one.
struct Header {
    attributes: Attributes,
    last_offset_delta: i32,
    base_timestamp: i64,
    max_timestamp: i64,
    records_count: i32,
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

//! Record batches (magic 2, Kafka's `DefaultRecordBatch`) read as views over the
//! `Bytes` they arrived in.
//!
//! A batch on the wire, all integers big-endian:
//!
//! ```text
//! offset  field
//!      0  baseOffset int64
//!      8  batchLength int32        (bytes after this field to the end of the batch)
//!     12  partitionLeaderEpoch int32
//!     16  magic int8               (2)
//!     17  crc uint32               (CRC-32C of everything from attributes to the end)
//!     21  attributes int16
//!     23  lastOffsetDelta int32
//!     27  baseTimestamp int64
//!     35  maxTimestamp int64
//!     43  producerId int64
//!     51  producerEpoch int16
//!     53  baseSequence int32
//!     57  recordsCount int32
//!     61  records                  (compressed as one stream when the codec is set)
//! ```
//!
//! Legacy message sets (magic 0 and 1) carry their magic byte at the same offset 16:
//! they are recognised and reported as
//! [`UnsupportedMagic`](RecordsError::UnsupportedMagic), never read as batches.

use std::fmt;
use std::iter::FusedIterator;
use std::sync::OnceLock;

use bytes::Bytes;

use super::record::RecordIter;
use super::{Attributes, Compression, RecordsError, TimestampType};

/// The bytes of the `baseOffset` and `batchLength` fields, which `batchLength` does
/// not count (Kafka's `LOG_OVERHEAD`).
pub const LOG_OVERHEAD: usize = 12;

/// The size of a batch's header: the bytes before its records (Kafka's
/// `RECORD_BATCH_OVERHEAD`).
pub const HEADER_SIZE: usize = 61;

/// The magic byte of a RecordBatch v2.
pub const MAGIC: i8 = 2;

pub(crate) const LENGTH_OFFSET: usize = 8;
pub(crate) const PARTITION_LEADER_EPOCH_OFFSET: usize = 12;
pub(crate) const MAGIC_OFFSET: usize = 16;
const CRC_OFFSET: usize = 17;
/// Where the CRC'd bytes start.
pub(crate) const ATTRIBUTES_OFFSET: usize = 21;
pub(crate) const LAST_OFFSET_DELTA_OFFSET: usize = 23;
const BASE_TIMESTAMP_OFFSET: usize = 27;
pub(crate) const MAX_TIMESTAMP_OFFSET: usize = 35;
const PRODUCER_ID_OFFSET: usize = 43;
const PRODUCER_EPOCH_OFFSET: usize = 51;
const BASE_SEQUENCE_OFFSET: usize = 53;
pub(crate) const RECORDS_COUNT_OFFSET: usize = 57;

/// One record batch (magic 2): a view over its bytes. Cloning is cheap (a reference
/// count or two), reading the header touches only the header, and the records are
/// read by [`records`](Self::records) as slices borrowed from the batch (or from its
/// decompressed records, which the batch keeps once a compressed batch was read).
///
/// ```
/// use kwire::bytes::Bytes;
/// use kwire::records::batch::RecordBatch;
/// use kwire::records::builder::RecordBatchBuilder;
///
/// let mut builder = RecordBatchBuilder::new(42);
/// builder.append(1_700_000_000_000, Some(b"key"), Some(b"value"), &[("trace", Some(b"abc"))])?;
/// builder.append(1_700_000_000_005, None, None, &[])?;
/// let bytes: Bytes = builder.build()?;
///
/// let (batch, rest) = RecordBatch::parse(bytes)?;
/// assert!(rest.is_empty());
/// batch.verify_crc()?;
/// assert_eq!(batch.base_offset(), 42);
/// assert_eq!(batch.last_offset(), 43);
/// assert_eq!(batch.records_count(), 2);
/// assert_eq!(batch.max_timestamp(), 1_700_000_000_005);
///
/// let records = batch.records()?.collect::<Result<Vec<_>, _>>()?;
/// assert_eq!(records[0].offset, 42);
/// assert_eq!(records[0].key, Some(&b"key"[..]));
/// let header = records[0].headers.clone().next().unwrap()?;
/// assert_eq!((header.key, header.value), ("trace", Some(&b"abc"[..])));
/// assert_eq!(records[1].timestamp, 1_700_000_000_005);
/// assert_eq!(records[1].value, None);
///
/// // A key or value kept beyond the batch's borrow: Bytes sharing the batch's buffer.
/// let key: Bytes = records[0].key_bytes().unwrap();
/// assert_eq!(key, &b"key"[..]);
/// # Ok::<(), kwire::records::RecordsError>(())
/// ```
#[derive(Clone)]
pub struct RecordBatch {
    /// The whole batch, from `baseOffset` to its last byte; at least
    /// [`HEADER_SIZE`] bytes with magic 2.
    bytes: Bytes,
    /// The decompressed records of a compressed batch, once
    /// [`records_with_limit`](Self::records_with_limit) decompressed them.
    decompressed: OnceLock<Bytes>,
}

/// Batches are equal when their bytes are, whether or not their records were
/// decompressed.
impl PartialEq for RecordBatch {
    fn eq(&self, other: &Self) -> bool {
        self.bytes == other.bytes
    }
}

impl Eq for RecordBatch {}

impl fmt::Debug for RecordBatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RecordBatch")
            .field("bytes", &self.bytes)
            .field("decompressed_len", &self.decompressed.get().map(Bytes::len))
            .finish()
    }
}

/// How the start of a `records` field splits.
pub(crate) enum Split {
    /// A whole batch of this many bytes.
    Whole(usize),
    /// A batch that does not end within the bytes (or a header cut short).
    Partial {
        /// The fewest more bytes that could complete it.
        needed: usize,
    },
}

/// Finds the batch at the start of `buf` (not empty), checking what its header
/// says before reading further: a negative length, a magic other than 2 (as soon as
/// the magic byte is there) and a length below the header's are errors.
pub(crate) fn split(buf: &[u8]) -> Result<Split, RecordsError> {
    let base_offset = read_i64(buf, 0);
    let Some(length) = read_array::<4>(buf, LENGTH_OFFSET).map(i32::from_be_bytes) else {
        return Ok(Split::Partial {
            needed: HEADER_SIZE - buf.len(),
        });
    };
    let available = buf.len().saturating_sub(LOG_OVERHEAD);
    let Ok(length) = usize::try_from(length) else {
        return Err(RecordsError::BadLength {
            what: "batch length",
            len: i64::from(length),
            available,
        });
    };
    let total = LOG_OVERHEAD.saturating_add(length);
    let Some(&magic) = buf.get(MAGIC_OFFSET) else {
        return Ok(Split::Partial {
            needed: total.max(HEADER_SIZE) - buf.len(),
        });
    };
    let magic = magic as i8;
    if magic != MAGIC {
        return Err(RecordsError::UnsupportedMagic { base_offset, magic });
    }
    if total < HEADER_SIZE {
        return Err(RecordsError::BadLength {
            what: "batch length",
            len: length as i64,
            available,
        });
    }
    if buf.len() < total {
        return Ok(Split::Partial {
            needed: total - buf.len(),
        });
    }
    Ok(Split::Whole(total))
}

impl RecordBatch {
    /// The batch of `bytes`, checked by [`split`] to be one whole batch.
    fn new(bytes: Bytes) -> Self {
        RecordBatch {
            bytes,
            decompressed: OnceLock::new(),
        }
    }

    /// Reads the batch at the start of `bytes`, returning it and the bytes after it.
    ///
    /// Only the header's length and magic are checked: the CRC is checked by
    /// [`verify_crc`](Self::verify_crc), the records when read. A batch that does not
    /// end within `bytes` is [`Truncated`](RecordsError::Truncated); to read a
    /// `records` field that may end with a partial batch, use [`Batches`].
    pub fn parse(bytes: Bytes) -> Result<(RecordBatch, Bytes), RecordsError> {
        match split(&bytes)? {
            Split::Whole(total) => {
                let mut batch = bytes;
                let rest = batch.split_off(total);
                Ok((RecordBatch::new(batch), rest))
            }
            Split::Partial { needed } => Err(RecordsError::Truncated {
                what: "record batch",
                needed,
            }),
        }
    }

    /// The batch's bytes, from `baseOffset` to its end.
    pub fn as_bytes(&self) -> &Bytes {
        &self.bytes
    }

    /// The batch's bytes, from `baseOffset` to its end.
    pub fn into_bytes(self) -> Bytes {
        self.bytes
    }

    /// The batch's size in bytes, header included.
    pub fn size(&self) -> usize {
        self.bytes.len()
    }

    /// The offset of the batch's first record.
    pub fn base_offset(&self) -> i64 {
        read_i64(&self.bytes, 0)
    }

    /// The batch's bytes after the `batchLength` field.
    pub fn batch_length(&self) -> i32 {
        read_i32(&self.bytes, LENGTH_OFFSET)
    }

    /// The leader epoch the broker stamped (-1 as producers write it).
    pub fn partition_leader_epoch(&self) -> i32 {
        read_i32(&self.bytes, PARTITION_LEADER_EPOCH_OFFSET)
    }

    /// The magic byte: always 2 here.
    pub fn magic(&self) -> i8 {
        read_array::<1>(&self.bytes, MAGIC_OFFSET).map_or(0, i8::from_be_bytes)
    }

    /// The stored CRC-32C of the bytes from the attributes to the end.
    pub fn crc(&self) -> u32 {
        read_array::<4>(&self.bytes, CRC_OFFSET).map_or(0, u32::from_be_bytes)
    }

    /// The attributes: codec, timestamp type, transactional, control and delete
    /// horizon bits.
    pub fn attributes(&self) -> Attributes {
        Attributes(read_array::<2>(&self.bytes, ATTRIBUTES_OFFSET).map_or(0, i16::from_be_bytes))
    }

    /// The compression codec of the records.
    pub fn compression(&self) -> Result<Compression, RecordsError> {
        self.attributes().compression()
    }

    /// What the timestamps mean.
    pub fn timestamp_type(&self) -> TimestampType {
        self.attributes().timestamp_type()
    }

    /// True for a batch of a transaction.
    pub fn is_transactional(&self) -> bool {
        self.attributes().is_transactional()
    }

    /// True for a control batch.
    pub fn is_control(&self) -> bool {
        self.attributes().is_control()
    }

    /// The last record's offset relative to the base offset.
    pub fn last_offset_delta(&self) -> i32 {
        read_i32(&self.bytes, LAST_OFFSET_DELTA_OFFSET)
    }

    /// The offset of the batch's last record (wrapping on a corrupt header, as
    /// Kafka's `long` arithmetic).
    pub fn last_offset(&self) -> i64 {
        self.base_offset()
            .wrapping_add(i64::from(self.last_offset_delta()))
    }

    /// The timestamp the records' timestamp deltas are relative to (the delete
    /// horizon when [`Attributes::has_delete_horizon`] is set).
    pub fn base_timestamp(&self) -> i64 {
        read_i64(&self.bytes, BASE_TIMESTAMP_OFFSET)
    }

    /// The delete horizon of a compacted batch holding tombstones (KIP-534): its
    /// base timestamp, when the delete horizon bit of the attributes is set.
    ///
    /// ```
    /// use kwire::records::{RecordBatch, RecordBatchBuilder};
    ///
    /// let mut builder = RecordBatchBuilder::new(0).delete_horizon(1_700_000_086_400);
    /// builder.append(1_700_000_000_000, Some(b"k"), None, &[])?;
    /// let (batch, _) = RecordBatch::parse(builder.build()?)?;
    /// assert_eq!(batch.delete_horizon_ms(), Some(1_700_000_086_400));
    /// # Ok::<(), kwire::records::RecordsError>(())
    /// ```
    pub fn delete_horizon_ms(&self) -> Option<i64> {
        self.attributes()
            .has_delete_horizon()
            .then(|| self.base_timestamp())
    }

    /// The largest record timestamp, or the log append time for a `LogAppendTime`
    /// batch.
    pub fn max_timestamp(&self) -> i64 {
        read_i64(&self.bytes, MAX_TIMESTAMP_OFFSET)
    }

    /// The producer ID (-1 without idempotence).
    pub fn producer_id(&self) -> i64 {
        read_i64(&self.bytes, PRODUCER_ID_OFFSET)
    }

    /// The producer epoch (-1 without idempotence).
    pub fn producer_epoch(&self) -> i16 {
        read_array::<2>(&self.bytes, PRODUCER_EPOCH_OFFSET).map_or(0, i16::from_be_bytes)
    }

    /// The first record's sequence number (-1 without idempotence).
    pub fn base_sequence(&self) -> i32 {
        read_i32(&self.bytes, BASE_SEQUENCE_OFFSET)
    }

    /// The number of records the header declares (checked when the records are
    /// read).
    pub fn records_count(&self) -> i32 {
        read_i32(&self.bytes, RECORDS_COUNT_OFFSET)
    }

    /// The bytes after the header: the records, compressed as one stream when the
    /// batch has a codec.
    pub fn payload(&self) -> Bytes {
        self.bytes.slice(HEADER_SIZE.min(self.bytes.len())..)
    }

    /// The CRC-32C of the bytes from the attributes to the end.
    pub fn compute_crc(&self) -> u32 {
        crc_of(&self.bytes)
    }

    /// Checks the stored CRC against the batch's bytes:
    /// [`CrcMismatch`](RecordsError::CrcMismatch), naming the base offset, when they
    /// differ.
    pub fn verify_crc(&self) -> Result<(), RecordsError> {
        let stored = self.crc();
        let actual = self.compute_crc();
        if stored == actual {
            Ok(())
        } else {
            Err(RecordsError::CrcMismatch {
                base_offset: self.base_offset(),
                stored,
                actual,
            })
        }
    }

    /// The records, decompressed (for a compressed batch) up to
    /// [`DEFAULT_MAX_DECOMPRESSED`](super::compression::DEFAULT_MAX_DECOMPRESSED)
    /// bytes. See [`records_with_limit`](Self::records_with_limit).
    pub fn records(&self) -> Result<RecordIter<'_>, RecordsError> {
        self.records_with_limit(super::compression::DEFAULT_MAX_DECOMPRESSED)
    }

    /// The records, iterated without allocating and without touching a reference
    /// count per record: the iterator borrows the batch. An uncompressed batch's
    /// records are read in place; a compressed batch's are decompressed first, into
    /// at most `max_decompressed` bytes
    /// ([`DecompressedTooLarge`](RecordsError::DecompressedTooLarge) beyond).
    ///
    /// The batch keeps a compressed batch's decompressed records (until it is
    /// dropped; clones made afterwards share them), so that the records can borrow
    /// them: only the first successful call decompresses. A later call, with this
    /// limit or another, reads the records kept, still failing with
    /// [`DecompressedTooLarge`](RecordsError::DecompressedTooLarge) when they are
    /// longer than its own `max_decompressed`. A failed decompression keeps nothing.
    ///
    /// Errors here are the codec's (unknown, not enabled, corrupt data) and a
    /// negative `recordsCount`; errors in the records come from the iterator.
    /// The CRC is not checked: call [`verify_crc`](Self::verify_crc) for that.
    pub fn records_with_limit(
        &self,
        max_decompressed: usize,
    ) -> Result<RecordIter<'_>, RecordsError> {
        let (source, start) = match self.compression()? {
            Compression::None => (&self.bytes, HEADER_SIZE),
            codec => (self.decompressed(codec, max_decompressed)?, 0),
        };
        let log_append_time = match self.timestamp_type() {
            TimestampType::LogAppendTime => Some(self.max_timestamp()),
            TimestampType::CreateTime => None,
        };
        RecordIter::new(
            source,
            start,
            self.base_offset(),
            self.base_timestamp(),
            log_append_time,
            self.records_count(),
        )
    }

    /// The decompressed records of this compressed batch: those kept, if no longer
    /// than `max_decompressed`, or decompressed now and kept.
    fn decompressed(
        &self,
        codec: Compression,
        max_decompressed: usize,
    ) -> Result<&Bytes, RecordsError> {
        if let Some(records) = self.decompressed.get() {
            if records.len() > max_decompressed {
                return Err(RecordsError::DecompressedTooLarge {
                    codec: codec.name(),
                    limit: max_decompressed,
                });
            }
            return Ok(records);
        }
        let payload = self.bytes.get(HEADER_SIZE..).unwrap_or_default();
        let records = Bytes::from(super::compression::decompress(
            codec,
            payload,
            max_decompressed,
        )?);
        // Another thread may have decompressed the same records meanwhile: either
        // copy is the same.
        Ok(self.decompressed.get_or_init(|| records))
    }
}

/// The batches of a `records` field, read one after another.
///
/// A `records` field may end with a partial batch (a fetch response cut at the
/// size the consumer asked for): iteration stops cleanly there, and
/// [`partial_tail`](Self::partial_tail) says how many bytes were left. A length that
/// cannot be (negative, or shorter than a batch header) and a magic other than 2 are
/// errors, after which iteration ends: the next batch's start is unknown.
///
/// ```
/// use kwire::bytes::Bytes;
/// use kwire::records::batch::Batches;
/// use kwire::records::builder::RecordBatchBuilder;
///
/// let mut first = RecordBatchBuilder::new(0);
/// first.append(10, None, Some(b"a"), &[])?;
/// let mut second = RecordBatchBuilder::new(1);
/// second.append(11, None, Some(b"b"), &[])?;
/// let mut field = first.build()?.to_vec();
/// let second = second.build()?;
/// field.extend_from_slice(&second[..20]); // the fetch cut the second batch short
///
/// let mut batches = Batches::new(Bytes::from(field));
/// assert_eq!(batches.next().unwrap()?.base_offset(), 0);
/// assert!(batches.next().is_none());
/// assert_eq!(batches.partial_tail(), 20);
/// # Ok::<(), kwire::records::RecordsError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Batches {
    /// The bytes not yet read.
    rest: Bytes,
    /// The size of the partial batch iteration stopped at.
    partial_tail: usize,
    /// True once iteration ended.
    done: bool,
}

impl Batches {
    /// The batches of `bytes`, a whole `records` field.
    pub fn new(bytes: Bytes) -> Self {
        Batches {
            rest: bytes,
            partial_tail: 0,
            done: false,
        }
    }

    /// How many bytes of a partial trailing batch iteration stopped at and skipped:
    /// 0 until then, and 0 when the field ended with a whole batch.
    pub fn partial_tail(&self) -> usize {
        self.partial_tail
    }

    /// The bytes not yet read (the partial tail, once iteration stopped there).
    pub fn remaining(&self) -> &Bytes {
        &self.rest
    }
}

impl Iterator for Batches {
    type Item = Result<RecordBatch, RecordsError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done || self.rest.is_empty() {
            self.done = true;
            return None;
        }
        match split(&self.rest) {
            Ok(Split::Whole(total)) => {
                let rest = self.rest.split_off(total);
                let batch = std::mem::replace(&mut self.rest, rest);
                Some(Ok(RecordBatch::new(batch)))
            }
            Ok(Split::Partial { .. }) => {
                self.done = true;
                self.partial_tail = self.rest.len();
                None
            }
            Err(err) => {
                self.done = true;
                Some(Err(err))
            }
        }
    }
}

impl FusedIterator for Batches {}

/// The CRC-32C a batch's bytes should carry: over the attributes to the end.
fn crc_of(batch: &[u8]) -> u32 {
    crc32c::crc32c(batch.get(ATTRIBUTES_OFFSET..).unwrap_or_default())
}

/// Writes into a whole batch's header the CRC of its bytes, as a writer does last.
pub(crate) fn stamp_crc(batch: &mut [u8]) {
    let crc = crc_of(batch);
    if let Some(slot) = batch.get_mut(CRC_OFFSET..CRC_OFFSET + 4) {
        slot.copy_from_slice(&crc.to_be_bytes());
    }
}

pub(crate) fn read_array<const N: usize>(buf: &[u8], at: usize) -> Option<[u8; N]> {
    buf.get(at..at.checked_add(N)?)?.try_into().ok()
}

fn read_i32(buf: &[u8], at: usize) -> i32 {
    read_array::<4>(buf, at).map_or(0, i32::from_be_bytes)
}

fn read_i64(buf: &[u8], at: usize) -> i64 {
    read_array::<8>(buf, at).map_or(0, i64::from_be_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::builder::RecordBatchBuilder;
    use crate::records::record::Header;

    /// A batch written out by hand from the format: base offset 5, two records with
    /// create-time timestamps, the first with key "k1", a null value and one header
    /// "h" = "v", the second with a null key, value "v2" and two headers, the second
    /// of them null. The CRC field is filled in by [`hand_batch`].
    #[rustfmt::skip]
    const HAND_BATCH: [u8; 89] = [
        0, 0, 0, 0, 0, 0, 0, 5,            // baseOffset 5
        0, 0, 0, 77,                       // batchLength 77 (89 - 12)
        0xff, 0xff, 0xff, 0xff,            // partitionLeaderEpoch -1
        2,                                 // magic 2
        0, 0, 0, 0,                        // crc (computed below)
        0, 0,                              // attributes: none, create time
        0, 0, 0, 1,                        // lastOffsetDelta 1
        0, 0, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x00, // baseTimestamp 1_700_000_000_000
        0, 0, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x0a, // maxTimestamp 1_700_000_000_010
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, // producerId -1
        0xff, 0xff,                        // producerEpoch -1
        0xff, 0xff, 0xff, 0xff,            // baseSequence -1
        0, 0, 0, 2,                        // recordsCount 2
        // record 0 (12 body bytes)
        24,                                // length 12
        0,                                 // attributes
        0,                                 // timestampDelta 0
        0,                                 // offsetDelta 0
        4, b'k', b'1',                     // key length 2, "k1"
        1,                                 // value length -1 (null)
        2,                                 // 1 header
        2, b'h',                           // header key length 1, "h"
        2, b'v',                           // header value length 1, "v"
        // record 1 (14 body bytes)
        28,                                // length 14
        0,                                 // attributes
        20,                                // timestampDelta 10
        2,                                 // offsetDelta 1
        1,                                 // key length -1 (null)
        4, b'v', b'2',                     // value length 2, "v2"
        4,                                 // 2 headers
        2, b'a',                           // header key "a"
        0,                                 // header value length 0: empty
        2, b'b',                           // header key "b"
        1,                                 // header value null
    ];

    fn hand_batch() -> Vec<u8> {
        let mut bytes = HAND_BATCH.to_vec();
        let crc = crc32c::crc32c(&bytes[ATTRIBUTES_OFFSET..]);
        bytes[CRC_OFFSET..CRC_OFFSET + 4].copy_from_slice(&crc.to_be_bytes());
        bytes
    }

    fn built(base_offset: i64, values: &[&[u8]]) -> Bytes {
        let mut builder = RecordBatchBuilder::new(base_offset);
        for (i, value) in values.iter().enumerate() {
            builder
                .append(1_000 + i as i64, None, Some(value), &[])
                .unwrap();
        }
        builder.build().unwrap()
    }

    #[test]
    fn crc32c_known_answer() {
        assert_eq!(crc32c::crc32c(b"123456789"), 0xE306_9283);
    }

    #[test]
    fn reads_a_hand_written_batch() {
        let bytes = Bytes::from(hand_batch());
        let (batch, rest) = RecordBatch::parse(bytes.clone()).unwrap();
        assert!(rest.is_empty());
        batch.verify_crc().unwrap();
        assert_eq!(batch.base_offset(), 5);
        assert_eq!(batch.batch_length(), 77);
        assert_eq!(batch.partition_leader_epoch(), -1);
        assert_eq!(batch.magic(), 2);
        assert_eq!(batch.crc(), crc32c::crc32c(&bytes[21..]));
        assert_eq!(batch.attributes(), Attributes(0));
        assert_eq!(batch.compression(), Ok(Compression::None));
        assert_eq!(batch.timestamp_type(), TimestampType::CreateTime);
        assert!(!batch.is_transactional() && !batch.is_control());
        assert_eq!(batch.last_offset_delta(), 1);
        assert_eq!(batch.last_offset(), 6);
        assert_eq!(batch.base_timestamp(), 1_700_000_000_000);
        assert_eq!(batch.max_timestamp(), 1_700_000_000_010);
        assert_eq!(batch.producer_id(), -1);
        assert_eq!(batch.producer_epoch(), -1);
        assert_eq!(batch.base_sequence(), -1);
        assert_eq!(batch.records_count(), 2);
        assert_eq!(batch.size(), 89);

        let records: Vec<_> = batch.records().unwrap().map(Result::unwrap).collect();
        assert_eq!(records.len(), 2);
        let r0 = &records[0];
        assert_eq!((r0.offset, r0.offset_delta), (5, 0));
        assert_eq!((r0.timestamp, r0.timestamp_delta), (1_700_000_000_000, 0));
        assert_eq!(r0.attributes, 0);
        assert_eq!(r0.key, Some(&b"k1"[..]));
        assert_eq!(r0.value, None);
        let h0: Vec<Header> = r0.headers.clone().map(Result::unwrap).collect();
        assert_eq!(h0.len(), 1);
        assert_eq!((h0[0].key, h0[0].value), ("h", Some(&b"v"[..])));
        let r1 = &records[1];
        assert_eq!((r1.offset, r1.offset_delta), (6, 1));
        assert_eq!((r1.timestamp, r1.timestamp_delta), (1_700_000_000_010, 10));
        assert_eq!(r1.key, None);
        assert_eq!(r1.value, Some(&b"v2"[..]));
        let h1: Vec<Header> = r1.headers.clone().map(Result::unwrap).collect();
        assert_eq!(h1.len(), 2);
        assert_eq!((h1[0].key, h1[0].value), ("a", Some(&b""[..])));
        assert_eq!((h1[1].key, h1[1].value), ("b", None));
    }

    #[test]
    fn builder_reproduces_the_hand_written_batch() {
        let mut builder = RecordBatchBuilder::new(5);
        builder
            .append(1_700_000_000_000, Some(b"k1"), None, &[("h", Some(b"v"))])
            .unwrap();
        builder
            .append(
                1_700_000_000_010,
                None,
                Some(b"v2"),
                &[("a", Some(b"")), ("b", None)],
            )
            .unwrap();
        assert_eq!(&builder.build().unwrap()[..], &hand_batch()[..]);
    }

    #[test]
    fn header_reads_do_not_touch_the_records() {
        // Garbage records and a wrong CRC: the header still reads.
        let mut bytes = hand_batch();
        for byte in &mut bytes[HEADER_SIZE..] {
            *byte = 0xff;
        }
        let (batch, _) = RecordBatch::parse(Bytes::from(bytes)).unwrap();
        assert_eq!(batch.records_count(), 2);
        assert_eq!(batch.last_offset(), 6);
        assert!(batch.verify_crc().is_err());
        assert!(batch.records().unwrap().any(|r| r.is_err()));
    }

    #[test]
    fn flipped_crc_is_a_mismatch_naming_the_base_offset() {
        let mut bytes = hand_batch();
        bytes[CRC_OFFSET] ^= 0x01;
        let (batch, _) = RecordBatch::parse(Bytes::from(bytes)).unwrap();
        let stored = batch.crc();
        assert_eq!(
            batch.verify_crc(),
            Err(RecordsError::CrcMismatch {
                base_offset: 5,
                stored,
                actual: stored ^ 0x0100_0000,
            })
        );
        // A flipped bit in the CRC'd bytes also fails.
        let mut bytes = hand_batch();
        bytes[70] ^= 0x10;
        let (batch, _) = RecordBatch::parse(Bytes::from(bytes)).unwrap();
        assert!(matches!(
            batch.verify_crc(),
            Err(RecordsError::CrcMismatch { base_offset: 5, .. })
        ));
    }

    #[test]
    fn parse_returns_the_rest() {
        let mut field = hand_batch();
        field.extend_from_slice(b"tail");
        let (batch, rest) = RecordBatch::parse(Bytes::from(field)).unwrap();
        assert_eq!(batch.size(), 89);
        assert_eq!(&rest[..], b"tail");
        let err = RecordBatch::parse(Bytes::from(hand_batch()[..87].to_vec())).unwrap_err();
        assert_eq!(
            err,
            RecordsError::Truncated {
                what: "record batch",
                needed: 2
            }
        );
        let err = RecordBatch::parse(Bytes::new()).unwrap_err();
        assert!(matches!(err, RecordsError::Truncated { needed: 61, .. }));
    }

    #[test]
    fn partial_trailing_batch_stops_iteration() {
        let a = built(0, &[b"one", b"two"]);
        let b = built(2, &[b"three"]);
        let c = built(3, &[b"four", b"five"]);
        for cut in 1..c.len() {
            let mut field = a.to_vec();
            field.extend_from_slice(&b);
            field.extend_from_slice(&c[..cut]);
            let mut batches = Batches::new(Bytes::from(field));
            assert_eq!(batches.partial_tail(), 0);
            let read: Vec<_> = batches.by_ref().map(Result::unwrap).collect();
            assert_eq!(read.len(), 2, "cut at {cut}");
            assert_eq!(read[0].as_bytes(), &a);
            assert_eq!(read[1].as_bytes(), &b);
            assert_eq!(batches.partial_tail(), cut, "cut at {cut}");
            assert_eq!(batches.remaining().len(), cut);
            assert!(batches.next().is_none());
        }
        // Whole batches only: no tail.
        let mut field = a.to_vec();
        field.extend_from_slice(&b);
        let mut batches = Batches::new(Bytes::from(field));
        assert_eq!(batches.by_ref().count(), 2);
        assert_eq!(batches.partial_tail(), 0);
        // An empty field holds no batches.
        assert!(Batches::new(Bytes::new()).next().is_none());
    }

    /// A legacy message (magic 0 or 1): offset, size, crc, magic, attributes,
    /// [timestamp,] key null, value "x".
    fn legacy_message(magic: u8) -> Vec<u8> {
        let mut body = vec![0, 0, 0, 0, magic, 0]; // crc (not checked), magic, attributes
        if magic == 1 {
            body.extend_from_slice(&1_000i64.to_be_bytes()); // timestamp
        }
        body.extend_from_slice(&(-1i32).to_be_bytes()); // key null
        body.extend_from_slice(&1i32.to_be_bytes()); // value length 1
        body.push(b'x');
        let mut out = 7i64.to_be_bytes().to_vec(); // offset 7
        out.extend_from_slice(&(body.len() as i32).to_be_bytes()); // size
        out.extend_from_slice(&body);
        out
    }

    #[test]
    fn legacy_message_sets_are_unsupported_magic() {
        for magic in [0u8, 1] {
            let message = legacy_message(magic);
            assert_eq!(message[16], magic);
            let expected = RecordsError::UnsupportedMagic {
                base_offset: 7,
                magic: magic as i8,
            };
            let mut batches = Batches::new(Bytes::from(message.clone()));
            assert_eq!(batches.next(), Some(Err(expected.clone())));
            assert!(batches.next().is_none());
            assert_eq!(
                RecordBatch::parse(Bytes::from(message.clone())).unwrap_err(),
                expected
            );
            // After a v2 batch too, and when the legacy message is cut short.
            let mut field = built(0, &[b"a"]).to_vec();
            field.extend_from_slice(&message[..20]);
            let results: Vec<_> = Batches::new(Bytes::from(field)).collect();
            assert_eq!(results.len(), 2);
            assert!(results[0].is_ok());
            assert_eq!(results[1], Err(expected));
        }
        // Any other magic as well.
        let mut bytes = hand_batch();
        bytes[MAGIC_OFFSET] = 3;
        assert!(matches!(
            Batches::new(Bytes::from(bytes)).next(),
            Some(Err(RecordsError::UnsupportedMagic { magic: 3, .. }))
        ));
    }

    #[test]
    fn impossible_lengths_are_errors() {
        for length in [-1i32, i32::MIN, 0, 48] {
            let mut bytes = hand_batch();
            bytes[LENGTH_OFFSET..LENGTH_OFFSET + 4].copy_from_slice(&length.to_be_bytes());
            let mut batches = Batches::new(Bytes::from(bytes));
            assert!(
                matches!(
                    batches.next(),
                    Some(Err(RecordsError::BadLength {
                        what: "batch length",
                        ..
                    }))
                ),
                "{length}"
            );
            assert!(batches.next().is_none());
        }
        // A huge length is a partial batch, as a fetch cut short.
        let mut bytes = hand_batch();
        bytes[LENGTH_OFFSET..LENGTH_OFFSET + 4].copy_from_slice(&i32::MAX.to_be_bytes());
        let mut batches = Batches::new(Bytes::from(bytes));
        assert!(batches.next().is_none());
        assert_eq!(batches.partial_tail(), 89);
    }

    #[test]
    fn huge_records_count_fails_without_allocating() {
        let mut bytes = built(0, &[b"a", b"b", b"c"]).to_vec();
        bytes[RECORDS_COUNT_OFFSET..RECORDS_COUNT_OFFSET + 4]
            .copy_from_slice(&i32::MAX.to_be_bytes());
        let (batch, _) = RecordBatch::parse(Bytes::from(bytes)).unwrap();
        let results: Vec<_> = batch.records().unwrap().collect();
        assert_eq!(results.len(), 4);
        assert!(results[..3].iter().all(Result::is_ok));
        assert_eq!(
            results[3],
            Err(RecordsError::RecordCount {
                base_offset: 0,
                declared: i32::MAX,
                found: 3
            })
        );
        // A negative count is refused before iterating.
        let mut bytes = built(0, &[b"a"]).to_vec();
        bytes[RECORDS_COUNT_OFFSET..RECORDS_COUNT_OFFSET + 4]
            .copy_from_slice(&(-1i32).to_be_bytes());
        let (batch, _) = RecordBatch::parse(Bytes::from(bytes)).unwrap();
        assert!(matches!(
            batch.records(),
            Err(RecordsError::BadLength { .. })
        ));
    }

    #[test]
    fn unknown_codec_is_an_error() {
        let mut bytes = hand_batch();
        bytes[ATTRIBUTES_OFFSET + 1] = 0x05;
        let (batch, _) = RecordBatch::parse(Bytes::from(bytes)).unwrap();
        assert_eq!(
            batch.records().unwrap_err(),
            RecordsError::UnknownCompression(5)
        );
    }

    #[cfg(feature = "lz4")]
    #[test]
    fn compressed_records_are_decompressed_once_and_kept() {
        let mut builder = RecordBatchBuilder::new(0).compression(Compression::Lz4);
        for i in 0..10u8 {
            builder.append(0, None, Some(&[i; 100]), &[]).unwrap();
        }
        let (batch, _) = RecordBatch::parse(builder.build().unwrap()).unwrap();
        let unread = batch.clone();
        // A failed call keeps nothing.
        assert!(matches!(
            batch.records_with_limit(100),
            Err(RecordsError::DecompressedTooLarge { limit: 100, .. })
        ));
        let first = batch.records().unwrap().bytes();
        assert_eq!(first.len(), 10 * 109); // each a 2-byte length and 107 bytes
                                           // Later calls read the same decompressed bytes, each within its own limit.
        let again = batch.records_with_limit(first.len()).unwrap().bytes();
        assert_eq!(again.as_ptr(), first.as_ptr());
        assert_eq!(
            batch.records_with_limit(first.len() - 1).unwrap_err(),
            RecordsError::DecompressedTooLarge {
                codec: "lz4",
                limit: first.len() - 1
            }
        );
        // Clones made afterwards share them; equality looks at the batch's bytes.
        assert_eq!(
            batch.clone().records().unwrap().bytes().as_ptr(),
            first.as_ptr()
        );
        assert_eq!(unread, batch);
        assert_eq!(unread.records().unwrap().bytes(), first);
        // The records' Bytes share the decompressed buffer.
        let record = batch.records().unwrap().next().unwrap().unwrap();
        let value = record.value_bytes().unwrap();
        assert_eq!(value.as_ptr(), record.value.unwrap().as_ptr());
    }

    #[test]
    fn log_append_time_batches_give_the_append_time() {
        let mut builder = RecordBatchBuilder::new(0).log_append_time(9_999);
        builder.append(10, None, Some(b"a"), &[]).unwrap();
        builder.append(20, None, Some(b"b"), &[]).unwrap();
        let (batch, _) = RecordBatch::parse(builder.build().unwrap()).unwrap();
        assert_eq!(batch.timestamp_type(), TimestampType::LogAppendTime);
        assert_eq!(batch.base_timestamp(), 10);
        assert_eq!(batch.max_timestamp(), 9_999);
        for record in batch.records().unwrap() {
            assert_eq!(record.unwrap().timestamp, 9_999);
        }
    }
}

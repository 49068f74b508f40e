//! The records inside a batch (Kafka's `DefaultRecord`), read as zero-copy views.
//!
//! A record on the wire:
//!
//! ```text
//! length varint | attributes int8 | timestampDelta varlong | offsetDelta varint
//! | keyLength varint | key | valueLength varint | value
//! | headersCount varint | [headerKeyLength varint | headerKey | headerValueLength varint | value]
//! ```
//!
//! Every varint is zigzag-encoded; a length of -1 is null. [`RecordIter`] walks a batch's
//! records without allocating: keys, values and header values are [`Bytes`] slices of
//! the batch (or of its decompressed records), and a record's [`Headers`] are read
//! lazily from the record's header bytes.
//!
//! # Where reading is stricter than Kafka
//!
//! - A key, value or header value length below -1 is
//!   [`BadLength`](RecordsError::BadLength); Kafka reads every negative length as null.
//! - A header key that is not UTF-8 is [`Corrupt`](RecordsError::Corrupt) with
//!   `codec: "header key"`; Kafka replaces the bad bytes with U+FFFD.

use std::iter::FusedIterator;

use bytes::Bytes;

use super::RecordsError;
use crate::wire::varint::{zigzag_decode_32, zigzag_decode_64};
use crate::KafkaString;

/// One record of a batch, with its key, value and header values sharing the batch's
/// buffer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The record's absolute offset: the batch's base offset plus
    /// [`offset_delta`](Self::offset_delta) (wrapping, as Kafka's `long` arithmetic).
    pub offset: i64,
    /// The record's timestamp: the batch's base timestamp plus
    /// [`timestamp_delta`](Self::timestamp_delta), or, in a batch whose timestamp type
    /// is `LogAppendTime`, the batch's max timestamp (as Kafka reads it).
    pub timestamp: i64,
    /// The offset relative to the batch's base offset.
    pub offset_delta: i32,
    /// The timestamp relative to the batch's base timestamp.
    pub timestamp_delta: i64,
    /// The record's attributes byte (unused by Kafka, written as 0).
    pub attributes: i8,
    /// The key, `None` when null.
    pub key: Option<Bytes>,
    /// The value, `None` when null (a tombstone on a compacted topic).
    pub value: Option<Bytes>,
    /// The headers, read lazily.
    pub headers: Headers,
}

/// One record header: a UTF-8 key and a nullable value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Header {
    /// The key, checked to be UTF-8, sharing the batch's buffer.
    pub key: KafkaString,
    /// The value, `None` when null.
    pub value: Option<Bytes>,
}

/// A record's headers: an iterator over the header bytes of one record, yielding each
/// [`Header`] as it reads it. Cloning it is cheap and restarts nothing: a clone
/// continues from the same point.
///
/// Headers are only made by reading a record, which checks them completely, so
/// iterating never yields an error in practice; the `Result` items are kept so a
/// damaged buffer could never be read as headers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Headers {
    /// The header bytes still to read.
    data: Bytes,
    /// The position in `data`.
    pos: usize,
    /// The headers still to read.
    remaining: usize,
}

impl Headers {
    /// How many headers are still to be read (all of them, before iterating).
    pub fn len(&self) -> usize {
        self.remaining
    }

    /// True when no headers are left to read.
    pub fn is_empty(&self) -> bool {
        self.remaining == 0
    }

    /// The value of the first header still to read whose key is `key`: `None` when
    /// there is none, `Some(None)` when its value is null.
    pub fn get(&self, key: &str) -> Option<Option<Bytes>> {
        self.clone()
            .filter_map(Result::ok)
            .find(|header| &*header.key == key)
            .map(|header| header.value)
    }
}

impl Iterator for Headers {
    type Item = Result<Header, RecordsError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.remaining == 0 {
            return None;
        }
        let mut cursor = Cursor::new(&self.data, self.pos, self.data.len());
        match read_header(&mut cursor) {
            Ok(header) => {
                self.pos = cursor.pos;
                self.remaining -= 1;
                Some(Ok(header))
            }
            Err(err) => {
                self.remaining = 0;
                Some(Err(err))
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.remaining))
    }
}

impl FusedIterator for Headers {}

/// The records of one batch: an iterator yielding each [`Record`] as it reads it,
/// allocating nothing per record.
///
/// It checks each record against the bytes present and, at the end, the number of
/// records against the batch's `recordsCount`: a count that does not match is a
/// [`RecordCount`](RecordsError::RecordCount) error as the last item, bytes left
/// after the declared count are [`TrailingBytes`](RecordsError::TrailingBytes). After
/// an error the iterator ends.
///
/// Made by [`RecordBatch::records`](super::batch::RecordBatch::records).
#[derive(Debug, Clone)]
pub struct RecordIter {
    /// The records' bytes (uncompressed).
    data: Bytes,
    /// The position of the next record in `data`.
    pos: usize,
    /// The batch's base offset.
    base_offset: i64,
    /// The batch's base timestamp.
    base_timestamp: i64,
    /// The batch's max timestamp when its timestamp type is `LogAppendTime`.
    log_append_time: Option<i64>,
    /// The batch's `recordsCount`, checked to be at least 0.
    declared: usize,
    /// The records read so far.
    found: usize,
    /// True once the end or an error was reached.
    done: bool,
}

impl RecordIter {
    /// The records in `data`, the uncompressed records of a batch whose header says
    /// `declared` records.
    pub(crate) fn new(
        data: Bytes,
        base_offset: i64,
        base_timestamp: i64,
        log_append_time: Option<i64>,
        declared: i32,
    ) -> Result<Self, RecordsError> {
        let available = data.len();
        let declared = usize::try_from(declared).map_err(|_| RecordsError::BadLength {
            what: "batch records count",
            len: i64::from(declared),
            available,
        })?;
        Ok(RecordIter {
            data,
            pos: 0,
            base_offset,
            base_timestamp,
            log_append_time,
            declared,
            found: 0,
            done: false,
        })
    }

    /// The number of records the batch's header declares.
    pub fn declared_count(&self) -> usize {
        self.declared
    }

    /// The uncompressed bytes of all the batch's records (decompressed, for a
    /// compressed batch).
    pub fn bytes(&self) -> &Bytes {
        &self.data
    }

    fn count_error(&self) -> RecordsError {
        RecordsError::RecordCount {
            base_offset: self.base_offset,
            declared: i32::try_from(self.declared).unwrap_or(i32::MAX),
            found: self.found,
        }
    }
}

impl Iterator for RecordIter {
    type Item = Result<Record, RecordsError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let left = self.data.len().saturating_sub(self.pos);
        if left == 0 {
            self.done = true;
            return if self.found == self.declared {
                None
            } else {
                Some(Err(self.count_error()))
            };
        }
        if self.found >= self.declared {
            self.done = true;
            return Some(Err(RecordsError::TrailingBytes {
                what: "records after the batch's records count",
                left,
            }));
        }
        let mut cursor = Cursor::new(&self.data, self.pos, self.data.len());
        match read_record(
            &mut cursor,
            self.base_offset,
            self.base_timestamp,
            self.log_append_time,
        ) {
            Ok(record) => {
                self.pos = cursor.pos;
                self.found += 1;
                Some(Ok(record))
            }
            Err(err) => {
                self.done = true;
                Some(Err(err))
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        if self.done {
            return (0, Some(0));
        }
        // Each record takes at least 7 bytes; one more item may be an error.
        let left = self.data.len().saturating_sub(self.pos);
        (0, Some((left / 7).saturating_add(1)))
    }
}

impl FusedIterator for RecordIter {}

/// Reads one record at the cursor.
fn read_record(
    cursor: &mut Cursor<'_>,
    base_offset: i64,
    base_timestamp: i64,
    log_append_time: Option<i64>,
) -> Result<Record, RecordsError> {
    let len = cursor.read_varint("record length")?;
    let available = cursor.remaining();
    let body_len = usize::try_from(len)
        .ok()
        .filter(|&body_len| body_len <= available)
        .ok_or(RecordsError::BadLength {
            what: "record length",
            len: i64::from(len),
            available,
        })?;
    let end = cursor.pos + body_len;
    let mut body = Cursor::new(cursor.data, cursor.pos, end);
    let attributes = body.read_u8("record attributes")? as i8;
    let timestamp_delta = body.read_varlong("record timestamp delta")?;
    let offset_delta = body.read_varint("record offset delta")?;
    let key = body.read_nullable_bytes("record key")?;
    let value = body.read_nullable_bytes("record value")?;
    let header_count = body.read_varint("record headers count")?;
    let header_count = usize::try_from(header_count).map_err(|_| RecordsError::BadLength {
        what: "record headers count",
        len: i64::from(header_count),
        available: body.remaining(),
    })?;
    let headers_start = body.pos;
    // Check every header now, so that a record read without error holds whole, valid
    // headers; each takes at least 2 bytes, so this loop is bounded by the bytes.
    for _ in 0..header_count {
        read_header(&mut body)?;
    }
    let left = body.remaining();
    if left != 0 {
        return Err(RecordsError::TrailingBytes {
            what: "record (after its headers)",
            left,
        });
    }
    let headers = Headers {
        data: cursor.data.slice(headers_start..end),
        pos: 0,
        remaining: header_count,
    };
    cursor.pos = end;
    let timestamp = match log_append_time {
        Some(time) => time,
        None => base_timestamp.wrapping_add(timestamp_delta),
    };
    Ok(Record {
        offset: base_offset.wrapping_add(i64::from(offset_delta)),
        timestamp,
        offset_delta,
        timestamp_delta,
        attributes,
        key,
        value,
        headers,
    })
}

/// Reads one header at the cursor.
fn read_header(cursor: &mut Cursor<'_>) -> Result<Header, RecordsError> {
    let key_len = cursor.read_varint("header key length")?;
    let key = cursor.read_len_bytes("header key", key_len)?;
    let key = KafkaString::from_utf8(key).map_err(|err| RecordsError::Corrupt {
        codec: "header key",
        reason: err.to_string(),
    })?;
    let value = cursor.read_nullable_bytes("header value")?;
    Ok(Header { key, value })
}

/// Reads from `data[pos..end]`; `pos <= end <= data.len()` always holds.
struct Cursor<'a> {
    data: &'a Bytes,
    pos: usize,
    end: usize,
}

impl<'a> Cursor<'a> {
    fn new(data: &'a Bytes, pos: usize, end: usize) -> Self {
        let end = end.min(data.len());
        Cursor {
            data,
            pos: pos.min(end),
            end,
        }
    }

    fn remaining(&self) -> usize {
        self.end - self.pos
    }

    fn read_u8(&mut self, what: &'static str) -> Result<u8, RecordsError> {
        if self.pos >= self.end {
            return Err(RecordsError::Truncated { what, needed: 1 });
        }
        let byte = self
            .data
            .get(self.pos)
            .copied()
            .ok_or(RecordsError::Truncated { what, needed: 1 })?;
        self.pos += 1;
        Ok(byte)
    }

    /// An unsigned varint of at most `max_bytes` bytes; as Kafka's reader, bits past
    /// the type's width in the last byte are dropped.
    fn read_unsigned(&mut self, what: &'static str, max_bytes: usize) -> Result<u64, RecordsError> {
        let mut value: u64 = 0;
        for i in 0..max_bytes {
            let byte = self.read_u8(what)?;
            value |= u64::from(byte & 0x7f) << (7 * i);
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(RecordsError::VarintTooLong { what, max_bytes })
    }

    /// A zigzag varint of at most 5 bytes.
    fn read_varint(&mut self, what: &'static str) -> Result<i32, RecordsError> {
        // Truncating to 32 bits drops what Kafka's `int` arithmetic drops.
        let raw = self.read_unsigned(what, 5)? as u32;
        Ok(zigzag_decode_32(raw))
    }

    /// A zigzag varlong of at most 10 bytes.
    fn read_varlong(&mut self, what: &'static str) -> Result<i64, RecordsError> {
        let raw = self.read_unsigned(what, 10)?;
        Ok(zigzag_decode_64(raw))
    }

    /// `len` bytes (`len` at least 0) as a slice of the buffer.
    fn read_len_bytes(&mut self, what: &'static str, len: i32) -> Result<Bytes, RecordsError> {
        let available = self.remaining();
        let n = usize::try_from(len)
            .ok()
            .filter(|&n| n <= available)
            .ok_or(RecordsError::BadLength {
                what,
                len: i64::from(len),
                available,
            })?;
        let start = self.pos;
        self.pos += n;
        Ok(self.data.slice(start..start + n))
    }

    /// A varint length (-1 for null) and that many bytes.
    fn read_nullable_bytes(&mut self, what: &'static str) -> Result<Option<Bytes>, RecordsError> {
        let len = self.read_varint(what)?;
        if len == -1 {
            return Ok(None);
        }
        self.read_len_bytes(what, len).map(Some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::varint::{put_varint, put_varlong};

    fn records(data: Vec<u8>, declared: i32) -> RecordIter {
        RecordIter::new(Bytes::from(data), 100, 1_000, None, declared).unwrap()
    }

    /// A record with the given body fields (after the length).
    fn record(body: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        put_varint(&mut out, body.len() as i32);
        out.extend_from_slice(body);
        out
    }

    #[test]
    fn reads_a_record_with_headers() {
        // attributes 0, tsDelta 5, offsetDelta 1, key "k", value null, 2 headers:
        // "a" = "xy", "b" = null.
        let body = [0, 10, 2, 2, b'k', 1, 4, 2, b'a', 4, b'x', b'y', 2, b'b', 1];
        let mut it = records(record(&body), 1);
        let rec = it.next().unwrap().unwrap();
        assert_eq!(rec.offset, 101);
        assert_eq!(rec.timestamp, 1_005);
        assert_eq!(rec.offset_delta, 1);
        assert_eq!(rec.timestamp_delta, 5);
        assert_eq!(rec.key.as_deref(), Some(&b"k"[..]));
        assert_eq!(rec.value, None);
        assert_eq!(rec.headers.len(), 2);
        assert_eq!(rec.headers.get("a"), Some(Some(Bytes::from_static(b"xy"))));
        assert_eq!(rec.headers.get("b"), Some(None));
        assert_eq!(rec.headers.get("c"), None);
        let headers: Vec<Header> = rec.headers.map(Result::unwrap).collect();
        assert_eq!(&*headers[0].key, "a");
        assert_eq!(headers[1].value, None);
        assert!(it.next().is_none());
        assert!(it.next().is_none());
    }

    #[test]
    fn log_append_time_replaces_timestamps() {
        let body = [0, 10, 0, 1, 1, 0];
        let mut it = RecordIter::new(Bytes::from(record(&body)), 0, 7, Some(99), 1).unwrap();
        assert_eq!(it.next().unwrap().unwrap().timestamp, 99);
    }

    #[test]
    fn values_are_zero_copy_slices() {
        let data = Bytes::from(record(&[0, 0, 0, 2, b'k', 2, b'v', 0]));
        let range = data.as_ptr() as usize..data.as_ptr() as usize + data.len();
        let rec = RecordIter::new(data.clone(), 0, 0, None, 1)
            .unwrap()
            .next()
            .unwrap()
            .unwrap();
        assert!(range.contains(&(rec.key.unwrap().as_ptr() as usize)));
        assert!(range.contains(&(rec.value.unwrap().as_ptr() as usize)));
    }

    #[test]
    fn leftover_bytes_in_a_record_are_an_error() {
        let mut it = records(record(&[0, 0, 0, 1, 1, 0, 9]), 1);
        assert!(matches!(
            it.next(),
            Some(Err(RecordsError::TrailingBytes { left: 1, .. }))
        ));
        assert!(it.next().is_none());
    }

    #[test]
    fn fields_overrunning_the_record_length_are_an_error() {
        // Declares 4 bytes of body, but the key says 3 bytes after 3 header bytes.
        let mut data = vec![8];
        data.extend_from_slice(&[0, 0, 0, 6, b'a', b'b', b'c', 1, 0]);
        let err = records(data, 1).next().unwrap().unwrap_err();
        assert!(
            matches!(
                err,
                RecordsError::BadLength {
                    what: "record key",
                    ..
                }
            ),
            "{err:?}"
        );
    }

    #[test]
    fn record_length_beyond_the_bytes_is_an_error() {
        let err = records(vec![40, 0, 0, 0], 1).next().unwrap().unwrap_err();
        assert!(matches!(
            err,
            RecordsError::BadLength {
                what: "record length",
                ..
            }
        ));
        let err = records(vec![1], 1).next().unwrap().unwrap_err();
        assert!(matches!(err, RecordsError::BadLength { len: -1, .. }));
    }

    #[test]
    fn overlong_varints_are_an_error() {
        let err = records(vec![0x80, 0x80, 0x80, 0x80, 0x80, 0], 1)
            .next()
            .unwrap()
            .unwrap_err();
        assert_eq!(
            err,
            RecordsError::VarintTooLong {
                what: "record length",
                max_bytes: 5
            }
        );
        let mut body = vec![0];
        body.extend_from_slice(&[0xff; 10]);
        body.extend_from_slice(&[0, 0, 1, 1, 0]);
        let err = records(record(&body), 1).next().unwrap().unwrap_err();
        assert_eq!(
            err,
            RecordsError::VarintTooLong {
                what: "record timestamp delta",
                max_bytes: 10
            }
        );
        // The longest valid forms are accepted.
        let mut body = vec![0];
        put_varlong(&mut body, i64::MIN);
        assert_eq!(body.len(), 11);
        put_varint(&mut body, i32::MIN);
        body.extend_from_slice(&[1, 1, 0]);
        let rec = records(record(&body), 1).next().unwrap().unwrap();
        assert_eq!(rec.timestamp_delta, i64::MIN);
        assert_eq!(rec.offset_delta, i32::MIN);
    }

    #[test]
    fn invalid_header_key_is_an_error() {
        let body = [0, 0, 0, 1, 1, 2, 2, 0xff, 1];
        let err = records(record(&body), 1).next().unwrap().unwrap_err();
        assert!(
            matches!(
                err,
                RecordsError::Corrupt {
                    codec: "header key",
                    ..
                }
            ),
            "{err:?}"
        );
    }

    #[test]
    fn negative_lengths_below_null_are_an_error() {
        // Key length -2.
        let err = records(record(&[0, 0, 0, 3, 1, 0]), 1)
            .next()
            .unwrap()
            .unwrap_err();
        assert!(matches!(
            err,
            RecordsError::BadLength {
                what: "record key",
                len: -2,
                ..
            }
        ));
        // Headers count -1.
        let err = records(record(&[0, 0, 0, 1, 1, 1]), 1)
            .next()
            .unwrap()
            .unwrap_err();
        assert!(matches!(
            err,
            RecordsError::BadLength {
                what: "record headers count",
                ..
            }
        ));
        // Header key length -1.
        let err = records(record(&[0, 0, 0, 1, 1, 2, 1, 1]), 1)
            .next()
            .unwrap()
            .unwrap_err();
        assert!(matches!(
            err,
            RecordsError::BadLength {
                what: "header key",
                ..
            }
        ));
    }

    #[test]
    fn counts_must_match() {
        let one = record(&[0, 0, 0, 1, 1, 0]);
        let mut two = one.clone();
        two.extend_from_slice(&one);
        // Fewer records than declared.
        let mut it = records(one.clone(), 2);
        assert!(it.next().unwrap().is_ok());
        assert_eq!(
            it.next().unwrap().unwrap_err(),
            RecordsError::RecordCount {
                base_offset: 100,
                declared: 2,
                found: 1
            }
        );
        assert!(it.next().is_none());
        // More bytes than the declared records.
        let mut it = records(two, 1);
        assert!(it.next().unwrap().is_ok());
        assert!(matches!(
            it.next(),
            Some(Err(RecordsError::TrailingBytes { left: 7, .. }))
        ));
        // A huge count over few bytes fails at the end, holding nothing per record.
        let mut three = one.clone();
        three.extend_from_slice(&one);
        three.extend_from_slice(&one);
        let results: Vec<_> = records(three, i32::MAX).collect();
        assert_eq!(results.len(), 4);
        assert_eq!(
            results[3],
            Err(RecordsError::RecordCount {
                base_offset: 100,
                declared: i32::MAX,
                found: 3
            })
        );
        // A negative count is refused up front.
        assert!(RecordIter::new(Bytes::new(), 0, 0, None, -1).is_err());
        // Zero records over zero bytes is fine.
        assert!(records(Vec::new(), 0).next().is_none());
    }

    #[test]
    fn truncated_records_never_panic() {
        let body = [0, 10, 2, 2, b'k', 1, 4, 2, b'a', 4, b'x', b'y', 2, b'b', 1];
        let full = record(&body);
        for cut in 0..full.len() {
            let results: Vec<_> = records(full[..cut].to_vec(), 1).collect();
            assert!(results.iter().any(Result::is_err), "cut at {cut}");
        }
    }
}

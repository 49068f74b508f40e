//! The records inside a batch (Kafka's `DefaultRecord`), read as borrowed views.
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
//! records without allocating and without touching a reference count: keys, values,
//! header keys and header values are slices borrowed from the batch (or from its
//! decompressed records), and a record's [`Headers`] are read lazily from the record's
//! header bytes. A record whose key or value must outlive the batch's borrow gives it
//! as a zero-copy [`Bytes`] sharing the batch's buffer
//! ([`Record::key_bytes`], [`Record::value_bytes`], [`Header::value_bytes`]).
//!
//! # Where reading is stricter than Kafka
//!
//! - A key, value or header value length below -1 is
//!   [`BadLength`](RecordsError::BadLength); Kafka reads every negative length as null.
//! - A header key that is not UTF-8 is [`Corrupt`](RecordsError::Corrupt) with
//!   `codec: "header key"`; Kafka replaces the bad bytes with U+FFFD.
//! - A batch declaring 0 records that holds records is
//!   [`TrailingBytes`](RecordsError::TrailingBytes); Kafka's
//!   `DefaultRecordBatch.iterator()` returns no records for a count of 0 without
//!   reading the bytes, which would drop them unseen.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::iter::FusedIterator;

use bytes::Bytes;

use super::RecordsError;
use crate::wire::varint::{zigzag_decode_32, zigzag_decode_64};

/// The buffer of a [`Headers`] made by [`Default`]: no header ever slices it.
static NO_BYTES: Bytes = Bytes::new();

/// One record of a batch, its key, value and headers borrowed from the batch (or from
/// its decompressed records).
///
/// [`key_bytes`](Self::key_bytes) and [`value_bytes`](Self::value_bytes) give the key
/// and value as [`Bytes`] sharing the batch's buffer, for a caller that keeps them
/// beyond the borrow.
///
/// Equality compares the fields, not the buffer they were read from: a record of a
/// compressed batch equals the same record of the uncompressed batch.
#[derive(Clone)]
pub struct Record<'a> {
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
    pub key: Option<&'a [u8]>,
    /// The value, `None` when null (a tombstone on a compacted topic).
    pub value: Option<&'a [u8]>,
    /// The headers, read lazily.
    pub headers: Headers<'a>,
    /// The buffer `key` and `value` were read from.
    source: &'a Bytes,
}

impl Record<'_> {
    /// The key as [`Bytes`] sharing the batch's buffer (no copy: a reference count),
    /// `None` when null. A key replaced by bytes from elsewhere is copied.
    #[inline]
    pub fn key_bytes(&self) -> Option<Bytes> {
        self.key.map(|key| share(self.source, key))
    }

    /// The value as [`Bytes`] sharing the batch's buffer (no copy: a reference
    /// count), `None` when null. A value replaced by bytes from elsewhere is copied.
    #[inline]
    pub fn value_bytes(&self) -> Option<Bytes> {
        self.value.map(|value| share(self.source, value))
    }
}

impl PartialEq for Record<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.offset == other.offset
            && self.timestamp == other.timestamp
            && self.offset_delta == other.offset_delta
            && self.timestamp_delta == other.timestamp_delta
            && self.attributes == other.attributes
            && self.key == other.key
            && self.value == other.value
            && self.headers == other.headers
    }
}

impl Eq for Record<'_> {}

impl fmt::Debug for Record<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Record")
            .field("offset", &self.offset)
            .field("timestamp", &self.timestamp)
            .field("offset_delta", &self.offset_delta)
            .field("timestamp_delta", &self.timestamp_delta)
            .field("attributes", &self.attributes)
            .field("key", &self.key.map(ByteStr))
            .field("value", &self.value.map(ByteStr))
            .field("headers", &self.headers)
            .finish()
    }
}

/// One record header: a UTF-8 key and a nullable value, borrowed from the batch.
///
/// Equality and hashing look at the key and value only.
#[derive(Clone, Copy)]
pub struct Header<'a> {
    /// The key, checked to be UTF-8.
    pub key: &'a str,
    /// The value, `None` when null.
    pub value: Option<&'a [u8]>,
    /// The buffer `value` was read from.
    source: &'a Bytes,
}

impl Header<'_> {
    /// The value as [`Bytes`] sharing the batch's buffer (no copy: a reference
    /// count), `None` when null. A value replaced by bytes from elsewhere is copied.
    #[inline]
    pub fn value_bytes(&self) -> Option<Bytes> {
        self.value.map(|value| share(self.source, value))
    }
}

impl PartialEq for Header<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key && self.value == other.value
    }
}

impl Eq for Header<'_> {}

impl Hash for Header<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.key.hash(state);
        self.value.hash(state);
    }
}

impl fmt::Debug for Header<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Header")
            .field("key", &self.key)
            .field("value", &self.value.map(ByteStr))
            .finish()
    }
}

/// A record's headers: an iterator over the header bytes of one record, yielding each
/// [`Header`] as it reads it. Cloning it is cheap and restarts nothing: a clone
/// continues from the same point.
///
/// Headers are only made by reading a record, which checks them completely, so
/// iterating never yields an error in practice; the `Result` items are kept so a
/// damaged buffer could never be read as headers.
///
/// Equality compares the headers still to read, not the buffer they are read from.
#[derive(Clone)]
pub struct Headers<'a> {
    /// The buffer `data` lies in.
    source: &'a Bytes,
    /// The header bytes still to read.
    data: &'a [u8],
    /// The headers still to read.
    remaining: usize,
}

impl<'a> Headers<'a> {
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
    pub fn get(&self, key: &str) -> Option<Option<&'a [u8]>> {
        self.clone()
            .filter_map(Result::ok)
            .find(|header| header.key == key)
            .map(|header| header.value)
    }
}

impl Default for Headers<'_> {
    /// No headers.
    fn default() -> Self {
        Headers {
            source: &NO_BYTES,
            data: &[],
            remaining: 0,
        }
    }
}

impl PartialEq for Headers<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.remaining == other.remaining && self.data == other.data
    }
}

impl Eq for Headers<'_> {}

impl fmt::Debug for Headers<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Headers")
            .field("remaining", &self.remaining)
            .field("data", &ByteStr(self.data))
            .finish()
    }
}

impl<'a> Iterator for Headers<'a> {
    type Item = Result<Header<'a>, RecordsError>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.remaining == 0 {
            return None;
        }
        let mut cursor = Cursor::new(self.data);
        match read_header(&mut cursor) {
            Ok((key, value)) => {
                self.data = cursor.rest;
                self.remaining -= 1;
                Some(Ok(Header {
                    key,
                    value,
                    source: self.source,
                }))
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

impl FusedIterator for Headers<'_> {}

/// The records of one batch: an iterator yielding each [`Record`] as it reads it,
/// allocating nothing and touching no reference count per record. It borrows the
/// batch: the records are read in the batch's bytes, or in its decompressed records.
///
/// It checks each record against the bytes present and, at the end, the number of
/// records against the batch's `recordsCount`: a count that does not match is a
/// [`RecordCount`](RecordsError::RecordCount) error as the last item, bytes left
/// after the declared count are [`TrailingBytes`](RecordsError::TrailingBytes). After
/// an error the iterator ends.
///
/// Made by [`RecordBatch::records`](super::batch::RecordBatch::records).
#[derive(Clone)]
pub struct RecordIter<'a> {
    /// The buffer the records lie in (the batch, or its decompressed records).
    source: &'a Bytes,
    /// The records' bytes (uncompressed), all of them.
    data: &'a [u8],
    /// The records' bytes not yet read.
    rest: &'a [u8],
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

impl<'a> RecordIter<'a> {
    /// The records in `source[start..]`, the uncompressed records of a batch whose
    /// header says `declared` records.
    pub(crate) fn new(
        source: &'a Bytes,
        start: usize,
        base_offset: i64,
        base_timestamp: i64,
        log_append_time: Option<i64>,
        declared: i32,
    ) -> Result<Self, RecordsError> {
        let data = source.get(start..).unwrap_or_default();
        let declared = usize::try_from(declared).map_err(|_| RecordsError::BadLength {
            what: "batch records count",
            len: i64::from(declared),
            available: data.len(),
        })?;
        Ok(RecordIter {
            source,
            data,
            rest: data,
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
    pub fn bytes(&self) -> &'a [u8] {
        self.data
    }

    #[cold]
    fn count_error(&self) -> RecordsError {
        RecordsError::RecordCount {
            base_offset: self.base_offset,
            declared: i32::try_from(self.declared).unwrap_or(i32::MAX),
            found: self.found,
        }
    }

    /// The end of the records: `None` when the count matches, else the error.
    #[cold]
    fn end(&mut self) -> Option<Result<Record<'a>, RecordsError>> {
        self.done = true;
        let left = self.rest.len();
        if left == 0 {
            if self.found == self.declared {
                None
            } else {
                Some(Err(self.count_error()))
            }
        } else {
            Some(Err(RecordsError::TrailingBytes {
                what: "records after the batch's records count",
                left,
            }))
        }
    }
}

impl fmt::Debug for RecordIter<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RecordIter")
            .field("len", &self.data.len())
            .field("pos", &(self.data.len() - self.rest.len()))
            .field("base_offset", &self.base_offset)
            .field("base_timestamp", &self.base_timestamp)
            .field("log_append_time", &self.log_append_time)
            .field("declared", &self.declared)
            .field("found", &self.found)
            .field("done", &self.done)
            .finish()
    }
}

impl<'a> Iterator for RecordIter<'a> {
    type Item = Result<Record<'a>, RecordsError>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        if self.rest.is_empty() || self.found >= self.declared {
            return self.end();
        }
        let mut cursor = Cursor::new(self.rest);
        match read_record(
            &mut cursor,
            self.source,
            self.base_offset,
            self.base_timestamp,
            self.log_append_time,
        ) {
            Ok(record) => {
                self.rest = cursor.rest;
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
        (0, Some((self.rest.len() / 7).saturating_add(1)))
    }
}

impl FusedIterator for RecordIter<'_> {}

/// Reads one record at the cursor.
#[inline]
fn read_record<'a>(
    cursor: &mut Cursor<'a>,
    source: &'a Bytes,
    base_offset: i64,
    base_timestamp: i64,
    log_append_time: Option<i64>,
) -> Result<Record<'a>, RecordsError> {
    let len = cursor.read_varint("record length")?;
    let available = cursor.remaining();
    let body_len = match usize::try_from(len) {
        Ok(body_len) if body_len <= available => body_len,
        _ => return Err(bad_length("record length", len, available)),
    };
    let (body, after) = cursor.rest.split_at(body_len);
    let mut body = Cursor::new(body);
    let attributes = body.read_u8("record attributes")? as i8;
    let timestamp_delta = body.read_varlong("record timestamp delta")?;
    let offset_delta = body.read_varint("record offset delta")?;
    let key = body.read_nullable_bytes("record key")?;
    let value = body.read_nullable_bytes("record value")?;
    let header_count = body.read_varint("record headers count")?;
    let Ok(header_count) = usize::try_from(header_count) else {
        return Err(bad_length(
            "record headers count",
            header_count,
            body.remaining(),
        ));
    };
    let header_bytes = body.rest;
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
    cursor.rest = after;
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
        headers: Headers {
            source,
            data: header_bytes,
            remaining: header_count,
        },
        source,
    })
}

/// Reads one header at the cursor: its key, checked to be UTF-8, and its value.
#[inline]
fn read_header<'a>(cursor: &mut Cursor<'a>) -> Result<(&'a str, Option<&'a [u8]>), RecordsError> {
    let key_len = cursor.read_varint("header key length")?;
    let key = cursor.read_len_bytes("header key", key_len)?;
    let key = std::str::from_utf8(key).map_err(|err| RecordsError::Corrupt {
        codec: "header key",
        reason: err.to_string(),
    })?;
    let value = cursor.read_nullable_bytes("header value")?;
    Ok((key, value))
}

/// `part` as [`Bytes`]: a slice of `source` when it lies within it (no copy), a copy
/// otherwise (a public field set to bytes from elsewhere).
fn share(source: &Bytes, part: &[u8]) -> Bytes {
    let offset = (part.as_ptr() as usize).wrapping_sub(source.as_ptr() as usize);
    if offset <= source.len() && part.len() <= source.len() - offset {
        source.slice_ref(part)
    } else {
        Bytes::copy_from_slice(part)
    }
}

#[cold]
fn bad_length(what: &'static str, len: i32, available: usize) -> RecordsError {
    RecordsError::BadLength {
        what,
        len: i64::from(len),
        available,
    }
}

#[cold]
fn truncated(what: &'static str) -> RecordsError {
    RecordsError::Truncated { what, needed: 1 }
}

/// Bytes shown as `b"..."`, as [`Bytes`] shows them.
struct ByteStr<'a>(&'a [u8]);

impl fmt::Debug for ByteStr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "b\"{}\"", self.0.escape_ascii())
    }
}

/// Reads from the front of a slice, which shrinks as it reads.
struct Cursor<'a> {
    /// The bytes not yet read.
    rest: &'a [u8],
}

impl<'a> Cursor<'a> {
    #[inline]
    fn new(rest: &'a [u8]) -> Self {
        Cursor { rest }
    }

    #[inline]
    fn remaining(&self) -> usize {
        self.rest.len()
    }

    #[inline]
    fn read_u8(&mut self, what: &'static str) -> Result<u8, RecordsError> {
        let [byte, rest @ ..] = self.rest else {
            return Err(truncated(what));
        };
        self.rest = rest;
        Ok(*byte)
    }

    /// An unsigned varint of at most `max_bytes` bytes (at least 2); as Kafka's
    /// reader, bits past the type's width in the last byte are dropped.
    #[inline]
    fn read_unsigned(&mut self, what: &'static str, max_bytes: usize) -> Result<u64, RecordsError> {
        // Lengths, deltas and counts mostly take one or two bytes.
        match self.rest {
            [byte @ 0..=0x7f, rest @ ..] => {
                self.rest = rest;
                Ok(u64::from(*byte))
            }
            [low, high @ 0..=0x7f, rest @ ..] => {
                self.rest = rest;
                Ok(u64::from(low & 0x7f) | u64::from(*high) << 7)
            }
            _ => self.read_unsigned_long(what, max_bytes),
        }
    }

    /// [`read_unsigned`](Self::read_unsigned) for varints of more than two bytes (or
    /// cut short).
    #[inline(never)]
    fn read_unsigned_long(
        &mut self,
        what: &'static str,
        max_bytes: usize,
    ) -> Result<u64, RecordsError> {
        let mut value: u64 = 0;
        for (i, &byte) in self.rest.iter().take(max_bytes).enumerate() {
            value |= u64::from(byte & 0x7f) << (7 * i);
            if byte & 0x80 == 0 {
                self.rest = self.rest.get(i + 1..).unwrap_or_default();
                return Ok(value);
            }
        }
        if self.rest.len() < max_bytes {
            // Every byte there was had its continuation bit set.
            Err(truncated(what))
        } else {
            Err(RecordsError::VarintTooLong { what, max_bytes })
        }
    }

    /// A zigzag varint of at most 5 bytes.
    #[inline]
    fn read_varint(&mut self, what: &'static str) -> Result<i32, RecordsError> {
        // Truncating to 32 bits drops what Kafka's `int` arithmetic drops.
        let raw = self.read_unsigned(what, 5)? as u32;
        Ok(zigzag_decode_32(raw))
    }

    /// A zigzag varlong of at most 10 bytes.
    #[inline]
    fn read_varlong(&mut self, what: &'static str) -> Result<i64, RecordsError> {
        let raw = self.read_unsigned(what, 10)?;
        Ok(zigzag_decode_64(raw))
    }

    /// `len` bytes (`len` at least 0), borrowed.
    #[inline]
    fn read_len_bytes(&mut self, what: &'static str, len: i32) -> Result<&'a [u8], RecordsError> {
        let available = self.remaining();
        match usize::try_from(len) {
            Ok(n) if n <= available => {
                let (bytes, rest) = self.rest.split_at(n);
                self.rest = rest;
                Ok(bytes)
            }
            _ => Err(bad_length(what, len, available)),
        }
    }

    /// A varint length (-1 for null) and that many bytes.
    #[inline]
    fn read_nullable_bytes(
        &mut self,
        what: &'static str,
    ) -> Result<Option<&'a [u8]>, RecordsError> {
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

    /// The records of `data`, in a batch with base offset 100 and base timestamp 1,000.
    fn records(data: &Bytes, declared: i32) -> RecordIter<'_> {
        RecordIter::new(data, 0, 100, 1_000, None, declared).unwrap()
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
        let data = Bytes::from(record(&body));
        let mut it = records(&data, 1);
        let rec = it.next().unwrap().unwrap();
        assert_eq!(rec.offset, 101);
        assert_eq!(rec.timestamp, 1_005);
        assert_eq!(rec.offset_delta, 1);
        assert_eq!(rec.timestamp_delta, 5);
        assert_eq!(rec.key, Some(&b"k"[..]));
        assert_eq!(rec.value, None);
        assert_eq!(rec.headers.len(), 2);
        assert_eq!(rec.headers.get("a"), Some(Some(&b"xy"[..])));
        assert_eq!(rec.headers.get("b"), Some(None));
        assert_eq!(rec.headers.get("c"), None);
        let headers: Vec<Header> = rec.headers.map(Result::unwrap).collect();
        assert_eq!(headers[0].key, "a");
        assert_eq!(headers[1].value, None);
        assert!(it.next().is_none());
        assert!(it.next().is_none());
    }

    #[test]
    fn log_append_time_replaces_timestamps() {
        let body = [0, 10, 0, 1, 1, 0];
        let data = Bytes::from(record(&body));
        let mut it = RecordIter::new(&data, 0, 0, 7, Some(99), 1).unwrap();
        assert_eq!(it.next().unwrap().unwrap().timestamp, 99);
    }

    #[test]
    fn values_are_zero_copy_slices() {
        let data = Bytes::from(record(&[0, 0, 0, 2, b'k', 2, b'v', 0]));
        let range = data.as_ptr() as usize..data.as_ptr() as usize + data.len();
        let rec = RecordIter::new(&data, 0, 0, 0, None, 1)
            .unwrap()
            .next()
            .unwrap()
            .unwrap();
        assert!(range.contains(&(rec.key.unwrap().as_ptr() as usize)));
        assert!(range.contains(&(rec.value.unwrap().as_ptr() as usize)));
        // As Bytes too, sharing the buffer.
        let key = rec.key_bytes().unwrap();
        assert_eq!(key, &b"k"[..]);
        assert!(range.contains(&(key.as_ptr() as usize)));
        assert!(range.contains(&(rec.value_bytes().unwrap().as_ptr() as usize)));
    }

    #[test]
    fn header_values_share_the_buffer_and_replaced_fields_are_copied() {
        let body = [0, 0, 0, 2, b'k', 1, 2, 2, b'a', 4, b'x', b'y'];
        let data = Bytes::from(record(&body));
        let range = data.as_ptr() as usize..data.as_ptr() as usize + data.len();
        let mut rec = records(&data, 1).next().unwrap().unwrap();
        let header = rec.headers.clone().next().unwrap().unwrap();
        let value = header.value_bytes().unwrap();
        assert_eq!(value, &b"xy"[..]);
        assert!(range.contains(&(value.as_ptr() as usize)));
        // A field set to bytes from elsewhere gives a copy of them, never a panic.
        let elsewhere = b"other".to_vec();
        rec.key = Some(&elsewhere);
        rec.value = Some(&data[..]);
        assert_eq!(rec.key_bytes().unwrap(), &b"other"[..]);
        assert_eq!(rec.value_bytes().unwrap(), data);
        rec.key = Some(&[]);
        assert_eq!(rec.key_bytes().unwrap(), Bytes::new());
        assert_eq!(Headers::default().next(), None);
        // Shown as Bytes are.
        let shown = format!("{:?}", header);
        assert_eq!(shown, r#"Header { key: "a", value: Some(b"xy") }"#);
    }

    #[test]
    fn leftover_bytes_in_a_record_are_an_error() {
        let data = Bytes::from(record(&[0, 0, 0, 1, 1, 0, 9]));
        let mut it = records(&data, 1);
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
        let err = records(&Bytes::from(data), 1).next().unwrap().unwrap_err();
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
        let err = records(&Bytes::from(vec![40, 0, 0, 0]), 1)
            .next()
            .unwrap()
            .unwrap_err();
        assert!(matches!(
            err,
            RecordsError::BadLength {
                what: "record length",
                ..
            }
        ));
        let err = records(&Bytes::from(vec![1]), 1)
            .next()
            .unwrap()
            .unwrap_err();
        assert!(matches!(err, RecordsError::BadLength { len: -1, .. }));
    }

    #[test]
    fn overlong_varints_are_an_error() {
        let err = records(&Bytes::from(vec![0x80, 0x80, 0x80, 0x80, 0x80, 0]), 1)
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
        let err = records(&Bytes::from(record(&body)), 1)
            .next()
            .unwrap()
            .unwrap_err();
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
        let data = Bytes::from(record(&body));
        let rec = records(&data, 1).next().unwrap().unwrap();
        assert_eq!(rec.timestamp_delta, i64::MIN);
        assert_eq!(rec.offset_delta, i32::MIN);
    }

    #[test]
    fn varints_of_every_length_read_back() {
        let mut values = vec![0u64, 1, 0x7f, 0x80, 0x3fff, 0x4000, 0x1f_ffff, 0x20_0000];
        values.extend((0..64).map(|bit| 1u64 << bit));
        values.extend((1..64).map(|bit| (1u64 << bit) - 1));
        values.push(u64::MAX);
        for value in values {
            let mut buf = Vec::new();
            crate::wire::varint::put_unsigned_varlong(&mut buf, value);
            buf.push(0xaa);
            let mut cursor = Cursor::new(&buf);
            assert_eq!(cursor.read_unsigned("v", 10), Ok(value), "{value}");
            assert_eq!(cursor.rest, [0xaa], "{value}");
            // Every cut: truncated.
            for cut in 0..buf.len() - 1 {
                let mut cursor = Cursor::new(&buf[..cut]);
                assert_eq!(
                    cursor.read_unsigned("v", 10),
                    Err(RecordsError::Truncated {
                        what: "v",
                        needed: 1
                    }),
                    "{value} cut at {cut}"
                );
            }
            // As a varint, 5 bytes at most, the bits past 32 dropped.
            let mut cursor = Cursor::new(&buf);
            let read = cursor.read_unsigned("v", 5);
            if buf.len() - 1 <= 5 {
                assert_eq!(read.map(|v| v as u32), Ok(value as u32), "{value}");
            } else {
                assert_eq!(
                    read,
                    Err(RecordsError::VarintTooLong {
                        what: "v",
                        max_bytes: 5
                    }),
                    "{value}"
                );
            }
        }
    }

    #[test]
    fn invalid_header_key_is_an_error() {
        let body = [0, 0, 0, 1, 1, 2, 2, 0xff, 1];
        let err = records(&Bytes::from(record(&body)), 1)
            .next()
            .unwrap()
            .unwrap_err();
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
        let err = records(&Bytes::from(record(&[0, 0, 0, 3, 1, 0])), 1)
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
        let err = records(&Bytes::from(record(&[0, 0, 0, 1, 1, 1])), 1)
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
        let err = records(&Bytes::from(record(&[0, 0, 0, 1, 1, 2, 1, 1])), 1)
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
        let data = Bytes::from(one.clone());
        let mut it = records(&data, 2);
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
        let data = Bytes::from(two);
        let mut it = records(&data, 1);
        assert!(it.next().unwrap().is_ok());
        assert!(matches!(
            it.next(),
            Some(Err(RecordsError::TrailingBytes { left: 7, .. }))
        ));
        // A huge count over few bytes fails at the end, holding nothing per record.
        let mut three = one.clone();
        three.extend_from_slice(&one);
        three.extend_from_slice(&one);
        let data = Bytes::from(three);
        let results: Vec<_> = records(&data, i32::MAX).collect();
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
        assert!(RecordIter::new(&Bytes::new(), 0, 0, 0, None, -1).is_err());
        // Zero records over zero bytes is fine.
        assert!(records(&Bytes::new(), 0).next().is_none());
    }

    #[test]
    fn truncated_records_never_panic() {
        let body = [0, 10, 2, 2, b'k', 1, 4, 2, b'a', 4, b'x', b'y', 2, b'b', 1];
        let full = record(&body);
        for cut in 0..full.len() {
            let data = Bytes::copy_from_slice(&full[..cut]);
            let results: Vec<_> = records(&data, 1).collect();
            assert!(results.iter().any(Result::is_err), "cut at {cut}");
        }
    }
}

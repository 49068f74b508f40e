//! Kafka's `string`: UTF-8 behind an int16 length (classic) or varint length + 1
//! (compact). [`KafkaString`] is the zero-copy form; `String` works too.

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

use bytes::Bytes;

use super::budget;
use super::length::{self, Classic};
use super::{Cx, Nullable, Sizes, Wire, Writer};
use crate::schema::TypeSchema;
use crate::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind, Limit, Reader};

/// Kafka caps every string at the int16 maximum, compact ones included.
const MAX_STRING_LEN: usize = crate::limits::KAFKA_MAX_STRING_LEN;

/// An immutable UTF-8 string that shares the decoded input's buffer.
///
/// Decoding checks the bytes are UTF-8 once and then hands out a `Bytes` slice, so a
/// decoded message holds no copies of its strings.
///
/// ```
/// use kwire::KafkaString;
///
/// let name = KafkaString::from_static("u03-app");
/// assert_eq!(&*name, "u03-app");
/// assert_eq!(name.len(), 7);
/// let owned: KafkaString = String::from("topic").into();
/// assert_eq!(owned, "topic");
///
/// // It hashes and orders as its `str`, so maps keyed by it are looked up by `&str`.
/// let mut offsets = std::collections::HashMap::new();
/// offsets.insert(KafkaString::from_static("orders"), 42);
/// assert_eq!(offsets.get("orders"), Some(&42));
/// ```
#[derive(Clone, Default)]
pub struct KafkaString(Bytes);

impl KafkaString {
    /// A string pointing at static text: no allocation.
    pub const fn from_static(text: &'static str) -> Self {
        KafkaString(Bytes::from_static(text.as_bytes()))
    }

    /// Wraps bytes that must be UTF-8.
    pub fn from_utf8(bytes: Bytes) -> Result<Self, std::str::Utf8Error> {
        std::str::from_utf8(&bytes)?;
        Ok(KafkaString(bytes))
    }

    /// The string.
    pub fn as_str(&self) -> &str {
        // Every constructor checks UTF-8, so this cannot fail; an error here would be a
        // bug, reported as an empty string rather than a panic.
        std::str::from_utf8(&self.0).unwrap_or_default()
    }

    /// The underlying bytes, sharing the buffer.
    pub fn as_bytes(&self) -> &Bytes {
        &self.0
    }
}

impl Deref for KafkaString {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for KafkaString {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

// `Borrow<str>` promises that equality, ordering and hashing agree with `str`'s.
// Equality and ordering of `str` are those of its bytes, compared here without
// checking UTF-8 again; hashing goes through the `str`, whose hash differs from
// its bytes'.
impl Borrow<str> for KafkaString {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for KafkaString {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl Eq for KafkaString {}

impl PartialOrd for KafkaString {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for KafkaString {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.as_ref().cmp(other.0.as_ref())
    }
}

impl Hash for KafkaString {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl fmt::Debug for KafkaString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for KafkaString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<String> for KafkaString {
    fn from(s: String) -> Self {
        KafkaString(Bytes::from(s))
    }
}

impl From<&str> for KafkaString {
    fn from(s: &str) -> Self {
        KafkaString(Bytes::copy_from_slice(s.as_bytes()))
    }
}

impl PartialEq<str> for KafkaString {
    fn eq(&self, other: &str) -> bool {
        self.0 == other.as_bytes()
    }
}

impl PartialEq<&str> for KafkaString {
    fn eq(&self, other: &&str) -> bool {
        self.0 == other.as_bytes()
    }
}

#[inline]
fn string_size(len: usize, cx: Cx) -> Result<usize, EncodeError> {
    if len > MAX_STRING_LEN {
        return Err(EncodeError::new(EncodeErrorKind::StringTooLong(len)));
    }
    Ok(length::size(Some(len), cx, Classic::Int16) + len)
}

/// Writes a string. Out of line, like the reading below: a string costs a call,
/// which is little next to copying it, and every string field of every struct then
/// shares one copy of this code instead of compiling its own.
#[inline(never)]
fn put_string(buf: &mut Writer, bytes: &[u8], cx: Cx) -> Result<(), EncodeError> {
    if bytes.len() > MAX_STRING_LEN {
        return Err(EncodeError::new(EncodeErrorKind::StringTooLong(
            bytes.len(),
        )));
    }
    length::put(buf, Some(bytes.len()), cx, Classic::Int16)?;
    buf.put_slice(bytes);
    Ok(())
}

/// Reads the length of a string (`None` = null) and checks it against the
/// reader's limit, which is never above Kafka's: one comparison for both.
#[inline]
pub(crate) fn read_string_len(
    reader: &mut Reader<'_>,
    cx: Cx,
) -> Result<Option<usize>, DecodeError> {
    let start = reader.position();
    let len = length::read_value_len(reader, cx, Classic::Int16)?;
    match len {
        Some(n) if n > reader.budget().max_string_len() => Err(string_too_long(reader, n, start)),
        other => Ok(other),
    }
}

/// Kafka's own cap is [`StringTooLong`](DecodeErrorKind::StringTooLong) as it
/// always was; a server's tighter one is a limit exceeded.
#[cold]
#[inline(never)]
fn string_too_long(reader: &mut Reader<'_>, len: usize, start: usize) -> DecodeError {
    if len > MAX_STRING_LEN {
        return DecodeError::new(DecodeErrorKind::StringTooLong(len as u64), start);
    }
    let max = reader.budget().max_string_len();
    budget::exceeded(Limit::StringLength, len, max, start)
}

/// Reads a string's `len` bytes of content, which must be UTF-8, as a slice of
/// the input.
#[inline]
pub(crate) fn read_string_content(
    reader: &mut Reader<'_>,
    len: usize,
) -> Result<KafkaString, DecodeError> {
    let start = reader.position();
    let bytes = reader.read_bytes(len)?;
    check_utf8(start, &bytes)?;
    Ok(KafkaString(bytes))
}

#[inline]
fn check_utf8(start: usize, bytes: &[u8]) -> Result<(), DecodeError> {
    std::str::from_utf8(bytes)
        .map(drop)
        .map_err(|e| DecodeError::new(DecodeErrorKind::InvalidUtf8, start + e.valid_up_to()))
}

impl Wire for KafkaString {
    const TYPE: TypeSchema = TypeSchema::String;

    #[inline]
    fn size(&self, cx: Cx, _sizes: &mut Sizes) -> Result<usize, EncodeError> {
        string_size(self.0.len(), cx)
    }

    #[inline]
    fn write(&self, w: &mut Writer, cx: Cx, _sizes: &mut Sizes) -> Result<(), EncodeError> {
        put_string(w, &self.0, cx)
    }

    #[inline]
    fn read(reader: &mut Reader<'_>, cx: Cx) -> Result<Self, DecodeError> {
        read_kafka_string(reader, cx)
    }

    fn schema_default() -> Self {
        KafkaString::default()
    }
}

impl Nullable for KafkaString {
    fn null_size(cx: Cx) -> usize {
        length::size(None, cx, Classic::Int16)
    }

    fn write_null(w: &mut Writer, cx: Cx) {
        // A null prefix always fits.
        let _ = length::put(w, None, cx, Classic::Int16);
    }

    #[inline]
    fn read_nullable(reader: &mut Reader<'_>, cx: Cx) -> Result<Option<Self>, DecodeError> {
        read_nullable_kafka_string(reader, cx)
    }
}

/// Reads a string that may not be null here. Out of line (see [`put_string`]).
#[inline(never)]
fn read_kafka_string(reader: &mut Reader<'_>, cx: Cx) -> Result<KafkaString, DecodeError> {
    read_nullable_kafka_string(reader, cx)?.ok_or_else(|| length::unexpected_null(reader, cx))
}

/// Reads a string or null.
#[inline(never)]
fn read_nullable_kafka_string(
    reader: &mut Reader<'_>,
    cx: Cx,
) -> Result<Option<KafkaString>, DecodeError> {
    let Some(len) = read_string_len(reader, cx)? else {
        return Ok(None);
    };
    read_string_content(reader, len).map(Some)
}

impl Wire for String {
    const TYPE: TypeSchema = TypeSchema::String;

    /// A `String` is a copy of its bytes: it holds its capacity.
    fn retained_size(&self) -> usize {
        self.capacity()
    }

    fn size(&self, cx: Cx, _sizes: &mut Sizes) -> Result<usize, EncodeError> {
        string_size(self.len(), cx)
    }

    fn write(&self, w: &mut Writer, cx: Cx, _sizes: &mut Sizes) -> Result<(), EncodeError> {
        put_string(w, self.as_bytes(), cx)
    }

    fn read(reader: &mut Reader<'_>, cx: Cx) -> Result<Self, DecodeError> {
        Self::read_nullable(reader, cx)?.ok_or_else(|| length::unexpected_null(reader, cx))
    }

    fn schema_default() -> Self {
        String::new()
    }
}

impl Nullable for String {
    fn null_size(cx: Cx) -> usize {
        length::size(None, cx, Classic::Int16)
    }

    fn write_null(w: &mut Writer, cx: Cx) {
        let _ = length::put(w, None, cx, Classic::Int16);
    }

    fn read_nullable(reader: &mut Reader<'_>, cx: Cx) -> Result<Option<Self>, DecodeError> {
        let Some(len) = read_string_len(reader, cx)? else {
            return Ok(None);
        };
        let start = reader.position();
        let bytes = reader.read_slice(len)?;
        check_utf8(start, bytes)?;
        Ok(Some(String::from_utf8_lossy(bytes).into_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classic_and_compact_forms() {
        let s = KafkaString::from_static("abc");
        let classic = super::super::written(&s, Cx::new(0, false));
        assert_eq!(classic, [0, 3, b'a', b'b', b'c']);
        let compact = super::super::written(&s, Cx::new(0, true));
        assert_eq!(compact, [4, b'a', b'b', b'c']);
    }

    #[test]
    fn maps_keyed_by_kafka_strings_are_looked_up_by_str() {
        use std::collections::{BTreeMap, HashMap};
        let names = ["orders", "payments", "audit"];
        let hashed: HashMap<KafkaString, usize> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (KafkaString::from(*n), i))
            .collect();
        let ordered: BTreeMap<KafkaString, usize> = hashed.clone().into_iter().collect();
        for (i, name) in names.iter().enumerate() {
            assert_eq!(hashed.get(*name), Some(&i), "HashMap lookup of {name}");
            assert_eq!(ordered.get(*name), Some(&i), "BTreeMap lookup of {name}");
        }
        assert!(!hashed.contains_key("missing"));
        let sorted: Vec<&str> = ordered.keys().map(KafkaString::as_str).collect();
        assert_eq!(sorted, ["audit", "orders", "payments"]);
    }

    #[test]
    fn decoded_strings_share_the_input() {
        let input = Bytes::from(vec![0, 3, b'a', b'b', b'c']);
        let s = KafkaString::read(&mut Reader::new(&input), Cx::new(0, false)).unwrap();
        assert_eq!(s.as_bytes().as_ptr(), input[2..].as_ptr());
    }

    #[test]
    fn too_long_strings_fail_both_ways() {
        let long = KafkaString::from("x".repeat(40_000));
        assert!(matches!(
            long.size(Cx::new(0, true), &mut Sizes::new())
                .unwrap_err()
                .kind(),
            EncodeErrorKind::StringTooLong(40_000)
        ));
        let mut compact = Vec::new();
        crate::wire::varint::put_unsigned_varint(&mut compact, 40_001);
        compact.extend(std::iter::repeat_n(b'x', 40_000));
        let input = Bytes::from(compact);
        let err = KafkaString::read(&mut Reader::new(&input), Cx::new(0, true)).unwrap_err();
        assert!(matches!(err.kind(), DecodeErrorKind::StringTooLong(40_000)));
    }

    #[test]
    fn invalid_utf8_and_null_are_errors() {
        let input = Bytes::from_static(&[0, 2, 0xc3, 0x28]);
        let err = KafkaString::read(&mut Reader::new(&input), Cx::new(0, false)).unwrap_err();
        assert_eq!(err.kind(), &DecodeErrorKind::InvalidUtf8);
        assert_eq!(err.offset(), 2);
        let input = Bytes::from_static(&[0xff, 0xff]);
        let err = String::read(&mut Reader::new(&input), Cx::new(1, false)).unwrap_err();
        assert_eq!(err.kind(), &DecodeErrorKind::UnexpectedNull { version: 1 });
        let cx = Cx::new(1, false).with_nullable(true);
        let none = Option::<String>::read(&mut Reader::new(&input), cx).unwrap();
        assert_eq!(none, None);
    }
}

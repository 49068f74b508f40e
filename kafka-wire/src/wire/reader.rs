//! A cursor over the input: primitives come from a plain slice, zero-copy values are
//! cheap `Bytes` slices of the same buffer.

use bytes::Bytes;

use super::budget::Budget;
use crate::{DecodeError, DecodeErrorKind, DecodeLimits};

/// Reads Kafka values from a `Bytes` buffer without copying bytes, records or strings.
///
/// Primitive reads index a plain `&[u8]`, so they cost no reference counting; only
/// values handed out as `Bytes` touch the shared buffer.
///
/// ```
/// use bytes::Bytes;
/// use kwire::Reader;
///
/// let input = Bytes::from_static(&[0, 1, 0xff]);
/// let mut reader = Reader::new(&input);
/// assert_eq!(reader.read_array::<2>().unwrap(), [0, 1]);
/// assert_eq!(reader.position(), 2);
/// assert_eq!(reader.remaining(), 1);
/// ```
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    source: &'a Bytes,
    /// The unread bytes up to the current limit. Reads only shrink this slice, so the
    /// hot path is one length check and no index arithmetic that could panic.
    rest: &'a [u8],
    /// The offset in `source` where `rest` ends (the current limit).
    end: usize,
    /// The decode limits, and what is left of the per-message totals. Kept by
    /// clones too (a peek reads under the same limits).
    budget: Budget<'a>,
}

impl<'a> Reader<'a> {
    /// A reader over the whole of `source`, with the
    /// [default limits](DecodeLimits::DEFAULT).
    pub fn new(source: &'a Bytes) -> Self {
        Self::with_limits(source, &DecodeLimits::DEFAULT)
    }

    /// A reader over the whole of `source` that keeps to `limits`: every length
    /// and count it reads is checked against them before anything is sized by it,
    /// and the per-message totals (array elements, records) are spent by
    /// everything read through this reader.
    ///
    /// ```
    /// use kwire::bytes::Bytes;
    /// use kwire::{Cx, DecodeErrorKind, DecodeLimits, KafkaString, Limit, Reader, Wire};
    ///
    /// let input = Bytes::from_static(b"\x00\x05hello");
    /// let limits = DecodeLimits::default().with_max_string_len(4);
    /// let mut reader = Reader::with_limits(&input, &limits);
    /// let err = KafkaString::read(&mut reader, Cx::new(0, false)).unwrap_err();
    /// assert_eq!(
    ///     err.kind(),
    ///     &DecodeErrorKind::LimitExceeded { limit: Limit::StringLength, value: 5, max: 4 }
    /// );
    /// ```
    pub fn with_limits(source: &'a Bytes, limits: &'a DecodeLimits) -> Self {
        Reader {
            source,
            rest: source.as_ref(),
            end: source.len(),
            budget: Budget::new(limits),
        }
    }

    /// The limits this reader keeps to.
    ///
    /// ```
    /// use kwire::bytes::Bytes;
    /// use kwire::{DecodeLimits, Reader};
    ///
    /// let input = Bytes::new();
    /// assert_eq!(Reader::new(&input).limits(), &DecodeLimits::default());
    /// ```
    pub fn limits(&self) -> &'a DecodeLimits {
        self.budget.limits()
    }

    /// The unread bytes up to the current limit.
    #[inline(always)]
    pub(crate) fn rest(&self) -> &'a [u8] {
        self.rest
    }

    /// What is left of the limits, for the decoders to check and spend.
    #[inline(always)]
    pub(crate) fn budget(&mut self) -> &mut Budget<'a> {
        &mut self.budget
    }

    /// The byte offset of the next read, from the start of the input.
    #[inline(always)]
    pub fn position(&self) -> usize {
        self.end - self.rest.len()
    }

    /// Bytes left before the current limit.
    #[inline(always)]
    pub fn remaining(&self) -> usize {
        self.rest.len()
    }

    /// An error of `kind` at the current position.
    #[inline]
    pub fn error(&self, kind: DecodeErrorKind) -> DecodeError {
        DecodeError::new(kind, self.position())
    }

    #[inline]
    fn eof(&self, needed: usize) -> DecodeError {
        std::hint::cold_path();
        self.error(DecodeErrorKind::UnexpectedEof {
            needed,
            remaining: self.remaining(),
        })
    }

    /// Reads exactly `N` bytes.
    #[inline(always)]
    pub fn read_array<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        match self.rest.split_first_chunk::<N>() {
            Some((bytes, rest)) => {
                self.rest = rest;
                Ok(*bytes)
            }
            None => Err(self.eof(N)),
        }
    }

    /// Reads one byte.
    #[inline(always)]
    pub fn read_u8(&mut self) -> Result<u8, DecodeError> {
        match self.rest.split_first() {
            Some((&b, rest)) => {
                self.rest = rest;
                Ok(b)
            }
            None => Err(self.eof(1)),
        }
    }

    /// Consumes the next byte if it is zero (an empty count or tagged section) and
    /// says whether it did.
    #[inline(always)]
    pub fn take_zero(&mut self) -> bool {
        match self.rest.split_first() {
            Some((0, rest)) => {
                self.rest = rest;
                true
            }
            _ => false,
        }
    }

    /// Checks that the input is used up: leftover bytes after a whole message (or
    /// frame) are an error, not something to ignore.
    pub fn expect_end(&self) -> Result<(), DecodeError> {
        match self.remaining() {
            0 => Ok(()),
            left => Err(self.error(DecodeErrorKind::TrailingBytes(left))),
        }
    }

    /// Borrows the next `len` bytes without copying.
    #[inline]
    pub fn read_slice(&mut self, len: usize) -> Result<&'a [u8], DecodeError> {
        match self.rest.split_at_checked(len) {
            Some((taken, rest)) => {
                self.rest = rest;
                Ok(taken)
            }
            None => Err(self.eof(len)),
        }
    }

    /// Takes the next `len` bytes as a zero-copy `Bytes` slice of the input.
    #[inline]
    pub fn read_bytes(&mut self, len: usize) -> Result<Bytes, DecodeError> {
        let start = self.position();
        self.read_slice(len)?;
        // By offsets (`position` is one into `source`), which spares slice_ref's
        // pointer checks; empty values touch no reference count.
        Ok(self.source.slice(start..start + len))
    }

    /// Reads an unsigned varint of at most 5 bytes (Kafka's `UNSIGNED_VARINT`).
    #[inline(always)]
    pub fn read_unsigned_varint(&mut self) -> Result<u32, DecodeError> {
        // Counts, lengths and tags are almost always below 128: one byte, one branch.
        if let Some((&byte, rest)) = self.rest.split_first() {
            if byte < 0x80 {
                self.rest = rest;
                return Ok(u32::from(byte));
            }
        }
        self.read_long_unsigned_varint()
    }

    #[inline(never)]
    fn read_long_unsigned_varint(&mut self) -> Result<u32, DecodeError> {
        // Two and three bytes (lengths up to 2 MiB: record batches) unrolled.
        if let [b0 @ 0x80..=0xff, b1, b2, ..] = *self.rest {
            let value = u32::from(b0 & 0x7f) | u32::from(b1 & 0x7f) << 7;
            if b1 < 0x80 {
                self.rest = &self.rest[2..];
                return Ok(value);
            }
            if b2 < 0x80 {
                self.rest = &self.rest[3..];
                return Ok(value | u32::from(b2) << 14);
            }
        }
        let mut value: u32 = 0;
        for (i, &byte) in self.rest.iter().take(5).enumerate() {
            value |= u32::from(byte & 0x7f) << (7 * i);
            if byte & 0x80 == 0 {
                self.rest = self.rest.get(i + 1..).unwrap_or_default();
                return Ok(value);
            }
        }
        if self.rest.len() < 5 {
            // The input ended inside the varint: report where the missing byte was.
            let missing_at = self.end;
            return Err(DecodeError::new(
                DecodeErrorKind::UnexpectedEof {
                    needed: 1,
                    remaining: 0,
                },
                missing_at,
            ));
        }
        Err(self.error(DecodeErrorKind::VarintTooLong(5)))
    }

    /// Reads an unsigned varint of at most 10 bytes.
    pub fn read_unsigned_varlong(&mut self) -> Result<u64, DecodeError> {
        let start = self.rest;
        let mut value: u64 = 0;
        for i in 0..10 {
            let byte = self.read_u8()?;
            value |= u64::from(byte & 0x7f) << (7 * i);
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        self.rest = start;
        Err(self.error(DecodeErrorKind::VarintTooLong(10)))
    }

    /// Reads a zigzag-encoded signed varint (record headers and lengths).
    pub fn read_varint(&mut self) -> Result<i32, DecodeError> {
        let raw = self.read_unsigned_varint()?;
        Ok(crate::wire::varint::zigzag_decode_32(raw))
    }

    /// Reads a zigzag-encoded signed varlong (record timestamps and offsets).
    pub fn read_varlong(&mut self) -> Result<i64, DecodeError> {
        let raw = self.read_unsigned_varlong()?;
        Ok(crate::wire::varint::zigzag_decode_64(raw))
    }

    /// Runs `read` with the reader limited to the next `len` bytes and returns its
    /// result with the number of bytes it consumed. Used for tagged fields, whose size
    /// is declared up front.
    pub fn limited<T>(
        &mut self,
        len: usize,
        read: impl FnOnce(&mut Self) -> Result<T, DecodeError>,
    ) -> Result<(T, usize), DecodeError> {
        let Some(inner) = self.rest.get(..len) else {
            return Err(self.eof(len));
        };
        let outer_end = self.end;
        self.end = self.position() + len;
        self.rest = inner;
        let result = read(self);
        let used = len - self.rest.len();
        // Back to the outer limit, just after what the inner read consumed.
        let position = self.position();
        self.end = outer_end;
        self.rest = self.source.get(position..outer_end).unwrap_or_default();
        Ok((result?, used))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limited_reads_stop_at_the_limit_and_resume_after_it() {
        let input = Bytes::from_static(&[1, 2, 3, 4, 5]);
        let mut reader = Reader::new(&input);
        reader.read_u8().unwrap();
        let (inner, used) = reader
            .limited(3, |r| {
                let first = r.read_u8()?;
                assert_eq!(r.remaining(), 2);
                assert!(r.read_array::<3>().is_err());
                Ok(first)
            })
            .unwrap();
        assert_eq!((inner, used), (2, 1));
        // The outer reader continues right after what the inner read consumed.
        assert_eq!(reader.position(), 2);
        assert_eq!(reader.remaining(), 3);
        assert_eq!(reader.read_array::<3>().unwrap(), [3, 4, 5]);
        assert!(reader.limited(1, |_| Ok(())).is_err());
    }

    #[test]
    fn positions_inside_a_limit_are_absolute() {
        let input = Bytes::from_static(&[9, 9, 0x80]);
        let mut reader = Reader::new(&input);
        reader.read_array::<2>().unwrap();
        let err = reader.limited(1, |r| r.read_unsigned_varint()).unwrap_err();
        // The varint's continuation byte ran into the limit: the missing byte is at 3.
        assert_eq!(
            err.kind(),
            &DecodeErrorKind::UnexpectedEof {
                needed: 1,
                remaining: 0
            }
        );
        assert_eq!(err.offset(), 3);
    }

    #[test]
    fn varints_long_and_short() {
        let input = Bytes::from_static(&[0x05, 0x96, 0x01, 0xff, 0xff, 0xff, 0xff, 0x0f]);
        let mut reader = Reader::new(&input);
        assert_eq!(reader.read_unsigned_varint().unwrap(), 5);
        assert_eq!(reader.read_unsigned_varint().unwrap(), 150);
        assert_eq!(reader.read_unsigned_varint().unwrap(), u32::MAX);
        assert_eq!(reader.remaining(), 0);
        let too_long = Bytes::from_static(&[0x00, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00]);
        let mut reader = Reader::new(&too_long);
        reader.read_u8().unwrap();
        let err = reader.read_unsigned_varint().unwrap_err();
        assert_eq!(err.kind(), &DecodeErrorKind::VarintTooLong(5));
        assert_eq!(err.offset(), 1);
    }

    #[test]
    fn bytes_and_slices_share_the_input() {
        let input = Bytes::from(vec![1, 2, 3, 4]);
        let mut reader = Reader::new(&input);
        assert_eq!(reader.read_slice(1).unwrap(), [1]);
        let taken = reader.read_bytes(2).unwrap();
        assert_eq!(taken.as_ptr(), input[1..].as_ptr());
        assert!(reader.read_bytes(0).unwrap().is_empty());
        let err = reader.read_bytes(2).unwrap_err();
        assert_eq!(
            err.kind(),
            &DecodeErrorKind::UnexpectedEof {
                needed: 2,
                remaining: 1
            }
        );
        assert_eq!(err.offset(), 3);
    }
}

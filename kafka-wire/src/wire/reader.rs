//! A cursor over the input: primitives come from a plain slice, zero-copy values are
//! cheap `Bytes` slices of the same buffer.

use bytes::Bytes;

use crate::{DecodeError, DecodeErrorKind};

/// Reads Kafka values from a `Bytes` buffer without copying bytes, records or strings.
///
/// Primitive reads index a plain `&[u8]`, so they cost no reference counting; only
/// values handed out as `Bytes` touch the shared buffer.
///
/// ```
/// use bytes::Bytes;
/// use kafka_wire::Reader;
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
    data: &'a [u8],
    pos: usize,
    end: usize,
}

impl<'a> Reader<'a> {
    /// A reader over the whole of `source`.
    pub fn new(source: &'a Bytes) -> Self {
        Reader {
            source,
            data: source.as_ref(),
            pos: 0,
            end: source.len(),
        }
    }

    /// The byte offset of the next read, from the start of the input.
    #[inline]
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Bytes left before the current limit.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.end - self.pos
    }

    /// An error of `kind` at the current position.
    #[cold]
    pub fn error(&self, kind: DecodeErrorKind) -> DecodeError {
        DecodeError::new(kind, self.pos)
    }

    #[cold]
    fn eof(&self, needed: usize) -> DecodeError {
        self.error(DecodeErrorKind::UnexpectedEof {
            needed,
            remaining: self.remaining(),
        })
    }

    /// Reads exactly `N` bytes.
    #[inline]
    pub fn read_array<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        match self.data[self.pos..self.end].first_chunk::<N>() {
            Some(bytes) => {
                self.pos += N;
                Ok(*bytes)
            }
            None => Err(self.eof(N)),
        }
    }

    /// Reads one byte.
    #[inline]
    pub fn read_u8(&mut self) -> Result<u8, DecodeError> {
        match self.data[self.pos..self.end].first() {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => Err(self.eof(1)),
        }
    }

    /// Borrows the next `len` bytes without copying.
    #[inline]
    pub fn read_slice(&mut self, len: usize) -> Result<&'a [u8], DecodeError> {
        if len > self.remaining() {
            return Err(self.eof(len));
        }
        let start = self.pos;
        self.pos += len;
        Ok(&self.data[start..self.pos])
    }

    /// Takes the next `len` bytes as a zero-copy `Bytes` slice of the input.
    #[inline]
    pub fn read_bytes(&mut self, len: usize) -> Result<Bytes, DecodeError> {
        if len > self.remaining() {
            return Err(self.eof(len));
        }
        let start = self.pos;
        self.pos += len;
        Ok(self.source.slice(start..self.pos))
    }

    /// Reads an unsigned varint of at most 5 bytes (Kafka's `UNSIGNED_VARINT`).
    #[inline]
    pub fn read_unsigned_varint(&mut self) -> Result<u32, DecodeError> {
        let start = self.pos;
        let mut value: u32 = 0;
        for i in 0..5 {
            let byte = match self.data[self.pos..self.end].first() {
                Some(&b) => b,
                None => return Err(self.eof(1)),
            };
            self.pos += 1;
            value |= u32::from(byte & 0x7f) << (7 * i);
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        self.pos = start;
        Err(self.error(DecodeErrorKind::VarintTooLong(5)))
    }

    /// Reads an unsigned varint of at most 10 bytes.
    pub fn read_unsigned_varlong(&mut self) -> Result<u64, DecodeError> {
        let start = self.pos;
        let mut value: u64 = 0;
        for i in 0..10 {
            let byte = self.read_u8()?;
            value |= u64::from(byte & 0x7f) << (7 * i);
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        self.pos = start;
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
        if len > self.remaining() {
            return Err(self.eof(len));
        }
        let outer_end = self.end;
        let start = self.pos;
        self.end = start + len;
        let result = read(self);
        self.end = outer_end;
        Ok((result?, self.pos - start))
    }
}

//! Where an encode writes: one buffer of the message's exact size, and, for a
//! vectored encode, the zero-copy values (records, `zero_copy` bytes) attached
//! between its bytes rather than copied into it (Kafka's `SendBuilder`).

use bytes::{BufMut, Bytes, BytesMut};

use super::chunks::{ChunkedBytes, Piece};

/// The destination of [`Wire::write`](crate::Wire::write): a buffer, and where a
/// vectored encode attaches zero-copy values.
///
/// A contiguous writer copies every value into its buffer; a vectored one copies
/// the ordinary fields and keeps each records field and `zero_copy` bytes field as
/// a reference to the value's own [`Bytes`], so that
/// [`into_chunks`](Writer::into_chunks) gives the message as a short list of
/// chunks without its payload ever being copied. Both give the same bytes.
///
/// ```
/// use bytes::{Buf, Bytes};
/// use kwire::wire::Writer;
///
/// let records = Bytes::from(vec![7u8; 1000]);
/// let mut writer = Writer::vectored(8, 1);
/// writer.put_i32(1000);
/// writer.put_zero_copy(&records);
/// writer.put_u8(0);
/// let chunks = writer.into_chunks();
/// assert_eq!(chunks.remaining(), 4 + 1000 + 1);
/// assert_eq!(chunks.chunk_count(), 3);
/// // The middle chunk is the caller's buffer, not a copy of it.
/// assert_eq!(chunks.chunks().nth(1).unwrap().as_ptr(), records.as_ptr());
/// ```
#[derive(Debug, Default)]
pub struct Writer {
    buf: BytesMut,
    /// In a vectored writer, the chunks so far: each attached value, after the
    /// range of the buffer before it (when there is one). Always empty in a
    /// contiguous writer.
    pieces: Vec<Piece>,
    /// Where the buffer's next range starts.
    cut: usize,
    /// The bytes of the attached values.
    attached: usize,
    vectored: bool,
}

impl Writer {
    /// A writer that copies everything into one buffer with room for `capacity`
    /// bytes (it grows if more are written).
    #[inline]
    pub fn contiguous(capacity: usize) -> Self {
        Writer::appending(BytesMut::with_capacity(capacity))
    }

    /// A contiguous writer that appends to `buf`, which [`into_buf`](Writer::into_buf)
    /// gives back.
    #[inline]
    pub fn appending(buf: BytesMut) -> Self {
        Writer {
            buf,
            ..Writer::default()
        }
    }

    /// A writer that attaches zero-copy values instead of copying them, with room
    /// for `capacity` bytes of everything else and for `attachments` values
    /// ([`Sizes`](crate::wire::Sizes) counts both), so that writing allocates
    /// nothing more.
    #[inline]
    pub fn vectored(capacity: usize, attachments: usize) -> Self {
        Writer {
            buf: BytesMut::with_capacity(capacity),
            // Each value, a range of the buffer before each, and the last range.
            pieces: Vec::with_capacity(2 * attachments + 1),
            vectored: true,
            ..Writer::default()
        }
    }

    /// True when zero-copy values are attached rather than copied.
    #[inline]
    pub fn is_vectored(&self) -> bool {
        self.vectored
    }

    /// The bytes written so far, attached values included.
    pub fn len(&self) -> usize {
        self.buf.len() + self.attached
    }

    /// True when nothing has been written.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes copied into the buffer so far (attached values not included).
    #[inline]
    pub fn buffered(&self) -> usize {
        self.buf.len()
    }

    /// Writes one byte.
    #[inline(always)]
    pub fn put_u8(&mut self, value: u8) {
        self.buf.put_u8(value);
    }

    /// Writes an `int8`.
    #[inline(always)]
    pub fn put_i8(&mut self, value: i8) {
        self.buf.put_i8(value);
    }

    /// Writes an `int16`, big-endian.
    #[inline(always)]
    pub fn put_i16(&mut self, value: i16) {
        self.buf.put_i16(value);
    }

    /// Writes a `uint16`, big-endian.
    #[inline(always)]
    pub fn put_u16(&mut self, value: u16) {
        self.buf.put_u16(value);
    }

    /// Writes an `int32`, big-endian.
    #[inline(always)]
    pub fn put_i32(&mut self, value: i32) {
        self.buf.put_i32(value);
    }

    /// Writes a `uint32`, big-endian.
    #[inline(always)]
    pub fn put_u32(&mut self, value: u32) {
        self.buf.put_u32(value);
    }

    /// Writes an `int64`, big-endian.
    #[inline(always)]
    pub fn put_i64(&mut self, value: i64) {
        self.buf.put_i64(value);
    }

    /// Writes a `float64`, big-endian.
    #[inline(always)]
    pub fn put_f64(&mut self, value: f64) {
        self.buf.put_f64(value);
    }

    /// Copies `bytes` in.
    #[inline(always)]
    pub fn put_slice(&mut self, bytes: &[u8]) {
        self.buf.put_slice(bytes);
    }

    /// Writes an unsigned varint.
    #[inline(always)]
    pub fn put_unsigned_varint(&mut self, value: u32) {
        super::varint::put_unsigned_varint(&mut self.buf, value);
    }

    /// Writes a zero-copy value: attached by reference in a vectored writer,
    /// copied in a contiguous one.
    #[inline]
    pub fn put_zero_copy(&mut self, bytes: &Bytes) {
        if self.vectored && !bytes.is_empty() {
            self.attach(bytes);
        } else {
            self.buf.put_slice(bytes);
        }
    }

    // Inline: reached from one place, `put_bytes`, itself out of line (as a call
    // of its own it was a third of a vectored ProduceRequest encode's time).
    #[inline]
    fn attach(&mut self, bytes: &Bytes) {
        self.end_range();
        self.attached += bytes.len();
        self.pieces.push(Piece::Value(bytes.clone()));
    }

    /// Ends the range of the buffer written since the last attachment, if any.
    #[inline]
    fn end_range(&mut self) {
        let end = self.buf.len();
        if end > self.cut {
            self.pieces.push(Piece::Own {
                start: self.cut,
                end,
            });
            self.cut = end;
        }
    }

    /// The contiguous bytes written (every value copied in). In a vectored writer
    /// the attached values are copied in here, once: prefer
    /// [`into_chunks`](Writer::into_chunks) there.
    pub fn into_buf(self) -> BytesMut {
        if self.pieces.is_empty() {
            return self.buf;
        }
        let mut out = BytesMut::with_capacity(self.len());
        for chunk in self.into_chunks().chunks() {
            out.put_slice(chunk);
        }
        out
    }

    /// The bytes written as chunks: ranges of the buffer (frozen once, never
    /// copied or split) with the values attached between them.
    pub fn into_chunks(mut self) -> ChunkedBytes {
        let len = self.len();
        self.end_range();
        ChunkedBytes::from_pieces(self.buf.freeze(), self.pieces, len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Buf;

    #[test]
    fn contiguous_and_vectored_give_the_same_bytes() {
        let a = Bytes::from_static(b"records-a");
        let b = Bytes::from_static(b"records-b");
        let write = |writer: &mut Writer| {
            writer.put_i16(3);
            writer.put_zero_copy(&a);
            writer.put_zero_copy(&b);
            writer.put_unsigned_varint(300);
            writer.put_zero_copy(&Bytes::new());
            writer.put_i64(-1);
        };
        let mut contiguous = Writer::contiguous(0);
        write(&mut contiguous);
        let mut vectored = Writer::vectored(0, 0);
        write(&mut vectored);
        assert_eq!(vectored.len(), contiguous.len());
        let flat = contiguous.into_buf().freeze();
        let mut chunks = vectored.into_chunks();
        assert_eq!(chunks.chunk_count(), 4); // i16, a, b, varint + i64
        assert_eq!(chunks.copy_to_bytes(chunks.remaining()), flat);
    }

    #[test]
    fn a_vectored_writer_copies_its_attachments_only_when_asked_for_one_buffer() {
        let records = Bytes::from(vec![1u8; 64]);
        let mut writer = Writer::vectored(4, 1);
        writer.put_i32(64);
        writer.put_zero_copy(&records);
        assert_eq!(writer.buffered(), 4);
        let flat = writer.into_buf();
        assert_eq!(flat.len(), 68);
        assert_eq!(&flat[4..], &records[..]);
    }

    #[test]
    fn appending_keeps_what_the_buffer_held() {
        let mut buf = BytesMut::new();
        buf.put_slice(b"ab");
        let mut writer = Writer::appending(buf);
        writer.put_u8(b'c');
        assert_eq!(&writer.into_buf()[..], b"abc");
    }
}

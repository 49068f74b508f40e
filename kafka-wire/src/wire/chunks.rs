//! Bytes held as a short list of [`Bytes`] chunks: what a vectored encode gives, sent
//! with one gather write.

use std::io::IoSlice;

use bytes::{Buf, Bytes, BytesMut};

/// A byte sequence held as a list of [`Bytes`] chunks, read through [`Buf`].
///
/// A vectored encode ([`Message::encode_vectored`](crate::Message::encode_vectored),
/// and the frame encoders of `kwire-messages`) gives one: the ordinary fields in one
/// buffer, each records field and `zero_copy` bytes field as its own chunk, the
/// value's own memory. [`Buf::chunks_vectored`] hands every chunk to one
/// `write_vectored` (tokio's `write_all_buf` does it), so a record batch goes from
/// where it was received or stored to the socket without a copy.
///
/// ```
/// use bytes::{Buf, Bytes};
/// use kwire::wire::ChunkedBytes;
///
/// let mut chunks = ChunkedBytes::new();
/// chunks.push(Bytes::from_static(b"head"));
/// chunks.push(Bytes::from_static(b"payload"));
/// assert_eq!(chunks.remaining(), 11);
/// let mut slices = [std::io::IoSlice::new(&[]); 4];
/// assert_eq!(chunks.chunks_vectored(&mut slices), 2);
/// chunks.advance(6);
/// assert_eq!(chunks.chunk(), b"yload");
/// assert_eq!(chunks.to_bytes(), Bytes::from_static(b"yload"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChunkedBytes {
    /// Never holds an empty chunk; `first` is the first one not yet read.
    chunks: Vec<Bytes>,
    first: usize,
    remaining: usize,
}

impl ChunkedBytes {
    /// No bytes.
    pub fn new() -> Self {
        ChunkedBytes::default()
    }

    /// No bytes yet, with room for `chunks` chunks.
    pub fn with_capacity(chunks: usize) -> Self {
        ChunkedBytes {
            chunks: Vec::with_capacity(chunks),
            first: 0,
            remaining: 0,
        }
    }

    /// Appends a chunk (an empty one is dropped).
    pub fn push(&mut self, chunk: Bytes) {
        if !chunk.is_empty() {
            self.remaining += chunk.len();
            self.chunks.push(chunk);
        }
    }

    /// Appends every chunk of `other`.
    pub fn append(&mut self, other: ChunkedBytes) {
        for chunk in other.chunks.into_iter().skip(other.first) {
            self.push(chunk);
        }
    }

    /// The number of bytes not yet read (the same as [`Buf::remaining`]).
    pub fn len(&self) -> usize {
        self.remaining
    }

    /// True when every byte has been read.
    pub fn is_empty(&self) -> bool {
        self.remaining == 0
    }

    /// The number of chunks not yet read.
    pub fn chunk_count(&self) -> usize {
        self.chunks.len() - self.first
    }

    /// The chunks not yet read, in order.
    pub fn chunks(&self) -> impl ExactSizeIterator<Item = &Bytes> + '_ {
        self.chunks[self.first..].iter()
    }

    /// The bytes as one buffer: the only chunk when there is one, a copy otherwise.
    pub fn to_bytes(&self) -> Bytes {
        match &self.chunks[self.first..] {
            [] => Bytes::new(),
            [only] => only.clone(),
            many => {
                let mut out = BytesMut::with_capacity(self.remaining);
                for chunk in many {
                    out.extend_from_slice(chunk);
                }
                out.freeze()
            }
        }
    }
}

impl From<Bytes> for ChunkedBytes {
    fn from(bytes: Bytes) -> Self {
        let mut chunks = ChunkedBytes::with_capacity(1);
        chunks.push(bytes);
        chunks
    }
}

impl Buf for ChunkedBytes {
    #[inline]
    fn remaining(&self) -> usize {
        self.remaining
    }

    #[inline]
    fn chunk(&self) -> &[u8] {
        self.chunks.get(self.first).map_or(&[], |chunk| &chunk[..])
    }

    /// # Panics
    ///
    /// When `cnt` is more than [`remaining`](Buf::remaining), as `Buf` allows.
    fn advance(&mut self, mut cnt: usize) {
        assert!(
            cnt <= self.remaining,
            "advance past the end: {cnt} > {}",
            self.remaining
        );
        self.remaining -= cnt;
        while cnt > 0 {
            let chunk = &mut self.chunks[self.first];
            if cnt < chunk.len() {
                chunk.advance(cnt);
                return;
            }
            cnt -= chunk.len();
            // Dropped at once: a chunk written out need not live until the end.
            self.chunks[self.first] = Bytes::new();
            self.first += 1;
        }
    }

    fn chunks_vectored<'a>(&'a self, dst: &mut [IoSlice<'a>]) -> usize {
        let mut filled = 0;
        for (slot, chunk) in dst.iter_mut().zip(&self.chunks[self.first..]) {
            *slot = IoSlice::new(chunk);
            filled += 1;
        }
        filled
    }

    fn copy_to_bytes(&mut self, len: usize) -> Bytes {
        // Within the first chunk: a slice of it, no copy.
        if let Some(chunk) = self.chunks.get(self.first) {
            if len <= chunk.len() {
                let out = chunk.slice(..len);
                self.advance(len);
                return out;
            }
        }
        assert!(len <= self.remaining, "copy_to_bytes past the end");
        let mut out = BytesMut::with_capacity(len);
        let mut left = len;
        while left > 0 {
            let chunk = self.chunk();
            let n = chunk.len().min(left);
            out.extend_from_slice(&chunk[..n]);
            self.advance(n);
            left -= n;
        }
        out.freeze()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn three() -> ChunkedBytes {
        let mut chunks = ChunkedBytes::new();
        chunks.push(Bytes::from_static(b"abc"));
        chunks.push(Bytes::new());
        chunks.push(Bytes::from_static(b"defg"));
        chunks.push(Bytes::from_static(b"h"));
        chunks
    }

    #[test]
    fn empty_chunks_are_dropped() {
        let chunks = three();
        assert_eq!(chunks.chunk_count(), 3);
        assert_eq!(chunks.len(), 8);
    }

    #[test]
    fn advancing_across_chunks() {
        let mut chunks = three();
        chunks.advance(4);
        assert_eq!(chunks.chunk(), b"efg");
        assert_eq!(chunks.chunk_count(), 2);
        chunks.advance(3);
        assert_eq!(chunks.chunk(), b"h");
        chunks.advance(1);
        assert!(chunks.is_empty());
        assert_eq!(chunks.chunk(), b"");
    }

    #[test]
    fn copying_out_within_and_across_chunks() {
        let mut chunks = three();
        let first = chunks.copy_to_bytes(2);
        assert_eq!(first, Bytes::from_static(b"ab"));
        let across = chunks.copy_to_bytes(4);
        assert_eq!(across, Bytes::from_static(b"cdef"));
        assert_eq!(chunks.to_bytes(), Bytes::from_static(b"gh"));
    }

    #[test]
    fn vectored_slices_follow_the_position() {
        let mut chunks = three();
        chunks.advance(1);
        let mut slices = [IoSlice::new(&[]); 2];
        assert_eq!(chunks.chunks_vectored(&mut slices), 2);
        assert_eq!(&*slices[0], b"bc");
        assert_eq!(&*slices[1], b"defg");
    }

    #[test]
    #[should_panic(expected = "advance past the end")]
    fn advancing_too_far_panics_as_buf_allows() {
        three().advance(9);
    }
}

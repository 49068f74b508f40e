//! Bytes held as a short list of [`Bytes`] chunks: what a vectored encode gives, sent
//! with one gather write.

use std::io::IoSlice;

use bytes::{Buf, Bytes, BytesMut};

/// A byte sequence held as a list of chunks, read through [`Buf`].
///
/// A vectored encode ([`Message::encode_vectored`](crate::Message::encode_vectored),
/// and the frame encoders of `kwire-messages`) gives one: the ordinary fields in one
/// buffer, each records field and `zero_copy` bytes field as its own chunk, the
/// value's own memory. [`Buf::chunks_vectored`] hands every chunk to one
/// `write_vectored` (tokio's `write_all_buf` does it), so a record batch goes from
/// where it was received or stored to the socket without a copy.
///
/// The parts of the one buffer between the attached values are ranges of it, not
/// handles of their own: a message of ten record batches costs ten reference
/// counts (the batches'), not twenty.
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
///
/// Two are equal when they hold the same bytes, however these are cut into chunks.
#[derive(Debug, Clone, Default)]
pub struct ChunkedBytes {
    /// The buffer that [`Piece::Own`] pieces are ranges of.
    own: Bytes,
    /// Never holds an empty piece; `first` is the first one not yet read.
    pieces: Vec<Piece>,
    first: usize,
    remaining: usize,
}

/// One chunk.
#[derive(Debug, Clone)]
pub(crate) enum Piece {
    /// A range of the chunks' own buffer.
    Own { start: usize, end: usize },
    /// A value of its own (an attached record batch, a pushed chunk).
    Value(Bytes),
}

impl ChunkedBytes {
    /// No bytes.
    pub fn new() -> Self {
        ChunkedBytes::default()
    }

    /// No bytes yet, with room for `chunks` chunks.
    pub fn with_capacity(chunks: usize) -> Self {
        ChunkedBytes {
            pieces: Vec::with_capacity(chunks),
            ..ChunkedBytes::default()
        }
    }

    /// `own`'s ranges and values as `pieces`, none empty, `len` bytes in all (a
    /// vectored writer's output).
    pub(crate) fn from_pieces(own: Bytes, pieces: Vec<Piece>, len: usize) -> Self {
        let chunks = ChunkedBytes {
            own,
            pieces,
            first: 0,
            remaining: len,
        };
        debug_assert!(chunks.chunks().all(|chunk| !chunk.is_empty()));
        debug_assert_eq!(chunks.chunks().map(<[u8]>::len).sum::<usize>(), len);
        chunks
    }

    /// Appends a chunk (an empty one is dropped).
    pub fn push(&mut self, chunk: Bytes) {
        if !chunk.is_empty() {
            self.remaining += chunk.len();
            self.pieces.push(Piece::Value(chunk));
        }
    }

    /// Appends every chunk of `other` not yet read.
    pub fn append(&mut self, other: ChunkedBytes) {
        for index in other.first..other.pieces.len() {
            self.push(other.piece_bytes(index));
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
        self.pieces.len() - self.first
    }

    /// The chunks not yet read, in order.
    pub fn chunks(&self) -> impl ExactSizeIterator<Item = &[u8]> + '_ {
        self.pieces[self.first..]
            .iter()
            .map(|piece| self.piece_slice(piece))
    }

    /// The bytes as one buffer: the only chunk when there is one (no copy), a
    /// copy otherwise.
    pub fn to_bytes(&self) -> Bytes {
        match self.chunk_count() {
            0 => Bytes::new(),
            1 => self.piece_bytes(self.first),
            _ => {
                let mut out = BytesMut::with_capacity(self.remaining);
                for chunk in self.chunks() {
                    out.extend_from_slice(chunk);
                }
                out.freeze()
            }
        }
    }

    fn piece_slice<'a>(&'a self, piece: &'a Piece) -> &'a [u8] {
        match piece {
            Piece::Own { start, end } => &self.own[*start..*end],
            Piece::Value(bytes) => bytes,
        }
    }

    /// The piece at `index` as a handle of its own.
    fn piece_bytes(&self, index: usize) -> Bytes {
        match &self.pieces[index] {
            Piece::Own { start, end } => self.own.slice(*start..*end),
            Piece::Value(bytes) => bytes.clone(),
        }
    }
}

impl PartialEq for ChunkedBytes {
    fn eq(&self, other: &Self) -> bool {
        if self.remaining != other.remaining {
            return false;
        }
        let (mut mine, mut theirs) = (self.chunks(), other.chunks());
        let (mut a, mut b): (&[u8], &[u8]) = (&[], &[]);
        loop {
            if a.is_empty() {
                match mine.next() {
                    Some(next) => a = next,
                    // Same length: both end here.
                    None => return true,
                }
            }
            if b.is_empty() {
                b = theirs.next().unwrap_or_default();
            }
            let n = a.len().min(b.len());
            if a[..n] != b[..n] {
                return false;
            }
            (a, b) = (&a[n..], &b[n..]);
        }
    }
}

impl Eq for ChunkedBytes {}

impl PartialEq<[u8]> for ChunkedBytes {
    fn eq(&self, other: &[u8]) -> bool {
        self.remaining == other.len() && {
            let mut rest = other;
            self.chunks().all(|chunk| {
                let (here, after) = rest.split_at(chunk.len());
                rest = after;
                // A chunk that is the very memory compared (a re-encoding's records,
                // attached from the decoded frame) is equal without reading it.
                here.as_ptr() == chunk.as_ptr() || here == chunk
            })
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
        self.pieces
            .get(self.first)
            .map_or(&[], |piece| self.piece_slice(piece))
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
            let piece = &mut self.pieces[self.first];
            let len = match piece {
                Piece::Own { start, end } => *end - *start,
                Piece::Value(bytes) => bytes.len(),
            };
            if cnt < len {
                match piece {
                    Piece::Own { start, .. } => *start += cnt,
                    Piece::Value(bytes) => bytes.advance(cnt),
                }
                return;
            }
            cnt -= len;
            // Dropped at once: a chunk written out need not live until the end.
            *piece = Piece::Own { start: 0, end: 0 };
            self.first += 1;
        }
    }

    fn chunks_vectored<'a>(&'a self, dst: &mut [IoSlice<'a>]) -> usize {
        let mut filled = 0;
        for (slot, chunk) in dst.iter_mut().zip(self.chunks()) {
            *slot = IoSlice::new(chunk);
            filled += 1;
        }
        filled
    }

    fn copy_to_bytes(&mut self, len: usize) -> Bytes {
        // Within the first chunk: a slice of it, no copy.
        if self.first < self.pieces.len() && len <= self.chunk().len() {
            let out = self.piece_bytes(self.first).slice(..len);
            self.advance(len);
            return out;
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
    fn equal_bytes_are_equal_however_chunked() {
        let mut read = three();
        read.advance(2);
        let mut other = ChunkedBytes::new();
        other.push(Bytes::from_static(b"cd"));
        other.push(Bytes::from_static(b"efgh"));
        assert_eq!(read, other);
        assert_eq!(three(), ChunkedBytes::from(Bytes::from_static(b"abcdefgh")));
        assert!(three() == b"abcdefgh"[..]);
        assert!(three() != b"abcdefgX"[..]);
        assert_ne!(three(), ChunkedBytes::from(Bytes::from_static(b"abcdefgX")));
        assert_ne!(three(), other);
        assert_eq!(ChunkedBytes::new(), ChunkedBytes::from(Bytes::new()));
    }

    #[test]
    #[should_panic(expected = "advance past the end")]
    fn advancing_too_far_panics_as_buf_allows() {
        three().advance(9);
    }
}

//! Reading and writing Kafka frames over blocking [`std::io::Read`] and
//! [`std::io::Write`] streams (such as a `std::net::TcpStream`), on top of the
//! sans-IO [`FrameSplitter`].
//!
//! ```
//! use std::io::Cursor;
//! use kwire_net::blocking::{write_frame, FrameReader};
//!
//! let mut wire = Vec::new();
//! write_frame(&mut wire, b"first").unwrap();
//! write_frame(&mut wire, b"second").unwrap();
//!
//! let mut reader = FrameReader::new(Cursor::new(wire));
//! assert_eq!(reader.read_frame().unwrap().as_deref(), Some(&b"\0\0\0\x05first"[..]));
//! assert_eq!(reader.read_frame().unwrap().as_deref(), Some(&b"\0\0\0\x06second"[..]));
//! assert!(reader.read_frame().unwrap().is_none()); // clean end of stream
//! ```

use std::io::{self, ErrorKind, IoSlice, Read, Write};

use bytes::{Buf, Bytes};

use kwire_messages::frame::{length_prefix, PREFIX_LEN};

use crate::splitter::FrameSplitter;
use crate::FrameIoError;

/// The fewest bytes asked of the reader at a time (more may be asked when a frame
/// needs more).
const MIN_READ: usize = 8 * 1024;

/// The most bytes asked of the reader at a time. Reading without `unsafe` means
/// zeroing the space read into first, so this bounds that cost per read.
const MAX_READ: usize = 64 * 1024;

/// Frames up to this size are written with their prefix in one `write_all`, so
/// that an unbuffered socket does not send the prefix in a packet of its own.
const COALESCE_LIMIT: usize = 16 * 1024;

/// Reads Kafka frames from a blocking reader.
///
/// Each [`read_frame`](Self::read_frame) returns one whole frame (its length prefix
/// included, as [`kwire_messages::frame`] reads it), reading only as much as needed; bytes read past a frame are kept
/// for the next one. The reader is read directly, so there is no need to wrap it in
/// a `BufReader`.
#[derive(Debug)]
pub struct FrameReader<R> {
    reader: R,
    splitter: FrameSplitter,
}

impl<R: Read> FrameReader<R> {
    /// A frame reader over `reader`, with the
    /// [default maximum frame size](crate::splitter::DEFAULT_MAX_FRAME_SIZE).
    pub fn new(reader: R) -> Self {
        Self::with_splitter(reader, FrameSplitter::new())
    }

    /// A frame reader over `reader` that refuses frames longer than
    /// `max_frame_size` bytes (not counting the prefix).
    pub fn with_max_frame_size(reader: R, max_frame_size: usize) -> Self {
        Self::with_splitter(reader, FrameSplitter::with_max_frame_size(max_frame_size))
    }

    /// A frame reader over `reader` that goes on from `splitter` (and the bytes it
    /// has buffered).
    pub fn with_splitter(reader: R, splitter: FrameSplitter) -> Self {
        Self { reader, splitter }
    }

    /// Reads the next whole frame, its length prefix included.
    ///
    /// Returns `Ok(None)` when the stream ends cleanly between frames, and
    /// [`FrameIoError::UnexpectedEof`] when it ends inside one. An invalid length
    /// prefix is an error ([`FrameIoError::Length`]) as soon as its 4 bytes have been
    /// read; the stream cannot be used for frames after one. Reads interrupted by a
    /// signal are retried; on any other I/O error the bytes read so far stay
    /// buffered, so calling again after, for example, a timeout goes on where it was.
    pub fn read_frame(&mut self) -> Result<Option<Bytes>, FrameIoError> {
        loop {
            if let Some(frame) = self.splitter.next_frame()? {
                return Ok(Some(frame));
            }
            if self.fill()? == 0 {
                return match self.splitter.buffered() {
                    0 => Ok(None),
                    buffered => Err(FrameIoError::UnexpectedEof { buffered }),
                };
            }
        }
    }

    /// Reads once into the splitter's buffer, returning how many bytes arrived.
    fn fill(&mut self) -> io::Result<usize> {
        let want = self.splitter.bytes_needed().clamp(MIN_READ, MAX_READ);
        let buf = self.splitter.buffer_mut();
        let start = buf.len();
        buf.resize(start + want, 0);
        let read = loop {
            match self.reader.read(&mut buf[start..]) {
                Err(error) if error.kind() == ErrorKind::Interrupted => continue,
                other => break other,
            }
        };
        // A reader claiming more bytes than it was given room for is broken; keep
        // only the room's worth rather than panic.
        let read = read.map(|n| n.min(want));
        buf.truncate(start + *read.as_ref().unwrap_or(&0));
        read
    }

    /// The splitter, with the bytes read past the last frame returned.
    pub fn splitter(&self) -> &FrameSplitter {
        &self.splitter
    }

    /// The underlying reader.
    pub fn get_ref(&self) -> &R {
        &self.reader
    }

    /// The underlying reader, mutably (for example to set a timeout). Reading from
    /// it directly skips the bytes already buffered here.
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.reader
    }

    /// The underlying reader and the splitter, with any bytes read past the last
    /// frame returned.
    pub fn into_parts(self) -> (R, FrameSplitter) {
        (self.reader, self.splitter)
    }
}

/// Writes raw `frame` contents to `writer` as one frame: their big-endian int32
/// length, then the bytes. (A whole frame built by [`kwire_messages::frame`] is written
/// with `write_all`, as it is.)
///
/// Fails with [`ErrorKind::InvalidInput`] (its source a [`FrameLengthError`](kwire_messages::frame::FrameLengthError)),
/// writing nothing, when `frame` is longer than an int32 can say. Small frames are
/// written with one `write_all`; the writer is not flushed.
pub fn write_frame<W: Write + ?Sized>(writer: &mut W, frame: &[u8]) -> io::Result<()> {
    let prefix = length_prefix(frame.len())
        .map_err(|error| io::Error::new(ErrorKind::InvalidInput, error))?;
    if frame.len() <= COALESCE_LIMIT {
        let mut whole = Vec::with_capacity(PREFIX_LEN + frame.len());
        whole.extend_from_slice(&prefix);
        whole.extend_from_slice(frame);
        writer.write_all(&whole)
    } else {
        writer.write_all(&prefix)?;
        writer.write_all(frame)
    }
}

/// The most chunks handed to one `write_vectored`: a frame is a few chunks (its
/// header and fields, then one per record batch), and the kernel takes at most
/// 1024.
const MAX_SLICES: usize = 64;

/// Writes every byte of `buf` to `writer`, as many of its chunks at a time as the
/// writer takes (`write_vectored`): the blocking form of tokio's `write_all_buf`.
///
/// A vectored frame ([`kwire_messages::frame::encode_request_vectored`], and the
/// [`Sent`](crate::session::Sent) frames of a session) goes out with one gather
/// write, its record batches from their own memory, without being copied into one
/// buffer first. A writer without vectored writes (`Vec<u8>`, a `BufWriter`) is
/// handed one chunk at a time, which is what its `write_vectored` does anyway. The
/// writer is not flushed.
///
/// Fails with [`ErrorKind::WriteZero`] when the writer takes nothing; an
/// interrupted write is retried. What was written before an error has been
/// consumed from `buf`.
///
/// ```
/// use bytes::Bytes;
/// use kwire::wire::ChunkedBytes;
/// use kwire_net::blocking::write_all_buf;
///
/// let mut frame = ChunkedBytes::new();
/// frame.push(Bytes::from_static(b"\0\0\0\x07head"));
/// frame.push(Bytes::from_static(b"abc")); // a record batch, say: never copied
/// let mut wire = Vec::new();
/// write_all_buf(&mut wire, &mut frame).unwrap();
/// assert_eq!(wire, b"\0\0\0\x07headabc");
/// ```
pub fn write_all_buf<W: Write + ?Sized, B: Buf + ?Sized>(
    writer: &mut W,
    buf: &mut B,
) -> io::Result<()> {
    while buf.has_remaining() {
        let mut slices = [IoSlice::new(&[]); MAX_SLICES];
        let count = buf.chunks_vectored(&mut slices);
        match writer.write_vectored(&slices[..count]) {
            Ok(0) => {
                return Err(io::Error::new(
                    ErrorKind::WriteZero,
                    "the writer took none of the frame",
                ))
            }
            Ok(written) => buf.advance(written),
            Err(error) if error.kind() == ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::*;
    use kwire_messages::frame::FrameLengthError;

    /// A reader that gives one byte per read, with interruptions in between.
    struct Trickle<R> {
        inner: R,
        interrupt: bool,
    }

    impl<R: Read> Read for Trickle<R> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.interrupt = !self.interrupt;
            if self.interrupt {
                return Err(ErrorKind::Interrupted.into());
            }
            let len = buf.len().min(1);
            self.inner.read(&mut buf[..len])
        }
    }

    fn trickle(wire: Vec<u8>) -> Trickle<Cursor<Vec<u8>>> {
        Trickle {
            inner: Cursor::new(wire),
            interrupt: false,
        }
    }

    fn sample() -> (Vec<Vec<u8>>, Vec<u8>) {
        let frames: Vec<Vec<u8>> = vec![
            b"one".to_vec(),
            Vec::new(),
            (0..=255).collect(),
            vec![9; COALESCE_LIMIT + 1],
            vec![3; 3 * MAX_READ + 5],
            b"last".to_vec(),
        ];
        let mut wire = Vec::new();
        for frame in &frames {
            write_frame(&mut wire, frame).unwrap();
        }
        (frames, wire)
    }

    fn read_all<R: Read>(reader: &mut FrameReader<R>) -> Vec<Vec<u8>> {
        let mut got = Vec::new();
        while let Some(frame) = reader.read_frame().unwrap() {
            let (prefix, contents) = frame.split_at(PREFIX_LEN);
            assert_eq!(prefix, (contents.len() as i32).to_be_bytes());
            got.push(contents.to_vec());
        }
        got
    }

    #[test]
    fn reads_frames_from_a_cursor() {
        let (frames, wire) = sample();
        let mut reader = FrameReader::new(Cursor::new(wire));
        assert_eq!(read_all(&mut reader), frames);
        // The end of the stream stays the end.
        assert!(reader.read_frame().unwrap().is_none());
    }

    #[test]
    fn reads_frames_one_byte_at_a_time() {
        let (frames, wire) = sample();
        let mut reader = FrameReader::new(trickle(wire));
        assert_eq!(read_all(&mut reader), frames);
    }

    #[test]
    fn empty_stream_is_a_clean_end() {
        let mut reader = FrameReader::new(Cursor::new(Vec::new()));
        assert!(reader.read_frame().unwrap().is_none());
    }

    #[test]
    fn end_inside_a_frame_is_an_error() {
        let mut wire = Vec::new();
        write_frame(&mut wire, b"whole").unwrap();
        write_frame(&mut wire, b"cut short").unwrap();
        wire.truncate(wire.len() - 3);
        let buffered = PREFIX_LEN + b"cut short".len() - 3;
        let mut reader = FrameReader::new(trickle(wire));
        assert_eq!(
            reader.read_frame().unwrap().as_deref(),
            Some(&b"\0\0\0\x05whole"[..])
        );
        let error = reader.read_frame().unwrap_err();
        assert!(
            matches!(error, FrameIoError::UnexpectedEof { buffered: b } if b == buffered),
            "{error:?}"
        );
        let error = io::Error::from(error);
        assert_eq!(error.kind(), ErrorKind::UnexpectedEof);
    }

    #[test]
    fn end_inside_a_prefix_is_an_error() {
        let mut reader = FrameReader::new(Cursor::new(vec![0, 0]));
        let error = reader.read_frame().unwrap_err();
        assert!(
            matches!(error, FrameIoError::UnexpectedEof { buffered: 2 }),
            "{error:?}"
        );
    }

    #[test]
    fn invalid_prefixes_are_errors() {
        let mut reader = FrameReader::new(Cursor::new((-5_i32).to_be_bytes().to_vec()));
        let error = reader.read_frame().unwrap_err();
        assert!(
            matches!(error, FrameIoError::Length(FrameLengthError::Negative(-5))),
            "{error:?}"
        );
        assert_eq!(io::Error::from(error).kind(), ErrorKind::InvalidData);

        // Refused from the prefix alone, before the claimed bytes are read.
        let mut wire = 100_i32.to_be_bytes().to_vec();
        wire.extend_from_slice(&[0; 100]);
        let mut reader = FrameReader::with_max_frame_size(trickle(wire), 99);
        let error = reader.read_frame().unwrap_err();
        assert!(
            matches!(
                error,
                FrameIoError::Length(FrameLengthError::TooLarge { len: 100, max: 99 })
            ),
            "{error:?}"
        );
        assert_eq!(reader.splitter().buffered(), PREFIX_LEN);
    }

    #[test]
    fn io_errors_keep_what_was_read() {
        /// Fails once, after the first half of the stream, with a timeout.
        struct FailOnce {
            inner: Cursor<Vec<u8>>,
            fail_at: u64,
            failed: bool,
        }
        impl Read for FailOnce {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let room = if self.failed {
                    buf.len()
                } else {
                    (self.fail_at - self.inner.position()) as usize
                };
                if room == 0 {
                    self.failed = true;
                    return Err(ErrorKind::TimedOut.into());
                }
                let len = buf.len().min(room);
                self.inner.read(&mut buf[..len])
            }
        }
        let (frames, wire) = sample();
        let fail_at = wire.len() as u64 / 2;
        let mut reader = FrameReader::new(FailOnce {
            inner: Cursor::new(wire),
            fail_at,
            failed: false,
        });
        let mut got = Vec::new();
        loop {
            match reader.read_frame() {
                Ok(Some(frame)) => got.push(frame[PREFIX_LEN..].to_vec()),
                Ok(None) => break,
                Err(FrameIoError::Io(error)) => assert_eq!(error.kind(), ErrorKind::TimedOut),
                Err(error) => panic!("{error:?}"),
            }
        }
        assert!(reader.get_ref().failed);
        assert_eq!(got, frames);
    }

    #[test]
    fn lying_reader_does_not_panic() {
        /// Claims to have read more than it was given room for.
        struct Liar;
        impl Read for Liar {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                Ok(buf.len() + 10)
            }
        }
        let mut reader = FrameReader::with_max_frame_size(Liar, 0);
        assert_eq!(&reader.read_frame().unwrap().unwrap()[..], &[0; 4]);
    }

    #[test]
    fn write_frame_writes_prefix_and_bytes() {
        let mut out = Vec::new();
        write_frame(&mut out, b"").unwrap();
        write_frame(&mut out, b"abc").unwrap();
        assert_eq!(out, b"\0\0\0\0\0\0\0\x03abc");

        let big = vec![1; COALESCE_LIMIT + 1];
        let mut out = Vec::new();
        write_frame(&mut out, &big).unwrap();
        assert_eq!(
            out[..PREFIX_LEN],
            ((COALESCE_LIMIT + 1) as i32).to_be_bytes()
        );
        assert_eq!(out[PREFIX_LEN..], big[..]);
    }

    #[test]
    fn write_frame_reports_write_errors() {
        let mut out = [0_u8; 5];
        let error = write_frame(&mut &mut out[..], b"abc").unwrap_err();
        assert_eq!(error.kind(), ErrorKind::WriteZero);
    }

    #[test]
    fn into_parts_returns_the_reader_and_leftover_bytes() {
        let mut wire = Vec::new();
        write_frame(&mut wire, b"a").unwrap();
        wire.extend_from_slice(&[0, 0]);
        let mut reader = FrameReader::new(Cursor::new(wire));
        assert_eq!(
            reader.read_frame().unwrap().as_deref(),
            Some(&b"\0\0\0\x01a"[..])
        );
        let (cursor, splitter) = reader.into_parts();
        assert_eq!(splitter.buffer(), [0, 0]);
        assert_eq!(cursor.position(), 7);
    }

    /// A writer that takes at most `most` bytes per call across every slice it is
    /// given, interrupting every other call, and counts the slices it was handed.
    struct Gather {
        written: Vec<u8>,
        most: usize,
        interrupt: bool,
        calls: usize,
        widest: usize,
    }

    impl Write for Gather {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.write_vectored(&[IoSlice::new(buf)])
        }

        fn write_vectored(&mut self, slices: &[IoSlice<'_>]) -> io::Result<usize> {
            self.interrupt = !self.interrupt;
            if self.interrupt {
                return Err(ErrorKind::Interrupted.into());
            }
            self.calls += 1;
            self.widest = self.widest.max(slices.len());
            let mut left = self.most;
            for slice in slices {
                let take = slice.len().min(left);
                self.written.extend_from_slice(&slice[..take]);
                left -= take;
            }
            Ok(self.most - left)
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn chunked(parts: &[&[u8]]) -> kwire::wire::ChunkedBytes {
        let mut chunks = kwire::wire::ChunkedBytes::new();
        for part in parts {
            chunks.push(Bytes::copy_from_slice(part));
        }
        chunks
    }

    #[test]
    fn write_all_buf_hands_every_chunk_to_one_write_and_resumes_partial_writes() {
        let parts: [&[u8]; 3] = [b"\0\0\0\x0bhead", b"records", b"tail"];
        let whole = parts.concat();

        let mut roomy = Gather {
            written: Vec::new(),
            most: usize::MAX,
            interrupt: false,
            calls: 0,
            widest: 0,
        };
        write_all_buf(&mut roomy, &mut chunked(&parts)).unwrap();
        assert_eq!(roomy.written, whole);
        assert_eq!(
            (roomy.calls, roomy.widest),
            (1, 3),
            "one gather write of three chunks"
        );

        // Three bytes per write: the rest of a chunk cut mid-way goes next.
        let mut narrow = Gather {
            written: Vec::new(),
            most: 3,
            interrupt: false,
            calls: 0,
            widest: 0,
        };
        let mut frame = chunked(&parts);
        write_all_buf(&mut narrow, &mut frame).unwrap();
        assert_eq!(narrow.written, whole);
        assert_eq!(narrow.calls, whole.len().div_ceil(3));
        assert!(!frame.has_remaining());
    }

    #[test]
    fn write_all_buf_hands_many_chunks_over_in_rounds() {
        let parts: Vec<Vec<u8>> = (0..MAX_SLICES * 2 + 1).map(|i| vec![i as u8; 2]).collect();
        let borrowed: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
        let mut gather = Gather {
            written: Vec::new(),
            most: usize::MAX,
            interrupt: false,
            calls: 0,
            widest: 0,
        };
        write_all_buf(&mut gather, &mut chunked(&borrowed)).unwrap();
        assert_eq!(gather.written, parts.concat());
        assert_eq!((gather.calls, gather.widest), (3, MAX_SLICES));
    }

    #[test]
    fn write_all_buf_fails_on_a_writer_that_takes_nothing() {
        let mut full = Gather {
            written: Vec::new(),
            most: 0,
            interrupt: false,
            calls: 0,
            widest: 0,
        };
        let error = write_all_buf(&mut full, &mut chunked(&[b"frame"])).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::WriteZero);
        // Nothing to write is written at once.
        write_all_buf(&mut full, &mut chunked(&[])).unwrap();
        assert_eq!(full.calls, 1);
    }
}

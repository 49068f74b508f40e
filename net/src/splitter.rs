//! Splitting a byte stream into Kafka frames, without doing any I/O.
//!
//! On a Kafka connection every request and response is a frame: a big-endian int32
//! length `N`, then `N` bytes (header and body). [`FrameSplitter`] takes whatever
//! bytes the socket gave, in pieces of any size, and hands back each whole frame,
//! its length prefix included (the unit [`kwire_messages::frame`],
//! [`RequestFrame`](kwire_messages::frame::RequestFrame) and
//! [`ClientSession`](crate::session::ClientSession) read), without copying it. The prefix is
//! checked as soon as its 4 bytes are there, before any of the frame is buffered: a
//! negative length or one above the maximum frame size is an error
//! ([`FrameLengthError`]) rather than an allocation.
//!
//! [`split_frame`] is the same logic over a buffer the caller owns (the
//! [`blocking`](crate::blocking) helpers and, with the `tokio` feature, the
//! `codec` module are built on it), and [`write_frame`] frames raw contents with
//! their prefix. For typed messages, [`kwire_messages::frame`] builds whole frames (prefix,
//! header and body), which go to the connection as they are.

use std::fmt;

use bytes::{BufMut, Bytes, BytesMut};
use kwire::DecodeLimits;
use kwire_messages::frame::{length_prefix, read_length, FrameLengthError, PREFIX_LEN};

/// The default maximum frame size: 100 MiB, Kafka's default for the broker's
/// `socket.request.max.bytes` (104857600); the default
/// [`DecodeLimits::max_frame_size`], whose value this is.
pub const DEFAULT_MAX_FRAME_SIZE: usize = DecodeLimits::DEFAULT.max_frame_size();

/// The most room reserved at once for the rest of an incomplete frame.
const RESERVE_STEP: usize = 64 * 1024;

/// Takes the next whole frame off the front of `buf`: the sans-IO core of
/// [`FrameSplitter`], for code that owns its buffer (such as a
/// `tokio_util::codec::Decoder`).
///
/// Returns the whole frame, its length prefix included, split off `buf` without
/// copying, or `Ok(None)` when `buf` does not hold a whole frame yet. The prefix is
/// checked as soon as its 4 bytes are there; an invalid prefix is left in `buf`, so
/// calling again gives the same error. While a frame is incomplete, `buf` is made
/// to reserve room for the rest of it (never more than the frame still needs).
///
/// ```
/// use bytes::BytesMut;
/// use kwire_net::splitter::{split_frame, DEFAULT_MAX_FRAME_SIZE};
///
/// let mut buf = BytesMut::from(&b"\0\0\0\x02hi\0\0"[..]);
/// let frame = split_frame(&mut buf, DEFAULT_MAX_FRAME_SIZE).unwrap();
/// assert_eq!(frame.as_deref(), Some(&b"\0\0\0\x02hi"[..]));
/// assert_eq!(split_frame(&mut buf, DEFAULT_MAX_FRAME_SIZE).unwrap(), None);
/// assert_eq!(&buf[..], b"\0\0");
/// ```
pub fn split_frame(
    buf: &mut BytesMut,
    max_frame_size: usize,
) -> Result<Option<Bytes>, FrameLengthError> {
    let Some(len) = read_length(buf, max_frame_size)? else {
        return Ok(None);
    };
    let available = buf.len() - PREFIX_LEN;
    if available < len {
        // Room for what is still to come, a step at a time: a prefix alone, however
        // legal, does not make a peer's 4 bytes cost 100 MiB.
        buf.reserve((len - available).min(RESERVE_STEP));
        return Ok(None);
    }
    Ok(Some(buf.split_to(PREFIX_LEN + len).freeze()))
}

/// How many more bytes `buf` needs before [`split_frame`] can return a frame; 0 when
/// it can return one (or an error) now.
fn bytes_needed(buf: &[u8], max_frame_size: usize) -> usize {
    match read_length(buf, max_frame_size) {
        Ok(None) => PREFIX_LEN - buf.len(),
        Ok(Some(len)) => (PREFIX_LEN + len).saturating_sub(buf.len()),
        Err(_) => 0,
    }
}

/// Appends the frame of raw `frame` contents to `out`: their big-endian int32
/// length, then the bytes.
///
/// Fails, writing nothing, with [`FrameLengthError::TooLarge`] when `frame` is longer
/// than an int32 can say.
///
/// ```
/// use bytes::BytesMut;
/// use kwire_net::splitter::write_frame;
///
/// let mut out = BytesMut::new();
/// write_frame(&mut out, b"hi").unwrap();
/// assert_eq!(&out[..], b"\0\0\0\x02hi");
/// ```
pub fn write_frame(out: &mut BytesMut, frame: &[u8]) -> Result<(), FrameLengthError> {
    let prefix = length_prefix(frame.len())?;
    out.reserve(PREFIX_LEN + frame.len());
    out.put_slice(&prefix);
    out.put_slice(frame);
    Ok(())
}

/// An incremental splitter of a byte stream into Kafka frames.
///
/// Feed it the bytes read from a connection, in pieces of any size, with
/// [`extend_from_slice`](Self::extend_from_slice) or by reading straight into
/// [`buffer_mut`](Self::buffer_mut); then take the whole frames with
/// [`next_frame`](Self::next_frame) until it returns `Ok(None)`.
///
/// ```
/// use kwire_messages::frame::FrameLengthError;
/// use kwire_net::splitter::FrameSplitter;
///
/// let mut splitter = FrameSplitter::new();
/// // Two frames ("abc" and the empty frame) and the start of a third, as one read.
/// splitter.extend_from_slice(b"\0\0\0\x03abc\0\0\0\0\0\0\0\x05he");
/// assert_eq!(splitter.next_frame().unwrap().as_deref(), Some(&b"\0\0\0\x03abc"[..]));
/// assert_eq!(splitter.next_frame().unwrap().as_deref(), Some(&b"\0\0\0\0"[..]));
/// assert_eq!(splitter.next_frame().unwrap(), None);
/// assert_eq!(splitter.buffered(), 6);
///
/// // The rest of the third frame arrives.
/// splitter.extend_from_slice(b"llo");
/// assert_eq!(splitter.next_frame().unwrap().as_deref(), Some(&b"\0\0\0\x05hello"[..]));
/// assert_eq!(splitter.buffered(), 0);
///
/// // A length above the maximum is refused as soon as the prefix is there.
/// let mut small = FrameSplitter::with_max_frame_size(1024);
/// small.extend_from_slice(&2048_i32.to_be_bytes());
/// assert_eq!(
///     small.next_frame(),
///     Err(FrameLengthError::TooLarge { len: 2048, max: 1024 })
/// );
/// ```
#[derive(Clone)]
pub struct FrameSplitter {
    buf: BytesMut,
    max_frame_size: usize,
}

impl FrameSplitter {
    /// A splitter with the [default maximum frame size](DEFAULT_MAX_FRAME_SIZE).
    pub fn new() -> Self {
        Self::with_max_frame_size(DEFAULT_MAX_FRAME_SIZE)
    }

    /// A splitter that refuses frames longer than `max_frame_size` bytes (not
    /// counting the 4-byte prefix).
    pub fn with_max_frame_size(max_frame_size: usize) -> Self {
        Self {
            buf: BytesMut::new(),
            max_frame_size,
        }
    }

    /// A splitter that refuses frames longer than a server's
    /// [`DecodeLimits::max_frame_size`].
    ///
    /// ```
    /// use kwire::DecodeLimits;
    /// use kwire_messages::frame::FrameLengthError;
    /// use kwire_net::splitter::FrameSplitter;
    ///
    /// let limits = DecodeLimits::default().with_max_frame_size(1024);
    /// let mut splitter = FrameSplitter::with_limits(&limits);
    /// splitter.extend_from_slice(&(1_i32 << 30).to_be_bytes());
    /// assert_eq!(
    ///     splitter.next_frame(),
    ///     Err(FrameLengthError::TooLarge { len: 1 << 30, max: 1024 })
    /// );
    /// ```
    pub fn with_limits(limits: &DecodeLimits) -> Self {
        Self::with_max_frame_size(limits.max_frame_size())
    }

    /// The largest frame this splitter accepts, in bytes (not counting the prefix).
    pub fn max_frame_size(&self) -> usize {
        self.max_frame_size
    }

    /// Appends bytes read from the stream.
    pub fn extend_from_slice(&mut self, data: &[u8]) {
        self.buf.extend_from_slice(data);
    }

    /// The buffer of bytes not yet split into frames, to read into directly (for
    /// example with `read_buf`). Append only: the splitter expects the stream's
    /// bytes in order at its end.
    pub fn buffer_mut(&mut self) -> &mut BytesMut {
        &mut self.buf
    }

    /// The bytes not yet split into frames (the next frame's prefix first).
    pub fn buffer(&self) -> &[u8] {
        &self.buf
    }

    /// How many bytes are buffered (not yet returned as frames).
    pub fn buffered(&self) -> usize {
        self.buf.len()
    }

    /// How many more bytes are needed before [`next_frame`](Self::next_frame) can
    /// return a frame: at least this many (when the prefix is incomplete) or exactly
    /// this many (when it is there). 0 when `next_frame` has a frame (or an error)
    /// to return now.
    pub fn bytes_needed(&self) -> usize {
        bytes_needed(&self.buf, self.max_frame_size)
    }

    /// Takes the next whole frame, its length prefix included, without copying it,
    /// or `Ok(None)` when more bytes are needed.
    ///
    /// An invalid prefix (negative, or above the maximum frame size) is an error as
    /// soon as its 4 bytes are there; it stays buffered, so calling again gives the
    /// same error. The stream cannot be resynchronised after one.
    pub fn next_frame(&mut self) -> Result<Option<Bytes>, FrameLengthError> {
        split_frame(&mut self.buf, self.max_frame_size)
    }

    /// The bytes not yet split into frames, giving up the splitter (for example to
    /// hand the stream to another protocol).
    pub fn into_inner(self) -> BytesMut {
        self.buf
    }
}

impl Default for FrameSplitter {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for FrameSplitter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FrameSplitter")
            .field("buffered", &self.buf.len())
            .field("max_frame_size", &self.max_frame_size)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Frames of assorted sizes, including empty ones (each with its prefix), and
    /// the stream they make.
    fn sample() -> (Vec<Vec<u8>>, Vec<u8>) {
        let frames: Vec<Vec<u8>> = [0_usize, 1, 7, 0, 3, 300, 4, 5]
            .iter()
            .enumerate()
            .map(|(i, &len)| {
                let contents: Vec<u8> = (0..len).map(|b| (b * 31 + i) as u8).collect();
                let mut frame = BytesMut::new();
                write_frame(&mut frame, &contents).unwrap();
                frame.to_vec()
            })
            .collect();
        (frames.clone(), frames.concat())
    }

    fn drain(splitter: &mut FrameSplitter, out: &mut Vec<Vec<u8>>) {
        while let Some(frame) = splitter.next_frame().unwrap() {
            out.push(frame.to_vec());
        }
    }

    #[test]
    fn every_split_point_gives_the_same_frames() {
        let (frames, wire) = sample();
        for at in 0..=wire.len() {
            let mut splitter = FrameSplitter::new();
            let mut got = Vec::new();
            splitter.extend_from_slice(&wire[..at]);
            drain(&mut splitter, &mut got);
            splitter.buffer_mut().extend_from_slice(&wire[at..]);
            drain(&mut splitter, &mut got);
            assert_eq!(got, frames, "split at {at}");
            assert_eq!(splitter.buffered(), 0);
        }
    }

    #[test]
    fn one_byte_at_a_time_gives_the_same_frames() {
        let (frames, wire) = sample();
        let mut splitter = FrameSplitter::new();
        let mut got = Vec::new();
        for &byte in &wire {
            splitter.extend_from_slice(&[byte]);
            drain(&mut splitter, &mut got);
        }
        assert_eq!(got, frames);
        assert_eq!(splitter.buffered(), 0);
    }

    #[test]
    fn several_frames_in_one_read() {
        let (frames, wire) = sample();
        let mut splitter = FrameSplitter::new();
        splitter.extend_from_slice(&wire);
        let mut got = Vec::new();
        drain(&mut splitter, &mut got);
        assert_eq!(got, frames);
    }

    #[test]
    fn frames_are_split_off_without_copying() {
        let mut splitter = FrameSplitter::new();
        splitter.extend_from_slice(b"\0\0\0\x03abc");
        let start = splitter.buffer().as_ptr() as usize;
        let frame = splitter.next_frame().unwrap().unwrap();
        assert_eq!(frame.as_ptr() as usize, start);
        assert_eq!(&frame[..], b"\0\0\0\x03abc");
    }

    #[test]
    fn empty_frame_is_a_frame() {
        let mut splitter = FrameSplitter::new();
        splitter.extend_from_slice(&[0, 0, 0]);
        assert_eq!(splitter.next_frame(), Ok(None));
        assert_eq!(splitter.bytes_needed(), 1);
        splitter.extend_from_slice(&[0]);
        assert_eq!(splitter.bytes_needed(), 0);
        assert_eq!(splitter.next_frame(), Ok(Some(Bytes::from_static(&[0; 4]))));
        assert_eq!(splitter.next_frame(), Ok(None));
        assert_eq!(splitter.buffered(), 0);
    }

    #[test]
    fn negative_prefix_is_an_error_and_stays_one() {
        let mut splitter = FrameSplitter::new();
        splitter.extend_from_slice(&(-1_i32).to_be_bytes());
        assert_eq!(splitter.next_frame(), Err(FrameLengthError::Negative(-1)));
        assert_eq!(splitter.next_frame(), Err(FrameLengthError::Negative(-1)));
        assert_eq!(splitter.bytes_needed(), 0);

        let mut splitter = FrameSplitter::new();
        splitter.extend_from_slice(&i32::MIN.to_be_bytes());
        assert_eq!(
            splitter.next_frame(),
            Err(FrameLengthError::Negative(i32::MIN))
        );
    }

    #[test]
    fn oversize_prefix_is_refused_from_the_prefix_alone() {
        let mut splitter = FrameSplitter::new();
        let len = DEFAULT_MAX_FRAME_SIZE + 1;
        splitter.extend_from_slice(&(len as i32).to_be_bytes());
        assert_eq!(
            splitter.next_frame(),
            Err(FrameLengthError::TooLarge {
                len,
                max: DEFAULT_MAX_FRAME_SIZE
            })
        );
        // Nothing was reserved for the claimed size.
        assert!(splitter.buffer_mut().capacity() < len);

        let mut splitter = FrameSplitter::with_max_frame_size(10);
        splitter.extend_from_slice(&i32::MAX.to_be_bytes());
        assert_eq!(
            splitter.next_frame(),
            Err(FrameLengthError::TooLarge {
                len: i32::MAX as usize,
                max: 10
            })
        );
        assert!(splitter.buffer_mut().capacity() < 1024);
    }

    #[test]
    fn frame_exactly_at_the_maximum_is_accepted() {
        let mut splitter = FrameSplitter::with_max_frame_size(16);
        splitter.extend_from_slice(&16_i32.to_be_bytes());
        assert_eq!(splitter.next_frame(), Ok(None));
        assert_eq!(splitter.bytes_needed(), 16);
        // Room for the rest of the frame is reserved.
        assert!(splitter.buffer_mut().capacity() >= PREFIX_LEN + 16);
        splitter.extend_from_slice(&[7; 16]);
        let frame = splitter.next_frame().unwrap().unwrap();
        assert_eq!(
            (&frame[..4], &frame[4..]),
            (&16_i32.to_be_bytes()[..], &[7; 16][..])
        );

        let mut splitter = FrameSplitter::with_max_frame_size(16);
        splitter.extend_from_slice(&17_i32.to_be_bytes());
        assert_eq!(
            splitter.next_frame(),
            Err(FrameLengthError::TooLarge { len: 17, max: 16 })
        );
    }

    #[test]
    fn default_maximum_frame_size_is_accepted() {
        let mut splitter = FrameSplitter::new();
        assert_eq!(splitter.max_frame_size(), 104_857_600);
        splitter.extend_from_slice(&(DEFAULT_MAX_FRAME_SIZE as i32).to_be_bytes());
        assert_eq!(splitter.next_frame(), Ok(None));
        assert_eq!(splitter.bytes_needed(), DEFAULT_MAX_FRAME_SIZE);
        // A legal prefix alone reserves a step, not the 100 MiB it announces.
        assert!(splitter.buffer_mut().capacity() <= PREFIX_LEN + RESERVE_STEP);
    }

    #[test]
    fn zero_maximum_accepts_only_empty_frames() {
        let mut splitter = FrameSplitter::with_max_frame_size(0);
        splitter.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 1, 9]);
        assert_eq!(splitter.next_frame(), Ok(Some(Bytes::from_static(&[0; 4]))));
        assert_eq!(
            splitter.next_frame(),
            Err(FrameLengthError::TooLarge { len: 1, max: 0 })
        );
    }

    #[test]
    fn write_frame_prefixes_the_length() {
        let mut out = BytesMut::from(&b"x"[..]);
        write_frame(&mut out, b"").unwrap();
        write_frame(&mut out, &[5; 258]).unwrap();
        assert_eq!(&out[..9], b"x\0\0\0\0\0\0\x01\x02");
        assert_eq!(out.len(), 9 + 258);
    }

    #[test]
    fn into_inner_keeps_the_unsplit_bytes() {
        let mut splitter = FrameSplitter::default();
        splitter.extend_from_slice(b"\0\0\0\x01a\0\0");
        assert_eq!(
            splitter.next_frame().unwrap().as_deref(),
            Some(&b"\0\0\0\x01a"[..])
        );
        assert_eq!(splitter.buffer(), b"\0\0");
        assert_eq!(&splitter.into_inner()[..], b"\0\0");
    }
}

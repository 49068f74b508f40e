//! A [`tokio_util::codec`] codec for Kafka frames (with the `tokio` feature), for
//! use with `FramedRead`, `FramedWrite` or `Framed` over an async stream.
//!
//! The codec decodes with the same logic as the sans-IO
//! [`FrameSplitter`](crate::splitter::FrameSplitter) ([`split_frame`]): each item is
//! one whole frame, its length prefix included (what [`kwire_messages::frame`] and
//! [`ClientSession`](crate::session::ClientSession) read), and an invalid prefix is
//! refused as soon as its 4 bytes have arrived. Items to encode are whole frames too
//! (what [`kwire_messages::frame`] and `ClientSession` build), checked and written as they are.
//!
//! ```
//! use bytes::{Bytes, BytesMut};
//! use kwire_net::codec::KafkaFrameCodec;
//! use tokio_util::codec::{Decoder, Encoder};
//!
//! let mut codec = KafkaFrameCodec::new();
//! let mut wire = BytesMut::new();
//! codec.encode(Bytes::from_static(b"\0\0\0\x07request"), &mut wire).unwrap();
//! let frame = codec.decode(&mut wire).unwrap().unwrap();
//! assert_eq!(&frame[..], b"\0\0\0\x07request");
//! // Not a whole frame: refused.
//! assert!(codec.encode(Bytes::from_static(b"request"), &mut wire).is_err());
//! ```

use bytes::{Bytes, BytesMut};
use tokio_util::codec::{Decoder, Encoder};

use kwire_messages::frame::frame_contents;

use crate::splitter::{split_frame, DEFAULT_MAX_FRAME_SIZE};
use crate::FrameIoError;

/// A codec of Kafka frames: decodes a byte stream into whole frames (each a
/// [`Bytes`], length prefix included), and writes whole frames (as [`Bytes`] or
/// `&[u8]`) after checking their prefix.
///
/// Errors are [`FrameIoError`]s: an invalid prefix is [`FrameIoError::Length`], a
/// stream that ends inside a frame [`FrameIoError::UnexpectedEof`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KafkaFrameCodec {
    max_frame_size: usize,
}

impl KafkaFrameCodec {
    /// A codec with the [default maximum frame size](DEFAULT_MAX_FRAME_SIZE).
    pub fn new() -> Self {
        Self::with_max_frame_size(DEFAULT_MAX_FRAME_SIZE)
    }

    /// A codec that refuses to decode frames longer than `max_frame_size` bytes
    /// (not counting the prefix). Encoding is limited only by the int32 prefix.
    pub fn with_max_frame_size(max_frame_size: usize) -> Self {
        Self { max_frame_size }
    }

    /// A codec that refuses to decode frames longer than a server's
    /// [`DecodeLimits::max_frame_size`](kwire::DecodeLimits::max_frame_size).
    ///
    /// ```
    /// use kwire::DecodeLimits;
    /// use kwire_net::codec::KafkaFrameCodec;
    ///
    /// let limits = DecodeLimits::default().with_max_frame_size(1 << 20);
    /// assert_eq!(KafkaFrameCodec::with_limits(&limits).max_frame_size(), 1 << 20);
    /// ```
    pub fn with_limits(limits: &kwire::DecodeLimits) -> Self {
        Self::with_max_frame_size(limits.max_frame_size())
    }

    /// The largest frame this codec decodes, in bytes (not counting the prefix).
    pub fn max_frame_size(&self) -> usize {
        self.max_frame_size
    }
}

impl Default for KafkaFrameCodec {
    fn default() -> Self {
        Self::new()
    }
}

impl Decoder for KafkaFrameCodec {
    type Item = Bytes;
    type Error = FrameIoError;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Bytes>, FrameIoError> {
        Ok(split_frame(src, self.max_frame_size)?)
    }

    fn decode_eof(&mut self, buf: &mut BytesMut) -> Result<Option<Bytes>, FrameIoError> {
        match self.decode(buf)? {
            Some(frame) => Ok(Some(frame)),
            None if buf.is_empty() => Ok(None),
            None => Err(FrameIoError::UnexpectedEof {
                buffered: buf.len(),
            }),
        }
    }
}

impl Encoder<&[u8]> for KafkaFrameCodec {
    type Error = FrameIoError;

    fn encode(&mut self, frame: &[u8], dst: &mut BytesMut) -> Result<(), FrameIoError> {
        frame_contents(frame)?;
        dst.extend_from_slice(frame);
        Ok(())
    }
}

impl Encoder<Bytes> for KafkaFrameCodec {
    type Error = FrameIoError;

    fn encode(&mut self, frame: Bytes, dst: &mut BytesMut) -> Result<(), FrameIoError> {
        self.encode(&frame[..], dst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kwire_messages::frame::{FrameLengthError, PREFIX_LEN};

    use crate::splitter::write_frame;

    fn framed(contents: &[u8]) -> Bytes {
        let mut frame = BytesMut::new();
        write_frame(&mut frame, contents).unwrap();
        frame.freeze()
    }

    fn sample() -> (Vec<Bytes>, BytesMut) {
        let frames: Vec<Bytes> = vec![
            framed(b"one"),
            framed(b""),
            framed(&(0..=255).collect::<Vec<u8>>()),
            framed(&[7; 1000]),
        ];
        let mut codec = KafkaFrameCodec::new();
        let mut wire = BytesMut::new();
        for frame in &frames {
            codec.encode(frame.clone(), &mut wire).unwrap();
        }
        (frames, wire)
    }

    #[test]
    fn decodes_what_it_encodes() {
        let (frames, mut wire) = sample();
        let mut codec = KafkaFrameCodec::default();
        let mut got = Vec::new();
        while let Some(frame) = codec.decode(&mut wire).unwrap() {
            got.push(frame);
        }
        assert_eq!(got, frames);
        assert!(wire.is_empty());
        assert_eq!(codec.decode_eof(&mut wire).unwrap(), None);
    }

    #[test]
    fn decodes_at_every_split_point() {
        let (frames, wire) = sample();
        let mut codec = KafkaFrameCodec::new();
        for at in 0..=wire.len() {
            let mut buf = BytesMut::from(&wire[..at]);
            let mut got = Vec::new();
            while let Some(frame) = codec.decode(&mut buf).unwrap() {
                got.push(frame);
            }
            buf.extend_from_slice(&wire[at..]);
            while let Some(frame) = codec.decode_eof(&mut buf).unwrap() {
                got.push(frame);
            }
            assert_eq!(got, frames, "split at {at}");
        }
    }

    #[test]
    fn encodes_slices_like_bytes() {
        let mut codec = KafkaFrameCodec::new();
        let mut from_slice = BytesMut::new();
        codec
            .encode(&b"\0\0\0\x03abc"[..], &mut from_slice)
            .unwrap();
        let mut from_bytes = BytesMut::new();
        codec.encode(framed(b"abc"), &mut from_bytes).unwrap();
        assert_eq!(from_slice, from_bytes);
        assert_eq!(&from_slice[..], b"\0\0\0\x03abc");
        let error = codec.encode(&b"abc"[..], &mut from_slice).unwrap_err();
        assert!(
            matches!(error, FrameIoError::Length(FrameLengthError::Short(3))),
            "{error:?}"
        );
        assert_eq!(from_slice.len(), 7, "nothing written for a malformed frame");
    }

    #[test]
    fn invalid_prefixes_are_errors() {
        let mut codec = KafkaFrameCodec::with_max_frame_size(10);
        assert_eq!(codec.max_frame_size(), 10);

        let mut buf = BytesMut::from(&(-1_i32).to_be_bytes()[..]);
        let error = codec.decode(&mut buf).unwrap_err();
        assert!(
            matches!(error, FrameIoError::Length(FrameLengthError::Negative(-1))),
            "{error:?}"
        );

        let mut buf = BytesMut::from(&11_i32.to_be_bytes()[..]);
        let error = codec.decode(&mut buf).unwrap_err();
        assert!(
            matches!(
                error,
                FrameIoError::Length(FrameLengthError::TooLarge { len: 11, max: 10 })
            ),
            "{error:?}"
        );
        assert!(buf.capacity() < 1024);

        let mut buf = BytesMut::from(&10_i32.to_be_bytes()[..]);
        assert_eq!(codec.decode(&mut buf).unwrap(), None);
        buf.extend_from_slice(&[1; 10]);
        assert_eq!(codec.decode(&mut buf).unwrap(), Some(framed(&[1; 10])));
    }

    #[test]
    fn end_inside_a_frame_is_an_error() {
        let mut codec = KafkaFrameCodec::new();
        let mut buf = BytesMut::from(&b"\0\0\0\x05abc"[..]);
        assert_eq!(codec.decode(&mut buf).unwrap(), None);
        let error = codec.decode_eof(&mut buf).unwrap_err();
        assert!(
            matches!(error, FrameIoError::UnexpectedEof { buffered } if buffered == PREFIX_LEN + 3),
            "{error:?}"
        );

        let mut buf = BytesMut::from(&b"\0"[..]);
        let error = codec.decode_eof(&mut buf).unwrap_err();
        assert!(
            matches!(error, FrameIoError::UnexpectedEof { buffered: 1 }),
            "{error:?}"
        );
    }

    #[test]
    fn io_errors_convert() {
        let error = FrameIoError::from(std::io::Error::from(std::io::ErrorKind::BrokenPipe));
        assert!(matches!(error, FrameIoError::Io(_)));
    }
}

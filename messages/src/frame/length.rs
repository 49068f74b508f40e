//! A frame's length prefix: the big-endian int32 that says how many bytes of header
//! and body follow it. Every reader and writer of frames in the workspace goes
//! through these three functions — a whole frame's ([`frame_contents`]), a byte
//! stream's ([`read_length`], which sees only the front of a frame) and a writer's
//! ([`length_prefix`]) — so the rules and their errors are written once.

/// The size of a frame's length prefix (an int32).
pub const PREFIX_LEN: usize = 4;

/// Why a frame's length prefix cannot be read or written.
///
/// A stream that gave one of these is out of step with its frames and cannot be
/// resynchronised: close the connection.
///
/// ```
/// use kwire_messages::frame::{frame_contents, FrameLengthError};
///
/// assert_eq!(frame_contents(b"\0\0\0\x02hi"), Ok(&b"hi"[..]));
/// assert_eq!(
///     frame_contents(b"\0\0\0\x03hi"),
///     Err(FrameLengthError::Mismatch { declared: 3, actual: 2 })
/// );
/// assert_eq!(frame_contents(b"\0\0"), Err(FrameLengthError::Short(2)));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FrameLengthError {
    /// A whole frame is shorter than its length prefix.
    #[error("a frame starts with a 4-byte length prefix, but only {0} bytes are there")]
    Short(usize),
    /// A whole frame's prefix does not say the length of the bytes after it.
    #[error("frame length prefix says {declared} bytes, but {actual} follow")]
    Mismatch {
        /// The prefix's value.
        declared: i32,
        /// The bytes after the prefix.
        actual: usize,
    },
    /// The length prefix at the front of a stream is negative.
    #[error("frame length prefix is negative ({0})")]
    Negative(i32),
    /// The frame is larger than the maximum frame size (when reading), or than an
    /// int32 length can say (when writing; then `max` is `i32::MAX`).
    #[error("frame of {len} bytes is larger than the maximum of {max} bytes")]
    TooLarge {
        /// The frame's length, without its prefix.
        len: usize,
        /// The largest length allowed.
        max: usize,
    },
}

/// The contents of one whole frame (header and body), after checking that its
/// prefix says exactly their length.
pub fn frame_contents(frame: &[u8]) -> Result<&[u8], FrameLengthError> {
    let Some((prefix, contents)) = frame.split_first_chunk::<PREFIX_LEN>() else {
        return Err(FrameLengthError::Short(frame.len()));
    };
    let declared = i32::from_be_bytes(*prefix);
    if usize::try_from(declared) != Ok(contents.len()) {
        return Err(FrameLengthError::Mismatch {
            declared,
            actual: contents.len(),
        });
    }
    Ok(contents)
}

/// The length a frame at the front of `buf` declares, once its 4 prefix bytes are
/// there (`None` before), refused when negative or above `max_frame_size`: a stream
/// reader's check, made before anything is buffered for the frame.
///
/// ```
/// use kwire_messages::frame::{read_length, FrameLengthError};
///
/// assert_eq!(read_length(b"\0\0", 1024), Ok(None));
/// assert_eq!(read_length(b"\0\0\0\x05he", 1024), Ok(Some(5)));
/// assert_eq!(read_length(&(-1_i32).to_be_bytes(), 1024), Err(FrameLengthError::Negative(-1)));
/// assert_eq!(
///     read_length(&2048_i32.to_be_bytes(), 1024),
///     Err(FrameLengthError::TooLarge { len: 2048, max: 1024 })
/// );
/// ```
pub fn read_length(buf: &[u8], max_frame_size: usize) -> Result<Option<usize>, FrameLengthError> {
    let Some(prefix) = buf.first_chunk::<PREFIX_LEN>() else {
        return Ok(None);
    };
    let declared = i32::from_be_bytes(*prefix);
    let len = usize::try_from(declared).map_err(|_| FrameLengthError::Negative(declared))?;
    if len > max_frame_size {
        return Err(FrameLengthError::TooLarge {
            len,
            max: max_frame_size,
        });
    }
    Ok(Some(len))
}

/// The prefix for a frame of `len` bytes of contents.
///
/// ```
/// use kwire_messages::frame::length_prefix;
///
/// assert_eq!(length_prefix(2), Ok([0, 0, 0, 2]));
/// assert!(length_prefix(1 << 31).is_err());
/// ```
pub fn length_prefix(len: usize) -> Result<[u8; PREFIX_LEN], FrameLengthError> {
    i32::try_from(len)
        .map(i32::to_be_bytes)
        .map_err(|_| FrameLengthError::TooLarge {
            len,
            max: i32::MAX as usize,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_frames_are_checked() {
        assert_eq!(frame_contents(b"\0\0\0\0"), Ok(&b""[..]));
        assert_eq!(
            frame_contents(b"\0\0\0\x01"),
            Err(FrameLengthError::Mismatch {
                declared: 1,
                actual: 0
            })
        );
        assert_eq!(frame_contents(b"\0\0"), Err(FrameLengthError::Short(2)));
        assert_eq!(
            frame_contents(&(-1_i32).to_be_bytes()),
            Err(FrameLengthError::Mismatch {
                declared: -1,
                actual: 0
            })
        );
    }

    #[test]
    fn a_stream_prefix_is_checked_before_its_frame_is_there() {
        assert_eq!(read_length(b"", 0), Ok(None));
        assert_eq!(read_length(b"\0\0\0", 0), Ok(None));
        assert_eq!(read_length(b"\0\0\0\0", 0), Ok(Some(0)));
        assert_eq!(
            read_length(&i32::MIN.to_be_bytes(), usize::MAX),
            Err(FrameLengthError::Negative(i32::MIN))
        );
        assert_eq!(
            read_length(&17_i32.to_be_bytes(), 16),
            Err(FrameLengthError::TooLarge { len: 17, max: 16 })
        );
    }

    #[test]
    fn prefix_too_large_for_an_int32() {
        assert_eq!(length_prefix(i32::MAX as usize), Ok(i32::MAX.to_be_bytes()));
        assert_eq!(
            length_prefix(i32::MAX as usize + 1),
            Err(FrameLengthError::TooLarge {
                len: i32::MAX as usize + 1,
                max: i32::MAX as usize
            })
        );
    }
}

//! The error of the I/O adapters: the stream failed, a length prefix is invalid, or
//! the stream ended inside a frame.

use std::io::{self, ErrorKind};

use kwire_messages::frame::FrameLengthError;

/// Why a frame could not be read or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FrameIoError {
    /// The stream failed.
    #[error("frame I/O failed: {0}")]
    Io(#[from] io::Error),
    /// A length prefix is invalid (negative, or above the maximum frame size, or too
    /// large to write).
    #[error(transparent)]
    Length(#[from] FrameLengthError),
    /// The stream ended inside a frame (or inside its length prefix).
    #[error("stream ended inside a frame, with {buffered} bytes of it buffered")]
    UnexpectedEof {
        /// The bytes of the incomplete frame (prefix included) that had arrived.
        buffered: usize,
    },
}

impl From<FrameIoError> for io::Error {
    /// I/O errors come back as they were; an invalid prefix becomes
    /// [`ErrorKind::InvalidData`] and an end of stream inside a frame
    /// [`ErrorKind::UnexpectedEof`], with the [`FrameIoError`] as their source.
    fn from(error: FrameIoError) -> Self {
        match error {
            FrameIoError::Io(error) => error,
            error @ FrameIoError::Length(_) => io::Error::new(ErrorKind::InvalidData, error),
            error @ FrameIoError::UnexpectedEof { .. } => {
                io::Error::new(ErrorKind::UnexpectedEof, error)
            }
        }
    }
}

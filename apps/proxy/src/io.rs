//! Either side of a pair as a read half and a write half, whether it is plain TCP
//! or TLS over it, so that forwarding is written once.
//!
//! Boxed rather than generic: four combinations (TLS or not on each side) would
//! otherwise compile the forwarding four times over, and a virtual call per read
//! or write is nothing beside the decoding every frame gets.

use std::io;

use kwire_net::server::{Frame, FrameReader, ServerError};
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;
use tracing::debug;

/// The reading half of a connection.
pub type Reader = Box<dyn AsyncRead + Send + Unpin>;

/// The writing half of a connection.
pub type Writer = Box<dyn AsyncWrite + Send + Unpin>;

/// A plain TCP stream's halves: TCP splits without a lock between them.
pub fn split_tcp(stream: TcpStream) -> (Reader, Writer) {
    let (read, write) = stream.into_split();
    (Box::new(read), Box::new(write))
}

/// Any other stream's halves (TLS: one session that both halves share).
pub fn split<S: AsyncRead + AsyncWrite + Send + 'static>(stream: S) -> (Reader, Writer) {
    let (read, write) = tokio::io::split(stream);
    (Box::new(read), Box::new(write))
}

/// Writes a whole frame and flushes it: TLS holds what is written in its buffer
/// until flushed (on TCP the flush does nothing).
pub async fn write_frame(to: &mut Writer, frame: &[u8]) -> io::Result<()> {
    to.write_all(frame).await?;
    to.flush().await
}

/// The next frame from `from`, `None` once the peer (`who`, for the log) has
/// closed its side: between frames, or inside one (then logged: nothing can be
/// done with half a frame).
///
/// A TLS peer that hangs up without close_notify is an end too, between frames:
/// most clients do that, and Kafka's length prefixes, not TLS, tell a frame cut
/// short (the reader's own `UnexpectedEof`).
pub async fn next_frame(
    from: &mut FrameReader<Reader>,
    who: &str,
) -> Result<Option<Frame>, ServerError> {
    match from.next_frame().await {
        Ok(frame) => Ok(frame),
        Err(ServerError::UnexpectedEof { buffered }) => {
            debug!(bytes = buffered, "{who} closed mid-frame");
            Ok(None)
        }
        Err(ServerError::Io(error))
            if error.kind() == io::ErrorKind::UnexpectedEof && from.buffered() == 0 =>
        {
            Ok(None)
        }
        Err(error) => Err(error),
    }
}

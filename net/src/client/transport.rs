//! The two tasks that own a connection's socket: one writes the frames callers
//! hand it, in order, whole; the other reads frames and hands each to its caller.
//! A caller's future can then be dropped at any point without leaving half a
//! frame on the wire.

use std::sync::Arc;

use kwire::wire::ChunkedBytes;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadHalf, WriteHalf};
use tokio::sync::mpsc;

use super::in_flight::{InFlight, Routed};
use crate::splitter::FrameSplitter;

/// A byte stream a connection runs over: TCP, TLS over TCP, or anything else
/// (a `tokio::io::duplex` in tests).
pub trait Transport: AsyncRead + AsyncWrite + Send + Unpin + 'static {}

impl<T: AsyncRead + AsyncWrite + Send + Unpin + 'static> Transport for T {}

/// Read in chunks of at least this much, so that small frames take few reads.
const READ_CHUNK: usize = 64 * 1024;

/// Writes each frame whole, its chunks gathered into as few writes as the socket
/// takes (record batches go from the caller's memory, never copied), flushing once
/// the queue is empty (TLS holds bytes until flushed); ends when every sender is
/// gone or a write fails.
pub(crate) async fn write_frames<T: Transport>(
    mut frames: mpsc::Receiver<ChunkedBytes>,
    mut socket: WriteHalf<T>,
    in_flight: Arc<InFlight>,
) {
    while let Some(mut frame) = frames.recv().await {
        let mut written = socket.write_all_buf(&mut frame).await;
        if written.is_ok() && frames.is_empty() {
            written = socket.flush().await;
        }
        if let Err(error) = written {
            in_flight.close(format!("writing to the broker failed: {error}"));
            return;
        }
    }
    let _ = socket.shutdown().await;
}

/// Reads frames (none longer than `max_frame_size`) and routes each to its
/// caller, until the broker closes the connection or breaks the protocol.
pub(crate) async fn read_frames<T: Transport>(
    mut socket: ReadHalf<T>,
    in_flight: Arc<InFlight>,
    max_frame_size: usize,
) {
    let mut splitter = FrameSplitter::with_max_frame_size(max_frame_size);
    let reason = loop {
        match splitter.next_frame() {
            Ok(Some(frame)) => match in_flight.route(frame) {
                Ok(Routed::Delivered) => continue,
                Ok(Routed::Stranger(id)) => {
                    break format!(
                        "the broker answered correlation id {id}, which no request in flight has"
                    )
                }
                Err(error) => break format!("a response frame is malformed: {error}"),
            },
            Ok(None) => {}
            Err(error) => break format!("a response frame is refused: {error}"),
        }
        // The prefix was checked against the maximum, so reserving what the
        // frame still needs is bounded.
        let wanted = splitter.bytes_needed().max(READ_CHUNK);
        splitter.buffer_mut().reserve(wanted);
        match socket.read_buf(splitter.buffer_mut()).await {
            Ok(0) if splitter.buffered() == 0 => break "the broker closed the connection".into(),
            Ok(0) => {
                break format!(
                    "the broker closed the connection inside a frame, {} bytes of it read",
                    splitter.buffered()
                )
            }
            Ok(_) => {}
            Err(error) => break format!("reading from the broker failed: {error}"),
        }
    };
    in_flight.close(reason);
}

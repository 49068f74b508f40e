//! A TCP stream that keeps a copy of every byte the broker sends, so that each
//! answer can be judged byte by byte after our client decoded it: the sweep
//! sends one request at a time, so what the tap holds after an answer is that
//! answer's frame, length prefix included.

use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use bytes::{Bytes, BytesMut};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

/// What the broker sent since the last [`Received::take`].
#[derive(Debug, Clone, Default)]
pub struct Received(Arc<Mutex<BytesMut>>);

impl Received {
    /// The bytes received since the last call, and forgets them.
    pub fn take(&self) -> Bytes {
        let mut bytes = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        bytes.split().freeze()
    }

    fn keep(&self, bytes: &[u8]) {
        let mut kept = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        kept.extend_from_slice(bytes);
    }
}

/// A TCP stream whose reads are copied into a [`Received`].
#[derive(Debug)]
pub struct Tap {
    stream: TcpStream,
    received: Received,
}

impl Tap {
    /// Connects to `address`; the copy goes to the [`Received`] returned.
    pub async fn connect(address: &str) -> io::Result<(Tap, Received)> {
        let stream = TcpStream::connect(address).await?;
        stream.set_nodelay(true)?;
        let received = Received::default();
        Ok((
            Tap {
                stream,
                received: received.clone(),
            },
            received,
        ))
    }
}

impl AsyncRead for Tap {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let this = &mut *self;
        let polled = Pin::new(&mut this.stream).poll_read(cx, buf);
        if let Poll::Ready(Ok(())) = polled {
            this.received.keep(&buf.filled()[before..]);
        }
        polled
    }
}

impl AsyncWrite for Tap {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

//! Reading request frames from a tokio [`AsyncRead`] within a memory budget, a
//! frame size limit, a smaller one before authentication, and an idle timeout.
//!
//! The frame rule is [`kwire_messages::frame::read_length`], the one the
//! [`splitter`](crate::splitter) uses. The reader reads the 4-byte prefix alone and
//! checks it. Before the connection has authenticated (on a listener that asks for
//! authentication), a frame is at most `sasl.server.max.receive.size` and takes
//! nothing from the [`MemoryBudget`]: a stranger's bytes are bounded by that size
//! times the connections, and cannot hold the memory that logged-in clients'
//! requests need. Afterwards, the frame's length is taken from the budget at the
//! prefix (waiting while it is spent: reading pauses, the client is pushed back by
//! TCP), as Kafka's memory pool takes it. Either way the buffer grows as the bytes
//! arrive, never to more than the frame, so that a prefix alone costs no memory.

use std::ops::Deref;
use std::time::Duration;

use bytes::{Bytes, BytesMut};
use kwire_messages::frame::{read_length, FrameLengthError, PREFIX_LEN};
use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::time::Instant;

use super::budget::{BudgetPermit, MemoryBudget};
use super::connections::ConnectionSlot;
use super::error::ServerError;
use crate::splitter::DEFAULT_MAX_FRAME_SIZE;

/// The first step of a frame's buffer; it doubles from there as bytes arrive.
/// Larger than any ordinary small request, so those take one allocation.
const FIRST_STEP: usize = 16 << 10;

/// One whole frame (length prefix included) and the budget it holds, given back
/// when the frame is dropped: keep it until the request is answered or forwarded.
#[derive(Debug)]
pub struct Frame {
    bytes: Bytes,
    permit: BudgetPermit,
}

impl Frame {
    /// The frame's bytes, prefix included.
    pub fn bytes(&self) -> &Bytes {
        &self.bytes
    }

    /// The bytes and the permit, to release them separately (drop the permit once
    /// nothing holds a copy of the bytes).
    pub fn into_parts(self) -> (Bytes, BudgetPermit) {
        (self.bytes, self.permit)
    }
}

impl Deref for Frame {
    type Target = Bytes;

    fn deref(&self) -> &Bytes {
        &self.bytes
    }
}

/// Reads whole frames from `R` with bounded memory and waits.
///
/// - Frame size: a prefix above [`max_frame_size`](Self::max_frame_size) (Kafka's
///   `socket.request.max.bytes`, by default
///   [`DEFAULT_MAX_FRAME_SIZE`]) or negative is an error before anything is
///   buffered for it.
/// - Before authentication ([`with_authentication`](Self::with_authentication),
///   until [`authenticated`](Self::authenticated)): a prefix above
///   `sasl.server.max.receive.size` is [`ServerError::TooLargeBeforeAuthentication`]
///   before anything is buffered for it, and frames take nothing from the
///   budget (nor from its reserve), as Kafka's broker reads them outside its
///   memory pool.
/// - Memory: once authenticated (or where nobody authenticates), a frame's bytes
///   are taken from the [`MemoryBudget`] when its prefix has been read (waiting
///   while it is spent: reading pauses and TCP pushes back on the client).
///   Always, the frame's buffer grows as its bytes arrive, doubling from a small
///   first step, and never beyond the frame: a peer that declares 100 MiB and
///   sends nothing more costs a few bytes of memory, not 100 MiB.
/// - Idle timeout ([`with_idle_timeout`](Self::with_idle_timeout), Kafka's
///   `connections.max.idle.ms`): the connection fails with [`ServerError::Idle`]
///   when no frame has completed for that long, counted from the last complete
///   frame (or from the reader's creation), so that a client sending one byte now
///   and then is closed as surely as a silent one. A wait for the budget counts:
///   otherwise a peer that sends a prefix and stops while the budget is spent
///   could wait for ever. Time the server spends answering (until the next
///   `next_frame` call) does not count: that wait is the server's.
/// - Eviction: given the connection's [`ConnectionSlot`], the reader reports each
///   request and its login to it, and fails with [`ServerError::Evicted`] when
///   the slot is chosen to make room.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use std::time::Duration;
/// use kwire_net::server::{FrameReader, MemoryBudget, ServerError};
///
/// let budget = MemoryBudget::new(1 << 20);
/// let wire: &[u8] = b"\0\0\0\x02hi\0\0\0\x01";
/// let mut reader = FrameReader::new(wire, budget.clone())
///     .with_max_frame_size(1024)
///     .with_idle_timeout(Some(Duration::from_secs(600)));
/// let frame = reader.next_frame().await.unwrap().unwrap();
/// assert_eq!(&frame[..], b"\0\0\0\x02hi");
/// assert_eq!(budget.available(), (1 << 20) - 6); // held while the frame lives
/// drop(frame);
/// assert_eq!(budget.available(), 1 << 20);
/// // The stream ends inside the next frame.
/// let error = reader.next_frame().await.unwrap_err();
/// assert!(matches!(error, ServerError::UnexpectedEof { buffered: 4 }));
/// # }
/// ```
#[derive(Debug)]
pub struct FrameReader<R> {
    io: R,
    buf: BytesMut,
    permit: Option<BudgetPermit>,
    budget: MemoryBudget,
    max_frame_size: usize,
    /// `sasl.server.max.receive.size` while the connection has not authenticated;
    /// `None` once it has, or where nobody authenticates.
    before_authentication: Option<usize>,
    idle_timeout: Option<Duration>,
    last_frame: Instant,
    /// A frame was returned and the caller has not asked for the next one yet.
    answering: bool,
    slot: Option<ConnectionSlot>,
}

impl<R: AsyncRead + Unpin> FrameReader<R> {
    /// A reader of `io` taking frames' bytes from `budget`, with the
    /// [default maximum frame size](DEFAULT_MAX_FRAME_SIZE) and no idle timeout.
    pub fn new(io: R, budget: MemoryBudget) -> Self {
        FrameReader {
            io,
            buf: BytesMut::new(),
            permit: None,
            budget,
            max_frame_size: DEFAULT_MAX_FRAME_SIZE,
            before_authentication: None,
            idle_timeout: None,
            last_frame: Instant::now(),
            answering: false,
            slot: None,
        }
    }

    /// Refuses frames longer than `max_frame_size` bytes (not counting the prefix).
    pub fn with_max_frame_size(mut self, max_frame_size: usize) -> Self {
        self.max_frame_size = max_frame_size;
        self
    }

    /// Refuses frames longer than a server's
    /// [`DecodeLimits::max_frame_size`](kwire::DecodeLimits::max_frame_size), so
    /// that the frames it reads and the requests decoded from them keep to one
    /// set of limits.
    ///
    /// ```
    /// use kwire::DecodeLimits;
    /// use kwire_net::server::{FrameReader, MemoryBudget};
    ///
    /// let limits = DecodeLimits::default().with_max_frame_size(64 * 1024);
    /// let reader = FrameReader::new(&b""[..], MemoryBudget::new(1 << 20)).with_limits(&limits);
    /// assert_eq!(reader.max_frame_size(), 64 * 1024);
    /// ```
    pub fn with_limits(self, limits: &kwire::DecodeLimits) -> Self {
        self.with_max_frame_size(limits.max_frame_size())
    }

    /// The connection must authenticate: until [`authenticated`](Self::authenticated)
    /// is called, frames are at most `max_receive_size` bytes (Kafka's
    /// `sasl.server.max.receive.size`, 512 KiB by default), a larger prefix is
    /// [`ServerError::TooLargeBeforeAuthentication`], and frames take nothing
    /// from the budget.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// use kwire_net::server::{FrameReader, MemoryBudget, ServerError};
    ///
    /// let budget = MemoryBudget::new(1 << 20);
    /// // A stranger declares 100 MiB.
    /// let wire = (100_i32 << 20).to_be_bytes();
    /// let mut reader = FrameReader::new(&wire[..], budget.clone()).with_authentication(512 << 10);
    /// let error = reader.next_frame().await.unwrap_err();
    /// assert!(matches!(error, ServerError::TooLargeBeforeAuthentication { .. }));
    /// assert_eq!(budget.available(), 1 << 20);
    /// # }
    /// ```
    pub fn with_authentication(mut self, max_receive_size: usize) -> Self {
        self.before_authentication = Some(max_receive_size);
        self
    }

    /// The connection has authenticated: frames may be as large as
    /// [`max_frame_size`](Self::max_frame_size), are paid for from the budget, and
    /// the connection's slot is marked as logged in (never evicted for a
    /// newcomer). Call it once the login's last answer is decided, before the
    /// next frame is read.
    pub fn authenticated(&mut self) {
        if self.before_authentication.take().is_some() {
            if let Some(slot) = &self.slot {
                slot.authenticated();
            }
        }
    }

    /// Whether frames are still held to the limit before authentication.
    pub fn is_authenticating(&self) -> bool {
        self.before_authentication.is_some()
    }

    /// Fails with [`ServerError::Idle`] when no frame completes for `idle_timeout`
    /// (`None`: never).
    pub fn with_idle_timeout(mut self, idle_timeout: Option<Duration>) -> Self {
        self.idle_timeout = idle_timeout;
        self
    }

    /// Counts idle time from `since` instead of from the reader's creation: the
    /// client's last activity, when the server did work of its own between reading
    /// from it and creating the reader (the proxy's connection upstream). Time the
    /// server spent is not the client's to be idle in, nor a grace it earns.
    ///
    /// ```
    /// use kwire_net::server::{FrameReader, MemoryBudget};
    /// use std::time::Duration;
    /// use tokio::time::Instant;
    ///
    /// let accepted = Instant::now();
    /// // ... the server connects somewhere else first ...
    /// let reader = FrameReader::new(&b""[..], MemoryBudget::new(1 << 20))
    ///     .with_idle_timeout(Some(Duration::from_secs(600)))
    ///     .with_idle_since(accepted);
    /// # drop(reader);
    /// ```
    pub fn with_idle_since(mut self, since: Instant) -> Self {
        self.last_frame = since;
        self
    }

    /// Reports requests to `slot`, and fails with [`ServerError::Evicted`] when it
    /// is evicted. The slot is held (and its place taken) as long as the reader.
    pub fn with_slot(mut self, slot: ConnectionSlot) -> Self {
        self.slot = Some(slot);
        self
    }

    /// The largest frame accepted, in bytes (not counting the prefix).
    pub fn max_frame_size(&self) -> usize {
        self.max_frame_size
    }

    /// The connection's slot, if it was given one.
    pub fn slot(&self) -> Option<&ConnectionSlot> {
        self.slot.as_ref()
    }

    /// The bytes of an incomplete frame buffered now.
    pub fn buffered(&self) -> usize {
        self.buf.len()
    }

    /// The next whole frame, or `Ok(None)` when the stream ends between frames.
    ///
    /// Cancel-safe: bytes and budget taken so far stay with the reader.
    pub async fn next_frame(&mut self) -> Result<Option<Frame>, ServerError> {
        if std::mem::take(&mut self.answering) {
            // The time the server took to answer is not the client's idleness (a
            // Fetch may wait for data): the clock starts again now.
            self.last_frame = Instant::now();
            if let Some(slot) = &self.slot {
                slot.request_done();
            }
        }
        loop {
            let want = match self.frame_length()? {
                // The prefix alone first: nothing beyond it is read before the
                // frame is known to be allowed and, once authenticated, covered.
                None => PREFIX_LEN - self.buf.len(),
                Some(len) => {
                    let total = PREFIX_LEN + len;
                    if self.permit.is_none() {
                        self.permit = Some(match self.before_authentication {
                            // A stranger's frame is bounded, not budgeted: the
                            // budget is for the requests of those logged in.
                            Some(_) => BudgetPermit::empty(),
                            None => self.take_budget(total).await?,
                        });
                    }
                    if self.buf.len() == total {
                        return Ok(Some(self.complete()));
                    }
                    total - self.buf.len()
                }
            };
            if self.read(want).await? == 0 {
                if self.buf.is_empty() {
                    return Ok(None);
                }
                return Err(ServerError::UnexpectedEof {
                    buffered: self.buf.len(),
                });
            }
        }
    }

    /// The length of the frame in the buffer, once its prefix is there, checked
    /// against the limit that holds now.
    fn frame_length(&self) -> Result<Option<usize>, ServerError> {
        let Some(max_receive) = self.before_authentication else {
            return Ok(read_length(&self.buf, self.max_frame_size)?);
        };
        match read_length(&self.buf, self.max_frame_size.min(max_receive)) {
            Err(FrameLengthError::TooLarge { len, .. }) if len > max_receive => {
                Err(ServerError::TooLargeBeforeAuthentication {
                    len,
                    max: max_receive,
                })
            }
            other => Ok(other?),
        }
    }

    fn complete(&mut self) -> Frame {
        // The frame takes the whole allocation with it: a buffer left pointing
        // into it would take it back for the next frame and keep a large frame's
        // memory for the connection's life, beyond what any permit covers.
        let bytes = std::mem::take(&mut self.buf).freeze();
        let permit = self.permit.take().unwrap_or_else(BudgetPermit::empty);
        self.last_frame = Instant::now();
        self.answering = true;
        if let Some(slot) = &self.slot {
            slot.request_started();
        }
        Frame { bytes, permit }
    }

    /// Takes `total` bytes of budget, waiting (and watching for eviction and the
    /// idle deadline) while it is spent.
    async fn take_budget(&mut self, total: usize) -> Result<BudgetPermit, ServerError> {
        if let Some(permit) = self.budget.try_acquire(total)? {
            return Ok(permit);
        }
        let deadline = self.idle_deadline();
        tokio::select! {
            permit = self.budget.acquire(total) => Ok(permit?),
            () = evicted(self.slot.as_ref()) => Err(ServerError::Evicted),
            idle = until(deadline) => Err(ServerError::Idle(idle)),
        }
    }

    fn idle_deadline(&self) -> Option<(Instant, Duration)> {
        self.idle_timeout.map(|idle| (self.last_frame + idle, idle))
    }

    /// Reads at most `want` bytes, within the idle deadline and unless evicted,
    /// growing the buffer by a bounded step when it is full.
    async fn read(&mut self, want: usize) -> Result<usize, ServerError> {
        // Also when the buffer is smaller than the first step would make it (the
        // whole frame, if smaller): the prefix's small allocation has a few
        // bytes to spare, and reading the body into just those cost a read (a
        // system call) per frame.
        let first_step = (self.buf.len() + want).min(FIRST_STEP);
        if self.buf.capacity() == self.buf.len() || self.buf.capacity() < first_step {
            // Doubling what has arrived, from a small first step: memory follows
            // the bytes, and the copies add up to less than the frame.
            self.buf.reserve(want.min(self.buf.len().max(FIRST_STEP)));
        }
        let deadline = self.idle_deadline();
        let mut limited = (&mut self.io).take(want as u64);
        tokio::select! {
            read = limited.read_buf(&mut self.buf) => Ok(read?),
            () = evicted(self.slot.as_ref()) => Err(ServerError::Evicted),
            idle = until(deadline) => Err(ServerError::Idle(idle)),
        }
    }
}

/// Completes when `slot` is evicted; never without a slot.
async fn evicted(slot: Option<&ConnectionSlot>) {
    match slot {
        Some(slot) => slot.evicted().await,
        None => std::future::pending().await,
    }
}

/// Completes at the deadline with the timeout it ends; never without one.
async fn until(deadline: Option<(Instant, Duration)>) -> Duration {
    match deadline {
        Some((at, idle)) => {
            tokio::time::sleep_until(at).await;
            idle
        }
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::ConnectionLimits;
    use kwire_messages::frame::FrameLengthError;
    use std::net::{IpAddr, Ipv4Addr};
    use tokio::io::AsyncWriteExt;

    fn frame(contents: &[u8]) -> Vec<u8> {
        let mut out = (contents.len() as i32).to_be_bytes().to_vec();
        out.extend_from_slice(contents);
        out
    }

    /// Counts the reads that returned bytes: each is a system call on a socket.
    struct CountingReads<'a> {
        wire: &'a [u8],
        reads: usize,
    }

    impl AsyncRead for CountingReads<'_> {
        fn poll_read(
            mut self: std::pin::Pin<&mut Self>,
            cx: &mut std::task::Context<'_>,
            buf: &mut tokio::io::ReadBuf<'_>,
        ) -> std::task::Poll<std::io::Result<()>> {
            let before = buf.filled().len();
            let mut wire = self.wire;
            let polled = std::pin::Pin::new(&mut wire).poll_read(cx, buf);
            self.wire = wire;
            if buf.filled().len() > before {
                self.reads += 1;
            }
            polled
        }
    }

    /// With the whole frame there to read, a frame takes two reads: its prefix
    /// alone, then its body. The buffer the prefix was read into had room for a
    /// few bytes more, and the body's first read used to fill just those (4 bytes
    /// of a 16 KB Produce) before the buffer grew: a system call per frame, a
    /// third of the proxy's reads (issue 30's benchmark).
    #[tokio::test]
    async fn a_frame_whose_bytes_have_arrived_takes_two_reads() {
        // A Produce's response, a Produce of 15 records of 1 KiB (the producer's
        // 16 KiB batch), a frame of exactly the first step.
        for size in [1, 60, 15_700, FIRST_STEP - 4] {
            let wire = frame(&vec![7; size]);
            let mut io = CountingReads {
                wire: &wire,
                reads: 0,
            };
            let mut reader = FrameReader::new(&mut io, MemoryBudget::new(1 << 20));
            let read = reader.next_frame().await.unwrap().unwrap();
            assert_eq!(read.len(), 4 + size);
            drop(read);
            drop(reader);
            assert_eq!(io.reads, 2, "{size} B");
        }
    }

    /// A large frame, once answered and dropped, leaves the connection nothing
    /// of its allocation: the next prefix is read into a new small buffer, not
    /// into the old one taken back (which kept 70 KB, or 100 MiB, per connection
    /// beyond its permit).
    #[tokio::test]
    async fn a_large_frame_takes_its_memory_with_it() {
        let mut wire = frame(&[7; 70_000]);
        wire.extend_from_slice(b"\0\0");
        let mut reader = FrameReader::new(&wire[..], MemoryBudget::new(1 << 20));
        drop(reader.next_frame().await.unwrap().unwrap());
        let error = reader.next_frame().await.unwrap_err();
        assert!(matches!(error, ServerError::UnexpectedEof { buffered: 2 }));
        assert!(reader.buf.capacity() < 1024, "{}", reader.buf.capacity());
    }

    #[tokio::test]
    async fn reads_frames_and_ends_between_them() {
        let mut wire = frame(b"one");
        wire.extend(frame(b""));
        wire.extend(frame(&[7; 70_000]));
        let budget = MemoryBudget::new(1 << 20);
        let mut reader = FrameReader::new(&wire[..], budget.clone());
        assert_eq!(&reader.next_frame().await.unwrap().unwrap()[4..], b"one");
        assert_eq!(reader.next_frame().await.unwrap().unwrap().len(), 4);
        let big = reader.next_frame().await.unwrap().unwrap();
        assert_eq!((big.len(), big.into_parts().1.bytes()), (70_004, 70_004));
        assert!(reader.next_frame().await.unwrap().is_none());
        assert_eq!(budget.available(), 1 << 20);
    }

    #[tokio::test]
    async fn bad_prefixes_are_refused_before_buffering() {
        let wire = 1000_i32.to_be_bytes();
        let budget = MemoryBudget::new(1 << 20);
        let mut reader = FrameReader::new(&wire[..], budget).with_max_frame_size(999);
        assert_eq!(reader.max_frame_size(), 999);
        let limits = kwire::DecodeLimits::default().with_max_frame_size(999);
        assert_eq!(
            FrameReader::new(&wire[..], MemoryBudget::new(10))
                .with_limits(&limits)
                .max_frame_size(),
            999
        );
        let error = reader.next_frame().await.unwrap_err();
        assert!(
            matches!(
                error,
                ServerError::Length(FrameLengthError::TooLarge {
                    len: 1000,
                    max: 999
                })
            ),
            "{error:?}"
        );
        let wire = (-5_i32).to_be_bytes();
        let mut reader = FrameReader::new(&wire[..], MemoryBudget::new(10));
        assert!(matches!(
            reader.next_frame().await,
            Err(ServerError::Length(FrameLengthError::Negative(-5)))
        ));
        // Legal in size, but more than the whole budget: an error, not a wait.
        let wire = frame(&[0; 20]);
        let mut reader = FrameReader::new(&wire[..], MemoryBudget::new(10));
        assert!(matches!(
            reader.next_frame().await,
            Err(ServerError::Budget(_))
        ));
    }

    /// A frame's body is not read while the budget is spent: the reader waits, and
    /// carries on when the budget is given back.
    #[tokio::test(start_paused = true)]
    async fn reading_pauses_while_the_budget_is_spent() {
        let budget = MemoryBudget::new(100);
        let held = budget.acquire(100).await.unwrap();
        let (mut client, server) = tokio::io::duplex(1024);
        client.write_all(&frame(&[1; 50])).await.unwrap();
        let mut reader = FrameReader::new(server, budget.clone())
            .with_idle_timeout(Some(Duration::from_secs(600)));
        let task = tokio::spawn(async move {
            let frame = reader.next_frame().await;
            (frame.map(|f| f.map(|f| f.len())), reader.buffered())
        });
        tokio::time::sleep(Duration::from_secs(60)).await;
        assert!(!task.is_finished());
        drop(held);
        let (frame, buffered) = task.await.unwrap();
        assert_eq!(frame.unwrap(), Some(54));
        assert_eq!(buffered, 0);
    }

    /// Issue 29: a peer that sends a prefix and stops, while the budget is spent,
    /// waited for ever (the wait did not count as idle). It counts now.
    #[tokio::test(start_paused = true)]
    async fn a_wait_for_the_budget_counts_as_idle() {
        let budget = MemoryBudget::new(100);
        let _held = budget.acquire(100).await.unwrap();
        let (mut client, server) = tokio::io::duplex(1024);
        client.write_all(&50_i32.to_be_bytes()).await.unwrap();
        let idle = Duration::from_secs(5);
        let mut reader = FrameReader::new(server, budget).with_idle_timeout(Some(idle));
        let started = Instant::now();
        let error = reader.next_frame().await.unwrap_err();
        assert!(
            matches!(error, ServerError::Idle(d) if d == idle),
            "{error:?}"
        );
        assert_eq!(started.elapsed(), idle);
    }

    /// Issue 29: one unauthenticated SaslAuthenticate of 100 MiB took gigabytes,
    /// and six prefixes declaring 100 MiB held the whole request budget. Before
    /// authentication a frame is at most `sasl.server.max.receive.size`, refused
    /// at its prefix, and takes nothing from the budget.
    #[tokio::test]
    async fn before_authentication_frames_are_small_and_not_budgeted() {
        let budget = MemoryBudget::with_reserve(1 << 20, 1024, 4096);
        let declared = (100_i32 << 20).to_be_bytes();
        let mut reader = FrameReader::new(&declared[..], budget.clone()).with_authentication(512);
        assert!(reader.is_authenticating());
        let error = reader.next_frame().await.unwrap_err();
        assert!(
            matches!(
                error,
                ServerError::TooLargeBeforeAuthentication {
                    len: 104_857_600,
                    max: 512
                }
            ),
            "{error:?}"
        );
        assert_eq!(reader.buffered(), 4);

        let mut wire = frame(&[1; 500]);
        wire.extend(frame(&[2; 600]));
        let mut reader = FrameReader::new(&wire[..], budget.clone()).with_authentication(512);
        let first = reader.next_frame().await.unwrap().unwrap();
        assert_eq!(first.len(), 504);
        // Neither the shared budget nor the reserve paid for it.
        assert_eq!(budget.available(), 1 << 20);
        assert_eq!(budget.reserve_available(), 4096);
        // Logged in: larger frames are allowed, and paid for.
        reader.authenticated();
        assert!(!reader.is_authenticating());
        let second = reader.next_frame().await.unwrap().unwrap();
        assert_eq!(second.len(), 604);
        assert_eq!(budget.reserve_available(), 4096 - 604);
        // A frame over the limit before authentication is refused though it is
        // within the frame size after.
        let wire = frame(&[3; 600]);
        let mut reader = FrameReader::new(&wire[..], budget).with_authentication(512);
        assert!(matches!(
            reader.next_frame().await,
            Err(ServerError::TooLargeBeforeAuthentication { len: 600, .. })
        ));
    }

    /// Issue 29: a prefix declaring 100 MiB and a few bytes made the server
    /// buffer tens of MiB. The buffer follows the bytes that arrive.
    #[tokio::test]
    async fn the_buffer_grows_with_the_bytes_not_the_declared_length() {
        let (mut client, server) = tokio::io::duplex(1 << 20);
        let mut head = (100_i32 << 20).to_be_bytes().to_vec();
        head.extend_from_slice(&[0; 10]);
        client.write_all(&head).await.unwrap();
        let budget = MemoryBudget::new(200 << 20);
        let mut reader = FrameReader::new(server, budget);
        let pending = tokio::time::timeout(Duration::from_millis(50), reader.next_frame()).await;
        assert!(pending.is_err(), "the frame is not complete");
        assert_eq!(reader.buffered(), 14);
        assert!(
            reader.buf.capacity() <= 2 * FIRST_STEP,
            "{}",
            reader.buf.capacity()
        );
        // A megabyte more: the buffer holds about what came, not the 100 MiB.
        client.write_all(&[0; 1 << 20]).await.unwrap();
        let pending = tokio::time::timeout(Duration::from_millis(200), reader.next_frame()).await;
        assert!(pending.is_err());
        assert_eq!(reader.buffered(), 14 + (1 << 20));
        assert!(
            reader.buf.capacity() <= 4 << 20,
            "{}",
            reader.buf.capacity()
        );
    }

    /// The idle clock runs from the last complete frame: a byte every so often does
    /// not keep a connection open.
    #[tokio::test(start_paused = true)]
    async fn a_dribbling_client_is_closed_when_idle() {
        let (mut client, server) = tokio::io::duplex(1024);
        let idle = Duration::from_secs(10);
        let mut reader =
            FrameReader::new(server, MemoryBudget::new(1 << 20)).with_idle_timeout(Some(idle));
        let dribble = tokio::spawn(async move {
            for byte in frame(&[9; 100]) {
                if client.write_all(&[byte]).await.is_err() {
                    return;
                }
                tokio::time::sleep(Duration::from_secs(3)).await;
            }
        });
        let started = Instant::now();
        let error = reader.next_frame().await.unwrap_err();
        assert!(
            matches!(error, ServerError::Idle(d) if d == idle),
            "{error:?}"
        );
        assert_eq!(started.elapsed(), idle);
        drop(reader);
        dribble.await.unwrap();
    }

    /// The proxy connects upstream before it reads from its client: the idle clock
    /// runs from the accept, not from when the reader was made.
    #[tokio::test(start_paused = true)]
    async fn the_idle_clock_can_start_before_the_reader() {
        let (_client, server) = tokio::io::duplex(1024);
        let accepted = Instant::now();
        tokio::time::sleep(Duration::from_secs(4)).await;
        let mut reader = FrameReader::new(server, MemoryBudget::new(1 << 20))
            .with_idle_timeout(Some(Duration::from_secs(10)))
            .with_idle_since(accepted);
        let error = reader.next_frame().await.unwrap_err();
        assert!(matches!(error, ServerError::Idle(_)), "{error:?}");
        assert_eq!(accepted.elapsed(), Duration::from_secs(10));
    }

    #[tokio::test(start_paused = true)]
    async fn the_idle_clock_restarts_with_each_frame() {
        let (mut client, server) = tokio::io::duplex(1024);
        let mut reader = FrameReader::new(server, MemoryBudget::new(1 << 20))
            .with_idle_timeout(Some(Duration::from_secs(10)));
        for _ in 0..5 {
            tokio::time::sleep(Duration::from_secs(8)).await;
            client.write_all(&frame(b"ping")).await.unwrap();
            assert!(reader.next_frame().await.unwrap().is_some());
        }
        // The last frame is "answered" for a minute, past the timeout: that is the
        // server's time, not the client's idleness.
        tokio::time::sleep(Duration::from_secs(60)).await;
        let next = tokio::spawn(async move {
            let got = reader.next_frame().await.map(|f| f.is_some());
            (got, reader)
        });
        tokio::time::sleep(Duration::from_secs(8)).await;
        client.write_all(&frame(b"ping")).await.unwrap();
        let (got, mut reader) = next.await.unwrap();
        assert!(got.unwrap());
        drop(client);
        assert!(reader.next_frame().await.unwrap().is_none());
    }

    #[tokio::test]
    async fn an_evicted_reader_stops() {
        let limits = ConnectionLimits::new(1, 2);
        let local = IpAddr::V4(Ipv4Addr::LOCALHOST);
        let (_client, server) = tokio::io::duplex(1024);
        let mut reader = FrameReader::new(server, MemoryBudget::new(100))
            .with_slot(limits.admit(local).unwrap());
        assert!(reader.slot().is_some());
        let _newcomer = tokio::spawn({
            let limits = limits.clone();
            async move { limits.admit(local).map(|_| ()) }
        });
        assert!(matches!(
            reader.next_frame().await,
            Err(ServerError::Evicted)
        ));
        drop(reader);
        assert_eq!(limits.open(), 0);
    }
}

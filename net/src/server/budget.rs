//! A memory budget for request bytes in flight across connections: Kafka's
//! `queued.max.request.bytes` and its memory pool.
//!
//! Permits are bytes. A connection takes a frame's declared length (prefix
//! included) once the 4-byte prefix is read and before any of the body is buffered,
//! and gives it back when the [`BudgetPermit`] is dropped (the request answered or
//! forwarded, or the connection closed). While the budget is spent, taking waits:
//! the connection stops reading, and TCP's own flow control pushes back on the
//! client. Nothing is refused for want of memory, and nothing aborts.
//!
//! A budget that large frames can hold whole must not starve everyone else, so
//! small frames (at most [`small_frame_bytes`](MemoryBudget::small_frame_bytes))
//! come first from a separate reserve. Size the reserve as max connections × the
//! small frame size: each connection buffers one frame at a time, so then a small
//! frame never waits, however many 100 MiB frames hold the shared budget.

use std::sync::Arc;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::error::BudgetError;

/// A budget of bytes shared by connections; cheap to clone (clones share it).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use kwire_net::server::MemoryBudget;
///
/// // 1 MiB shared; frames up to 4 KiB come from a 64 KiB reserve first.
/// let budget = MemoryBudget::with_reserve(1 << 20, 4096, 64 << 10);
/// let big = budget.acquire(1 << 20).await.unwrap();
/// assert_eq!(budget.available(), 0);
/// // The shared budget is spent, yet a small frame is covered at once.
/// let small = budget.try_acquire(100).unwrap().expect("from the reserve");
/// assert_eq!(small.bytes(), 100);
/// drop(big);
/// assert_eq!(budget.available(), 1 << 20);
/// // A frame larger than the whole budget can never be covered.
/// assert!(budget.try_acquire(2 << 20).is_err());
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct MemoryBudget {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    shared: Arc<Semaphore>,
    shared_bytes: usize,
    reserve: Arc<Semaphore>,
    reserve_bytes: usize,
    small_frame_bytes: usize,
}

/// Bytes of a [`MemoryBudget`] held for one frame; given back when dropped.
#[derive(Debug)]
pub struct BudgetPermit {
    // None for an empty frame, which costs nothing.
    _permit: Option<OwnedSemaphorePermit>,
    bytes: usize,
}

impl BudgetPermit {
    /// A permit for nothing.
    pub(crate) fn empty() -> Self {
        BudgetPermit {
            _permit: None,
            bytes: 0,
        }
    }

    /// The bytes this permit holds.
    pub fn bytes(&self) -> usize {
        self.bytes
    }
}

/// tokio's semaphores hold at most this many permits.
fn clamp(bytes: usize) -> usize {
    bytes.min(Semaphore::MAX_PERMITS)
}

impl MemoryBudget {
    /// A budget of `bytes` with no reserve for small frames.
    pub fn new(bytes: usize) -> Self {
        Self::with_reserve(bytes, 0, 0)
    }

    /// A budget of `bytes` shared by all frames, plus `reserve_bytes` taken first by
    /// frames of at most `small_frame_bytes` (prefix included).
    pub fn with_reserve(bytes: usize, small_frame_bytes: usize, reserve_bytes: usize) -> Self {
        let (shared_bytes, reserve_bytes) = (clamp(bytes), clamp(reserve_bytes));
        MemoryBudget {
            inner: Arc::new(Inner {
                shared: Arc::new(Semaphore::new(shared_bytes)),
                shared_bytes,
                reserve: Arc::new(Semaphore::new(reserve_bytes)),
                reserve_bytes,
                small_frame_bytes: small_frame_bytes.min(reserve_bytes),
            }),
        }
    }

    /// The shared budget's size in bytes.
    pub fn bytes(&self) -> usize {
        self.inner.shared_bytes
    }

    /// The reserve's size in bytes.
    pub fn reserve_bytes(&self) -> usize {
        self.inner.reserve_bytes
    }

    /// The largest frame that the reserve covers.
    pub fn small_frame_bytes(&self) -> usize {
        self.inner.small_frame_bytes
    }

    /// The bytes of the shared budget not held now.
    pub fn available(&self) -> usize {
        self.inner.shared.available_permits()
    }

    /// The bytes of the reserve not held now.
    pub fn reserve_available(&self) -> usize {
        self.inner.reserve.available_permits()
    }

    fn is_small(&self, len: usize) -> bool {
        len <= self.inner.small_frame_bytes
    }

    fn check(&self, len: usize) -> Result<u32, BudgetError> {
        let largest = if self.is_small(len) {
            self.inner.shared_bytes.max(self.inner.reserve_bytes)
        } else {
            self.inner.shared_bytes
        };
        match u32::try_from(len) {
            Ok(n) if len <= largest => Ok(n),
            _ => Err(BudgetError::LargerThanBudget {
                len,
                budget: largest,
            }),
        }
    }

    fn permit(permit: OwnedSemaphorePermit, bytes: usize) -> BudgetPermit {
        BudgetPermit {
            _permit: Some(permit),
            bytes,
        }
    }

    /// Takes `len` bytes, waiting until they are free: the reserve first for a small
    /// frame, else the shared budget. Fails at once only if `len` exceeds the whole
    /// budget it could come from. Cancel-safe: dropping the future takes nothing.
    pub async fn acquire(&self, len: usize) -> Result<BudgetPermit, BudgetError> {
        if let Some(permit) = self.try_acquire(len)? {
            return Ok(permit);
        }
        let n = self.check(len)?;
        let inner = &self.inner;
        // A small frame (at most the reserve, which `with_reserve` ensures) may
        // take either; one larger than the shared budget only the reserve.
        let permit = if !self.is_small(len) {
            wait_for(&inner.shared, n).await
        } else if len > inner.shared_bytes {
            wait_for(&inner.reserve, n).await
        } else {
            tokio::select! {
                permit = wait_for(&inner.reserve, n) => permit,
                permit = wait_for(&inner.shared, n) => permit,
            }
        };
        Ok(Self::permit(permit, len))
    }

    /// Takes `len` bytes if they are free now; `Ok(None)` if not.
    pub fn try_acquire(&self, len: usize) -> Result<Option<BudgetPermit>, BudgetError> {
        let n = self.check(len)?;
        if n == 0 {
            return Ok(Some(BudgetPermit::empty()));
        }
        if self.is_small(len) {
            if let Ok(permit) = Arc::clone(&self.inner.reserve).try_acquire_many_owned(n) {
                return Ok(Some(Self::permit(permit, len)));
            }
        }
        Ok(Arc::clone(&self.inner.shared)
            .try_acquire_many_owned(n)
            .ok()
            .map(|permit| Self::permit(permit, len)))
    }
}

/// `n` permits of `semaphore`, once free. The semaphores are never closed, so
/// acquiring cannot fail; should it, waiting for ever is the conservative answer
/// (nothing is taken).
async fn wait_for(semaphore: &Arc<Semaphore>, n: u32) -> OwnedSemaphorePermit {
    match Arc::clone(semaphore).acquire_many_owned(n).await {
        Ok(permit) => permit,
        Err(_) => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test(start_paused = true)]
    async fn waits_while_spent_and_resumes_when_given_back() {
        let budget = MemoryBudget::new(100);
        let first = budget.acquire(80).await.unwrap();
        let waiting = {
            let budget = budget.clone();
            tokio::spawn(async move { budget.acquire(50).await.unwrap().bytes() })
        };
        tokio::time::sleep(Duration::from_secs(60)).await;
        assert!(
            !waiting.is_finished(),
            "50 bytes are not free while 80 are held"
        );
        drop(first);
        assert_eq!(waiting.await.unwrap(), 50);
        assert_eq!(budget.available(), 100);
    }

    #[tokio::test]
    async fn small_frames_use_the_reserve_when_the_budget_is_spent() {
        let budget = MemoryBudget::with_reserve(1000, 10, 30);
        let _big = budget.acquire(1000).await.unwrap();
        let small: Vec<_> = (0..3).map(|_| budget.try_acquire(10).unwrap()).collect();
        assert!(small.iter().all(Option::is_some));
        assert!(
            budget.try_acquire(10).unwrap().is_none(),
            "reserve spent too"
        );
        assert!(budget.try_acquire(11).unwrap().is_none(), "not small");
        assert_eq!(budget.reserve_available(), 0);
    }

    #[tokio::test]
    async fn frames_larger_than_the_budget_are_errors() {
        let budget = MemoryBudget::with_reserve(100, 10, 20);
        assert_eq!(
            budget.acquire(101).await.unwrap_err(),
            BudgetError::LargerThanBudget {
                len: 101,
                budget: 100
            }
        );
        assert_eq!(budget.acquire(0).await.unwrap().bytes(), 0);
        assert_eq!(budget.small_frame_bytes(), 10);
        assert_eq!((budget.bytes(), budget.reserve_bytes()), (100, 20));
    }
}

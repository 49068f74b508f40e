//! Verification behind the forwarding: a frame that needs no change goes on its
//! way first and is checked after: a large one off the connection's task, a small
//! one on it.
//!
//! Why after: checking a frame (re-encode, read back, compare) costs a pass over its
//! bytes or three, and done before forwarding it sits between a broker's answer and
//! the client, once per round trip: a consumer fetching 1 MiB at a time waited for it
//! on every fetch (+20–55 % on librdkafka's consume time). The check only ever logs
//! and counts (a frame is forwarded whatever its verdict), so running it later
//! changes nothing a client sees.
//!
//! Why small ones on the task: handing a check to another task mostly wakes another
//! thread, which cost more CPU than checking a Produce of 16 KiB: with Kafka's
//! ProducerPerformance, checking frames up to [`INLINE_MAX`] inline took the proxy
//! from 3.86 to 3.54 CPU seconds per GiB produced (`tests/benches/kafka_tools_proxy.py`).
//!
//! Bounded: at most [`MAX_WAITING`] checks wait or run at once across the proxy, and
//! each keeps its frame's budget permit until it is done, so frames awaiting their
//! check count against the request and response budgets like frames being read. A
//! connection whose checks fall behind waits before forwarding more.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;
use tracing::Instrument;

/// How many checks may wait or run at once.
pub const MAX_WAITING: usize = 256;

/// Frames up to this size are checked on the connection's task, once
/// forwarded: a check of a few kilobytes costs less than handing it to another
/// task, which mostly means waking another thread (a futex and two context
/// switches), per frame.
pub const INLINE_MAX: usize = 64 * 1024;

/// Runs checks on the runtime's threads, at most [`MAX_WAITING`] at once.
#[derive(Debug, Clone)]
pub struct VerifyQueue {
    slots: Arc<Semaphore>,
}

impl Default for VerifyQueue {
    fn default() -> Self {
        VerifyQueue {
            slots: Arc::new(Semaphore::new(MAX_WAITING)),
        }
    }
}

impl VerifyQueue {
    /// Runs `check` of a frame of `bytes` now if the frame is small
    /// ([`INLINE_MAX`]); otherwise queues it (in the current tracing span), first
    /// waiting for a free place when [`MAX_WAITING`] are already queued.
    pub async fn submit(&self, bytes: usize, check: impl FnOnce() + Send + 'static) {
        if bytes <= INLINE_MAX {
            check();
            return;
        }
        // The semaphore is never closed, so acquiring fails only if it were; then
        // the check runs here rather than being lost.
        let Ok(slot) = Arc::clone(&self.slots).acquire_owned().await else {
            check();
            return;
        };
        tokio::spawn(
            async move {
                check();
                drop(slot);
            }
            .in_current_span(),
        );
    }

    /// Waits until every queued check has run, or `within` has passed; returns how
    /// many were still queued then.
    pub async fn drain(&self, within: Duration) -> usize {
        let all = u32::try_from(MAX_WAITING).unwrap_or(u32::MAX);
        match tokio::time::timeout(within, self.slots.acquire_many(all)).await {
            Ok(Ok(permits)) => {
                drop(permits);
                0
            }
            _ => MAX_WAITING - self.slots.available_permits(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn every_check_runs_before_drain_returns() {
        let queue = VerifyQueue::default();
        let ran = Arc::new(AtomicUsize::new(0));
        for _ in 0..3 * MAX_WAITING {
            let ran = Arc::clone(&ran);
            queue
                .submit(INLINE_MAX + 1, move || {
                    std::thread::sleep(Duration::from_micros(50));
                    ran.fetch_add(1, Ordering::SeqCst);
                })
                .await;
        }
        assert_eq!(queue.drain(Duration::from_secs(60)).await, 0);
        assert_eq!(ran.load(Ordering::SeqCst), 3 * MAX_WAITING);
    }

    #[tokio::test]
    async fn a_small_frame_is_checked_before_submit_returns() {
        let queue = VerifyQueue::default();
        let ran = Arc::new(AtomicUsize::new(0));
        let counted = Arc::clone(&ran);
        queue
            .submit(INLINE_MAX, move || {
                counted.fetch_add(1, Ordering::SeqCst);
            })
            .await;
        assert_eq!(ran.load(Ordering::SeqCst), 1);
        assert_eq!(queue.slots.available_permits(), MAX_WAITING);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn drain_reports_checks_still_running() {
        let queue = VerifyQueue::default();
        let (release, wait) = std::sync::mpsc::channel::<()>();
        queue
            .submit(INLINE_MAX + 1, move || {
                let _ = wait.recv_timeout(Duration::from_secs(60));
            })
            .await;
        assert_eq!(queue.drain(Duration::from_millis(50)).await, 1);
        release.send(()).unwrap();
        assert_eq!(queue.drain(Duration::from_secs(60)).await, 0);
    }
}

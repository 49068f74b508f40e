//! The response budget an answer holds until it is written.
//!
//! Answers are counted against `--queued-max-response-bytes` from before they are
//! built until they are on the socket: a client that never reads its answers keeps
//! one answer's bytes, and many such clients wait for the budget instead of
//! growing the broker without bound.

use kwire_net::server::{BudgetPermit, MemoryBudget};

/// The permit an answer's frame holds until it is written; dropping it gives the
/// bytes back.
#[derive(Debug, Default)]
pub struct Held {
    permit: Option<BudgetPermit>,
}

impl Held {
    /// Takes `bytes` of `budget` (waiting while it is spent) and holds them, in
    /// place of anything held before.
    ///
    /// More than the whole budget could never be granted; the start-up check keeps
    /// every answer's limit inside it, so taking all of it is only a safety net.
    pub async fn take(&mut self, budget: &MemoryBudget, bytes: usize) {
        let bytes = bytes.min(budget.bytes());
        self.permit = budget.acquire(bytes).await.ok();
    }

    /// The bytes held.
    #[cfg(test)]
    pub fn bytes(&self) -> usize {
        self.permit.as_ref().map_or(0, BudgetPermit::bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_frame_is_held_until_dropped_and_never_more_than_the_budget() {
        let budget = MemoryBudget::new(1000);
        let mut held = Held::default();
        held.take(&budget, 100).await; // the frame
        assert_eq!((held.bytes(), budget.available()), (100, 900));
        drop(held);
        assert_eq!(budget.available(), 1000);

        let mut held = Held::default();
        held.take(&budget, 5000).await;
        assert_eq!((held.bytes(), budget.available()), (1000, 0));
    }
}

//! The response budget an answer holds until it is written.
//!
//! Answers are counted against `--queued-max-response-bytes` from before they are
//! built until they are on the socket: a client that never reads its answers keeps
//! one answer's bytes, and many such clients wait for the budget instead of
//! growing the broker without bound.

use kwire_net::server::{BudgetPermit, MemoryBudget};

/// Permits taken for one answer; dropping it gives them back.
#[derive(Debug, Default)]
pub struct Held {
    permits: Vec<BudgetPermit>,
}

impl Held {
    /// Takes `bytes` of `budget` (waiting while it is spent) and holds them.
    ///
    /// More than the whole budget could never be granted; the start-up check keeps
    /// every answer's limit inside it, so taking all of it is only a safety net.
    pub async fn take(&mut self, budget: &MemoryBudget, bytes: usize) {
        let bytes = bytes.min(budget.bytes());
        if let Ok(permit) = budget.acquire(bytes).await {
            self.permits.push(permit);
        }
    }

    /// Gives back everything but the permit taken last (the frame's, once what
    /// was held to build it has been freed).
    pub fn keep_last(&mut self) {
        let last = self.permits.pop();
        self.permits.clear();
        self.permits.extend(last);
    }

    /// The bytes held.
    #[cfg(test)]
    pub fn bytes(&self) -> usize {
        self.permits.iter().map(BudgetPermit::bytes).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn keep_last_gives_back_what_the_building_held() {
        let budget = MemoryBudget::new(1000);
        let mut held = Held::default();
        held.take(&budget, 300).await; // a Fetch's copies
        held.take(&budget, 100).await; // the frame
        assert_eq!(budget.available(), 600);
        held.keep_last();
        assert_eq!((held.bytes(), budget.available()), (100, 900));
        drop(held);
        assert_eq!(budget.available(), 1000);
    }
}

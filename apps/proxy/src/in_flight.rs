//! One connection's requests awaiting a response, so that each response frame (which
//! carries only a correlation id) can be read by the API and version of its request.

use std::collections::VecDeque;

use std::time::Duration;

use tokio::time::Instant;

/// Whether a request gets a response.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// It does (every request but one kind).
    Expected,
    /// Unknown: a Produce request whose body did not decode, so its `acks` is
    /// unknown, and with `acks = 0` the broker sends nothing back.
    Unknown,
}

/// Who a frame sent upstream came from, and so where its answer goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// A client's request: the answer is read, checked and forwarded.
    Client,
    /// A client's bare SASL token (after SaslHandshake v0): the answer is a
    /// bare token too, forwarded unread.
    RawToken,
    /// The proxy's own request (logging in again upstream): the answer is the
    /// proxy's, not forwarded.
    Proxy,
}

/// A request sent upstream and not answered yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pending {
    /// The correlation id its response will carry.
    pub correlation_id: i32,
    /// Its API key (possibly one this crate does not know).
    pub api_key: i16,
    /// Its version.
    pub version: i16,
    /// Whether a response is sure to come.
    pub answer: Answer,
    /// When it was forwarded upstream, for the request timeout.
    pub sent: Instant,
    /// How long the broker may rightly hold it (a Fetch's max wait, a JoinGroup's
    /// rebalance timeout), added to the request timeout.
    pub waits: Duration,
    /// Who sent it.
    pub origin: Origin,
}

/// The requests in flight on one connection, oldest first.
#[derive(Debug, Default)]
pub struct InFlight {
    queue: VecDeque<Pending>,
}

impl InFlight {
    /// Records a request about to be forwarded. Call before writing it upstream, so
    /// that its response cannot arrive first.
    pub fn push(&mut self, pending: Pending) {
        self.queue.push_back(pending);
    }

    /// Takes the request that a response with `correlation_id` answers.
    ///
    /// A Kafka broker answers the requests of a connection in the order they came,
    /// so a request of [`Answer::Unknown`] queued before the one answered got no
    /// response (it had `acks = 0`) and never will: it is dropped. A request that
    /// expects an answer stays, in case a broker answers out of order.
    pub fn answer(&mut self, correlation_id: i32) -> Option<Pending> {
        let at = self
            .queue
            .iter()
            .position(|pending| pending.correlation_id == correlation_id)?;
        let before: Vec<Pending> = self
            .queue
            .drain(..at)
            .filter(|pending| pending.answer == Answer::Expected)
            .collect();
        let answered = self.queue.pop_front();
        for pending in before.into_iter().rev() {
            self.queue.push_front(pending);
        }
        answered
    }

    /// Takes the oldest frame in flight if it is a bare SASL token: then the
    /// next response frame is its answer, and has no correlation id to match.
    pub fn answer_raw_token(&mut self) -> Option<Pending> {
        if self.queue.front()?.origin != Origin::RawToken {
            return None;
        }
        self.queue.pop_front()
    }

    /// The oldest request sure to get a response: the one the request timeout
    /// watches (one of [`Answer::Unknown`] may never be answered, rightly).
    pub fn oldest_expected(&self) -> Option<&Pending> {
        self.queue
            .iter()
            .find(|pending| pending.answer == Answer::Expected)
    }

    /// How many requests still expect (or may expect) a response.
    pub fn len(&self) -> usize {
        self.queue.len()
    }

    /// True when no request awaits a response.
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pending(correlation_id: i32, answer: Answer) -> Pending {
        Pending {
            correlation_id,
            api_key: 0,
            version: 9,
            answer,
            sent: SENT.with(|sent| *sent),
            waits: Duration::ZERO,
            origin: Origin::Client,
        }
    }

    thread_local! {
        static SENT: Instant = Instant::now();
    }

    #[test]
    fn unanswered_unknowns_before_an_answer_are_dropped() {
        let mut in_flight = InFlight::default();
        in_flight.push(pending(1, Answer::Unknown));
        in_flight.push(pending(2, Answer::Expected));
        in_flight.push(pending(3, Answer::Unknown));
        in_flight.push(pending(4, Answer::Expected));
        assert_eq!(
            in_flight.oldest_expected().map(|p| p.correlation_id),
            Some(2)
        );
        assert_eq!(in_flight.answer(4), Some(pending(4, Answer::Expected)));
        assert_eq!(in_flight.len(), 1);
        assert_eq!(in_flight.answer(2), Some(pending(2, Answer::Expected)));
        assert!(in_flight.is_empty());
        assert_eq!(in_flight.answer(2), None);
    }

    #[test]
    fn a_raw_token_is_answered_only_from_the_front() {
        let mut in_flight = InFlight::default();
        let raw = Pending {
            origin: Origin::RawToken,
            ..pending(0, Answer::Expected)
        };
        in_flight.push(pending(1, Answer::Expected));
        in_flight.push(raw);
        assert_eq!(in_flight.answer_raw_token(), None);
        assert_eq!(in_flight.answer(1), Some(pending(1, Answer::Expected)));
        assert_eq!(in_flight.answer_raw_token(), Some(raw));
        assert!(in_flight.is_empty());
    }
}

//! The transaction coordinator: each transactional ID's producer ID and epoch,
//! and its open transaction (the partitions and groups in it).
//!
//! Kafka's `TransactionCoordinator` at transaction version 1 (the broker
//! finalizes no `transaction.version` feature, so clients add partitions with
//! AddPartitionsToTxn and keep their epoch across transactions), with its
//! checks and errors. What Kafka does in two steps, a transaction prepared and
//! its markers written later (CONCURRENT_TRANSACTIONS meanwhile), happens in
//! one here: ending a transaction returns an [`Ending`], which the caller
//! applies at once, markers into the partition logs and offsets into the
//! groups (`handlers/transactions.rs`). In memory, as everything else: a
//! restart forgets every transactional ID.

use std::collections::{BTreeSet, HashMap};
use std::time::{Duration, Instant};

use kwire_messages::ErrorCode;

/// Kafka's `transaction.max.timeout.ms` default: the longest a producer may
/// ask for.
pub const MAX_TIMEOUT_MS: i32 = 900_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// No transaction yet since InitProducerId.
    Empty,
    /// Partitions or groups added; since `started`.
    Ongoing {
        started: Instant,
    },
    CompleteCommit,
    CompleteAbort,
}

/// One transactional ID.
#[derive(Debug)]
struct Transaction {
    producer_id: i64,
    epoch: i16,
    timeout: Duration,
    state: State,
    partitions: BTreeSet<(String, i32)>,
    groups: BTreeSet<String>,
}

/// What ending a transaction writes: a marker into each partition, and the
/// groups' offsets committed with it made visible (or dropped).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ending {
    pub producer_id: i64,
    /// The epoch the markers carry.
    pub epoch: i16,
    pub commit: bool,
    pub partitions: Vec<(String, i32)>,
    pub groups: Vec<String>,
}

/// Every transactional ID this broker coordinates.
#[derive(Debug, Default)]
pub struct Transactions {
    by_id: HashMap<String, Transaction>,
}

/// The error a producer's stale epoch gets: PRODUCER_FENCED from the version
/// that knows it (KIP-588), INVALID_PRODUCER_EPOCH before.
pub fn fenced(version: i16, first_fenced_version: i16) -> ErrorCode {
    if version >= first_fenced_version {
        ErrorCode::ProducerFenced
    } else {
        ErrorCode::InvalidProducerEpoch
    }
}

impl Transaction {
    /// Ends the open transaction: its partitions and groups go to the
    /// [`Ending`], the state to Complete*.
    fn end(&mut self, commit: bool) -> Ending {
        self.state = if commit {
            State::CompleteCommit
        } else {
            State::CompleteAbort
        };
        Ending {
            producer_id: self.producer_id,
            epoch: self.epoch,
            commit,
            partitions: std::mem::take(&mut self.partitions).into_iter().collect(),
            groups: std::mem::take(&mut self.groups).into_iter().collect(),
        }
    }

    /// A new epoch, fencing every producer at an older one; past the last
    /// epoch, a new producer ID at epoch 0, as Kafka does.
    fn bump(&mut self, allocate: &mut dyn FnMut() -> i64) {
        if self.epoch >= i16::MAX - 1 {
            self.producer_id = allocate();
            self.epoch = 0;
        } else {
            self.epoch += 1;
        }
    }

    /// Aborts the open transaction at the next epoch, so that its markers
    /// fence the producer that opened it. The markers go to the producer ID
    /// the partitions know, even when the epochs have run out.
    fn abort_fenced(&mut self) -> Ending {
        self.epoch = self.epoch.saturating_add(1);
        self.end(false)
    }
}

impl Transactions {
    /// InitProducerId with a transactional ID: a producer ID and epoch for it,
    /// a new epoch for one known already (fencing its previous producer), the
    /// open transaction aborted first. `given` is the producer ID and epoch the
    /// request carries (KIP-360: -1, -1 for a producer that has none).
    pub fn init(
        &mut self,
        id: &str,
        timeout_ms: i32,
        given: (i64, i16),
        allocate: &mut dyn FnMut() -> i64,
        version: i16,
    ) -> Result<(i64, i16, Option<Ending>), ErrorCode> {
        if id.is_empty() {
            return Err(ErrorCode::InvalidRequest);
        }
        if timeout_ms <= 0 || timeout_ms > MAX_TIMEOUT_MS {
            return Err(ErrorCode::InvalidTransactionTimeout);
        }
        let timeout = Duration::from_millis(timeout_ms as u64);
        let Some(txn) = self.by_id.get_mut(id) else {
            let producer_id = allocate();
            self.by_id.insert(
                id.to_owned(),
                Transaction {
                    producer_id,
                    epoch: 0,
                    timeout,
                    state: State::Empty,
                    partitions: BTreeSet::new(),
                    groups: BTreeSet::new(),
                },
            );
            return Ok((producer_id, 0, None));
        };
        // KIP-360: a producer naming its ID and epoch must be the current
        // one; anyone else is fenced.
        if given.0 >= 0 && given != (txn.producer_id, txn.epoch) {
            return Err(fenced(version, 4));
        }
        let ending = if matches!(txn.state, State::Ongoing { .. }) {
            // The new producer takes the epoch the abort fenced with, or a
            // new producer ID once the epochs have run out.
            let ending = txn.abort_fenced();
            if txn.epoch >= i16::MAX - 1 {
                txn.bump(allocate);
            }
            Some(ending)
        } else {
            txn.bump(allocate);
            None
        };
        txn.state = State::Empty;
        txn.timeout = timeout;
        Ok((txn.producer_id, txn.epoch, ending))
    }

    /// The transaction `id` names, if `producer_id` and `epoch` are its
    /// producer's.
    fn current(
        &mut self,
        id: &str,
        producer_id: i64,
        epoch: i16,
        fenced: ErrorCode,
    ) -> Result<&mut Transaction, ErrorCode> {
        let txn = self
            .by_id
            .get_mut(id)
            .filter(|txn| txn.producer_id == producer_id)
            .ok_or(ErrorCode::InvalidProducerIdMapping)?;
        if txn.epoch != epoch {
            return Err(fenced);
        }
        Ok(txn)
    }

    /// AddPartitionsToTxn: the partitions (known to exist) join the
    /// transaction, which is open from here on.
    pub fn add_partitions(
        &mut self,
        id: &str,
        producer_id: i64,
        epoch: i16,
        partitions: impl IntoIterator<Item = (String, i32)>,
        fenced: ErrorCode,
        now: Instant,
    ) -> Result<(), ErrorCode> {
        let txn = self.current(id, producer_id, epoch, fenced)?;
        txn.partitions.extend(partitions);
        if !matches!(txn.state, State::Ongoing { .. }) {
            txn.state = State::Ongoing { started: now };
        }
        Ok(())
    }

    /// The partitions of the transaction open for this producer (empty when
    /// none is open).
    pub fn includes(
        &mut self,
        id: &str,
        producer_id: i64,
        epoch: i16,
        fenced: ErrorCode,
    ) -> Result<&BTreeSet<(String, i32)>, ErrorCode> {
        let txn = self.current(id, producer_id, epoch, fenced)?;
        Ok(&txn.partitions)
    }

    /// AddOffsetsToTxn: the group's offsets will be committed with the
    /// transaction.
    pub fn add_group(
        &mut self,
        id: &str,
        producer_id: i64,
        epoch: i16,
        group: &str,
        fenced: ErrorCode,
        now: Instant,
    ) -> Result<(), ErrorCode> {
        let txn = self.current(id, producer_id, epoch, fenced)?;
        txn.groups.insert(group.to_owned());
        if !matches!(txn.state, State::Ongoing { .. }) {
            txn.state = State::Ongoing { started: now };
        }
        Ok(())
    }

    /// TxnOffsetCommit's check: the producer is current and its open
    /// transaction has the group (AddOffsetsToTxn came first).
    pub fn check_group(
        &mut self,
        id: &str,
        producer_id: i64,
        epoch: i16,
        group: &str,
    ) -> Result<(), ErrorCode> {
        // The group coordinator's answer to a stale epoch, whatever the version.
        let txn = self.current(id, producer_id, epoch, ErrorCode::InvalidProducerEpoch)?;
        if !txn.groups.contains(group) {
            return Err(ErrorCode::InvalidTxnState);
        }
        Ok(())
    }

    /// EndTxn: the open transaction ends; `Ok(None)` for a retry of the end
    /// that already happened.
    pub fn end(
        &mut self,
        id: &str,
        producer_id: i64,
        epoch: i16,
        commit: bool,
        fenced: ErrorCode,
    ) -> Result<Option<Ending>, ErrorCode> {
        let txn = self.current(id, producer_id, epoch, fenced)?;
        match (txn.state, commit) {
            (State::Ongoing { .. }, _) => Ok(Some(txn.end(commit))),
            (State::CompleteCommit, true) | (State::CompleteAbort, false) => Ok(None),
            _ => Err(ErrorCode::InvalidTxnState),
        }
    }

    /// The producer ID and epoch of `id` now (EndTxn v5 answers them).
    pub fn producer(&self, id: &str) -> Option<(i64, i16)> {
        self.by_id.get(id).map(|t| (t.producer_id, t.epoch))
    }

    /// Aborts every transaction open longer than its timeout, at a new epoch
    /// that fences its producer, as Kafka's coordinator does.
    pub fn expire(&mut self, now: Instant) -> Vec<Ending> {
        let mut endings = Vec::new();
        for (id, txn) in &mut self.by_id {
            let State::Ongoing { started } = txn.state else {
                continue;
            };
            if now.saturating_duration_since(started) <= txn.timeout {
                continue;
            }
            tracing::info!(transactional_id = %id, "transaction timed out: aborted");
            endings.push(txn.abort_fenced());
        }
        endings
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids() -> impl FnMut() -> i64 {
        let mut next = 1000;
        move || {
            next += 1;
            next
        }
    }

    const FENCED: ErrorCode = ErrorCode::ProducerFenced;

    #[test]
    fn a_transaction_ends_once_with_its_partitions_and_groups() {
        let mut txns = Transactions::default();
        let mut allocate = ids();
        let (pid, epoch, none) = txns
            .init("t", 60_000, (-1, -1), &mut allocate, 4)
            .expect("init");
        assert_eq!((epoch, none), (0, None));
        let now = Instant::now();
        assert_eq!(
            txns.end("t", pid, epoch, true, FENCED),
            Err(ErrorCode::InvalidTxnState)
        );
        txns.add_partitions(
            "t",
            pid,
            epoch,
            [("a".into(), 0), ("a".into(), 0)],
            FENCED,
            now,
        )
        .expect("added");
        txns.add_group("t", pid, epoch, "g", FENCED, now)
            .expect("added");
        assert_eq!(txns.check_group("t", pid, epoch, "g"), Ok(()));
        assert_eq!(
            txns.check_group("t", pid, epoch, "h"),
            Err(ErrorCode::InvalidTxnState)
        );
        let ending = txns
            .end("t", pid, epoch, true, FENCED)
            .expect("ended")
            .expect("an ending");
        assert_eq!(ending.partitions, [("a".to_owned(), 0)]);
        assert_eq!(ending.groups, ["g"]);
        assert!(ending.commit);
        // A retry of the same end is answered, nothing more is written; the
        // other end is refused.
        assert_eq!(txns.end("t", pid, epoch, true, FENCED), Ok(None));
        assert_eq!(
            txns.end("t", pid, epoch, false, FENCED),
            Err(ErrorCode::InvalidTxnState)
        );
    }

    #[test]
    fn a_second_init_fences_the_first_producer_and_aborts_its_transaction() {
        let mut txns = Transactions::default();
        let mut allocate = ids();
        let (pid, epoch, _) = txns
            .init("t", 60_000, (-1, -1), &mut allocate, 4)
            .expect("init");
        let now = Instant::now();
        txns.add_partitions("t", pid, epoch, [("a".into(), 1)], FENCED, now)
            .expect("added");
        let (pid2, epoch2, ending) = txns
            .init("t", 60_000, (-1, -1), &mut allocate, 4)
            .expect("init");
        assert_eq!((pid2, epoch2), (pid, 1));
        let ending = ending.expect("the open transaction is aborted");
        assert!(!ending.commit);
        assert_eq!((ending.epoch, ending.partitions.len()), (1, 1));
        assert_eq!(
            txns.add_partitions("t", pid, epoch, [("a".into(), 1)], FENCED, now),
            Err(FENCED)
        );
        assert_eq!(
            txns.add_partitions("t", pid + 7, epoch2, [("a".into(), 1)], FENCED, now),
            Err(ErrorCode::InvalidProducerIdMapping)
        );
        // KIP-360: the old producer cannot re-initialise by its ID and epoch.
        assert_eq!(
            txns.init("t", 60_000, (pid, epoch), &mut allocate, 4)
                .map(|r| r.1),
            Err(FENCED)
        );
        assert_eq!(
            txns.init("t", 60_000, (pid, epoch), &mut allocate, 3)
                .map(|r| r.1),
            Err(ErrorCode::InvalidProducerEpoch)
        );
    }

    /// Past the last epoch a new producer ID; the open transaction's markers
    /// still go to the ID its partitions know.
    #[test]
    fn run_out_epochs_give_a_new_producer_id_after_the_abort() {
        let mut txns = Transactions::default();
        let mut allocate = ids();
        let (pid, _, _) = txns
            .init("t", 60_000, (-1, -1), &mut allocate, 4)
            .expect("init");
        let txn = txns.by_id.get_mut("t").expect("known");
        txn.epoch = i16::MAX - 2;
        let now = Instant::now();
        let epoch = i16::MAX - 2;
        txns.add_partitions("t", pid, epoch, [("a".into(), 0)], FENCED, now)
            .expect("added");
        let (new_pid, new_epoch, ending) = txns
            .init("t", 60_000, (-1, -1), &mut allocate, 4)
            .expect("init");
        let ending = ending.expect("aborted");
        assert_eq!((ending.producer_id, ending.epoch), (pid, i16::MAX - 1));
        assert_ne!(new_pid, pid);
        assert_eq!(new_epoch, 0);
    }

    #[test]
    fn timeouts_and_bad_ids_are_refused_as_kafka_refuses_them() {
        let mut txns = Transactions::default();
        let mut allocate = ids();
        assert_eq!(
            txns.init("t", MAX_TIMEOUT_MS + 1, (-1, -1), &mut allocate, 4)
                .map(|r| r.0),
            Err(ErrorCode::InvalidTransactionTimeout)
        );
        assert_eq!(
            txns.init("", 1000, (-1, -1), &mut allocate, 4).map(|r| r.0),
            Err(ErrorCode::InvalidRequest)
        );
        assert_eq!(
            txns.end("unknown", 1, 0, true, FENCED),
            Err(ErrorCode::InvalidProducerIdMapping)
        );
    }

    #[test]
    fn an_expired_transaction_is_aborted_at_a_new_epoch() {
        let mut txns = Transactions::default();
        let mut allocate = ids();
        let (pid, epoch, _) = txns
            .init("t", 1000, (-1, -1), &mut allocate, 4)
            .expect("init");
        let start = Instant::now();
        txns.add_partitions("t", pid, epoch, [("a".into(), 0)], FENCED, start)
            .expect("added");
        assert!(txns.expire(start + Duration::from_millis(900)).is_empty());
        let endings = txns.expire(start + Duration::from_millis(1100));
        assert_eq!(endings.len(), 1);
        assert_eq!((endings[0].commit, endings[0].epoch), (false, 1));
        assert_eq!(txns.end("t", pid, epoch, true, FENCED), Err(FENCED));
        assert!(txns.expire(start + Duration::from_secs(10)).is_empty());
    }
}

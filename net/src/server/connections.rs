//! Connection limits, in all and per peer address: Kafka's `max.connections` and
//! `max.connections.per.ip`.
//!
//! [`ConnectionLimits::admit`] gives a [`ConnectionSlot`] that the connection holds
//! for its life; dropping it frees the slot. At the total limit, rather than refuse
//! every newcomer (which lets whoever opened connections first keep the server
//! for ever), the connection whose last complete request is oldest and that is not
//! answering one now is told to close ([`ConnectionSlot::evicted`]) and the newcomer
//! is admitted. The limit per address is a plain refusal: that address is the one
//! taking too much. Until an evicted connection has dropped its slot, the number
//! open may exceed the limit by the evictions in progress, one per admission, each
//! ended as soon as its task runs.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use tokio::sync::Notify;
use tokio::time::Instant;

use super::error::AdmitError;

/// Limits on open connections; cheap to clone (clones share the count).
///
/// ```
/// use std::net::{IpAddr, Ipv4Addr};
/// use kwire_net::server::{AdmitError, ConnectionLimits};
///
/// let limits = ConnectionLimits::new(2, 1);
/// let a = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1));
/// let b = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 2));
/// let first = limits.admit(a).unwrap();
/// assert_eq!(limits.admit(a).unwrap_err(), AdmitError::TooManyFromIp { ip: a, max: 1 });
/// let _second = limits.admit(b).unwrap();
/// drop(first); // the slot is free again
/// assert_eq!(limits.open(), 1);
/// let _third = limits.admit(a).unwrap();
/// ```
#[derive(Debug, Clone)]
pub struct ConnectionLimits {
    shared: Arc<Shared>,
}

#[derive(Debug)]
struct Shared {
    max: usize,
    max_per_ip: usize,
    registry: Mutex<Registry>,
    /// Woken whenever an evicted connection's slot is dropped.
    evicted_gone: Notify,
}

#[derive(Debug, Default)]
struct Registry {
    next_id: u64,
    open: HashMap<u64, Entry>,
    per_ip: HashMap<IpAddr, usize>,
    /// Told to close and not closed yet: not counted against the limit again.
    evicting: usize,
}

#[derive(Debug)]
struct Entry {
    ip: IpAddr,
    last_request: Instant,
    busy: bool,
    evicted: bool,
    close: Arc<Notify>,
}

/// One admitted connection's place; dropping it frees the place.
///
/// The connection reports what eviction needs to know:
/// [`request_started`](Self::request_started) when a request is complete and being
/// answered, [`request_done`](Self::request_done) when it waits for the next one.
/// [`FrameReader`](super::FrameReader) does both when given the slot.
#[derive(Debug)]
pub struct ConnectionSlot {
    id: u64,
    ip: IpAddr,
    close: Arc<Notify>,
    shared: Arc<Shared>,
}

fn lock(registry: &Mutex<Registry>) -> MutexGuard<'_, Registry> {
    // Every update is one short critical section that cannot panic midway.
    registry.lock().unwrap_or_else(PoisonError::into_inner)
}

impl ConnectionLimits {
    /// At most `max` connections in all and `max_per_ip` from one address (each at
    /// least 1).
    pub fn new(max: usize, max_per_ip: usize) -> Self {
        ConnectionLimits {
            shared: Arc::new(Shared {
                max: max.max(1),
                max_per_ip: max_per_ip.max(1),
                registry: Mutex::new(Registry::default()),
                evicted_gone: Notify::new(),
            }),
        }
    }

    /// The limit in all.
    pub fn max(&self) -> usize {
        self.shared.max
    }

    /// The limit per address.
    pub fn max_per_ip(&self) -> usize {
        self.shared.max_per_ip
    }

    /// How many connections hold a slot now (evicted ones not yet closed included).
    pub fn open(&self) -> usize {
        lock(&self.shared.registry).open.len()
    }

    /// Admits a connection from `ip`, evicting the one idle longest if the total
    /// limit is reached; refuses if `ip` is at its own limit, or if every open
    /// connection is answering a request.
    pub fn admit(&self, ip: IpAddr) -> Result<ConnectionSlot, AdmitError> {
        let mut registry = lock(&self.shared.registry);
        let from_ip = registry.per_ip.get(&ip).copied().unwrap_or(0);
        if from_ip >= self.shared.max_per_ip {
            return Err(AdmitError::TooManyFromIp {
                ip,
                max: self.shared.max_per_ip,
            });
        }
        if registry.open.len() - registry.evicting >= self.shared.max {
            let victim = registry
                .open
                .values_mut()
                .filter(|entry| !entry.busy && !entry.evicted)
                .min_by_key(|entry| entry.last_request);
            let Some(victim) = victim else {
                return Err(AdmitError::TooMany {
                    max: self.shared.max,
                });
            };
            victim.evicted = true;
            // notify_one keeps the wake-up if the connection is not waiting yet.
            victim.close.notify_one();
            registry.evicting += 1;
        }
        let id = registry.next_id;
        registry.next_id += 1;
        let close = Arc::new(Notify::new());
        registry.open.insert(
            id,
            Entry {
                ip,
                last_request: Instant::now(),
                busy: false,
                evicted: false,
                close: Arc::clone(&close),
            },
        );
        *registry.per_ip.entry(ip).or_insert(0) += 1;
        Ok(ConnectionSlot {
            id,
            ip,
            close,
            shared: Arc::clone(&self.shared),
        })
    }
}

/// How long an accept loop waits, at most, for a connection evicted to make room
/// to be gone ([`ConnectionLimits::admit_when_room`]): an idle connection told to
/// close does so as soon as its task runs, well within this even on a busy machine.
pub const EVICTION_PATIENCE: std::time::Duration = std::time::Duration::from_secs(1);

impl ConnectionLimits {
    /// [`admit`](Self::admit), then, if connections told to close to make room
    /// are still open, waits until they are gone or `patience` has passed.
    ///
    /// An accept loop should use this one: each connection holds descriptors
    /// until its task has run and dropped them, so a burst of newcomers admitted
    /// at the limit without waiting would open sockets faster than the evicted
    /// ones close, and run the process out of descriptors (seen in the proxy:
    /// `Too many open files` with 10,100 connections at a limit of 9,968). Waiting
    /// here, one accept at a time, keeps the overshoot to the newcomer itself.
    pub async fn admit_when_room(
        &self,
        ip: IpAddr,
        patience: std::time::Duration,
    ) -> Result<ConnectionSlot, AdmitError> {
        let slot = self.admit(ip)?;
        let deadline = tokio::time::Instant::now() + patience;
        loop {
            // Registered before the check, so a drop in between still wakes us.
            let gone = self.shared.evicted_gone.notified();
            if lock(&self.shared.registry).evicting == 0 {
                return Ok(slot);
            }
            if tokio::time::timeout_at(deadline, gone).await.is_err() {
                return Ok(slot);
            }
        }
    }
}

impl ConnectionSlot {
    /// The peer's address.
    pub fn ip(&self) -> IpAddr {
        self.ip
    }

    fn update(&self, f: impl FnOnce(&mut Entry)) {
        if let Some(entry) = lock(&self.shared.registry).open.get_mut(&self.id) {
            f(entry);
        }
    }

    /// A request is complete and being answered: not a candidate for eviction, and
    /// the most recently active.
    pub fn request_started(&self) {
        self.update(|entry| {
            entry.busy = true;
            entry.last_request = Instant::now();
        });
    }

    /// The connection is waiting for its next request: a candidate for eviction
    /// again, ranked by when its last request completed.
    pub fn request_done(&self) {
        self.update(|entry| entry.busy = false);
    }

    /// Completes when this connection has been chosen to make room for a new one;
    /// it should then close. Cancel-safe.
    pub async fn evicted(&self) {
        self.close.notified().await;
    }
}

impl Drop for ConnectionSlot {
    fn drop(&mut self) {
        let mut registry = lock(&self.shared.registry);
        if let Some(entry) = registry.open.remove(&self.id) {
            if entry.evicted {
                registry.evicting -= 1;
                self.shared.evicted_gone.notify_waiters();
            }
            if let Some(count) = registry.per_ip.get_mut(&entry.ip) {
                *count -= 1;
                if *count == 0 {
                    registry.per_ip.remove(&entry.ip);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;
    use std::time::Duration;

    const LOCAL: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);

    #[tokio::test(start_paused = true)]
    async fn at_the_limit_the_longest_idle_is_evicted() {
        let limits = ConnectionLimits::new(2, 10);
        let old = limits.admit(LOCAL).unwrap();
        tokio::time::advance(Duration::from_secs(1)).await;
        let recent = limits.admit(LOCAL).unwrap();
        tokio::time::advance(Duration::from_secs(1)).await;
        // `old` just completed a request: `recent` is now the one idle longest.
        old.request_started();
        old.request_done();
        let newcomer = limits.admit(LOCAL).unwrap();
        tokio::time::timeout(Duration::from_secs(1), recent.evicted())
            .await
            .expect("recent told to close");
        assert_eq!(limits.open(), 3, "until it closes");
        drop(recent);
        assert_eq!(limits.open(), 2);
        drop((old, newcomer));
        assert_eq!(limits.open(), 0);
    }

    #[tokio::test(start_paused = true)]
    async fn admission_at_the_limit_waits_for_the_evicted_to_close() {
        let limits = ConnectionLimits::new(1, 10);
        let old = limits.admit(LOCAL).unwrap();
        let closer = tokio::spawn(async move {
            old.evicted().await;
            tokio::time::sleep(Duration::from_millis(300)).await;
            drop(old);
        });
        let started = tokio::time::Instant::now();
        let newcomer = limits
            .admit_when_room(LOCAL, Duration::from_secs(5))
            .await
            .unwrap();
        assert_eq!(
            limits.open(),
            1,
            "the evicted one is gone before the newcomer goes on"
        );
        assert!(started.elapsed() >= Duration::from_millis(300));
        closer.await.unwrap();
        // An evicted connection that never closes delays a newcomer by the patience only.
        let _stuck = newcomer;
        let started = tokio::time::Instant::now();
        let _third = limits
            .admit_when_room(LOCAL, Duration::from_secs(2))
            .await
            .unwrap();
        assert_eq!(started.elapsed(), Duration::from_secs(2));
    }

    #[tokio::test]
    async fn busy_connections_are_not_evicted() {
        let limits = ConnectionLimits::new(1, 10);
        let busy = limits.admit(LOCAL).unwrap();
        busy.request_started();
        assert_eq!(
            limits.admit(LOCAL).unwrap_err(),
            AdmitError::TooMany { max: 1 }
        );
        busy.request_done();
        let _newcomer = limits.admit(LOCAL).unwrap();
        assert_eq!(limits.max(), 1);
        assert_eq!(limits.max_per_ip(), 10);
    }

    #[tokio::test(start_paused = true)]
    async fn an_evicted_connection_is_not_chosen_twice() {
        let limits = ConnectionLimits::new(2, 10);
        let a = limits.admit(LOCAL).unwrap();
        tokio::time::advance(Duration::from_secs(1)).await;
        let b = limits.admit(LOCAL).unwrap();
        tokio::time::advance(Duration::from_secs(1)).await;
        let _c = limits.admit(LOCAL).unwrap(); // evicts a
        tokio::time::advance(Duration::from_secs(1)).await;
        let _d = limits.admit(LOCAL).unwrap(); // evicts b, not a again
        tokio::time::timeout(Duration::from_secs(1), a.evicted())
            .await
            .unwrap();
        tokio::time::timeout(Duration::from_secs(1), b.evicted())
            .await
            .unwrap();
    }
}

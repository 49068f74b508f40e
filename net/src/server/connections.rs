//! Connection limits, in all and per peer address: Kafka's `max.connections`,
//! `max.connections.per.ip`, `max.connection.creation.rate` and the per-address
//! connection rate quota `connection_creation_rate`.
//!
//! [`ConnectionLimits::admit`] gives a [`ConnectionSlot`] that the connection holds
//! for its life; dropping it frees the slot. At the total limit, rather than refuse
//! every newcomer (which lets whoever opened connections first keep the server
//! for ever), a connection that has not logged in
//! ([`ConnectionSlot::authenticated`]), whose last complete request is oldest and
//! that is not answering one now, is told to close ([`ConnectionSlot::evicted`])
//! and the newcomer is admitted. A connection that has logged in is never closed
//! for a newcomer, who has not: a stranger must not be able to push out the
//! server's users. With nothing to evict, the newcomer is refused. On a listener
//! without authentication nobody logs in, so every connection there may be
//! evicted, the one idle longest first.
//!
//! The limit per address, and the rate per address, are plain refusals: that
//! address is the one taking too much. The rate in all is a wait, as Kafka's
//! acceptor waits: the accept loop slows down, and newcomers wait in the
//! listen backlog.
//!
//! Until an evicted connection has dropped its slot, the number open may exceed
//! the limit by the evictions in progress, one per admission, each ended as soon
//! as its task runs.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

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
/// let second = limits.admit(b).unwrap();
/// second.authenticated(); // logged in: never evicted for a newcomer
/// drop(first); // the slot is free again
/// assert_eq!(limits.open(), 1);
/// let third = limits.admit(a).unwrap();
/// third.authenticated();
/// // Full, and everyone has logged in: a stranger is refused.
/// let c = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 3));
/// assert_eq!(limits.admit(c).unwrap_err(), AdmitError::TooMany { max: 2 });
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
    /// `max.connection.creation.rate`: connections a second in all.
    creation_rate: Option<Mutex<Rate>>,
    /// `connection_creation_rate`: connections a second from one address.
    creation_rate_per_ip: Option<u32>,
}

#[derive(Debug, Default)]
struct Registry {
    next_id: u64,
    open: HashMap<u64, Entry>,
    per_ip: HashMap<IpAddr, usize>,
    /// Told to close and not closed yet: not counted against the limit again.
    evicting: usize,
    /// Each address's connection rate, while it has one to keep.
    rates: HashMap<IpAddr, Rate>,
    /// How many addresses `rates` held after it was last swept.
    rates_swept_at: usize,
}

#[derive(Debug)]
struct Entry {
    ip: IpAddr,
    last_request: Instant,
    busy: bool,
    evicted: bool,
    authenticated: bool,
    close: Arc<Notify>,
}

/// A token bucket: `per_second` tokens a second, holding at most a second's
/// worth, so that a burst of up to `per_second` passes at once and a steady
/// flow no faster than the rate.
#[derive(Debug)]
struct Rate {
    per_second: u32,
    tokens: f64,
    refilled: Instant,
}

impl Rate {
    fn new(per_second: u32, now: Instant) -> Self {
        Rate {
            per_second,
            tokens: f64::from(per_second),
            refilled: now,
        }
    }

    fn refill(&mut self, now: Instant) {
        let per_second = f64::from(self.per_second);
        let earned = now.saturating_duration_since(self.refilled).as_secs_f64() * per_second;
        self.tokens = (self.tokens + earned).min(per_second);
        self.refilled = now;
    }

    /// Takes a token, or says how long until one is there.
    fn take(&mut self, now: Instant) -> Result<(), Duration> {
        self.refill(now);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            return Ok(());
        }
        let wait = (1.0 - self.tokens) / f64::from(self.per_second);
        Err(Duration::from_secs_f64(wait))
    }

    /// Whether the bucket is full again: the address has nothing left to keep.
    fn is_full(&mut self, now: Instant) -> bool {
        self.refill(now);
        self.tokens >= f64::from(self.per_second)
    }
}

/// One admitted connection's place; dropping it frees the place.
///
/// The connection reports what eviction needs to know:
/// [`request_started`](Self::request_started) when a request is complete and being
/// answered, [`request_done`](Self::request_done) when it waits for the next one,
/// and [`authenticated`](Self::authenticated) once it has logged in.
/// [`FrameReader`](super::FrameReader) does all three when given the slot.
#[derive(Debug)]
pub struct ConnectionSlot {
    id: u64,
    ip: IpAddr,
    close: Arc<Notify>,
    shared: Arc<Shared>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // Every update is one short critical section that cannot panic midway.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl ConnectionLimits {
    /// At most `max` connections in all and `max_per_ip` from one address (each at
    /// least 1), with no limit on how fast they are opened.
    pub fn new(max: usize, max_per_ip: usize) -> Self {
        Self::with_creation_rates(max, max_per_ip, None, None)
    }

    /// As [`new`](Self::new), and at most `per_second` connections admitted a
    /// second in all (Kafka's `max.connection.creation.rate`:
    /// [`admit_when_room`](Self::admit_when_room) waits for the rate) and
    /// `per_second_per_ip` from one address (Kafka's `connection_creation_rate`
    /// quota: refused over it). `None`, Kafka's default: unbounded. A second's
    /// worth may come at once.
    ///
    /// ```
    /// use std::net::{IpAddr, Ipv4Addr};
    /// use kwire_net::server::{AdmitError, ConnectionLimits};
    ///
    /// let limits = ConnectionLimits::with_creation_rates(100, 100, None, Some(2));
    /// let ip = IpAddr::V4(Ipv4Addr::LOCALHOST);
    /// let (_a, _b) = (limits.admit(ip).unwrap(), limits.admit(ip).unwrap());
    /// assert_eq!(limits.admit(ip).unwrap_err(), AdmitError::RateFromIp { ip, rate: 2 });
    /// ```
    pub fn with_creation_rates(
        max: usize,
        max_per_ip: usize,
        per_second: Option<u32>,
        per_second_per_ip: Option<u32>,
    ) -> Self {
        let now = Instant::now();
        ConnectionLimits {
            shared: Arc::new(Shared {
                max: max.max(1),
                max_per_ip: max_per_ip.max(1),
                registry: Mutex::new(Registry::default()),
                evicted_gone: Notify::new(),
                creation_rate: per_second.map(|rate| Mutex::new(Rate::new(rate.max(1), now))),
                creation_rate_per_ip: per_second_per_ip.map(|rate| rate.max(1)),
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

    /// Admits a connection from `ip`, evicting the connection idle longest among
    /// those that have not logged in if the total limit is reached; refuses if
    /// `ip` is at its own limit or over its rate, or if every open connection has
    /// logged in or is answering a request.
    pub fn admit(&self, ip: IpAddr) -> Result<ConnectionSlot, AdmitError> {
        let mut registry = lock(&self.shared.registry);
        let from_ip = registry.per_ip.get(&ip).copied().unwrap_or(0);
        if from_ip >= self.shared.max_per_ip {
            return Err(AdmitError::TooManyFromIp {
                ip,
                max: self.shared.max_per_ip,
            });
        }
        let now = Instant::now();
        if let Some(rate) = self.shared.creation_rate_per_ip {
            registry.sweep_rates(now);
            let bucket = registry
                .rates
                .entry(ip)
                .or_insert_with(|| Rate::new(rate, now));
            if bucket.take(now).is_err() {
                return Err(AdmitError::RateFromIp { ip, rate });
            }
        }
        if registry.open.len() - registry.evicting >= self.shared.max {
            let victim = registry
                .open
                .values_mut()
                .filter(|entry| !entry.busy && !entry.evicted && !entry.authenticated)
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
                last_request: now,
                busy: false,
                evicted: false,
                authenticated: false,
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

impl Registry {
    /// Forgets the addresses whose rate has nothing left to keep, whenever the
    /// map has doubled since it was last swept: a stream of addresses (an IPv6
    /// prefix has many) must not grow it without end.
    fn sweep_rates(&mut self, now: Instant) {
        if self.rates.len() < 1024.max(2 * self.rates_swept_at) {
            return;
        }
        self.rates.retain(|_, rate| !rate.is_full(now));
        self.rates_swept_at = self.rates.len();
    }
}

/// How long an accept loop waits, at most, for a connection evicted to make room
/// to be gone ([`ConnectionLimits::admit_when_room`]): an idle connection told to
/// close does so as soon as its task runs, well within this even on a busy machine.
pub const EVICTION_PATIENCE: Duration = Duration::from_secs(1);

impl ConnectionLimits {
    /// Waits for the creation rate in all, then [`admit`](Self::admit)s, then, if
    /// connections told to close to make room are still open, waits until they are
    /// gone or `patience` has passed.
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
        patience: Duration,
    ) -> Result<ConnectionSlot, AdmitError> {
        if let Some(rate) = &self.shared.creation_rate {
            loop {
                let taken = lock(rate).take(Instant::now());
                match taken {
                    Ok(()) => break,
                    Err(wait) => tokio::time::sleep(wait).await,
                }
            }
        }
        let slot = self.admit(ip)?;
        let deadline = Instant::now() + patience;
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
    /// again (unless it has logged in), ranked by when its last request completed.
    pub fn request_done(&self) {
        self.update(|entry| entry.busy = false);
    }

    /// The connection has logged in: from now on it is never evicted to make room
    /// for a newcomer.
    pub fn authenticated(&self) {
        self.update(|entry| entry.authenticated = true);
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

    /// Issue 29: 200 strangers, each sending one ApiVersions, closed every
    /// logged-in client of a broker at its limit. A logged-in connection is
    /// never evicted for a newcomer; strangers make room among themselves.
    #[tokio::test(start_paused = true)]
    async fn logged_in_connections_are_never_evicted_for_strangers() {
        let limits = ConnectionLimits::new(3, 10);
        let alice = limits.admit(LOCAL).unwrap();
        alice.authenticated();
        tokio::time::advance(Duration::from_secs(1)).await;
        let bob = limits.admit(LOCAL).unwrap();
        bob.authenticated();
        tokio::time::advance(Duration::from_secs(1)).await;
        // Alice is idle longest, but logged in: the stranger goes instead.
        let stranger = limits.admit(LOCAL).unwrap();
        tokio::time::advance(Duration::from_secs(1)).await;
        let newcomer = limits.admit(LOCAL).unwrap();
        tokio::time::timeout(Duration::from_secs(1), stranger.evicted())
            .await
            .expect("the stranger told to close");
        drop(stranger);
        // The newcomer logs in; now nobody may be evicted and the next is refused.
        newcomer.authenticated();
        assert_eq!(
            limits.admit(LOCAL).unwrap_err(),
            AdmitError::TooMany { max: 3 }
        );
        assert!(
            tokio::time::timeout(Duration::from_millis(10), alice.evicted())
                .await
                .is_err(),
            "a logged-in connection was told to close"
        );
        drop(bob);
        let _next = limits.admit(LOCAL).unwrap();
    }

    #[tokio::test(start_paused = true)]
    async fn an_address_over_its_rate_is_refused_and_recovers() {
        let limits = ConnectionLimits::with_creation_rates(100, 100, None, Some(5));
        let other = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 9));
        let slots: Vec<_> = (0..5).map(|_| limits.admit(LOCAL).unwrap()).collect();
        assert_eq!(
            limits.admit(LOCAL).unwrap_err(),
            AdmitError::RateFromIp { ip: LOCAL, rate: 5 }
        );
        // Another address has its own rate.
        let _other = limits.admit(other).unwrap();
        tokio::time::advance(Duration::from_millis(200)).await;
        let _one_more = limits.admit(LOCAL).unwrap();
        assert!(limits.admit(LOCAL).is_err());
        drop(slots);
    }

    /// `max.connection.creation.rate`: the accept loop waits, it does not refuse.
    #[tokio::test(start_paused = true)]
    async fn the_rate_in_all_is_a_wait() {
        let limits = ConnectionLimits::with_creation_rates(100, 100, Some(10), None);
        let started = Instant::now();
        let mut slots = Vec::new();
        for _ in 0..30 {
            slots.push(
                limits
                    .admit_when_room(LOCAL, EVICTION_PATIENCE)
                    .await
                    .unwrap(),
            );
        }
        // Ten at once (a second's worth), then ten a second.
        assert_eq!(started.elapsed(), Duration::from_secs(2));
    }

    #[test]
    fn the_rates_of_many_addresses_are_forgotten_once_kept() {
        let limits = ConnectionLimits::with_creation_rates(100_000, 100, None, Some(1000));
        for n in 0..5000u32 {
            drop(limits.admit(IpAddr::V4(Ipv4Addr::from(n))).unwrap());
        }
        std::thread::sleep(Duration::from_millis(20));
        let _ = limits
            .admit(IpAddr::V4(Ipv4Addr::new(192, 168, 0, 1)))
            .unwrap();
        let held = lock(&limits.shared.registry).rates.len();
        assert!(held < 5000, "{held} rates kept");
    }
}

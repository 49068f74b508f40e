//! Where a server runs the costly steps of authentication: off its I/O threads,
//! a bounded number at once.
//!
//! Checking a PLAIN password means a key derivation (PBKDF2, thousands of HMACs:
//! milliseconds of CPU), and anyone who can connect can ask for one. Run on the
//! runtime's threads, a stranger guessing passwords stalls every logged-in
//! client's requests; run without bound, many strangers take every core.
//! Kafka's broker authenticates on its network threads (`num.network.threads`,
//! 3 by default), which bounds the cost the same way.

use std::sync::Arc;

use tokio::sync::Semaphore;

/// Runs authentication steps on tokio's blocking threads, at most
/// [`threads`](Self::threads) at once; the others wait their turn, holding no
/// thread. Cheap to clone (clones share the bound).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use kwire_net::server::AuthenticationPool;
///
/// let pool = AuthenticationPool::new(1);
/// // A PBKDF2 derivation, or a whole SASL step with its credential check.
/// let sum = pool.run(|| (1..=100u32).sum::<u32>()).await.unwrap();
/// assert_eq!(sum, 5050);
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct AuthenticationPool {
    permits: Arc<Semaphore>,
    threads: usize,
}

/// An authentication step that did not finish: it panicked, or the runtime is
/// shutting down. The connection should be closed.
#[derive(Debug, thiserror::Error)]
#[error("the authentication step did not finish: {0}")]
pub struct AuthenticationAborted(String);

impl AuthenticationPool {
    /// A pool running at most `threads` steps at once (at least one).
    pub fn new(threads: usize) -> Self {
        let threads = threads.max(1);
        AuthenticationPool {
            permits: Arc::new(Semaphore::new(threads)),
            threads,
        }
    }

    /// The default size: half the machine's cores, at least one, so that
    /// authentication can never take every core from the logged-in clients.
    pub fn default_threads() -> usize {
        std::thread::available_parallelism().map_or(1, |cores| (cores.get() / 2).max(1))
    }

    /// How many steps may run at once.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Runs `step` on a blocking thread once one of the pool's places is free.
    /// Cancel-safe while waiting for a place; once started, the step runs to its
    /// end even if the caller goes away (its result is then dropped).
    pub async fn run<T, F>(&self, step: F) -> Result<T, AuthenticationAborted>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        let permit = Arc::clone(&self.permits)
            .acquire_owned()
            .await
            .map_err(|error| AuthenticationAborted(error.to_string()))?;
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            step()
        })
        .await
        .map_err(|error| AuthenticationAborted(error.to_string()))
    }
}

/// The SASL gate's steps on the pool (with the `sasl` feature): those that check
/// a credential run there, the rest (a handshake, a request before login) in
/// place, as they cost nothing.
#[cfg(feature = "sasl")]
mod gate {
    use std::sync::Arc;
    use std::time::Instant;

    use kwire_messages::Request;

    use super::AuthenticationPool;
    use crate::sasl::{Credentials, Gate, RawGate, ServerAuthenticator};

    /// Takes `gate` out for a step elsewhere, leaving one that serves nobody in
    /// its place should the step never give it back.
    fn take(gate: &mut ServerAuthenticator) -> ServerAuthenticator {
        std::mem::replace(gate, ServerAuthenticator::new(Vec::new()))
    }

    impl AuthenticationPool {
        /// [`ServerAuthenticator::on_request`], on the pool for a SaslAuthenticate
        /// (whose token is checked against `credentials`: a PLAIN password's key
        /// derivation, an OAUTHBEARER token's validation), in place otherwise.
        ///
        /// ```
        /// # #[tokio::main(flavor = "current_thread")]
        /// # async fn main() {
        /// use std::sync::Arc;
        /// use std::time::Instant;
        /// use kwire_messages::api::{SaslAuthenticateRequest, SaslHandshakeRequest};
        /// use kwire_messages::Request;
        /// use kwire_net::sasl::{plain, Gate, Mechanism, ServerAuthenticator, Users};
        /// use kwire_net::server::AuthenticationPool;
        ///
        /// let users = Arc::new(Users::new().with_user("alice", "secret").unwrap());
        /// let pool = AuthenticationPool::new(1);
        /// let mut gate = ServerAuthenticator::new(vec![Mechanism::Plain]);
        /// let handshake = SaslHandshakeRequest::default().with_mechanism("PLAIN".into());
        /// let now = Instant::now();
        /// pool.gate_request(&mut gate, &handshake.into(), 1, &users, now).await;
        /// let token = plain::message("alice", "secret").unwrap();
        /// let login = Request::from(SaslAuthenticateRequest::default().with_auth_bytes(token.into()));
        /// let answer = pool.gate_request(&mut gate, &login, 2, &users, now).await;
        /// assert!(matches!(answer, Gate::Answer(_)));
        /// assert!(gate.is_authenticated());
        /// # }
        /// ```
        pub async fn gate_request<C>(
            &self,
            gate: &mut ServerAuthenticator,
            request: &Request,
            version: i16,
            credentials: &Arc<C>,
            now: Instant,
        ) -> Gate
        where
            C: Credentials + Send + Sync + 'static,
        {
            if !matches!(request, Request::SaslAuthenticate(_)) {
                return gate.on_request(request, version, credentials.as_ref(), now);
            }
            let mut away = take(gate);
            let (request, credentials) = (request.clone(), Arc::clone(credentials));
            let step = move || {
                let decided = away.on_request(&request, version, credentials.as_ref(), now);
                (away, decided)
            };
            match self.run(step).await {
                Ok((back, decided)) => {
                    *gate = back;
                    decided
                }
                Err(aborted) => Gate::Close(aborted.to_string()),
            }
        }

        /// [`ServerAuthenticator::on_raw_token`] (after SaslHandshake v0), on the
        /// pool.
        pub async fn gate_raw_token<C>(
            &self,
            gate: &mut ServerAuthenticator,
            token: bytes::Bytes,
            credentials: &Arc<C>,
            now: Instant,
        ) -> RawGate
        where
            C: Credentials + Send + Sync + 'static,
        {
            let mut away = take(gate);
            let credentials = Arc::clone(credentials);
            let step = move || {
                let decided = away.on_raw_token(&token, credentials.as_ref(), now);
                (away, decided)
            };
            match self.run(step).await {
                Ok((back, decided)) => {
                    *gate = back;
                    decided
                }
                Err(aborted) => RawGate::Close(aborted.to_string()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    /// However many steps are asked for at once, no more than the pool's size run
    /// together.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn at_most_the_pools_size_run_at_once() {
        let pool = AuthenticationPool::new(2);
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let steps: Vec<_> = (0..8)
            .map(|_| {
                let (pool, running, most) = (pool.clone(), running.clone(), most.clone());
                tokio::spawn(async move {
                    pool.run(move || {
                        let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        std::thread::sleep(Duration::from_millis(20));
                        running.fetch_sub(1, Ordering::SeqCst);
                    })
                    .await
                })
            })
            .collect();
        for step in steps {
            step.await.unwrap().unwrap();
        }
        assert_eq!(most.load(Ordering::SeqCst), 2);
        assert_eq!(pool.threads(), 2);
        assert!(AuthenticationPool::default_threads() >= 1);
    }

    #[tokio::test]
    async fn a_step_that_panics_is_an_error_not_a_panic() {
        let pool = AuthenticationPool::new(1);
        let aborted = pool.run(|| panic!("a bug in a mechanism")).await;
        assert!(aborted.is_err());
        // The place is given back.
        assert_eq!(pool.run(|| 7).await.unwrap(), 7);
    }
}

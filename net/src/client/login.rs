//! SASL on a connection: [`ClientLogin`]'s requests sent and answered in turn;
//! and, when the broker limits the session (KIP-368), the same again before the
//! first request sent once 90 % of it has passed.
//!
//! The renewal is due 90 % of the lifetime after the login's last request was
//! *sent*: the broker starts the session when it reads that request, never
//! sooner, so the margin is not eaten by however long the answer took to come
//! back. And it is checked on the way of every request, not left to a timer: a
//! timer's task may run after a request that was sent late, which the broker
//! would read past the session's end and answer by closing the connection.
//! Kafka's own client renews the same way, before its next request. An idle
//! connection's session may lapse: Kafka then takes a login again and closes
//! only on any other request.

use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use tokio::time::Instant;

use super::connection::Inner;
use super::ClientError;
use crate::negotiation::Negotiated;
use crate::sasl::{ClientLogin, Login, LoginStep, LoginVersions};

/// The share of a session after which it is renewed.
const RENEW_AT: f64 = 0.9;

/// What a login settled.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LoggedIn {
    versions: LoginVersions,
    /// How long the broker keeps the session, if it limits it.
    pub session_lifetime: Option<Duration>,
    /// When the login's last request was sent.
    sent: Instant,
}

/// A session the broker limits: how to log in again, and from when.
pub(crate) struct Renewal {
    login: Login,
    versions: LoginVersions,
    due: Instant,
}

impl Renewal {
    /// The renewal `logged_in` calls for, if its session ends.
    pub(crate) fn after(login: Login, logged_in: &LoggedIn) -> Option<Renewal> {
        let lifetime = logged_in.session_lifetime?;
        Some(Renewal {
            login,
            versions: logged_in.versions,
            due: logged_in.sent + lifetime.mul_f64(RENEW_AT),
        })
    }
}

/// The renewal of a connection's session, shared by the requests that check it.
#[derive(Default)]
pub(crate) struct Session(Mutex<Option<Renewal>>);

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let due = self.lock().as_ref().map(|renewal| renewal.due);
        f.debug_struct("Session").field("renew_at", &due).finish()
    }
}

impl Session {
    fn lock(&self) -> MutexGuard<'_, Option<Renewal>> {
        // A panic elsewhere while holding the lock leaves a whole value behind.
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Sets (or, with `None`, ends) the renewal.
    pub(crate) fn set(&self, renewal: Option<Renewal>) {
        *self.lock() = renewal;
    }

    /// Whether a renewal is due now.
    pub(crate) fn due(&self) -> bool {
        self.lock()
            .as_ref()
            .is_some_and(|renewal| renewal.due <= Instant::now())
    }

    /// The login and versions to renew with, if a renewal is due now.
    fn due_login(&self) -> Option<(Login, LoginVersions)> {
        self.lock()
            .as_ref()
            .filter(|renewal| renewal.due <= Instant::now())
            .map(|renewal| (renewal.login.clone(), renewal.versions))
    }
}

/// Logs in with `login`, at the versions negotiated.
pub(crate) async fn log_in(
    inner: &Inner,
    login: &Login,
    negotiated: &Negotiated,
) -> Result<LoggedIn, ClientError> {
    exchange(inner, login, LoginVersions::negotiated(negotiated)?).await
}

async fn exchange(
    inner: &Inner,
    login: &Login,
    versions: LoginVersions,
) -> Result<LoggedIn, ClientError> {
    let (mut client, mut step) = ClientLogin::start(login, versions)?;
    let mut sent = Instant::now();
    loop {
        match step {
            LoginStep::Send(request, version) => {
                sent = Instant::now();
                let answer = inner.round_trip(&request, version).await?;
                step = client.on_response(answer)?;
            }
            LoginStep::Done { session_lifetime } => {
                return Ok(LoggedIn {
                    versions,
                    session_lifetime,
                    sent,
                })
            }
        }
    }
}

/// Logs in again if the session's renewal is due, with nothing else in flight
/// meanwhile: it waits for the requests in flight, and the ones after it wait
/// for it. If that fails, the connection closes with the reason.
pub(crate) async fn renew_if_due(inner: &Inner) -> Result<(), ClientError> {
    if !inner.session().due() {
        return Ok(());
    }
    let _alone = inner.login_turn().write().await;
    // Another request may have renewed it while this one waited.
    let Some((login, versions)) = inner.session().due_login() else {
        return Ok(());
    };
    match exchange(inner, &login, versions).await {
        Ok(again) => {
            inner.session().set(Renewal::after(login, &again));
            Ok(())
        }
        Err(error) => {
            inner
                .in_flight()
                .close(format!("logging in again failed: {error}"));
            Err(error)
        }
    }
}

//! SASL on a connection: [`ClientLogin`]'s requests sent and answered in turn;
//! and, when the broker limits the session (KIP-368), the same again before it
//! ends.

use std::sync::Arc;
use std::time::Duration;

use super::connection::Inner;
use super::ClientError;
use crate::negotiation::Negotiated;
use crate::sasl::{ClientLogin, Login, LoginStep, LoginVersions};

/// What a login settled.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LoggedIn {
    versions: LoginVersions,
    /// How long the broker keeps the session, if it limits it.
    pub session_lifetime: Option<Duration>,
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
    loop {
        match step {
            LoginStep::Send(request, version) => {
                let answer = inner.round_trip(&request, version).await?;
                step = client.on_response(answer)?;
            }
            LoginStep::Done { session_lifetime } => {
                return Ok(LoggedIn {
                    versions,
                    session_lifetime,
                })
            }
        }
    }
}

/// Logs in again before each session ends, with nothing else in flight meanwhile;
/// if that fails, the connection closes with the reason.
pub(crate) async fn keep_logged_in(
    inner: Arc<Inner>,
    login: Login,
    mut logged_in: LoggedIn,
    mut lifetime: Duration,
) {
    loop {
        // Kafka's client picks a moment between 85 % and 95 % of the lifetime;
        // one connection has no herd to spread, so the middle of that.
        tokio::time::sleep(lifetime.mul_f64(0.9)).await;
        let _alone = inner.login_turn().write().await;
        match exchange(&inner, &login, logged_in.versions).await {
            Ok(again) => match again.session_lifetime {
                Some(next) => {
                    logged_in = again;
                    lifetime = next;
                }
                None => return,
            },
            Err(error) => {
                inner
                    .in_flight()
                    .close(format!("logging in again failed: {error}"));
                return;
            }
        }
    }
}

//! SASL on a connection: SaslHandshake v1, then SaslAuthenticate until the
//! mechanism is done; and, when the broker limits the session (KIP-368), the
//! same again before it ends.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use kwire_messages::api::{
    SaslAuthenticateRequest, SaslAuthenticateResponse, SaslHandshakeRequest, SaslHandshakeResponse,
};
use kwire_messages::{ApiKey, ErrorCode};

use super::connection::Inner;
use super::{ClientError, Login};
use crate::negotiation::Negotiated;
use crate::sasl::ClientStep;

/// What a login settled.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LoggedIn {
    handshake_version: i16,
    authenticate_version: i16,
    /// How long the broker keeps the session, if it limits it.
    pub session_lifetime: Option<Duration>,
}

/// Logs in with `login`, at the versions negotiated.
pub(crate) async fn log_in(
    inner: &Inner,
    login: &Login,
    negotiated: &Negotiated,
) -> Result<LoggedIn, ClientError> {
    let handshake_version = negotiated.version(ApiKey::SaslHandshake)?;
    if handshake_version < 1 {
        // v0 sends the tokens bare, outside Kafka's framing; every broker since
        // Kafka 1.0 speaks v1.
        return Err(ClientError::Authentication {
            code: ErrorCode::UnsupportedVersion,
            message: "the broker offers only SaslHandshake v0 (bare tokens), which this client does not speak".into(),
        });
    }
    let authenticate_version = negotiated.version(ApiKey::SaslAuthenticate)?;
    let versions = LoggedIn {
        handshake_version,
        authenticate_version,
        session_lifetime: None,
    };
    exchange(inner, login, versions).await
}

async fn exchange(
    inner: &Inner,
    login: &Login,
    versions: LoggedIn,
) -> Result<LoggedIn, ClientError> {
    let mut client = login.client()?;
    let handshake = SaslHandshakeRequest::default().with_mechanism(login.mechanism_name().into());
    let answer = inner
        .round_trip(&handshake.into(), versions.handshake_version)
        .await?;
    let answer = SaslHandshakeResponse::try_from(answer)?;
    if let Err(code) = ErrorCode::check(answer.error_code) {
        let enabled: Vec<&str> = answer.mechanisms.iter().map(|m| m.as_str()).collect();
        return Err(ClientError::Authentication {
            code,
            message: format!(
                "{} is not enabled; the broker offers {}",
                login.mechanism_name(),
                enabled.join(", ")
            ),
        });
    }
    let mut token = client.start()?;
    loop {
        let request = SaslAuthenticateRequest::default().with_auth_bytes(Bytes::from(token));
        let answer = inner
            .round_trip(&request.into(), versions.authenticate_version)
            .await?;
        let answer = SaslAuthenticateResponse::try_from(answer)?;
        if let Err(code) = ErrorCode::check(answer.error_code) {
            let mut message = answer
                .error_message
                .map_or_else(|| code.message().to_owned(), |m| m.as_str().to_owned());
            // OAUTHBEARER's server said why before failing the exchange.
            if let Some(refusal) = client.refusal() {
                message = format!("{message} ({refusal})");
            }
            return Err(ClientError::Authentication { code, message });
        }
        match client.step(&answer.auth_bytes)? {
            ClientStep::Send(next) => token = next,
            ClientStep::Done => {
                let lifetime = u64::try_from(answer.session_lifetime_ms).unwrap_or(0);
                return Ok(LoggedIn {
                    session_lifetime: (lifetime > 0).then(|| Duration::from_millis(lifetime)),
                    ..versions
                });
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
        match exchange(&inner, &login, logged_in).await {
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

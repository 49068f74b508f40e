//! The proxy's own login to an upstream broker (`--upstream-sasl`): ApiVersions
//! to learn the SaslHandshake and SaslAuthenticate versions (unless the broker
//! answered the client's ApiVersions on that connection already: Kafka's takes
//! only one), SaslHandshake v1, then SaslAuthenticate until the mechanism is
//! done; and, when the broker limits the session (KIP-368
//! `session_lifetime_ms`), the handshake and exchange again before it ends.
//!
//! [`Exchange`] is the sequence, sans-IO: it gives each request and reads each
//! response. Two drivers move the frames: [`Session::open`] once the client has
//! logged in at the proxy, before anything of the client's but ApiVersions is
//! forwarded, and the re-login in
//! `connection.rs`, between the client's requests, whose answers the response
//! side hands back rather than forwarding.

use std::time::Duration;

use bytes::Bytes;
use kwire::KafkaString;
use kwire_messages::api::{ApiVersionsRequest, ApiVersionsResponse};
use kwire_messages::{frame, ApiKey, Request, RequestHeader, Response};
use kwire_net::negotiation::{first_api_versions_version, next_step, Negotiated, NextStep};
use kwire_net::sasl::{ClientLogin, Login, LoginError, LoginStep, LoginVersions};
use kwire_net::server::FrameReader;
use tokio::time::Instant;
use tracing::debug;

use crate::error::ProxyError;
use crate::io::{self, Reader, Writer};
use crate::verify;

/// The client id of the proxy's own requests.
const CLIENT_ID: &str = "kwire-proxy";

/// What a login settled: the versions to log in again with, and how long the
/// session lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoggedIn {
    versions: LoginVersions,
    /// How long the broker keeps the session, if it limits it.
    pub session_lifetime: Option<Duration>,
}

/// What to do after a response.
#[derive(Debug)]
pub enum Step {
    /// Send this request at this version, and give its response to
    /// [`Exchange::on_response`].
    Send(Box<Request>, i16),
    /// Logged in.
    Done(LoggedIn),
}

/// One login's requests and responses, sans-IO: ApiVersions first on a fresh
/// connection, then kwire-net's [`ClientLogin`].
#[derive(Debug)]
pub struct Exchange {
    login: Login,
    state: State,
}

#[derive(Debug)]
enum State {
    /// ApiVersions sent at this version.
    ApiVersions(i16),
    /// SaslHandshake or SaslAuthenticate sent.
    Sasl(ClientLogin),
}

impl Exchange {
    /// A first login: starts with ApiVersions.
    pub fn log_in(login: &Login) -> (Exchange, Step) {
        let version = first_api_versions_version();
        let exchange = Exchange {
            login: login.clone(),
            state: State::ApiVersions(version),
        };
        (exchange, Step::Send(api_versions(version), version))
    }

    /// A first login on a connection where the broker has answered an
    /// ApiVersions already (the client's, before it logged in at the proxy):
    /// starts with SaslHandshake, at the versions of `answer`.
    ///
    /// Kafka's broker takes one ApiVersions before SASL: a second one, in the
    /// state that awaits SaslHandshake, closes the connection
    /// (`IllegalSaslStateException`).
    pub fn log_in_after(
        login: &Login,
        answer: &ApiVersionsResponse,
    ) -> Result<(Exchange, Step), ProxyError> {
        Exchange::start_sasl(login, &Negotiated::with_broker(answer))
    }

    /// SaslHandshake, at the versions `negotiated` settled.
    fn start_sasl(login: &Login, negotiated: &Negotiated) -> Result<(Exchange, Step), ProxyError> {
        let (client, first) = LoginVersions::negotiated(negotiated)
            .and_then(|versions| ClientLogin::start(login, versions))
            .map_err(|e| failed(login, e))?;
        let versions = client.versions();
        let exchange = Exchange {
            login: login.clone(),
            state: State::Sasl(client),
        };
        Ok((exchange, step(first, versions)))
    }

    /// A login again on a connection logged in before (at `versions`): starts
    /// with SaslHandshake.
    pub fn log_in_again(login: &Login, versions: LoggedIn) -> Result<(Exchange, Step), ProxyError> {
        let (client, first) =
            ClientLogin::start(login, versions.versions).map_err(|e| failed(login, e))?;
        let exchange = Exchange {
            login: login.clone(),
            state: State::Sasl(client),
        };
        Ok((exchange, step(first, versions.versions)))
    }

    /// Reads the response to the request last given.
    pub fn on_response(&mut self, response: Response) -> Result<Step, ProxyError> {
        match &mut self.state {
            State::ApiVersions(sent) => {
                let Response::ApiVersions(answer) = response else {
                    return Err(ProxyError::UpstreamLogin(format!(
                        "a {} response where ApiVersions was awaited",
                        response.api().name()
                    )));
                };
                match next_step(*sent, &answer)? {
                    NextStep::RetryAt(version) => {
                        *sent = version;
                        Ok(Step::Send(api_versions(version), version))
                    }
                    NextStep::Done(negotiated) => {
                        let (started, first) = Exchange::start_sasl(&self.login, &negotiated)?;
                        *self = started;
                        Ok(first)
                    }
                }
            }
            State::Sasl(client) => {
                let versions = client.versions();
                match client.on_response(response) {
                    Ok(next) => Ok(step(next, versions)),
                    Err(error) => Err(failed(&self.login, error)),
                }
            }
        }
    }
}

/// The proxy's step for kwire-net's login step, at `versions`.
fn step(step: LoginStep, versions: LoginVersions) -> Step {
    match step {
        LoginStep::Send(request, version) => Step::Send(request, version),
        LoginStep::Done { session_lifetime } => Step::Done(LoggedIn {
            versions,
            session_lifetime,
        }),
    }
}

/// A failed login upstream, naming who tried.
fn failed(login: &Login, error: LoginError) -> ProxyError {
    let user = login.username().unwrap_or("a token");
    ProxyError::UpstreamLogin(format!("{} as {user}: {error}", login.mechanism_name()))
}

fn api_versions(version: i16) -> Box<Request> {
    let mut request = ApiVersionsRequest::default();
    // The name and version go from v3; below they would be dropped.
    if version >= 3 {
        request = request
            .with_client_software_name(CLIENT_ID.into())
            .with_client_software_version(env!("CARGO_PKG_VERSION").into());
    }
    Box::new(request.into())
}

/// Correlation ids for the proxy's own requests: negative, so that they are
/// never a client's (clients count up from 0 and wrap to 0).
#[derive(Debug)]
pub struct OwnIds(i32);

impl Default for OwnIds {
    fn default() -> Self {
        OwnIds(i32::MIN)
    }
}

impl OwnIds {
    /// The next id.
    pub fn next_id(&mut self) -> i32 {
        let id = self.0;
        self.0 = if id == -1 { i32::MIN } else { id + 1 };
        id
    }
}

/// `request` framed at `version` with correlation id `id`.
pub fn encode(request: &Request, version: i16, id: i32) -> Result<Bytes, ProxyError> {
    let header = RequestHeader::default()
        .with_request_api_key(request.api().key())
        .with_request_api_version(version)
        .with_correlation_id(id)
        .with_client_id(Some(KafkaString::from_static(CLIENT_ID)));
    Ok(frame::encode_any_request(&header, request)?)
}

/// Reads the response `frame` to the proxy's request of `api` at `version`
/// with correlation id `id`.
pub fn read(frame: &Bytes, api: ApiKey, version: i16, id: i32) -> Result<Response, ProxyError> {
    let received = frame::response_correlation_id(frame)?;
    if received != id {
        return Err(ProxyError::UnexpectedResponse { sent: id, received });
    }
    verify::read_response(frame, api.key(), version)
        .map(|decoded| decoded.body)
        .map_err(|why| ProxyError::UpstreamLogin(format!("{} response: {why}", api.name())))
}

/// The proxy's session on one upstream connection: who, at which versions,
/// and when to log in again.
#[derive(Debug)]
pub struct Session<'a> {
    /// The credentials.
    pub login: &'a Login,
    /// What the last login settled.
    pub logged_in: LoggedIn,
    /// When to log in again; `None`: the session does not end.
    pub due: Option<Instant>,
}

impl<'a> Session<'a> {
    /// Logs in on a connection just opened, each answer awaited at most
    /// `timeout`: from ApiVersions, or from SaslHandshake when the broker has
    /// `answered` one there already.
    pub async fn open(
        frames: &mut FrameReader<Reader>,
        to: &mut Writer,
        login: &'a Login,
        answered: Option<&ApiVersionsResponse>,
        timeout: Duration,
    ) -> Result<Session<'a>, ProxyError> {
        let (exchange, step) = match answered {
            Some(answer) => Exchange::log_in_after(login, answer)?,
            None => Exchange::log_in(login),
        };
        let logged_in = drive(frames, to, exchange, step, timeout).await?;
        Ok(Session {
            login,
            logged_in,
            due: due(logged_in),
        })
    }

    /// Records a login again.
    pub fn renewed(&mut self, logged_in: LoggedIn) {
        debug!(user = self.login.username(), "logged in upstream again");
        self.logged_in = logged_in;
        self.due = due(logged_in);
    }
}

/// When to log in again after `logged_in`: at 90 % of the session, the middle
/// of the 85–95 % Kafka's client picks from (one connection has no herd to
/// spread).
fn due(logged_in: LoggedIn) -> Option<Instant> {
    let lifetime = logged_in.session_lifetime?;
    Instant::now().checked_add(lifetime.mul_f64(0.9))
}

/// Runs `exchange` from `step` on a connection whose every answer is the
/// proxy's, each awaited at most `timeout`.
async fn drive(
    frames: &mut FrameReader<Reader>,
    to: &mut Writer,
    mut exchange: Exchange,
    mut step: Step,
    timeout: Duration,
) -> Result<LoggedIn, ProxyError> {
    let mut ids = OwnIds::default();
    loop {
        let (request, version) = match step {
            Step::Send(request, version) => (request, version),
            Step::Done(logged_in) => return Ok(logged_in),
        };
        let (api, id) = (request.api(), ids.next_id());
        io::write_frame(to, &encode(&request, version, id)?).await?;
        let frame = tokio::time::timeout(timeout, io::next_frame(frames, "upstream"))
            .await
            .map_err(|_| ProxyError::UpstreamTimeout {
                api: api.name(),
                correlation_id: id,
                timeout,
            })??
            .ok_or(ProxyError::UpstreamClosed)?;
        step = exchange.on_response(read(&frame, api, version, id)?)?;
    }
}

#[cfg(test)]
mod tests {
    use kwire_messages::api::SaslHandshakeResponse;
    use kwire_messages::frame::RequestFrame;
    use kwire_messages::ResponseHeader;
    use kwire_net::negotiation::answer_api_versions;
    use kwire_net::sasl::{Gate, Mechanism, ServerAuthenticator, Users};

    use super::*;
    use crate::security::SecurityOptions;

    fn login(text: &str) -> Login {
        let mut options = SecurityOptions::default();
        options.take("--sasl-user", "a:b", "a:b".into()).unwrap();
        options.take("--upstream-sasl", text, text.into()).unwrap();
        options
            .build(Duration::from_secs(1))
            .unwrap()
            .upstream_login
            .unwrap()
    }

    /// Runs an exchange against kwire-net's broker-side gate, each request
    /// framed and read back as a broker would; the login, or the failure.
    fn against_gate(
        mut exchange: Exchange,
        mut step: Step,
        gate: &mut ServerAuthenticator,
        users: &Users,
    ) -> Result<LoggedIn, ProxyError> {
        let mut ids = OwnIds::default();
        loop {
            let (request, version) = match step {
                Step::Send(request, version) => (request, version),
                Step::Done(logged_in) => return Ok(logged_in),
            };
            let id = ids.next_id();
            let bytes = encode(&request, version, id)?;
            let parsed = RequestFrame::parse(&bytes)?;
            let header = ResponseHeader::default().with_correlation_id(id);
            let answer = if request.api() == ApiKey::ApiVersions {
                answer_api_versions(&parsed, kwire_messages::Listener::Broker)?
            } else {
                let response =
                    match gate.on_request(&request, version, users, std::time::Instant::now()) {
                        Gate::Answer(response) | Gate::AnswerAndClose(response) => response,
                        other => panic!("{other:?}"),
                    };
                frame::encode_any_response(&header, &response, version)?
            };
            step = exchange.on_response(read(&answer, request.api(), version, id)?)?;
        }
    }

    #[test]
    fn logs_in_and_again_with_scram_and_plain() {
        let users = Users::new().with_user("proxy", "secret").unwrap();
        for text in [
            "SCRAM-SHA-512:proxy:secret",
            "SCRAM-SHA-256:proxy:secret",
            "PLAIN:proxy:secret",
        ] {
            let login = login(text);
            let mut gate = ServerAuthenticator::new(Mechanism::ALL.to_vec())
                .with_session_lifetime(Duration::from_secs(60));
            let (exchange, step) = Exchange::log_in(&login);
            let logged_in = against_gate(exchange, step, &mut gate, &users).unwrap();
            assert_eq!(
                logged_in.session_lifetime,
                Some(Duration::from_secs(60)),
                "{text}"
            );
            assert!(logged_in.versions.handshake >= 1);
            assert_eq!(gate.principal(), Some("proxy"));
            let (exchange, step) = Exchange::log_in_again(&login, logged_in).unwrap();
            assert!(
                matches!(&step, Step::Send(request, _) if matches!(**request, Request::SaslHandshake(_)))
            );
            against_gate(exchange, step, &mut gate, &users).unwrap();
        }
    }

    #[test]
    fn a_wrong_password_or_mechanism_is_a_login_error() {
        let users = Users::new().with_user("proxy", "secret").unwrap();
        let mut gate = ServerAuthenticator::new(Mechanism::ALL.to_vec());
        let (exchange, step) = Exchange::log_in(&login("SCRAM-SHA-512:proxy:guess"));
        let error = against_gate(exchange, step, &mut gate, &users).unwrap_err();
        assert!(matches!(error, ProxyError::UpstreamLogin(_)), "{error:?}");

        let mut gate = ServerAuthenticator::new(vec![Mechanism::Plain]);
        let (exchange, step) = Exchange::log_in(&login("SCRAM-SHA-256:proxy:secret"));
        let error = against_gate(exchange, step, &mut gate, &users).unwrap_err();
        let text = error.to_string();
        assert!(text.contains("the broker offers PLAIN"), "{text}");
    }

    #[test]
    fn own_ids_stay_negative() {
        let mut ids = OwnIds(-2);
        assert_eq!(
            [ids.next_id(), ids.next_id(), ids.next_id()],
            [-2, -1, i32::MIN]
        );
    }

    #[test]
    fn a_response_to_another_request_is_refused() {
        let header = ResponseHeader::default().with_correlation_id(7);
        let frame = frame::encode_any_response(
            &header,
            &Response::SaslHandshake(SaslHandshakeResponse::default()),
            1,
        )
        .unwrap();
        let error = read(&frame, ApiKey::SaslHandshake, 1, 8).unwrap_err();
        assert!(matches!(
            error,
            ProxyError::UnexpectedResponse {
                sent: 8,
                received: 7
            }
        ));
    }
}

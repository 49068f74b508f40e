//! A connection: open it, negotiate, log in; then send requests, many at once.

use std::sync::Arc;
use std::time::Duration;

use kwire::wire::ChunkedBytes;
use kwire::{ApiRequest, WrongMessage};
use kwire_messages::api::{ApiVersionsRequest, ApiVersionsResponse, ProduceResponse};
use kwire_messages::{ApiKey, Request, Response};
use tokio::net::TcpStream;
use tokio::sync::{mpsc, RwLock};
use tokio::task::JoinHandle;

use super::in_flight::InFlight;
use super::login::{log_in, renew_if_due, Renewal, Session};
use super::transport::{read_frames, write_frames, Transport};
use super::{ClientError, ConnectOptions};
use crate::negotiation::{first_api_versions_version, next_step, Negotiated, NextStep};
use crate::session::{read_response, ClientSession};

/// Frames waiting for the writer task: enough to keep the socket busy, few
/// enough that a slow broker pushes back on callers.
const WRITE_QUEUE: usize = 64;

/// One connection to a broker, after version negotiation and (when asked) TLS and
/// SASL: [`send`](Self::send) a request, get its own response type back.
///
/// Requests may be sent from many tasks at once over `&self`; they are
/// pipelined on the one socket and each caller gets its own answer. A request
/// not answered within the request timeout closes the connection (as Kafka's
/// client does: what the broker did with it is unknown), and every request then
/// fails with [`ClientError::Closed`]. Dropping the connection closes it.
///
/// ```no_run
/// use kwire_messages::api::MetadataRequest;
/// use kwire_net::client::{ConnectOptions, Connection};
///
/// # async fn run() -> Result<(), kwire_net::client::ClientError> {
/// let connection = Connection::connect("127.0.0.1:9092", ConnectOptions::new()).await?;
/// let metadata = connection.send(MetadataRequest::default().with_topics(None)).await?;
/// for broker in &metadata.brokers {
///     println!("broker {} at {}:{}", broker.node_id, broker.host, broker.port);
/// }
/// # Ok(())
/// # }
/// ```
#[derive(Debug)]
pub struct Connection {
    inner: Arc<Inner>,
    negotiated: Negotiated,
    tasks: Vec<JoinHandle<()>>,
}

#[derive(Debug)]
pub(crate) struct Inner {
    in_flight: Arc<InFlight>,
    frames: mpsc::Sender<ChunkedBytes>,
    request_timeout: Duration,
    strict: bool,
    // Every request holds it shared while in flight; a re-login holds it alone,
    // so it starts once what was sent before it is answered, and nothing else
    // is sent until it is done (KIP-368).
    login_turn: RwLock<()>,
    // When the broker limits the session: how to log in again, and from when.
    session: Session,
}

impl std::fmt::Debug for InFlight {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("InFlight")
    }
}

impl Connection {
    /// Connects to `address` (`HOST:PORT`), then does TLS, ApiVersions
    /// negotiation (with Kafka's fallback to a version the broker knows) and the
    /// SASL login, as `options` say.
    pub async fn connect(address: &str, options: ConnectOptions) -> Result<Self, ClientError> {
        let timed_out = || ClientError::ConnectTimeout {
            address: address.to_owned(),
            after: options.connect_timeout,
        };
        let tcp = tokio::time::timeout(options.connect_timeout, TcpStream::connect(address))
            .await
            .map_err(|_| timed_out())??;
        tcp.set_nodelay(true)?;
        #[cfg(feature = "tls")]
        if let Some((tls, server_name)) = &options.tls {
            let stream =
                tokio::time::timeout(options.connect_timeout, tls.connect(server_name, tcp))
                    .await
                    .map_err(|_| timed_out())??;
            return Self::over(stream, options).await;
        }
        Self::over(tcp, options).await
    }

    /// Runs a connection over a stream already open (TLS already done, if any):
    /// negotiates and logs in as `options` say. Needs a tokio runtime: the
    /// socket is read and written by tasks of its own.
    pub async fn over<T: Transport>(
        stream: T,
        options: ConnectOptions,
    ) -> Result<Self, ClientError> {
        let (reads, writes) = tokio::io::split(stream);
        let in_flight = Arc::new(InFlight::new(ClientSession::new(options.client_id.clone())));
        let (frames, queue) = mpsc::channel(WRITE_QUEUE);
        let inner = Arc::new(Inner {
            in_flight: in_flight.clone(),
            frames,
            request_timeout: options.request_timeout,
            strict: options.strict,
            login_turn: RwLock::new(()),
            session: Session::default(),
        });
        let tasks = vec![
            tokio::spawn(write_frames(queue, writes, in_flight.clone())),
            tokio::spawn(read_frames(reads, in_flight, options.max_frame_size)),
        ];
        // Until the connection is handed out, its tasks stop with it on any error.
        let opened = async {
            let negotiated = inner.negotiate().await?;
            if let Some(login) = options.login {
                let logged_in = log_in(&inner, &login, &negotiated).await?;
                inner.session.set(Renewal::after(login, &logged_in));
            }
            Ok::<_, ClientError>(negotiated)
        }
        .await;
        match opened {
            Ok(negotiated) => Ok(Connection {
                inner,
                negotiated,
                tasks,
            }),
            Err(error) => {
                tasks.iter().for_each(JoinHandle::abort);
                Err(error)
            }
        }
    }

    /// Sends `request` at the highest version both sides support, and gives back
    /// its response.
    ///
    /// A Produce with `acks = 0` is one Kafka does not answer: it returns once
    /// the request is queued for writing, in order with the others, with an
    /// empty [`ProduceResponse`] (no topics). Whether the records were stored
    /// shows only in a Fetch or ListOffsets after; a write that failed closes
    /// the connection, and the requests after it fail with
    /// [`ClientError::Closed`].
    ///
    /// Fails with [`ClientError::Negotiation`] naming the API when there is no
    /// such version, and, when the connection is strict (the default), with
    /// [`ClientError::WouldDrop`] naming the field and version when a value it
    /// holds would be dropped at that version.
    pub async fn send<R>(&self, request: R) -> Result<R::Response, ClientError>
    where
        R: ApiRequest + Into<Request>,
        R::Response: TryFrom<Response, Error = WrongMessage<Response>>,
    {
        let request = request.into();
        let version = self.version(request.api())?;
        Ok(self.send_any_at(request, version).await?.try_into()?)
    }

    /// Sends `request` at `version`, which the caller has chosen.
    pub async fn send_at<R>(&self, request: R, version: i16) -> Result<R::Response, ClientError>
    where
        R: ApiRequest + Into<Request>,
        R::Response: TryFrom<Response, Error = WrongMessage<Response>>,
    {
        Ok(self
            .send_any_at(request.into(), version)
            .await?
            .try_into()?)
    }

    /// Sends any request at `version`; the answer comes back as the enum.
    pub async fn send_any_at(
        &self,
        request: Request,
        version: i16,
    ) -> Result<Response, ClientError> {
        // A session the broker limits is renewed first once it is due, so
        // that no request reaches the broker after the session's end.
        let mut turn = self.inner.login_turn.read().await;
        if self.inner.session.due() {
            drop(turn);
            renew_if_due(&self.inner).await?;
            turn = self.inner.login_turn.read().await;
        }
        let answer = self.inner.round_trip(&request, version).await;
        drop(turn);
        answer
    }

    /// The version [`send`](Self::send) uses for `api`: the highest both sides
    /// support.
    pub fn version(&self, api: ApiKey) -> Result<i16, ClientError> {
        Ok(self.negotiated().version(api)?)
    }

    /// What was negotiated with the broker, API by API.
    pub fn negotiated(&self) -> &Negotiated {
        &self.negotiated
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

impl Inner {
    /// One request and its answer, on the socket's tasks.
    pub(crate) async fn round_trip(
        &self,
        request: &Request,
        version: i16,
    ) -> Result<Response, ClientError> {
        if self.strict {
            super::strict::check(request, version)?;
        }
        let (frame, answer) = self.in_flight.send(request, version)?;
        if self.frames.send(frame).await.is_err() {
            return Err(self.in_flight.closed_error());
        }
        let Some(answer) = answer else {
            // A Produce with acks = 0: Kafka answers nothing, so there is
            // nothing to wait for once the frame is queued behind the requests
            // sent before it.
            return Ok(Response::Produce(ProduceResponse::default()));
        };
        match tokio::time::timeout(self.request_timeout, answer).await {
            Ok(Ok(answer)) => {
                let received = read_response(&answer.frame, answer.api, answer.version)
                    .map_err(crate::session::SessionError::from)?;
                Ok(received.body)
            }
            Ok(Err(_gone)) => Err(self.in_flight.closed_error()),
            Err(_elapsed) => {
                let error = ClientError::Timeout {
                    api: request.api(),
                    version,
                    after: self.request_timeout,
                };
                self.in_flight.close(error.to_string());
                Err(error)
            }
        }
    }

    /// ApiVersions at the highest version this side knows, then, if the broker
    /// does not know it, again at the highest it says it knows.
    async fn negotiate(&self) -> Result<Negotiated, ClientError> {
        let mut version = first_api_versions_version();
        loop {
            // The client's name and version go from v3; below, they would be
            // dropped, and a strict connection would refuse to.
            let mut request = ApiVersionsRequest::default();
            if version >= 3 {
                request = request
                    .with_client_software_name("kwire".into())
                    .with_client_software_version(env!("CARGO_PKG_VERSION").into());
            }
            let response = self.round_trip(&request.into(), version).await?;
            let response = ApiVersionsResponse::try_from(response)?;
            match next_step(version, &response)? {
                NextStep::Done(negotiated) => return Ok(negotiated),
                NextStep::RetryAt(lower) => version = lower,
            }
        }
    }

    pub(crate) fn in_flight(&self) -> &InFlight {
        &self.in_flight
    }

    pub(crate) fn login_turn(&self) -> &RwLock<()> {
        &self.login_turn
    }

    pub(crate) fn session(&self) -> &Session {
        &self.session
    }
}

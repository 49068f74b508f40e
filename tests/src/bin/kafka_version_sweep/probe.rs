//! Sending one request on a tapped connection and judging what came back: our
//! client sends it (strict encoding: nothing it holds is dropped), decodes the
//! answer, and [`crate::judge::judge`] checks its bytes.

use std::time::Duration;

use kwire_messages::Request;
use kwire_net::client::{ClientError, ConnectOptions, Connection, Login};

use crate::judge::{judge, Judged, REFUSALS};
use crate::tap::{Received, Tap};

/// What became of one (API, version).
#[derive(Debug)]
pub enum Probe {
    /// Answered, decoded strictly and walked to its last byte; the error codes
    /// it held are in `judged`.
    Answered(Judged),
    /// Answered with one of Kafka's refusals of the request itself.
    Refused(Judged),
    /// Our client could not send it (it would drop a value, or not encode).
    NotSent(String),
    /// Kafka closed the connection, or did not answer in time.
    Unanswered(String),
    /// Answered, but the answer did not decode, or its bytes were not all read.
    Undecoded(String),
}

impl Probe {
    /// Whether the request was sent and answered without a refusal, and the
    /// answer decoded with every byte accounted for.
    pub fn passed(&self) -> bool {
        matches!(self, Probe::Answered(_))
    }
}

/// A connection whose received bytes are kept.
pub struct Tapped {
    /// Our client.
    pub connection: Connection,
    /// What Kafka sent on it.
    pub received: Received,
}

impl Tapped {
    /// Connects to `address` and negotiates, logging in with `login` if given.
    pub async fn open(address: &str, login: Option<Login>) -> Result<Tapped, ClientError> {
        let (tap, received) = Tap::connect(address).await?;
        let mut options = ConnectOptions::new()
            .with_client_id("kwire-version-sweep")
            .with_request_timeout(Duration::from_secs(20));
        if let Some(login) = login {
            options = options.with_login(login);
        }
        let connection = Connection::over(tap, options).await?;
        Ok(Tapped {
            connection,
            received,
        })
    }

    /// Sends `request` at `version` and judges the answer.
    pub async fn probe(&self, request: Request, version: i16) -> Probe {
        let api = request.api();
        self.received.take();
        let answer = self.connection.send_any_at(request, version).await;
        let received = self.received.take();
        let decoded = match answer {
            Ok(decoded) => decoded,
            Err(error @ (ClientError::WouldDrop(_) | ClientError::Encode(_))) => {
                return Probe::NotSent(error.to_string())
            }
            Err(error @ (ClientError::Closed { .. } | ClientError::Timeout { .. })) => {
                return Probe::Unanswered(error.to_string())
            }
            Err(error) => return Probe::Undecoded(error.to_string()),
        };
        match judge(api, version, &received, &decoded) {
            Ok(judged) if judged.errors.iter().any(|code| REFUSALS.contains(code)) => {
                Probe::Refused(judged)
            }
            Ok(judged) => Probe::Answered(judged),
            Err(why) => Probe::Undecoded(why),
        }
    }
}

/// Whether the connection is still usable after `probe` (Kafka closes on a
/// request it cannot parse; a timeout closes it on our side).
pub fn connection_lost(probe: &Probe) -> bool {
    matches!(probe, Probe::Unanswered(_))
}

//! The requests a connection has sent and not had answered, shared by the
//! callers waiting for answers and the task that reads them.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

use bytes::Bytes;
use kwire::wire::ChunkedBytes;
use kwire_messages::frame;
use kwire_messages::{ApiKey, Request};
use tokio::sync::oneshot;

use super::ClientError;
use crate::session::ClientSession;

/// A response frame, handed to the caller that waits for it, with what it answers.
pub(crate) struct Answer {
    pub frame: Bytes,
    pub api: ApiKey,
    pub version: i16,
}

/// The session (correlation ids), a waiter per request in flight, and why the
/// connection closed once it has.
pub(crate) struct InFlight {
    state: Mutex<State>,
}

struct State {
    session: ClientSession,
    waiters: HashMap<i32, oneshot::Sender<Answer>>,
    closed: Option<String>,
}

/// What became of a frame read from the connection.
pub(crate) enum Routed {
    /// Handed to its caller (or dropped: its caller had gone).
    Delivered,
    /// No request in flight has its correlation id: the broker broke the
    /// protocol, and the connection must close.
    Stranger(i32),
}

impl InFlight {
    pub fn new(session: ClientSession) -> Self {
        InFlight {
            state: Mutex::new(State {
                session,
                waiters: HashMap::new(),
                closed: None,
            }),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // A panic elsewhere while holding the lock leaves the maps as they were
        // between two whole operations: still usable.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Frames `request` under the next correlation id and registers its waiter;
    /// none for a request the broker does not answer (a Produce with
    /// `acks = 0`).
    pub fn send(
        &self,
        request: &Request,
        version: i16,
    ) -> Result<(ChunkedBytes, Option<oneshot::Receiver<Answer>>), ClientError> {
        let mut state = self.state();
        if let Some(reason) = &state.closed {
            return Err(ClientError::Closed {
                reason: reason.clone(),
            });
        }
        let sent = state.session.send(request, version)?;
        if !sent.answered {
            return Ok((sent.frame, None));
        }
        let (tell, answer) = oneshot::channel();
        state.waiters.insert(sent.correlation_id, tell);
        Ok((sent.frame, Some(answer)))
    }

    /// Hands a response frame to the caller waiting for it.
    pub fn route(&self, frame: Bytes) -> Result<Routed, ClientError> {
        let correlation_id =
            frame::response_correlation_id(&frame).map_err(crate::session::SessionError::from)?;
        let mut state = self.state();
        let (Some(waiter), Some((api, version))) = (
            state.waiters.remove(&correlation_id),
            state.session.forget(correlation_id),
        ) else {
            return Ok(Routed::Stranger(correlation_id));
        };
        // The caller may have gone (its future dropped): nothing to do then.
        let _ = waiter.send(Answer {
            frame,
            api,
            version,
        });
        Ok(Routed::Delivered)
    }

    /// Closes the connection for `reason`: every waiting caller is told, and no
    /// request is sent after. The first reason stays.
    pub fn close(&self, reason: String) {
        let mut state = self.state();
        state.closed.get_or_insert(reason);
        state.waiters.clear();
    }

    /// The error for a caller whose answer will not come.
    pub fn closed_error(&self) -> ClientError {
        let reason = self.state().closed.clone();
        ClientError::Closed {
            reason: reason.unwrap_or_else(|| "the connection was dropped".into()),
        }
    }
}

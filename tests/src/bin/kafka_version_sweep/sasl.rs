//! SaslHandshake and SaslAuthenticate, which only mean something on a SASL
//! listener before a login: each version on a connection of its own to
//! SASL_PLAINTEXT, logging in with PLAIN as the cluster's first user.

use bytes::Bytes;
use kwire_messages::api::{SaslAuthenticateRequest, SaslHandshakeRequest};

use crate::probe::{Probe, Tapped};

/// SaslHandshake at `version`, asking for PLAIN. (After a v0 handshake Kafka
/// reads the token as a bare frame, not a SaslAuthenticate; the connection is
/// dropped after the answer either way.)
pub async fn handshake(address: &str, version: i16) -> Probe {
    match Tapped::open(address, None).await {
        Ok(tapped) => {
            let request = SaslHandshakeRequest::default().with_mechanism("PLAIN".into());
            tapped.probe(request.into(), version).await
        }
        Err(error) => Probe::Unanswered(format!("no connection: {error}")),
    }
}

/// SaslAuthenticate at `version` with a PLAIN token for `user`, after a v1
/// handshake.
pub async fn authenticate(address: &str, user: &str, password: &str, version: i16) -> Probe {
    let tapped = match Tapped::open(address, None).await {
        Ok(tapped) => tapped,
        Err(error) => return Probe::Unanswered(format!("no connection: {error}")),
    };
    let handshake = SaslHandshakeRequest::default().with_mechanism("PLAIN".into());
    if let Err(error) = tapped.connection.send_at(handshake, 1).await {
        return Probe::Unanswered(format!("the v1 handshake before it failed: {error}"));
    }
    let token = format!("\0{user}\0{password}");
    let request = SaslAuthenticateRequest::default().with_auth_bytes(Bytes::from(token));
    tapped.probe(request.into(), version).await
}

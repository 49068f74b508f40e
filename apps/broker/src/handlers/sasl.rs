//! SaslHandshake and SaslAuthenticate on a connection that is not in a SASL
//! exchange: a PLAINTEXT listener's. When SASL is on, the connection's gate
//! (`kwire_net::sasl::ServerAuthenticator`) answers both before they get here.

use kwire::KafkaString;
use kwire_messages::api::{SaslAuthenticateResponse, SaslHandshakeResponse};
use kwire_messages::ErrorCode;

/// As Kafka's broker answers it outside an exchange: ILLEGAL_SASL_STATE.
pub fn handshake() -> SaslHandshakeResponse {
    SaslHandshakeResponse::default().with_error_code(ErrorCode::IllegalSaslState.code())
}

/// As Kafka's broker answers it outside an exchange: ILLEGAL_SASL_STATE.
pub fn authenticate() -> SaslAuthenticateResponse {
    SaslAuthenticateResponse::default()
        .with_error_code(ErrorCode::IllegalSaslState.code())
        .with_error_message(Some(KafkaString::from_static(
            "SASL is not enabled on this listener",
        )))
}

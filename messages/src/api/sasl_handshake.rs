//! SaslHandshake (API key 17): agrees on the SASL mechanism before authenticating.

use kwire::KafkaString;

/// SaslHandshake request: the SASL mechanism the client wants to use.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 17, kind = request, response = SaslHandshakeResponse, versions = "0-1",
        listeners = "broker, controller")]
pub struct SaslHandshakeRequest {
    /// The SASL mechanism chosen by the client.
    #[kafka(versions = "0+")]
    pub mechanism: KafkaString,
}

/// SaslHandshake response: whether the mechanism is accepted, and those that are.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 17, kind = response, versions = "0-1")]
pub struct SaslHandshakeResponse {
    /// The error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// The mechanisms enabled in the server.
    #[kafka(versions = "0+")]
    pub mechanisms: Vec<KafkaString>,
}

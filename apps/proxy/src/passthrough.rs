//! SASL passed through (no `--sasl-user`): the clients' SaslHandshake and
//! SaslAuthenticate are requests like any other, forwarded and verified; but
//! after a SaslHandshake **v0** the frames are bare SASL tokens, not requests,
//! until the mechanism is done, and each one the client sends gets one back.
//!
//! Read as requests, those tokens were decode failures at best; at worst one
//! parsed as the header of an unknown API, and its made-up correlation id, never
//! answered, tripped the request timeout. So the request side asks
//! [`RawTokens`] about each client frame, and forwards a token as bytes,
//! recording that the next response frame is a token too.
//!
//! How many tokens a mechanism takes is known for the ones Kafka ships with:
//! PLAIN one, SCRAM two (client-first, client-final), OAUTHBEARER one, and a
//! `%x01` after it if the broker answered with an error. For any other
//! (GSSAPI), a frame is taken for a token until one reads as a request header of
//! a known API: Kerberos tokens start with an ASN.1 tag (0x60) or a wrap token's
//! id (0x0504), neither of which is an API key.

use bytes::Bytes;
use kwire_messages::frame::{frame_contents, RequestFrame};
use kwire_messages::{ApiKey, Request};

/// What the client's next frames are, as far as SASL v0 goes.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub enum RawTokens {
    /// Requests.
    #[default]
    None,
    /// This many more tokens; then, if `ack_may_follow`, a `%x01` may be one too
    /// (OAUTHBEARER, RFC 7628 section 3.2.3).
    Count {
        /// Tokens still to come.
        left: u8,
        /// Whether a `%x01` may follow them.
        ack_may_follow: bool,
    },
    /// OAUTHBEARER's token is sent; a `%x01` may follow.
    Ack,
    /// Tokens of a mechanism not known here, until a request comes.
    Unknown,
}

impl RawTokens {
    /// Notes a request the client sent: after SaslHandshake v0, tokens follow.
    pub fn after_request(&mut self, request: &Request, version: i16) {
        let Request::SaslHandshake(handshake) = request else {
            return;
        };
        if version != 0 {
            return;
        }
        let count = |left, ack_may_follow| RawTokens::Count {
            left,
            ack_may_follow,
        };
        *self = match handshake.mechanism.as_str() {
            "PLAIN" => count(1, false),
            "SCRAM-SHA-256" | "SCRAM-SHA-512" => count(2, false),
            "OAUTHBEARER" => count(1, true),
            _ => RawTokens::Unknown,
        };
    }

    /// Whether the client's `frame` is a bare token rather than a request.
    pub fn is_token(&mut self, frame: &Bytes) -> bool {
        match *self {
            RawTokens::None => false,
            RawTokens::Count {
                left,
                ack_may_follow,
            } => {
                *self = if left > 1 {
                    RawTokens::Count {
                        left: left - 1,
                        ack_may_follow,
                    }
                } else if ack_may_follow {
                    RawTokens::Ack
                } else {
                    RawTokens::None
                };
                true
            }
            RawTokens::Ack => {
                *self = RawTokens::None;
                frame_contents(frame).is_ok_and(|token| token == [1])
            }
            RawTokens::Unknown => {
                let request = RequestFrame::parse(frame)
                    .is_ok_and(|parsed| ApiKey::from_i16(parsed.api_key()).is_ok());
                if request {
                    *self = RawTokens::None;
                }
                !request
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use kwire::KafkaString;
    use kwire_messages::api::{MetadataRequest, SaslHandshakeRequest};
    use kwire_messages::{frame, RequestHeader};

    use super::*;

    fn handshake(mechanism: &'static str) -> Request {
        Request::SaslHandshake(SaslHandshakeRequest::default().with_mechanism(mechanism.into()))
    }

    fn token(bytes: &[u8]) -> Bytes {
        let prefix = frame::length_prefix(bytes.len()).unwrap();
        Bytes::from([&prefix[..], bytes].concat())
    }

    fn metadata() -> Bytes {
        let header = RequestHeader::default()
            .with_request_api_key(ApiKey::Metadata.key())
            .with_request_api_version(12)
            .with_correlation_id(3)
            .with_client_id(Some(KafkaString::from_static("t")));
        frame::encode_any_request(&header, &Request::Metadata(MetadataRequest::default())).unwrap()
    }

    /// The tokens of each mechanism, and the first request after them.
    #[test]
    fn tokens_are_counted_by_mechanism() {
        let scram_first = token(b"n,,n=alice,r=abc");
        for (mechanism, tokens) in [("PLAIN", 1), ("SCRAM-SHA-256", 2), ("SCRAM-SHA-512", 2)] {
            let mut raw = RawTokens::default();
            raw.after_request(&handshake(mechanism), 0);
            for _ in 0..tokens {
                assert!(raw.is_token(&scram_first), "{mechanism}");
            }
            // Even a frame that reads as a request is one once the tokens are done...
            assert!(!raw.is_token(&metadata()), "{mechanism}");
            // ...and a token-like frame after them is a request that will not decode.
            assert!(!raw.is_token(&scram_first), "{mechanism}");
        }
    }

    #[test]
    fn v1_handshakes_and_other_requests_bring_no_tokens() {
        let mut raw = RawTokens::default();
        raw.after_request(&handshake("PLAIN"), 1);
        raw.after_request(&Request::Metadata(MetadataRequest::default()), 0);
        assert_eq!(raw, RawTokens::None);
        assert!(!raw.is_token(&token(b"\0alice\0pw")));
    }

    #[test]
    fn oauthbearer_may_add_an_acknowledgement() {
        let mut raw = RawTokens::default();
        raw.after_request(&handshake("OAUTHBEARER"), 0);
        assert!(raw.is_token(&token(b"n,,\x01auth=Bearer x\x01\x01")));
        assert!(raw.is_token(&token(&[1])));
        assert!(!raw.is_token(&metadata()));

        raw.after_request(&handshake("OAUTHBEARER"), 0);
        assert!(raw.is_token(&token(b"n,,\x01auth=Bearer x\x01\x01")));
        // Accepted: the next frame is a request.
        assert!(!raw.is_token(&metadata()));
        assert_eq!(raw, RawTokens::None);
    }

    #[test]
    fn unknown_mechanisms_take_tokens_until_a_request() {
        let mut raw = RawTokens::default();
        raw.after_request(&handshake("GSSAPI"), 0);
        assert!(raw.is_token(&token(&[0x60, 0x82, 0x02, 0x10, 0x06, 0x09])));
        assert!(raw.is_token(&token(&[0x05, 0x04, 0x01, 0xff, 0, 0, 0, 0, 0, 0])));
        assert!(!raw.is_token(&metadata()));
        assert_eq!(raw, RawTokens::None);
    }
}

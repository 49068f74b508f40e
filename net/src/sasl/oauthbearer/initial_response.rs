//! The client's one message (RFC 7628 section 3.1; Kafka's
//! `OAuthBearerClientInitialResponse`).

use super::token::{check_b64token, check_extension, OAuthBearerToken, SaslExtensions, AUTH_KEY};
use crate::sasl::error::SaslError;
use crate::sasl::scram::attributes::{escape_name, unescape_name};

/// Separates the key=value pairs (`kvsep`).
const SEP: char = '\x01';

/// The client initial response: a GS2 header (`n,` and an optional `a=`
/// authorization id), then `auth=Bearer TOKEN` and the extensions, each ended
/// by `%x01`, then one more `%x01`:
/// `n,,\x01auth=Bearer TOKEN\x01[key=value\x01]*\x01`.
///
/// Written as Kafka's client writes it (`auth` first); read in any order, as
/// RFC 7628's own examples put it last.
///
/// ```
/// use kwire_net::sasl::oauthbearer::ClientInitialResponse;
///
/// // RFC 7628 section 4.1.
/// let message = b"n,a=user@example.com,\x01host=server.example.com\x01port=143\x01\
///                 auth=Bearer vF9dft4qmTc2Nvb3RlckBhbHRhdmlzdGEuY29tCg==\x01\x01";
/// let read = ClientInitialResponse::parse(message).unwrap();
/// assert_eq!(read.authorization_id(), Some("user@example.com"));
/// assert_eq!(read.token().value(), "vF9dft4qmTc2Nvb3RlckBhbHRhdmlzdGEuY29tCg==");
/// assert_eq!(read.token().extensions().get("port"), Some("143"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientInitialResponse {
    token: OAuthBearerToken,
    authorization_id: Option<String>,
}

impl ClientInitialResponse {
    /// The longest client initial response a server reads: 256 KiB; a longer
    /// one is [`SaslError::TooLarge`] before any of it is read.
    ///
    /// The message is mostly the token. A JWT from an identity provider is one
    /// to a few KiB, one listing many groups or roles a few tens; 256 KiB leaves
    /// room for the largest of them while staying half of what Kafka's broker
    /// lets a connection send before it authenticates
    /// (`sasl.server.max.receive.size`, 512 KiB), and bounds what the server
    /// holds (the token, then whatever its validator makes of it) per
    /// connection that has not authenticated.
    pub const MAX_LEN: usize = 256 * 1024;

    /// The most extensions a client initial response may carry: 32, refused
    /// past that with [`SaslError::TooMany`] without reading the rest. Kafka's
    /// clients send a few (`logicalCluster`, `identityPoolId`, a trace id).
    pub const MAX_EXTENSIONS: usize = 32;

    /// The message carrying `token` and its extensions, without an
    /// authorization id (as Kafka's client sends it).
    pub fn new(token: OAuthBearerToken) -> Self {
        ClientInitialResponse {
            token,
            authorization_id: None,
        }
    }

    /// The same message asking to act as `authorization_id`; Kafka's broker
    /// allows only the token's own principal. Refuses an empty one or a NUL.
    pub fn with_authorization_id(mut self, authorization_id: &str) -> Result<Self, SaslError> {
        if authorization_id.is_empty() || authorization_id.contains('\0') {
            return Err(malformed(
                "an empty authorization id, or one with NUL".into(),
            ));
        }
        self.authorization_id = Some(authorization_id.to_owned());
        Ok(self)
    }

    /// The token and the extensions sent with it.
    pub fn token(&self) -> &OAuthBearerToken {
        &self.token
    }

    /// Who the client asks to act as, if it says.
    pub fn authorization_id(&self) -> Option<&str> {
        self.authorization_id.as_deref()
    }

    /// The message's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut message = String::from("n,");
        if let Some(authorization_id) = &self.authorization_id {
            message.push_str("a=");
            message.push_str(&escape_name(authorization_id));
        }
        message.push(',');
        message.push(SEP);
        message.push_str("auth=Bearer ");
        message.push_str(self.token.value());
        for (key, value) in self.token.extensions().iter() {
            message.push(SEP);
            message.push_str(key);
            message.push('=');
            message.push_str(value);
        }
        message.push(SEP);
        message.push(SEP);
        message.into_bytes()
    }

    /// Reads a client's message, as Kafka's broker does, and refuses what its
    /// grammar does not allow: another GS2 flag than `n` or `y` (channel binding
    /// is [`SaslError::ChannelBinding`]), a missing `auth`, a scheme other than
    /// `Bearer` (any case), a key or value outside Kafka's extension rules, a
    /// repeated key; with [`SaslError::TooLarge`] a message over
    /// [`MAX_LEN`](Self::MAX_LEN), and with [`SaslError::TooMany`] more than
    /// [`MAX_EXTENSIONS`](Self::MAX_EXTENSIONS) extensions. No error repeats
    /// the token.
    pub fn parse(message: &[u8]) -> Result<Self, SaslError> {
        SaslError::check_len("OAUTHBEARER client message", message.len(), Self::MAX_LEN)?;
        let text = std::str::from_utf8(message).map_err(|_| malformed("not UTF-8".into()))?;
        let (flag, rest) = text
            .split_once(',')
            .ok_or_else(|| malformed("no GS2 header".into()))?;
        match flag {
            // "y": the client could bind but thinks we cannot; we cannot, so no
            // downgrade happened.
            "n" | "y" => {}
            flag if flag.starts_with("p=") => return Err(SaslError::ChannelBinding),
            _ => return Err(malformed("a GS2 flag other than n or y".into())),
        }
        let (authzid, rest) = rest
            .split_once(',')
            .ok_or_else(|| malformed("no end to the GS2 header".into()))?;
        let authorization_id = match authzid {
            "" => None,
            given => {
                let escaped = given
                    .strip_prefix("a=")
                    .ok_or_else(|| malformed("a GS2 header part other than a=".into()))?;
                let name = unescape_name(escaped)?;
                if name.is_empty() || name.contains('\0') {
                    return Err(malformed(
                        "an empty authorization id, or one with NUL".into(),
                    ));
                }
                Some(name)
            }
        };
        let pairs = rest
            .strip_prefix(SEP)
            .and_then(|pairs| pairs.strip_suffix(SEP))
            .filter(|pairs| pairs.is_empty() || pairs.ends_with(SEP))
            .ok_or_else(|| malformed("key=value pairs not each ended by %x01".into()))?;
        let mut token = None;
        let mut extensions = SaslExtensions::new();
        for pair in pairs.split_terminator(SEP) {
            let (key, value) = pair
                .split_once('=')
                .ok_or_else(|| malformed("a pair that is not key=value".into()))?;
            if key == AUTH_KEY {
                if token.is_some() {
                    return Err(malformed("auth twice".into()));
                }
                token = Some(bearer(value)?);
            } else {
                // Counted before the extension is checked or kept: the pairs
                // past the bound are not read.
                if extensions.len() == Self::MAX_EXTENSIONS {
                    return Err(SaslError::TooMany {
                        what: "OAUTHBEARER extensions",
                        max: Self::MAX_EXTENSIONS,
                    });
                }
                check_extension(key, value)?;
                if !extensions.insert_new(key, value) {
                    return Err(malformed(format!("the extension {key} twice")));
                }
            }
        }
        let token = token.ok_or_else(|| malformed("no auth".into()))?;
        Ok(ClientInitialResponse {
            token: OAuthBearerToken::new(token)?.with_extensions(extensions),
            authorization_id,
        })
    }
}

/// The token of `auth=`'s value: `Bearer`, spaces, a `b64token` (RFC 7628
/// section 3.1, with the scheme's case ignored as Kafka's broker does).
fn bearer(value: &str) -> Result<&str, SaslError> {
    let (scheme, token) = value
        .split_once(' ')
        .ok_or_else(|| malformed("auth is not \"Bearer TOKEN\"".into()))?;
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Err(malformed("an auth scheme other than Bearer".into()));
    }
    let token = token.trim_start_matches(' ');
    check_b64token(token)?;
    Ok(token)
}

fn malformed(detail: String) -> SaslError {
    SaslError::Malformed {
        what: "OAUTHBEARER client message",
        detail,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RFC_TOKEN: &str = "vF9dft4qmTc2Nvb3RlckBhbHRhdmlzdGEuY29tCg==";

    #[test]
    fn kafka_form_round_trips_with_extensions_and_an_authorization_id() {
        let token = OAuthBearerToken::new("abc.def.").unwrap().with_extensions(
            SaslExtensions::new()
                .with("logicalCluster", "lkc-1")
                .unwrap()
                .with("identityPoolId", "pool 1")
                .unwrap(),
        );
        let message = ClientInitialResponse::new(token.clone());
        let bytes = message.to_bytes();
        assert_eq!(
            bytes,
            b"n,,\x01auth=Bearer abc.def.\x01identityPoolId=pool 1\x01logicalCluster=lkc-1\x01\x01"
        );
        assert_eq!(ClientInitialResponse::parse(&bytes).unwrap(), message);

        let acting = message.with_authorization_id("a=b,c").unwrap();
        let bytes = acting.to_bytes();
        assert!(bytes.starts_with(b"n,a=a=3Db=2Cc,\x01auth=Bearer "));
        let read = ClientInitialResponse::parse(&bytes).unwrap();
        assert_eq!(read.authorization_id(), Some("a=b,c"));
        assert_eq!(read.token(), &token);
    }

    #[test]
    fn rfc_7628_examples_read() {
        // Section 4.1 (IMAP) and 4.2 (SMTP), ^A as %x01.
        for port in ["143", "587"] {
            let message = format!(
                "n,a=user@example.com,\x01host=server.example.com\x01port={port}\x01auth=Bearer {RFC_TOKEN}\x01\x01"
            );
            let read = ClientInitialResponse::parse(message.as_bytes()).unwrap();
            assert_eq!(read.authorization_id(), Some("user@example.com"));
            assert_eq!(read.token().value(), RFC_TOKEN);
            let extensions: Vec<_> = read.token().extensions().iter().collect();
            assert_eq!(extensions, [("host", "server.example.com"), ("port", port)]);
        }
        // The scheme's case does not matter; more than one space is Kafka's too.
        let read = ClientInitialResponse::parse(b"y,,\x01auth=bEaReR   t\x01\x01").unwrap();
        assert_eq!(read.token().value(), "t");
    }

    #[test]
    fn what_the_grammar_refuses_is_refused_without_the_token() {
        let secret = "s3cr3t";
        for bad in [
            "".to_owned(),
            "n".into(),
            "n,".into(),
            "n,,".into(),
            "n,,\x01".into(),
            "n,,\x01\x01".into(),
            format!("n,,auth=Bearer {secret}\x01\x01"),
            format!("n,,\x01auth=Bearer {secret}\x01"),
            format!("n,,\x01auth=Bearer {secret}"),
            format!("x,,\x01auth=Bearer {secret}\x01\x01"),
            format!("n,b=me,\x01auth=Bearer {secret}\x01\x01"),
            format!("n,a=,\x01auth=Bearer {secret}\x01\x01"),
            format!("n,a=bad=escape,\x01auth=Bearer {secret}\x01\x01"),
            format!("n,,\x01auth=Basic {secret}\x01\x01"),
            "n,,\x01auth=Bearer\x01\x01".into(),
            format!("n,,\x01auth=Bearer {secret} x\x01\x01"),
            format!("n,,\x01auth=Bearer {secret}\x01auth=Bearer {secret}\x01\x01"),
            format!("n,,\x01auth=Bearer {secret}\x01\x01k=v\x01\x01"),
            format!("n,,\x01auth=Bearer {secret}\x01k=v\x01k=w\x01\x01"),
            format!("n,,\x01auth=Bearer {secret}\x01k1=v\x01\x01"),
            format!("n,,\x01auth=Bearer {secret}\x01k=\x01\x01"),
            format!("n,,\x01auth=Bearer {secret}\x01novalue\x01\x01"),
            format!("n,,\x01auth=Bearer {secret}\x01k=\u{e9}\x01\x01"),
        ] {
            let error = ClientInitialResponse::parse(bad.as_bytes()).unwrap_err();
            assert!(!error.to_string().contains(secret), "{bad:?}: {error}");
        }
        assert_eq!(
            ClientInitialResponse::parse(b"p=tls-unique,,\x01auth=Bearer t\x01\x01"),
            Err(SaslError::ChannelBinding)
        );
        assert!(ClientInitialResponse::parse(b"\xff,,").is_err());
    }

    /// Issue 29's OAUTHBEARER attack, scaled down: a token of dots as long as
    /// the bound is read at its own size (and refused by the validator, not
    /// here), one byte more is refused unread.
    #[test]
    fn a_message_over_the_bound_is_refused_unread() {
        let frame = |token: &str| format!("n,,\x01auth=Bearer {token}\x01\x01");
        let overhead = frame("").len();
        let dots = ".".repeat(ClientInitialResponse::MAX_LEN - overhead);
        let at_bound = frame(&dots);
        assert_eq!(at_bound.len(), ClientInitialResponse::MAX_LEN);
        let read = ClientInitialResponse::parse(at_bound.as_bytes()).unwrap();
        assert_eq!(read.token().value().len(), dots.len());
        let over = frame(&format!("{dots}."));
        assert_eq!(
            ClientInitialResponse::parse(over.as_bytes()),
            Err(SaslError::TooLarge {
                what: "OAUTHBEARER client message",
                len: ClientInitialResponse::MAX_LEN + 1,
                max: ClientInitialResponse::MAX_LEN
            })
        );
        // The length first: a message that is not even UTF-8 is too large.
        let invalid = vec![0xff; 4 << 20];
        assert!(matches!(
            ClientInitialResponse::parse(&invalid),
            Err(SaslError::TooLarge { .. })
        ));
    }

    #[test]
    fn extensions_stop_at_the_bound() {
        // Distinct keys of letters: aa, ab, ... as many as asked.
        let keys = |n: usize| -> String {
            (0..n)
                .map(|i| {
                    let key: String = [i / 26 / 26, i / 26 % 26, i % 26]
                        .iter()
                        .map(|&d| char::from(b'a' + d as u8))
                        .collect();
                    format!("{key}=v\x01")
                })
                .collect()
        };
        let message = |n: usize| format!("n,,\x01auth=Bearer t\x01{}\x01", keys(n));
        let at_bound = message(ClientInitialResponse::MAX_EXTENSIONS);
        let read = ClientInitialResponse::parse(at_bound.as_bytes()).unwrap();
        assert_eq!(
            read.token().extensions().len(),
            ClientInitialResponse::MAX_EXTENSIONS
        );
        let too_many = SaslError::TooMany {
            what: "OAUTHBEARER extensions",
            max: ClientInitialResponse::MAX_EXTENSIONS,
        };
        let over = message(ClientInitialResponse::MAX_EXTENSIONS + 1);
        assert_eq!(
            ClientInitialResponse::parse(over.as_bytes()),
            Err(too_many.clone())
        );
        // As many as fit under the size bound: refused at the 33rd, the rest
        // unread.
        let hostile = message(17_000);
        assert!(hostile.len() < ClientInitialResponse::MAX_LEN);
        assert_eq!(
            ClientInitialResponse::parse(hostile.as_bytes()),
            Err(too_many)
        );
    }
}

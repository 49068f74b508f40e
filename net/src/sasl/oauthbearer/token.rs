//! Tokens and extensions, where the client gets its token, how the server
//! judges one, and what it answers a bad one with.

use std::collections::{BTreeMap, BTreeSet};

use crate::sasl::error::SaslError;

/// A bearer token as the client sends it, with its SASL extensions (Kafka's
/// `SaslExtensions`: key=value pairs sent beside the token).
///
/// The value must be an RFC 6750 `b64token` (letters, digits, `-._~+/`, then
/// `=` padding), which a JWT is; `Debug` never shows it.
///
/// ```
/// use kwire_net::sasl::oauthbearer::{OAuthBearerToken, SaslExtensions};
///
/// let token = OAuthBearerToken::new("vF9dft4qmTc2Nvb3RlckBhbHRhdmlzdGEuY29tCg==").unwrap()
///     .with_extensions(SaslExtensions::new().with("logicalCluster", "lkc-1").unwrap());
/// assert_eq!(token.extensions().get("logicalCluster"), Some("lkc-1"));
/// assert!(!format!("{token:?}").contains("vF9d"));
/// assert!(OAuthBearerToken::new("two words").is_err());
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct OAuthBearerToken {
    value: String,
    extensions: SaslExtensions,
}

impl OAuthBearerToken {
    /// A token without extensions; refuses a value that is not a `b64token`
    /// (it could not be framed in the message).
    pub fn new(value: impl Into<String>) -> Result<Self, SaslError> {
        let value = value.into();
        check_b64token(&value)?;
        Ok(OAuthBearerToken {
            value,
            extensions: SaslExtensions::new(),
        })
    }

    /// A value known to be a `b64token` already.
    pub(crate) fn from_checked(value: String) -> Self {
        debug_assert!(check_b64token(&value).is_ok());
        OAuthBearerToken {
            value,
            extensions: SaslExtensions::new(),
        }
    }

    /// The same token with `extensions`.
    pub fn with_extensions(mut self, extensions: SaslExtensions) -> Self {
        self.extensions = extensions;
        self
    }

    /// The token itself: a secret, not for logs.
    pub fn value(&self) -> &str {
        &self.value
    }

    /// The extensions sent with it.
    pub fn extensions(&self) -> &SaslExtensions {
        &self.extensions
    }
}

impl std::fmt::Debug for OAuthBearerToken {
    // A bearer token is as good as a password to whoever holds it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OAuthBearerToken")
            .field("value", &format_args!("<{} bytes>", self.value.len()))
            .field("extensions", &self.extensions)
            .finish()
    }
}

/// RFC 6750 section 2.1: `1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`.
pub(crate) fn check_b64token(value: &str) -> Result<(), SaslError> {
    let body = value.trim_end_matches('=');
    let ok = !body.is_empty()
        && body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~+/".contains(&b));
    if ok {
        Ok(())
    } else {
        // Only the length: the value may be a real token, mangled.
        Err(SaslError::Malformed {
            what: "OAUTHBEARER token",
            detail: format!("{} bytes that are not an RFC 6750 b64token", value.len()),
        })
    }
}

/// SASL extensions (RFC 7628 section 3.1; Kafka's `SaslExtensions`): key=value
/// pairs beside the token, keys letters only (`auth` is the token's own), values
/// printable ASCII, space, tab, CR or LF. Kept sorted by key; `Debug` shows the
/// keys only.
///
/// ```
/// use kwire_net::sasl::oauthbearer::SaslExtensions;
///
/// let extensions = SaslExtensions::new().with("host", "server.example.com").unwrap();
/// assert_eq!(extensions.get("host"), Some("server.example.com"));
/// assert!(SaslExtensions::new().with("auth", "x").is_err());
/// assert!(SaslExtensions::new().with("port1", "143").is_err());
/// assert!(SaslExtensions::new().with("port", "").is_err());
/// ```
#[derive(Clone, Default, PartialEq, Eq)]
pub struct SaslExtensions {
    by_key: BTreeMap<String, String>,
}

impl SaslExtensions {
    /// No extensions.
    pub fn new() -> Self {
        SaslExtensions::default()
    }

    /// Adds (or replaces) `key`, checking both by Kafka's rules.
    pub fn with(mut self, key: &str, value: &str) -> Result<Self, SaslError> {
        check_extension(key, value)?;
        self.by_key.insert(key.to_owned(), value.to_owned());
        Ok(self)
    }

    /// The value of `key`, if sent.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.by_key.get(key).map(String::as_str)
    }

    /// Every extension, by key.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.by_key.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.by_key.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.by_key.is_empty()
    }

    /// Adds a pair already checked; `false` if the key was there (a duplicate).
    pub(crate) fn insert_new(&mut self, key: &str, value: &str) -> bool {
        if self.by_key.contains_key(key) {
            return false;
        }
        self.by_key.insert(key.to_owned(), value.to_owned());
        true
    }
}

impl std::fmt::Debug for SaslExtensions {
    // Values may carry anything a deployment puts there; keys say enough.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.by_key.keys()).finish()
    }
}

/// The key `auth` carries the token; extensions may not use it.
pub(crate) const AUTH_KEY: &str = "auth";

/// Kafka's `OAuthBearerClientInitialResponse.validateExtensions`: key
/// `[A-Za-z]+` and not `auth`, value `[\x21-\x7E \t\r\n]+`.
pub(crate) fn check_extension(key: &str, value: &str) -> Result<(), SaslError> {
    let malformed = |detail: String| SaslError::Malformed {
        what: "SASL extension",
        detail,
    };
    if key.is_empty() || !key.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Err(malformed(format!("name {key:?} is not letters only")));
    }
    if key == AUTH_KEY {
        return Err(malformed("the name auth is the token's".into()));
    }
    let printable = |b: u8| (0x21..=0x7e).contains(&b) || b" \t\r\n".contains(&b);
    if value.is_empty() || !value.bytes().all(printable) {
        return Err(malformed(format!(
            "the value of {key} is empty or not printable ASCII"
        )));
    }
    Ok(())
}

/// Where a client gets its token: called once per exchange (so once per
/// re-authentication), which is when a provider may fetch or refresh one.
///
/// A fixed [`OAuthBearerToken`] is its own provider, and so is a closure:
///
/// ```
/// use kwire_net::sasl::oauthbearer::{OAuthBearerToken, TokenProvider};
/// use kwire_net::sasl::SaslError;
///
/// let fixed = OAuthBearerToken::new("abc").unwrap();
/// assert_eq!(fixed.token().unwrap().value(), "abc");
///
/// let fetched = || -> Result<OAuthBearerToken, SaslError> {
///     Err(SaslError::NoToken("the identity provider is down".into()))
/// };
/// assert!(fetched.token().is_err());
/// ```
pub trait TokenProvider {
    /// The token to send now. A provider that has none says why with
    /// [`SaslError::NoToken`].
    fn token(&self) -> Result<OAuthBearerToken, SaslError>;
}

impl TokenProvider for OAuthBearerToken {
    fn token(&self) -> Result<OAuthBearerToken, SaslError> {
        Ok(self.clone())
    }
}

impl<F> TokenProvider for F
where
    F: Fn() -> Result<OAuthBearerToken, SaslError>,
{
    fn token(&self) -> Result<OAuthBearerToken, SaslError> {
        self()
    }
}

/// A token the server accepted (Kafka's `OAuthBearerToken` on the broker side).
///
/// ```
/// use kwire_net::sasl::oauthbearer::ValidatedToken;
///
/// let token = ValidatedToken::new("alice", 1_700_000_000_000).with_scopes(["produce"]);
/// assert!(token.scopes.contains("produce"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidatedToken {
    /// Who it stands for: the principal the connection authenticates as.
    pub principal: String,
    /// When it expires, in ms since the Unix epoch (Kafka's `lifetimeMs`): the
    /// session ends then at the latest.
    pub expires_at_ms: i64,
    /// When it was issued, in ms since the Unix epoch, if it says.
    pub issued_at_ms: Option<i64>,
    /// What it grants.
    pub scopes: BTreeSet<String>,
}

impl ValidatedToken {
    /// A token for `principal` expiring at `expires_at_ms`, without scopes.
    pub fn new(principal: impl Into<String>, expires_at_ms: i64) -> Self {
        ValidatedToken {
            principal: principal.into(),
            expires_at_ms,
            issued_at_ms: None,
            scopes: BTreeSet::new(),
        }
    }

    /// The same token granting `scopes`.
    pub fn with_scopes<S: Into<String>>(mut self, scopes: impl IntoIterator<Item = S>) -> Self {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }
}

/// Why a server refused a token, as RFC 7628 section 3.2.2's error message says
/// it to the client: a `status` (RFC 6749/6750 error codes: `invalid_token`,
/// `insufficient_scope`, `invalid_request`), optionally the `scope` needed and
/// the `openid-configuration` to get a token from.
///
/// ```
/// use kwire_net::sasl::oauthbearer::TokenRejected;
///
/// let refused = TokenRejected::insufficient_scope("produce");
/// let json = refused.to_json();
/// assert_eq!(json, br#"{"status":"insufficient_scope","scope":"produce"}"#);
/// assert_eq!(TokenRejected::from_json(&json).unwrap(), refused);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenRejected {
    /// The error code.
    pub status: String,
    /// The scope the token lacks (space-separated), if that is the reason.
    pub scope: Option<String>,
    /// Where the client may discover how to get a good token.
    pub openid_configuration: Option<String>,
}

impl TokenRejected {
    /// The longest error message [`from_json`](Self::from_json) reads: 16 KiB.
    /// Kafka's broker sends a status and perhaps a scope and a URL, under 200
    /// bytes; a client need not hold, nor build a JSON tree of, more than this
    /// from a server it has not yet authenticated to.
    pub const MAX_JSON_LEN: usize = 16 * 1024;

    /// `invalid_token`: expired, malformed, not signed right, not for us.
    pub fn invalid_token() -> Self {
        TokenRejected {
            status: "invalid_token".into(),
            scope: None,
            openid_configuration: None,
        }
    }

    /// `insufficient_scope`, saying which `scope` (space-separated) is needed.
    pub fn insufficient_scope(scope: impl Into<String>) -> Self {
        TokenRejected {
            status: "insufficient_scope".into(),
            scope: Some(scope.into()),
            openid_configuration: None,
        }
    }

    /// The server's error message (RFC 7628 section 3.2.2), in the field order
    /// Kafka's broker writes.
    pub fn to_json(&self) -> Vec<u8> {
        let mut object = serde_json::Map::new();
        object.insert("status".into(), self.status.clone().into());
        if let Some(scope) = &self.scope {
            object.insert("scope".into(), scope.clone().into());
        }
        if let Some(configuration) = &self.openid_configuration {
            object.insert("openid-configuration".into(), configuration.clone().into());
        }
        serde_json::Value::Object(object).to_string().into_bytes()
    }

    /// Reads a server's error message: a JSON object with a string `status`,
    /// and `scope` and `openid-configuration` strings if present (other members
    /// are ignored, as RFC 7628 asks). A message over
    /// [`MAX_JSON_LEN`](Self::MAX_JSON_LEN) is [`SaslError::TooLarge`], unread.
    pub fn from_json(message: &[u8]) -> Result<Self, SaslError> {
        const WHAT: &str = "OAUTHBEARER error message";
        if message.len() > Self::MAX_JSON_LEN {
            return Err(SaslError::TooLarge {
                what: WHAT,
                len: message.len(),
                max: Self::MAX_JSON_LEN,
            });
        }
        let malformed = |detail: String| SaslError::Malformed { what: WHAT, detail };
        let value: serde_json::Value =
            serde_json::from_slice(message).map_err(|error| malformed(error.to_string()))?;
        let serde_json::Value::Object(object) = value else {
            return Err(malformed("not a JSON object".into()));
        };
        let string = |name: &str| match object.get(name) {
            None => Ok(None),
            Some(serde_json::Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(malformed(format!("{name} is not a string"))),
        };
        Ok(TokenRejected {
            status: string("status")?.ok_or_else(|| malformed("no status".into()))?,
            scope: string("scope")?,
            openid_configuration: string("openid-configuration")?,
        })
    }
}

impl std::fmt::Display for TokenRejected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.status)?;
        if let Some(scope) = &self.scope {
            write!(f, " (scope {scope})")?;
        }
        Ok(())
    }
}

impl std::error::Error for TokenRejected {}

/// How a server judges a token (Kafka's `OAuthBearerValidatorCallback` handler):
/// signature, issuer, audience, expiry, scopes, whatever the deployment needs.
/// `extensions` are those the client sent beside the token; refuse the token
/// if one is not acceptable.
///
/// A refusal goes to the client as RFC 7628's error message: say what kind of
/// failure ([`TokenRejected::invalid_token`]), never more than the client may
/// know. [`unsecured::UnsecuredValidator`](super::unsecured::UnsecuredValidator)
/// is one for tests; a closure is one too:
///
/// ```
/// use kwire_net::sasl::oauthbearer::{SaslExtensions, TokenRejected, TokenValidator, ValidatedToken};
///
/// let only_abc = |token: &str, _: &SaslExtensions| {
///     if token == "abc" {
///         Ok(ValidatedToken::new("alice", i64::MAX))
///     } else {
///         Err(TokenRejected::invalid_token())
///     }
/// };
/// assert_eq!(only_abc.validate("abc", &SaslExtensions::new()).unwrap().principal, "alice");
/// assert!(only_abc.validate("xyz", &SaslExtensions::new()).is_err());
/// ```
pub trait TokenValidator {
    /// The token's principal, expiry and scopes if it is good.
    fn validate(
        &self,
        token: &str,
        extensions: &SaslExtensions,
    ) -> Result<ValidatedToken, TokenRejected>;
}

impl<F> TokenValidator for F
where
    F: Fn(&str, &SaslExtensions) -> Result<ValidatedToken, TokenRejected>,
{
    fn validate(
        &self,
        token: &str,
        extensions: &SaslExtensions,
    ) -> Result<ValidatedToken, TokenRejected> {
        self(token, extensions)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn b64tokens_and_extensions_follow_the_grammar() {
        for good in [
            "a",
            "abc.def-ghi_jkl~+/",
            "vF9dft4qmTc2Nvb3RlckBhbHRhdmlzdGEuY29tCg==",
        ] {
            assert!(OAuthBearerToken::new(good).is_ok(), "{good}");
        }
        for bad in ["", "==", "a=b", "a b", "a\x01", "é"] {
            assert!(OAuthBearerToken::new(bad).is_err(), "{bad:?}");
        }
        for (key, value) in [
            ("", "v"),
            ("a1", "v"),
            ("auth", "v"),
            ("k", "a\x01"),
            ("k", "é"),
        ] {
            assert!(check_extension(key, value).is_err(), "{key:?} {value:?}");
        }
        assert!(check_extension("Key", "a b\t\r\n~!").is_ok());
    }

    #[test]
    fn error_messages_read_strictly_and_escape() {
        let odd = TokenRejected {
            status: "a\"b".into(),
            scope: None,
            openid_configuration: Some(
                "https://example.com/.well-known/openid-configuration".into(),
            ),
        };
        assert_eq!(TokenRejected::from_json(&odd.to_json()).unwrap(), odd);
        for bad in [
            &b""[..],
            b"[]",
            b"{}",
            b"{\"status\":1}",
            b"{\"status\":\"x\",\"scope\":[]}",
            b"\xff",
        ] {
            assert!(TokenRejected::from_json(bad).is_err(), "{bad:?}");
        }
        // A hostile server's long message is not parsed into a JSON tree.
        let mut long = br#"{"status":"invalid_token","x":["#.to_vec();
        long.resize(TokenRejected::MAX_JSON_LEN, b'0');
        long.extend_from_slice(b"]}");
        assert!(matches!(
            TokenRejected::from_json(&long),
            Err(SaslError::TooLarge { .. })
        ));
        let extra = TokenRejected::from_json(br#"{"status":"invalid_token","x":1}"#).unwrap();
        assert_eq!(extra, TokenRejected::invalid_token());
        assert_eq!(
            TokenRejected::insufficient_scope("a b").to_string(),
            "insufficient_scope (scope a b)"
        );
    }
}

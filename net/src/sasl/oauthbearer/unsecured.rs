//! Unsecured JWTs (`{"alg":"none"}`, no signature), as Kafka's
//! `OAuthBearerUnsecuredJws`, `OAuthBearerUnsecuredValidatorCallbackHandler` and
//! `OAuthBearerUnsecuredLoginCallbackHandler` make and check them: for tests and
//! development only, since anyone can write one for anybody.
//!
//! ```
//! use std::time::Duration;
//! use kwire_net::sasl::oauthbearer::unsecured::{UnsecuredTokenBuilder, UnsecuredValidator};
//!
//! let now_ms = 1_700_000_000_000;
//! let token = UnsecuredTokenBuilder::new("alice")
//!     .issued_at_ms(now_ms)
//!     .lifetime(Duration::from_secs(3600))
//!     .scopes(["produce"])
//!     .build();
//! let validator = UnsecuredValidator::new().with_required_scopes(["produce"]);
//! let accepted = validator.validate_at(token.value(), now_ms).unwrap();
//! assert_eq!(accepted.principal, "alice");
//! assert_eq!(accepted.expires_at_ms, now_ms + 3_600_000);
//! assert!(validator.validate_at(token.value(), now_ms + 3_600_000).is_err());
//! ```

use std::collections::BTreeSet;
use std::time::Duration;

use base64::alphabet::URL_SAFE;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig, URL_SAFE_NO_PAD};
use base64::engine::DecodePaddingMode;
use base64::Engine as _;
use serde_json::{Map, Value};

use super::now_ms;
use super::token::{
    OAuthBearerToken, SaslExtensions, TokenRejected, TokenValidator, ValidatedToken,
};

/// Kafka's default claim names.
const PRINCIPAL_CLAIM: &str = "sub";
const SCOPE_CLAIM: &str = "scope";

/// base64url with or without padding, as Java's URL decoder reads it.
const BASE64URL: GeneralPurpose = GeneralPurpose::new(
    &URL_SAFE,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// Why an unsecured JWS is not a good token.
///
/// ```
/// use kwire_net::sasl::oauthbearer::unsecured::{UnsecuredJws, UnsecuredJwsError};
///
/// assert_eq!(UnsecuredJws::parse("a.b"), Err(UnsecuredJwsError::NotThreeParts));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum UnsecuredJwsError {
    /// Not `header.payload.signature`.
    #[error("not a JWS compact serialization (three dot-separated parts)")]
    NotThreeParts,
    /// A part is not base64url.
    #[error("the JWS {part} is not base64url")]
    Base64 {
        /// `header` or `payload`.
        part: &'static str,
    },
    /// A part is not a JSON object.
    #[error("the JWS {part} is not a JSON object: {detail}")]
    Json {
        /// `header` or `payload`.
        part: &'static str,
        /// What the JSON reader said.
        detail: String,
    },
    /// The header's `alg` is not `none` (or is missing: `None`).
    #[error("the JWS algorithm is {}, not none", .0.as_deref().unwrap_or("missing"))]
    Algorithm(Option<String>),
    /// An unsecured JWS with a signature.
    #[error("an unsecured JWS must not be signed")]
    Signature,
    /// A claim of the wrong JSON type.
    #[error("the claim {claim} is not {expected}")]
    ClaimType {
        /// The claim's name.
        claim: String,
        /// What it should be.
        expected: &'static str,
    },
    /// No `exp`: Kafka requires one.
    #[error("no expiration time (exp)")]
    NoExpiration,
    /// The principal claim is missing or blank.
    #[error("no principal in the claim {claim}")]
    NoPrincipal {
        /// The principal claim's name.
        claim: String,
    },
    /// `iat` is later than now, beyond the allowed clock skew.
    #[error(
        "issued at {issued_at_ms} ms since the epoch, after now ({now_ms} ms) and the allowed skew"
    )]
    IssuedInFuture {
        /// `iat`, in ms since the epoch.
        issued_at_ms: i64,
        /// Now, in ms since the epoch.
        now_ms: i64,
    },
    /// `exp` has passed, beyond the allowed clock skew.
    #[error("expired at {expires_at_ms} ms since the epoch, now is {now_ms} ms")]
    Expired {
        /// `exp`, in ms since the epoch.
        expires_at_ms: i64,
        /// Now, in ms since the epoch.
        now_ms: i64,
    },
    /// `exp` is not after `iat`.
    #[error("expires ({expires_at_ms} ms) no later than it was issued ({issued_at_ms} ms)")]
    ExpiresBeforeIssued {
        /// `exp`, in ms since the epoch.
        expires_at_ms: i64,
        /// `iat`, in ms since the epoch.
        issued_at_ms: i64,
    },
    /// Required scopes the token does not grant.
    #[error("missing required scope: {}", missing.join(" "))]
    MissingScope {
        /// Those missing.
        missing: Vec<String>,
    },
}

impl UnsecuredJwsError {
    /// What a server tells the client (RFC 7628's error status), as Kafka's
    /// unsecured validator does: `insufficient_scope` with the scope required,
    /// `invalid_token` for everything else.
    pub fn rejection(&self, required_scopes: &[String]) -> TokenRejected {
        match self {
            UnsecuredJwsError::MissingScope { .. } => {
                TokenRejected::insufficient_scope(required_scopes.join(" "))
            }
            _ => TokenRejected::invalid_token(),
        }
    }
}

/// An unsecured JWS, read (Kafka's `OAuthBearerUnsecuredJws`): the header says
/// `"alg":"none"`, the signature is empty, the claims name a principal and an
/// expiration time (`exp`, seconds since the epoch, fractions allowed).
///
/// Reading checks the form only; [`UnsecuredValidator`] checks times and scopes.
///
/// ```
/// use kwire_net::sasl::oauthbearer::unsecured::{UnsecuredJws, UnsecuredJwsError};
///
/// // {"alg":"none"} . {"sub":"alice","exp":1.5,"scope":"a b"} .
/// let jws = UnsecuredJws::parse("eyJhbGciOiJub25lIn0.eyJzdWIiOiJhbGljZSIsImV4cCI6MS41LCJzY29wZSI6ImEgYiJ9.").unwrap();
/// assert_eq!((jws.principal(), jws.expires_at_ms()), ("alice", 1500));
/// assert_eq!(jws.scopes().len(), 2);
/// // {"alg":"HS256"} . {} .
/// assert_eq!(
///     UnsecuredJws::parse("eyJhbGciOiJIUzI1NiJ9.e30."),
///     Err(UnsecuredJwsError::Algorithm(Some("HS256".into())))
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnsecuredJws {
    header: Map<String, Value>,
    claims: Map<String, Value>,
    principal: String,
    expires_at_ms: i64,
    issued_at_ms: Option<i64>,
    scopes: BTreeSet<String>,
}

impl UnsecuredJws {
    /// Reads `token` with Kafka's default claim names: `sub` for the principal,
    /// `scope` for the scopes.
    pub fn parse(token: &str) -> Result<Self, UnsecuredJwsError> {
        Self::parse_with(token, PRINCIPAL_CLAIM, SCOPE_CLAIM)
    }

    /// Reads `token` with the principal in `principal_claim` and the scopes in
    /// `scope_claim` (a space-separated string, or an array of strings).
    pub fn parse_with(
        token: &str,
        principal_claim: &str,
        scope_claim: &str,
    ) -> Result<Self, UnsecuredJwsError> {
        // At most four parts looked at, none collected: a token of dots must
        // cost nothing but its own bytes.
        let mut parts = token.splitn(4, '.');
        let (Some(header), Some(payload), Some(signature), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(UnsecuredJwsError::NotThreeParts);
        };
        let header = object(header, "header")?;
        let claims = object(payload, "payload")?;
        match header.get("alg") {
            Some(Value::String(alg)) if alg == "none" => {}
            Some(Value::String(alg)) => {
                return Err(UnsecuredJwsError::Algorithm(Some(alg.clone())))
            }
            Some(other) => return Err(UnsecuredJwsError::Algorithm(Some(other.to_string()))),
            None => return Err(UnsecuredJwsError::Algorithm(None)),
        }
        if !signature.is_empty() {
            return Err(UnsecuredJwsError::Signature);
        }
        let expires_at_ms = time_claim(&claims, "exp")?.ok_or(UnsecuredJwsError::NoExpiration)?;
        let issued_at_ms = time_claim(&claims, "iat")?;
        let principal = match claims.get(principal_claim) {
            Some(Value::String(principal)) if !principal.trim().is_empty() => principal.clone(),
            None | Some(Value::String(_)) => {
                return Err(UnsecuredJwsError::NoPrincipal {
                    claim: principal_claim.to_owned(),
                })
            }
            Some(_) => return Err(claim_type(principal_claim, "a string")),
        };
        let scopes = match claims.get(scope_claim) {
            None | Some(Value::Null) => BTreeSet::new(),
            Some(Value::String(scopes)) => scopes.split_whitespace().map(str::to_owned).collect(),
            Some(Value::Array(scopes)) => scopes
                .iter()
                .map(|scope| match scope {
                    Value::String(scope) => Ok(scope.trim().to_owned()),
                    _ => Err(claim_type(scope_claim, "a string or an array of strings")),
                })
                .filter(|scope| scope.as_ref().map_or(true, |s| !s.is_empty()))
                .collect::<Result<_, _>>()?,
            Some(_) => return Err(claim_type(scope_claim, "a string or an array of strings")),
        };
        Ok(UnsecuredJws {
            header,
            claims,
            principal,
            expires_at_ms,
            issued_at_ms,
            scopes,
        })
    }

    /// Who it stands for.
    pub fn principal(&self) -> &str {
        &self.principal
    }

    /// `exp`, in ms since the Unix epoch.
    pub fn expires_at_ms(&self) -> i64 {
        self.expires_at_ms
    }

    /// `iat`, in ms since the Unix epoch, if given.
    pub fn issued_at_ms(&self) -> Option<i64> {
        self.issued_at_ms
    }

    /// What it grants.
    pub fn scopes(&self) -> &BTreeSet<String> {
        &self.scopes
    }

    /// The JOSE header.
    pub fn header(&self) -> &Map<String, Value> {
        &self.header
    }

    /// Every claim.
    pub fn claims(&self) -> &Map<String, Value> {
        &self.claims
    }
}

fn object(part: &str, name: &'static str) -> Result<Map<String, Value>, UnsecuredJwsError> {
    let bytes = BASE64URL
        .decode(part)
        .map_err(|_| UnsecuredJwsError::Base64 { part: name })?;
    match serde_json::from_slice(&bytes) {
        Ok(Value::Object(object)) => Ok(object),
        Ok(_) => Err(UnsecuredJwsError::Json {
            part: name,
            detail: "not an object".into(),
        }),
        Err(error) => Err(UnsecuredJwsError::Json {
            part: name,
            detail: error.to_string(),
        }),
    }
}

/// A NumericDate claim (seconds, fractions allowed) in ms, rounded as Kafka does.
fn time_claim(claims: &Map<String, Value>, name: &str) -> Result<Option<i64>, UnsecuredJwsError> {
    match claims.get(name) {
        None => Ok(None),
        // `as` saturates: a date past i64 ms is as good as never.
        Some(Value::Number(seconds)) => Ok(seconds.as_f64().map(|s| (s * 1000.0).round() as i64)),
        Some(_) => Err(claim_type(name, "a number")),
    }
}

fn claim_type(claim: &str, expected: &'static str) -> UnsecuredJwsError {
    UnsecuredJwsError::ClaimType {
        claim: claim.to_owned(),
        expected,
    }
}

/// Checks unsecured JWSs as Kafka's `OAuthBearerUnsecuredValidatorCallbackHandler`
/// does: the form ([`UnsecuredJws`]), `iat` not in the future and `exp` not past
/// (each within the allowed clock skew, default none), `exp` after `iat`, and
/// the required scopes granted. Extensions are all accepted.
///
/// Whatever the skew, a server refuses a token whose `exp` has passed: its
/// session would be over before it began.
///
/// ```
/// use kwire_net::sasl::oauthbearer::unsecured::{UnsecuredTokenBuilder, UnsecuredValidator, UnsecuredJwsError};
/// use kwire_net::sasl::{SaslServer, Mechanism, ServerStep, Users};
///
/// let users = Users::new().with_token_validator(UnsecuredValidator::new());
/// let token = UnsecuredTokenBuilder::new("alice").build(); // valid for an hour from now
/// let mut server = SaslServer::new(Mechanism::OAuthBearer);
/// let message = format!("n,,\x01auth=Bearer {}\x01\x01", token.value());
/// assert_eq!(server.step(message.as_bytes(), &users).unwrap(), ServerStep::Done(vec![]));
/// assert_eq!(server.principal(), Some("alice"));
/// ```
#[derive(Debug, Clone)]
pub struct UnsecuredValidator {
    principal_claim: String,
    scope_claim: String,
    required_scopes: Vec<String>,
    allowable_clock_skew: Duration,
}

impl Default for UnsecuredValidator {
    fn default() -> Self {
        UnsecuredValidator {
            principal_claim: PRINCIPAL_CLAIM.into(),
            scope_claim: SCOPE_CLAIM.into(),
            required_scopes: Vec::new(),
            allowable_clock_skew: Duration::ZERO,
        }
    }
}

impl UnsecuredValidator {
    /// Kafka's defaults: principal in `sub`, scopes in `scope`, none required,
    /// no clock skew.
    pub fn new() -> Self {
        UnsecuredValidator::default()
    }

    /// The principal is in `claim` (`unsecuredValidatorPrincipalClaimName`).
    pub fn with_principal_claim(mut self, claim: &str) -> Self {
        claim.trim().clone_into(&mut self.principal_claim);
        self
    }

    /// The scopes are in `claim` (`unsecuredValidatorScopeClaimName`).
    pub fn with_scope_claim(mut self, claim: &str) -> Self {
        claim.trim().clone_into(&mut self.scope_claim);
        self
    }

    /// Tokens must grant every one of `scopes` (`unsecuredValidatorRequiredScope`).
    pub fn with_required_scopes<S: Into<String>>(
        mut self,
        scopes: impl IntoIterator<Item = S>,
    ) -> Self {
        self.required_scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// How far clocks may disagree (`unsecuredValidatorAllowableClockSkewMs`).
    pub fn with_allowable_clock_skew(mut self, skew: Duration) -> Self {
        self.allowable_clock_skew = skew;
        self
    }

    /// Checks `token` as of `now_ms` (ms since the Unix epoch).
    pub fn validate_at(
        &self,
        token: &str,
        now_ms: i64,
    ) -> Result<ValidatedToken, UnsecuredJwsError> {
        let jws = UnsecuredJws::parse_with(token, &self.principal_claim, &self.scope_claim)?;
        let skew = i64::try_from(self.allowable_clock_skew.as_millis()).unwrap_or(i64::MAX);
        if let Some(issued_at_ms) = jws.issued_at_ms {
            if issued_at_ms > now_ms.saturating_add(skew) {
                return Err(UnsecuredJwsError::IssuedInFuture {
                    issued_at_ms,
                    now_ms,
                });
            }
            if jws.expires_at_ms <= issued_at_ms {
                return Err(UnsecuredJwsError::ExpiresBeforeIssued {
                    expires_at_ms: jws.expires_at_ms,
                    issued_at_ms,
                });
            }
        }
        if now_ms.saturating_sub(skew) >= jws.expires_at_ms {
            return Err(UnsecuredJwsError::Expired {
                expires_at_ms: jws.expires_at_ms,
                now_ms,
            });
        }
        let missing: Vec<String> = self
            .required_scopes
            .iter()
            .filter(|scope| !jws.scopes.contains(*scope))
            .cloned()
            .collect();
        if !missing.is_empty() {
            return Err(UnsecuredJwsError::MissingScope { missing });
        }
        Ok(ValidatedToken {
            principal: jws.principal,
            expires_at_ms: jws.expires_at_ms,
            issued_at_ms: jws.issued_at_ms,
            scopes: jws.scopes,
        })
    }
}

impl TokenValidator for UnsecuredValidator {
    fn validate(
        &self,
        token: &str,
        _extensions: &SaslExtensions,
    ) -> Result<ValidatedToken, TokenRejected> {
        self.validate_at(token, now_ms())
            .map_err(|error| error.rejection(&self.required_scopes))
    }
}

/// Makes an unsecured JWS as Kafka's `OAuthBearerUnsecuredLoginCallbackHandler`
/// does by default: header `{"alg":"none"}`, claims `sub`, `iat` and `exp`
/// (seconds since the epoch), `scope` as an array if any; issued now, valid
/// for an hour. A broker configured with Kafka's unsecured validator accepts it.
///
/// ```
/// use kwire_net::sasl::oauthbearer::unsecured::{UnsecuredJws, UnsecuredTokenBuilder};
///
/// let token = UnsecuredTokenBuilder::new("alice").issued_at_ms(1_000).build();
/// assert_eq!(token.value(), "eyJhbGciOiJub25lIn0.eyJzdWIiOiJhbGljZSIsImlhdCI6MSwiZXhwIjozNjAxfQ.");
/// let read = UnsecuredJws::parse(token.value()).unwrap();
/// assert_eq!((read.issued_at_ms(), read.expires_at_ms()), (Some(1_000), 3_601_000));
/// ```
#[derive(Debug, Clone)]
pub struct UnsecuredTokenBuilder {
    principal: String,
    principal_claim: String,
    issued_at_ms: Option<i64>,
    lifetime: Duration,
    scope_claim: String,
    scopes: Vec<String>,
    extensions: SaslExtensions,
}

impl UnsecuredTokenBuilder {
    /// A token for `principal`.
    pub fn new(principal: &str) -> Self {
        UnsecuredTokenBuilder {
            principal: principal.to_owned(),
            principal_claim: PRINCIPAL_CLAIM.into(),
            issued_at_ms: None,
            lifetime: Duration::from_secs(3600),
            scope_claim: SCOPE_CLAIM.into(),
            scopes: Vec::new(),
            extensions: SaslExtensions::new(),
        }
    }

    /// The principal goes in `claim` (`unsecuredLoginPrincipalClaimName`).
    pub fn principal_claim(mut self, claim: &str) -> Self {
        claim.clone_into(&mut self.principal_claim);
        self
    }

    /// Issued at `ms` since the Unix epoch (default: when built).
    pub fn issued_at_ms(mut self, ms: i64) -> Self {
        self.issued_at_ms = Some(ms);
        self
    }

    /// Valid for `lifetime` after issue (`unsecuredLoginLifetimeSeconds`,
    /// default an hour).
    pub fn lifetime(mut self, lifetime: Duration) -> Self {
        self.lifetime = lifetime;
        self
    }

    /// The scopes go in `claim` (`unsecuredLoginScopeClaimName`).
    pub fn scope_claim(mut self, claim: &str) -> Self {
        claim.clone_into(&mut self.scope_claim);
        self
    }

    /// Grants `scopes`.
    pub fn scopes<S: Into<String>>(mut self, scopes: impl IntoIterator<Item = S>) -> Self {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// Sends `extensions` with the token (`unsecuredLoginExtension_<key>`).
    pub fn extensions(mut self, extensions: SaslExtensions) -> Self {
        self.extensions = extensions;
        self
    }

    /// The token, with its extensions.
    pub fn build(&self) -> OAuthBearerToken {
        let issued_at_ms = self.issued_at_ms.unwrap_or_else(now_ms);
        let lifetime_ms = i64::try_from(self.lifetime.as_millis()).unwrap_or(i64::MAX);
        let mut claims = Map::new();
        claims.insert(self.principal_claim.clone(), self.principal.clone().into());
        claims.insert("iat".into(), seconds(issued_at_ms));
        claims.insert(
            "exp".into(),
            seconds(issued_at_ms.saturating_add(lifetime_ms)),
        );
        if !self.scopes.is_empty() {
            claims.insert(self.scope_claim.clone(), self.scopes.clone().into());
        }
        let value = format!(
            "{}.{}.",
            URL_SAFE_NO_PAD.encode(br#"{"alg":"none"}"#),
            URL_SAFE_NO_PAD.encode(Value::Object(claims).to_string())
        );
        // base64url and dots: always a b64token.
        OAuthBearerToken::from_checked(value).with_extensions(self.extensions.clone())
    }
}

/// A NumericDate: whole seconds as an integer, as Kafka writes them when whole.
fn seconds(ms: i64) -> Value {
    if ms % 1000 == 0 {
        Value::from(ms / 1000)
    } else {
        Value::from(ms as f64 / 1000.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_700_000_000_000;

    fn jws(header: &str, claims: &str) -> String {
        format!(
            "{}.{}.",
            URL_SAFE_NO_PAD.encode(header),
            URL_SAFE_NO_PAD.encode(claims)
        )
    }

    #[test]
    fn made_tokens_read_back_with_every_claim() {
        let token = UnsecuredTokenBuilder::new("alice")
            .issued_at_ms(NOW + 250)
            .lifetime(Duration::from_millis(1500))
            .scopes(["a", "b"])
            .build();
        let read = UnsecuredJws::parse(token.value()).unwrap();
        assert_eq!(read.principal(), "alice");
        assert_eq!(read.issued_at_ms(), Some(NOW + 250));
        assert_eq!(read.expires_at_ms(), NOW + 1750);
        assert_eq!(read.scopes().iter().collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(read.header().get("alg"), Some(&Value::from("none")));
        assert!(read.claims().get("exp").is_some());

        let other = UnsecuredTokenBuilder::new("bob")
            .principal_claim("user")
            .scope_claim("roles")
            .scopes(["x"])
            .issued_at_ms(NOW)
            .build();
        let validator = UnsecuredValidator::new()
            .with_principal_claim(" user ")
            .with_scope_claim("roles")
            .with_required_scopes(["x"]);
        assert_eq!(
            validator.validate_at(other.value(), NOW).unwrap().principal,
            "bob"
        );
        assert!(UnsecuredValidator::new()
            .validate_at(other.value(), NOW)
            .is_err());
    }

    #[test]
    fn each_refusal_has_its_reason() {
        let none = r#"{"alg":"none"}"#;
        let v = UnsecuredValidator::new();
        let at = |token: &str| v.validate_at(token, NOW);
        assert_eq!(
            at(&jws(r#"{"alg":"RS256"}"#, r#"{"sub":"a","exp":2e9}"#)),
            Err(UnsecuredJwsError::Algorithm(Some("RS256".into())))
        );
        assert_eq!(
            at(&jws("{}", r#"{"sub":"a","exp":2e9}"#)),
            Err(UnsecuredJwsError::Algorithm(None))
        );
        assert_eq!(
            at(&jws(r#"{"alg":null}"#, r#"{"sub":"a","exp":2e9}"#)),
            Err(UnsecuredJwsError::Algorithm(Some("null".into())))
        );
        assert_eq!(
            at(&format!("{}sig", jws(none, r#"{"sub":"a","exp":2e9}"#))),
            Err(UnsecuredJwsError::Signature)
        );
        assert_eq!(
            at(&jws(none, r#"{"sub":"a"}"#)),
            Err(UnsecuredJwsError::NoExpiration)
        );
        assert_eq!(
            at(&jws(none, r#"{"sub":"a","exp":"2e9"}"#)),
            Err(claim_type("exp", "a number"))
        );
        assert_eq!(
            at(&jws(none, r#"{"exp":2e9}"#)),
            Err(UnsecuredJwsError::NoPrincipal {
                claim: "sub".into()
            })
        );
        assert_eq!(
            at(&jws(none, r#"{"sub":" ","exp":2e9}"#)),
            Err(UnsecuredJwsError::NoPrincipal {
                claim: "sub".into()
            })
        );
        assert_eq!(
            at(&jws(none, r#"{"sub":1,"exp":2e9}"#)),
            Err(claim_type("sub", "a string"))
        );
        assert_eq!(
            at(&jws(none, r#"{"sub":"a","exp":1700000000}"#)),
            Err(UnsecuredJwsError::Expired {
                expires_at_ms: NOW,
                now_ms: NOW
            })
        );
        assert_eq!(
            at(&jws(none, r#"{"sub":"a","exp":2e9,"iat":1700000000.001}"#)),
            Err(UnsecuredJwsError::IssuedInFuture {
                issued_at_ms: NOW + 1,
                now_ms: NOW
            })
        );
        assert_eq!(
            at(&jws(
                none,
                r#"{"sub":"a","exp":1600000000,"iat":1600000001}"#
            )),
            Err(UnsecuredJwsError::ExpiresBeforeIssued {
                expires_at_ms: 1_600_000_000_000,
                issued_at_ms: 1_600_000_001_000
            })
        );
        assert_eq!(
            at(&jws(none, r#"{"sub":"a","exp":2e9,"scope":[1]}"#)),
            Err(claim_type("scope", "a string or an array of strings"))
        );
        let scoped = UnsecuredValidator::new().with_required_scopes(["read", "write"]);
        let refused = scoped
            .validate_at(
                &jws(none, r#"{"sub":"a","exp":2e9,"scope":"read other"}"#),
                NOW,
            )
            .unwrap_err();
        assert_eq!(
            refused,
            UnsecuredJwsError::MissingScope {
                missing: vec!["write".into()]
            }
        );
        assert_eq!(
            refused.rejection(&scoped.required_scopes),
            TokenRejected::insufficient_scope("read write")
        );
        assert!(scoped
            .validate_at(
                &jws(none, r#"{"sub":"a","exp":2e9,"scope":["write","read"]}"#),
                NOW
            )
            .is_ok());
        assert_eq!(
            UnsecuredJwsError::NoExpiration.rejection(&[]),
            TokenRejected::invalid_token()
        );
    }

    #[test]
    fn clock_skew_is_allowed_both_ways() {
        let none = r#"{"alg":"none"}"#;
        let skewed = UnsecuredValidator::new().with_allowable_clock_skew(Duration::from_secs(5));
        let early = jws(none, r#"{"sub":"a","exp":2e9,"iat":1700000004}"#);
        assert!(skewed.validate_at(&early, NOW).is_ok());
        assert!(UnsecuredValidator::new().validate_at(&early, NOW).is_err());
        let late = jws(none, r#"{"sub":"a","exp":1699999996}"#);
        assert!(skewed.validate_at(&late, NOW).is_ok());
        assert!(UnsecuredValidator::new().validate_at(&late, NOW).is_err());
    }

    #[test]
    fn malformed_tokens_are_typed_errors() {
        let none = URL_SAFE_NO_PAD.encode(r#"{"alg":"none"}"#);
        for (token, expected) in [
            ("", UnsecuredJwsError::NotThreeParts),
            ("a.b", UnsecuredJwsError::NotThreeParts),
            ("a.b.c.d", UnsecuredJwsError::NotThreeParts),
            ("a.b.c.d.e.f", UnsecuredJwsError::NotThreeParts),
            ("...", UnsecuredJwsError::NotThreeParts),
            ("!!.e30.", UnsecuredJwsError::Base64 { part: "header" }),
            (
                &format!("{none}.*.") as &str,
                UnsecuredJwsError::Base64 { part: "payload" },
            ),
        ] {
            assert_eq!(UnsecuredJws::parse(token), Err(expected), "{token}");
        }
        for token in [
            ".e30.".to_owned(),
            format!("{none}.."),
            format!("{none}.{}.", URL_SAFE_NO_PAD.encode("[1]")),
            format!("{none}.{}.", URL_SAFE_NO_PAD.encode("{\"sub\":")),
            format!("{none}.{}.", URL_SAFE_NO_PAD.encode(b"\xff\xfe")),
            format!("{}.e30.", URL_SAFE_NO_PAD.encode("[".repeat(100_000))),
        ] {
            assert!(
                matches!(
                    UnsecuredJws::parse(&token),
                    Err(UnsecuredJwsError::Json { .. })
                ),
                "{token}"
            );
        }
        // Padding is read too, as Java's decoder reads it.
        let padded = base64::engine::general_purpose::URL_SAFE;
        let padded = format!(
            "{}.{}.",
            padded.encode(r#"{"alg":"none"}"#),
            padded.encode(r#"{"sub":"a","exp":1}"#)
        );
        assert!(padded.contains('='));
        assert_eq!(UnsecuredJws::parse(&padded).unwrap().expires_at_ms(), 1000);
        // Dates beyond i64 ms saturate instead of overflowing.
        let far = jws(
            r#"{"alg":"none"}"#,
            r#"{"sub":"a","exp":1e300,"iat":-1e300}"#,
        );
        let read = UnsecuredValidator::new().validate_at(&far, NOW).unwrap();
        assert_eq!(read.expires_at_ms, i64::MAX);
    }
}

//! Version negotiation, as the Kafka protocol guide describes it: a client asks a
//! broker for its ApiVersions and uses, for each API, the highest version both
//! support.
//!
//! ApiVersions itself needs a fallback, because the client asks before it knows what
//! the broker supports. A broker asked at a version it does not know answers with a
//! **version 0** body (response header v0, error 35 UNSUPPORTED_VERSION, and its
//! range for ApiVersions), whatever version was asked. Kafka's own client reads such
//! a response at the version it asked and, when that fails, again at version 0
//! (`ApiVersionsResponse.parse`), then asks again at the broker's highest version.
//! [`read_api_versions_response`] and [`next_step`] do the same; [`answer_api_versions`]
//! is the broker's side.

use std::fmt;

use bytes::Bytes;
use kwire::{Message, VersionRange};

use kwire_messages::api::api_versions::ApiVersion;
use kwire_messages::frame::RequestFrame;
use kwire_messages::frame::{self, FrameError};
use kwire_messages::ErrorCode;
use kwire_messages::Listener;
use kwire_messages::{api::ApiVersionsResponse, ApiKey, ResponseHeader};

/// Why an API has no version to use with a broker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NegotiationError {
    /// The broker did not list the API.
    #[error("the broker does not support {}", api.name())]
    NotOffered {
        /// The API.
        api: ApiKey,
    },
    /// Both sides support the API, at no common version.
    #[error(
        "no version of {} that both sides support: ours {ours}, the broker's {broker_min}-{broker_max}",
        api.name()
    )]
    NoCommonVersion {
        /// The API.
        api: ApiKey,
        /// The versions this side supports.
        ours: VersionRange,
        /// The broker's lowest version.
        broker_min: i16,
        /// The broker's highest version.
        broker_max: i16,
    },
    /// The broker answered ApiVersions with an error.
    #[error("the broker answered ApiVersions with {0}")]
    Refused(ErrorCode),
}

/// One API: our versions, the broker's, and the version to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ApiChoice {
    /// The API.
    pub api: ApiKey,
    /// The versions this side supports.
    pub ours: VersionRange,
    /// The broker's range, if it listed the API.
    pub broker: Option<(i16, i16)>,
    /// The highest version both support, or why there is none.
    pub usable: Result<i16, NegotiationError>,
}

/// The outcome of negotiation: for each API this side supports, the version to use.
///
/// ```
/// use kwire_messages::api::api_versions::{ApiVersion, ApiVersionsResponse};
/// use kwire_net::negotiation::Negotiated;
/// use kwire_messages::ApiKey;
///
/// let broker = ApiVersionsResponse::default().with_api_keys(vec![
///     ApiVersion::default().with_api_key(3).with_min_version(0).with_max_version(99),
///     ApiVersion::default().with_api_key(18).with_min_version(0).with_max_version(2),
/// ]);
/// let negotiated = Negotiated::with_broker(&broker);
/// assert_eq!(negotiated.version(ApiKey::Metadata), Ok(ApiKey::Metadata.valid_versions().max().unwrap()));
/// assert_eq!(negotiated.version(ApiKey::ApiVersions), Ok(2));
/// assert!(negotiated.version(ApiKey::Produce).is_err()); // not offered
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Negotiated {
    choices: Vec<ApiChoice>,
}

impl Negotiated {
    /// Negotiates every API of the [API table](kwire_messages::ApiKey), at its stable versions
    /// (Kafka leaves a latest version marked unstable out), with `broker`'s answer.
    pub fn with_broker(broker: &ApiVersionsResponse) -> Self {
        let ours = ApiKey::ALL.iter().filter_map(|&api| {
            let (min, max) = api.stable_versions()?;
            Some((api, VersionRange::new(min, max)))
        });
        Self::new(ours, &broker.api_keys)
    }

    /// Negotiates the APIs of `ours`, each with the versions this side supports,
    /// against the broker's `ApiVersionsResponse` entries.
    pub fn new(
        ours: impl IntoIterator<Item = (ApiKey, VersionRange)>,
        broker: &[ApiVersion],
    ) -> Self {
        let choices = ours
            .into_iter()
            .map(|(api, ours)| {
                let offered = broker.iter().find(|entry| entry.api_key == api.key());
                let broker = offered.map(|entry| (entry.min_version, entry.max_version));
                ApiChoice {
                    api,
                    ours,
                    broker,
                    usable: usable_version(api, ours, broker),
                }
            })
            .collect();
        Negotiated { choices }
    }

    /// The version to use for `api`: the highest both sides support.
    pub fn version(&self, api: ApiKey) -> Result<i16, NegotiationError> {
        self.choice(api)
            .map_or(Err(NegotiationError::NotOffered { api }), |choice| {
                choice.usable
            })
    }

    /// Everything known of `api`, if this side supports it.
    pub fn choice(&self, api: ApiKey) -> Option<&ApiChoice> {
        self.choices.iter().find(|choice| choice.api == api)
    }

    /// Every API this side supports, in the order given.
    pub fn choices(&self) -> &[ApiChoice] {
        &self.choices
    }
}

/// The table `kafka-broker-api-versions.sh` prints, one API a line: name, key, our
/// versions, the broker's, and the version to use (`-` when the broker does not
/// offer the API, `none in common` when the ranges do not meet).
///
/// ```
/// use kwire_messages::api::api_versions::{ApiVersion, ApiVersionsResponse};
/// use kwire_net::negotiation::Negotiated;
///
/// let broker = ApiVersionsResponse::default().with_api_keys(vec![
///     ApiVersion::default().with_api_key(18).with_min_version(0).with_max_version(2),
/// ]);
/// let table = Negotiated::with_broker(&broker).to_string();
/// assert!(table.starts_with("API "));
/// assert!(table.lines().any(|line| line.starts_with("ApiVersions") && line.ends_with(" 2")));
/// ```
impl fmt::Display for Negotiated {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<40} {:>4}  {:<8} {:<8} USABLE",
            "API", "KEY", "OURS", "BROKER"
        )?;
        for choice in &self.choices {
            let broker = choice
                .broker
                .map_or("-".to_owned(), |(min, max)| format!("{min}-{max}"));
            let usable = match choice.usable {
                Ok(version) => version.to_string(),
                Err(_) if choice.broker.is_none() => "-".to_owned(),
                Err(_) => "none in common".to_owned(),
            };
            writeln!(
                f,
                "{:<40} {:>4}  {:<8} {:<8} {usable}",
                choice.api.name(),
                choice.api.key(),
                choice.ours.to_string(),
                broker
            )?;
        }
        Ok(())
    }
}

fn usable_version(
    api: ApiKey,
    ours: VersionRange,
    broker: Option<(i16, i16)>,
) -> Result<i16, NegotiationError> {
    let (broker_min, broker_max) = broker.ok_or(NegotiationError::NotOffered { api })?;
    let common = ours.intersect(VersionRange::new(broker_min, broker_max));
    common.max().ok_or(NegotiationError::NoCommonVersion {
        api,
        ours,
        broker_min,
        broker_max,
    })
}

/// The version a client sends its first ApiVersions request at: the highest it knows.
pub fn first_api_versions_version() -> i16 {
    ApiKey::ApiVersions
        .stable_versions()
        .map_or(0, |(_, max)| max)
}

/// Reads an ApiVersions response body to a request made at `version`, as Kafka's
/// client does: at `version`, and when that fails, at version 0 (what a broker
/// answers a version it does not know with). The version the body was read at is
/// returned with it.
pub fn read_api_versions_response(
    body: &Bytes,
    version: i16,
) -> Result<(ApiVersionsResponse, i16), FrameError> {
    match ApiVersionsResponse::decode(body, version) {
        Ok(response) => Ok((response, version)),
        Err(error) if version == 0 => Err(error.into()),
        Err(error) => ApiVersionsResponse::decode(body, 0)
            .map(|response| (response, 0))
            // The fallback failed too: the error of the version asked says more.
            .map_err(|_| error.into()),
    }
}

/// What a client does after the broker's ApiVersions response to a request at
/// `sent`.
#[derive(Debug, Clone, PartialEq)]
pub enum NextStep {
    /// Negotiation is done.
    Done(Negotiated),
    /// The broker does not know version `sent`: ask again at this version, the
    /// highest of ApiVersions both support.
    RetryAt(i16),
}

/// Decides what follows the broker's ApiVersions answer to a request at `sent`.
///
/// ```
/// use kwire_messages::api::api_versions::{ApiVersion, ApiVersionsResponse};
/// use kwire_net::negotiation::{next_step, NextStep};
///
/// // A broker that knows ApiVersions v0-v3, asked at v5.
/// let answer = ApiVersionsResponse::default()
///     .with_error_code(35)
///     .with_api_keys(vec![ApiVersion::default().with_api_key(18).with_max_version(3)]);
/// assert_eq!(next_step(5, &answer).unwrap(), NextStep::RetryAt(3));
/// ```
pub fn next_step(sent: i16, response: &ApiVersionsResponse) -> Result<NextStep, NegotiationError> {
    match ErrorCode::from_code(response.error_code) {
        ErrorCode::None => Ok(NextStep::Done(Negotiated::with_broker(response))),
        ErrorCode::UnsupportedVersion => {
            let ours = ApiKey::ApiVersions.valid_versions();
            let broker = response
                .api_keys
                .iter()
                .find(|entry| entry.api_key == ApiKey::ApiVersions.key())
                .map(|entry| (entry.min_version, entry.max_version));
            let retry = usable_version(ApiKey::ApiVersions, ours, broker)?;
            if retry >= sent {
                // Asking again at the same version would loop.
                return Err(NegotiationError::Refused(ErrorCode::UnsupportedVersion));
            }
            Ok(NextStep::RetryAt(retry))
        }
        error => Err(NegotiationError::Refused(error)),
    }
}

/// A broker's answer to an ApiVersions request, framed: at the version asked when
/// this crate has it (every API `listener` serves, at its stable versions), and
/// otherwise Kafka's fallback, a version 0 body with error 35
/// (UNSUPPORTED_VERSION) and the range of ApiVersions alone, as Kafka's broker sends
/// (`ApiVersionsRequest.getErrorResponse`). The response header is v0 either way.
///
/// ```
/// use kwire::KafkaString;
/// use kwire_messages::Listener;
/// use kwire_net::negotiation::{answer_api_versions, read_api_versions_response};
/// use kwire_messages::frame::RequestFrame;
/// use kwire_messages::{frame, api::ApiVersionsRequest, RequestHeader};
///
/// let header = RequestHeader::default().with_request_api_key(18).with_request_api_version(3);
/// let request = frame::encode_request(&header, &ApiVersionsRequest::default()).unwrap();
/// let answer = answer_api_versions(&RequestFrame::parse(&request).unwrap(), Listener::Broker).unwrap();
/// let body = answer.slice(8..); // length prefix and header v0
/// let (response, read_at) = read_api_versions_response(&body, 3).unwrap();
/// assert_eq!((response.error_code, read_at), (0, 3));
/// ```
pub fn answer_api_versions(
    request: &RequestFrame,
    listener: Listener,
) -> Result<Bytes, FrameError> {
    let header = ResponseHeader::default().with_correlation_id(request.correlation_id());
    let asked = request.api_version();
    let supported = ApiKey::ApiVersions
        .stable_versions()
        .is_some_and(|(min, max)| (min..=max).contains(&asked));
    let (response, version) = if supported {
        let response = ApiVersionsResponse::default().with_api_keys(ApiKey::api_versions(listener));
        (response, asked)
    } else {
        let (min, max) = ApiKey::ApiVersions.stable_versions().unwrap_or((0, 0));
        let own = ApiVersion::default()
            .with_api_key(ApiKey::ApiVersions.key())
            .with_min_version(min)
            .with_max_version(max);
        let response = ApiVersionsResponse::default()
            .with_error_code(ErrorCode::UnsupportedVersion.code())
            .with_api_keys(vec![own]);
        (response, 0)
    };
    frame::encode_response(&header, &response, version)
}

#[cfg(test)]
mod tests {
    use kwire::KafkaString;

    use super::*;
    use kwire_messages::{api::ApiVersionsRequest, RequestHeader};

    fn ask(version: i16, correlation_id: i32) -> RequestFrame {
        let header = RequestHeader::default()
            .with_request_api_key(18)
            .with_request_api_version(version)
            .with_correlation_id(correlation_id)
            .with_client_id(Some(KafkaString::from_static("test")));
        let mut contents = header
            .encode(ApiKey::ApiVersions.request_header_version(version))
            .unwrap()
            .to_vec();
        if ApiKey::ApiVersions.valid_versions().contains(version) {
            contents.extend_from_slice(&ApiVersionsRequest::default().encode(version).unwrap());
        } else {
            // A body from the future: this crate cannot read it, and need not.
            contents.extend_from_slice(b"\x07future\x021\0\x09cluster\0\0\0\x01\0");
        }
        RequestFrame::parse_contents(&Bytes::from(contents)).unwrap()
    }

    #[test]
    fn our_server_answers_a_version_it_does_not_know_with_kafkas_v0_body() {
        let answer = answer_api_versions(&ask(9, 41), Listener::Broker).unwrap();
        assert_eq!(frame::response_correlation_id(&answer).unwrap(), 41);
        // Header v0: the body follows the correlation id directly.
        let body = answer.slice(8..);
        let v0 = ApiVersionsResponse::decode(&body, 0).unwrap();
        assert_eq!(v0.error_code, 35);
        assert_eq!(v0.api_keys.len(), 1);
        assert_eq!(v0.api_keys[0].api_key, 18);
        assert_eq!(v0.api_keys[0].max_version, 5);
        // A client asking at v9 falls back to v0 and retries at v5.
        let (read, at) = read_api_versions_response(&body, 9).unwrap();
        assert_eq!((read.clone(), at), (v0, 0));
        assert_eq!(next_step(9, &read).unwrap(), NextStep::RetryAt(5));
    }

    #[test]
    fn our_server_answers_a_version_it_knows_with_every_api() {
        for version in 0..=5 {
            let answer = answer_api_versions(&ask(version, 1), Listener::Broker).unwrap();
            let (read, at) = read_api_versions_response(&answer.slice(8..), version).unwrap();
            assert_eq!(at, version);
            assert_eq!(read.error_code, 0);
            assert_eq!(read.api_keys, ApiKey::api_versions(Listener::Broker));
        }
    }

    /// A broker that knows ApiVersions only up to v2, as old brokers do: asked at a
    /// higher version, it sends its v0 error body.
    fn old_broker(request: &RequestFrame) -> Bytes {
        let header = ResponseHeader::default().with_correlation_id(request.correlation_id());
        let all = ApiKey::api_versions(Listener::Broker)
            .into_iter()
            .map(|entry| {
                if entry.api_key == 18 {
                    entry.with_max_version(2)
                } else {
                    entry
                }
            })
            .collect::<Vec<_>>();
        let (response, version) = if request.api_version() <= 2 {
            (
                ApiVersionsResponse::default().with_api_keys(all),
                request.api_version(),
            )
        } else {
            let own = all.into_iter().filter(|e| e.api_key == 18).collect();
            (
                ApiVersionsResponse::default()
                    .with_error_code(35)
                    .with_api_keys(own),
                0,
            )
        };
        frame::encode_response(&header, &response, version).unwrap()
    }

    #[test]
    fn our_client_against_a_server_that_knows_fewer_api_versions_versions() {
        let first = first_api_versions_version();
        assert_eq!(first, 5);
        let answer = old_broker(&ask(first, 1));
        let (response, at) = read_api_versions_response(&answer.slice(8..), first).unwrap();
        assert_eq!(at, 0);
        let NextStep::RetryAt(retry) = next_step(first, &response).unwrap() else {
            panic!("expected a retry");
        };
        assert_eq!(retry, 2);
        let answer = old_broker(&ask(retry, 2));
        let (response, at) = read_api_versions_response(&answer.slice(8..), retry).unwrap();
        assert_eq!(at, 2);
        let NextStep::Done(negotiated) = next_step(retry, &response).unwrap() else {
            panic!("expected negotiation to finish");
        };
        assert_eq!(negotiated.version(ApiKey::ApiVersions), Ok(2));
        assert_eq!(
            negotiated.version(ApiKey::Metadata),
            Ok(ApiKey::Metadata.stable_versions().unwrap().1)
        );
    }

    #[test]
    fn no_common_version_names_the_api_and_both_ranges() {
        let broker = [ApiVersion::default()
            .with_api_key(0)
            .with_min_version(20)
            .with_max_version(30)];
        let negotiated = Negotiated::new([(ApiKey::Produce, VersionRange::new(3, 13))], &broker);
        let error = negotiated.version(ApiKey::Produce).unwrap_err();
        assert_eq!(
            error,
            NegotiationError::NoCommonVersion {
                api: ApiKey::Produce,
                ours: VersionRange::new(3, 13),
                broker_min: 20,
                broker_max: 30
            }
        );
        assert_eq!(
            error.to_string(),
            "no version of Produce that both sides support: ours 3-13, the broker's 20-30"
        );
        assert_eq!(
            negotiated.version(ApiKey::Fetch),
            Err(NegotiationError::NotOffered { api: ApiKey::Fetch })
        );
    }

    #[test]
    fn the_highest_common_version_is_chosen() {
        let broker = [ApiVersion::default()
            .with_api_key(1)
            .with_min_version(4)
            .with_max_version(11)];
        let negotiated = Negotiated::new([(ApiKey::Fetch, VersionRange::new(0, 17))], &broker);
        assert_eq!(negotiated.version(ApiKey::Fetch), Ok(11));
        let negotiated = Negotiated::new([(ApiKey::Fetch, VersionRange::new(0, 9))], &broker);
        assert_eq!(negotiated.version(ApiKey::Fetch), Ok(9));
    }

    #[test]
    fn a_broker_error_other_than_unsupported_version_is_refusal() {
        let response = ApiVersionsResponse::default().with_error_code(58);
        assert_eq!(
            next_step(3, &response),
            Err(NegotiationError::Refused(ErrorCode::from_code(58)))
        );
    }
}

//! What follows from an [`ApiKey`] without the table: lookup from the wire's `i16`,
//! versions, listeners, header versions and the entries of an ApiVersions answer.

use std::fmt;

use kwire::VersionRange;

use crate::api::api_versions::ApiVersion;
use crate::registry::RETIRED_API_KEYS;
use crate::ApiKey;

/// Why an `i16` is not an [`ApiKey`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ApiKeyError {
    /// One of the keys Kafka removed (4 to 7), with the API's name.
    #[error("API key {key} ({name}) was removed from Kafka")]
    Retired {
        /// The key.
        key: i16,
        /// The API it belonged to.
        name: &'static str,
    },
    /// A key no Kafka API has.
    #[error("API key {0} is not a Kafka API")]
    Unknown(i16),
}

/// A listener that serves requests: Kafka's `listeners` in the request schemas.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Listener {
    /// A broker's client-facing listener.
    Broker,
    /// A KRaft controller's listener.
    Controller,
}

impl Listener {
    /// Kafka's name for it in the schemas.
    pub const fn name(self) -> &'static str {
        match self {
            Listener::Broker => "broker",
            Listener::Controller => "controller",
        }
    }
}

/// Key → API, one slot per key up to the highest.
const BY_KEY: [Option<ApiKey>; slots()] = by_key();

const fn slots() -> usize {
    let mut max = 0;
    let mut i = 0;
    while i < ApiKey::ALL.len() {
        let key = ApiKey::ALL[i] as i16 as usize;
        if key > max {
            max = key;
        }
        i += 1;
    }
    max + 1
}

const fn by_key() -> [Option<ApiKey>; slots()] {
    let mut table = [None; slots()];
    let mut i = 0;
    while i < ApiKey::ALL.len() {
        table[ApiKey::ALL[i] as i16 as usize] = Some(ApiKey::ALL[i]);
        i += 1;
    }
    table
}

impl ApiKey {
    /// The API with `key`, or why there is none.
    pub fn from_i16(key: i16) -> Result<ApiKey, ApiKeyError> {
        let found = usize::try_from(key)
            .ok()
            .and_then(|slot| BY_KEY.get(slot).copied().flatten());
        match found {
            Some(api) => Ok(api),
            None => match RETIRED_API_KEYS.iter().find(|(k, _)| *k == key) {
                Some(&(key, name)) => Err(ApiKeyError::Retired { key, name }),
                None => Err(ApiKeyError::Unknown(key)),
            },
        }
    }

    /// The key on the wire.
    pub const fn key(self) -> i16 {
        self as i16
    }

    /// The versions of the API that exist.
    pub const fn valid_versions(self) -> VersionRange {
        self.request_schema().valid_versions
    }

    /// The versions that use the compact, tagged-field encoding.
    pub const fn flexible_versions(self) -> VersionRange {
        self.request_schema().flexible_versions
    }

    /// The listeners that accept the request.
    pub const fn listeners(self) -> &'static [&'static str] {
        self.request_schema().listeners
    }

    /// True when `listener` accepts the request.
    pub fn served_by(self, listener: Listener) -> bool {
        self.listeners().contains(&listener.name())
    }

    /// The header version of a request at `version`: 2 when the body is flexible,
    /// 1 otherwise (header v0 belonged only to the retired ControlledShutdown v0).
    pub const fn request_header_version(self, version: i16) -> i16 {
        crate::header::request_version_for(self.request_schema(), version)
    }

    /// The versions a server advertises for this API: every valid version except
    /// a latest one Kafka marks unstable. `None` when no version is stable yet.
    pub fn stable_versions(self) -> Option<(i16, i16)> {
        let schema = self.request_schema();
        let min = schema.valid_versions.min()?;
        let max = schema.valid_versions.max()?;
        let max = if schema.latest_version_unstable {
            max - 1
        } else {
            max
        };
        (max >= min).then_some((min, max))
    }

    /// The `ApiVersionsResponse` entries for every API `listener` serves, in key
    /// order: what a server built on this crate answers ApiVersions with.
    ///
    /// ```
    /// use kwire_messages::Listener;
    /// use kwire_messages::ApiKey;
    ///
    /// let entries = ApiKey::api_versions(Listener::Broker);
    /// let metadata = entries.iter().find(|e| e.api_key == 3).unwrap();
    /// assert_eq!((metadata.min_version, metadata.max_version), (0, 13));
    /// ```
    pub fn api_versions(listener: Listener) -> Vec<ApiVersion> {
        ApiKey::ALL
            .iter()
            .filter(|api| api.served_by(listener))
            .filter_map(|api| {
                let (min, max) = api.stable_versions()?;
                Some(
                    ApiVersion::default()
                        .with_api_key(api.key())
                        .with_min_version(min)
                        .with_max_version(max),
                )
            })
            .collect()
    }
}

impl TryFrom<i16> for ApiKey {
    type Error = ApiKeyError;

    fn try_from(key: i16) -> Result<Self, Self::Error> {
        ApiKey::from_i16(key)
    }
}

impl From<ApiKey> for i16 {
    fn from(api: ApiKey) -> i16 {
        api.key()
    }
}

impl fmt::Display for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_api_is_found_by_its_key() {
        for &api in ApiKey::ALL {
            assert_eq!(ApiKey::from_i16(api.key()), Ok(api));
            assert_eq!(api.request_schema().api_key, Some(api.key()));
            assert_eq!(api.response_schema().api_key, Some(api.key()));
        }
    }

    #[test]
    fn retired_unknown_and_negative_keys_are_told_apart() {
        assert_eq!(
            ApiKey::from_i16(7),
            Err(ApiKeyError::Retired {
                key: 7,
                name: "ControlledShutdown"
            })
        );
        assert_eq!(ApiKey::from_i16(-1), Err(ApiKeyError::Unknown(-1)));
        assert_eq!(
            ApiKey::from_i16(i16::MAX),
            Err(ApiKeyError::Unknown(i16::MAX))
        );
    }

    #[test]
    fn only_api_versions_keeps_response_header_v0_when_flexible() {
        for &api in ApiKey::ALL {
            let latest = api.valid_versions().max().unwrap();
            let expected = match (api, api.request_schema().is_flexible(latest)) {
                (ApiKey::ApiVersions, _) | (_, false) => 0,
                (_, true) => 1,
            };
            assert_eq!(api.response_header_version(latest), expected, "{api}");
        }
    }
}

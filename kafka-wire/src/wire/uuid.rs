//! Kafka's `uuid`: sixteen raw bytes, printed as Kafka prints them.

use std::fmt;
use std::str::FromStr;

use super::{Cx, Sizes, Wire, Writer};
use crate::schema::TypeSchema;
use crate::{DecodeError, EncodeError, Reader};
use base64::alphabet::URL_SAFE;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::Engine;

/// Kafka's text form of a UUID: URL-safe base64 of the 16 bytes, without padding
/// (`Uuid.toString()`); like Kafka's parser, it also reads the padded form.
const KAFKA_BASE64: GeneralPurpose = GeneralPurpose::new(
    &URL_SAFE,
    GeneralPurposeConfig::new()
        .with_encode_padding(false)
        .with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// A Kafka UUID (topic IDs, directory IDs): 16 bytes on the wire.
///
/// It prints and parses as Kafka's `Uuid.toString()` and `Uuid.fromString()` do and
/// as Kafka's tools and JSON show it: 22 characters of URL-safe base64.
///
/// ```
/// use kwire::Uuid;
///
/// let id = Uuid::from_u64_pair(0x1122_3344_5566_7788, 0x99aa_bbcc_ddee_ff00);
/// assert_eq!(id.to_string(), "ESIzRFVmd4iZqrvM3e7_AA");
/// assert_eq!("ESIzRFVmd4iZqrvM3e7_AA".parse::<Uuid>(), Ok(id));
/// assert_eq!(Uuid::ZERO.to_string(), "AAAAAAAAAAAAAAAAAAAAAA");
/// assert!("not a uuid".parse::<Uuid>().is_err());
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Uuid([u8; 16]);

impl Uuid {
    /// The all-zero UUID, Kafka's default and "no topic ID".
    pub const ZERO: Uuid = Uuid([0; 16]);

    /// Kafka's `Uuid.ONE_UUID`, reserved for metadata topics.
    pub const ONE: Uuid = Uuid::from_u64_pair(0, 1);

    /// From raw bytes.
    pub const fn from_bytes(bytes: [u8; 16]) -> Self {
        Uuid(bytes)
    }

    /// From the most and least significant halves, as Java's `Uuid` holds them.
    pub const fn from_u64_pair(most: u64, least: u64) -> Self {
        let m = most.to_be_bytes();
        let l = least.to_be_bytes();
        Uuid([
            m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], l[0], l[1], l[2], l[3], l[4], l[5],
            l[6], l[7],
        ])
    }

    /// The raw bytes.
    pub const fn as_bytes(&self) -> &[u8; 16] {
        &self.0
    }
}

impl fmt::Display for Uuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = [0u8; 22];
        match KAFKA_BASE64.encode_slice(self.0, &mut text) {
            Ok(len) => f.write_str(std::str::from_utf8(&text[..len]).map_err(|_| fmt::Error)?),
            Err(_) => Err(fmt::Error),
        }
    }
}

impl fmt::Debug for Uuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Uuid({self})")
    }
}

/// Why a string is not a Kafka UUID.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum UuidParseError {
    /// Longer than the 24 characters of the padded form (Kafka's own limit).
    #[error("{0} characters is too long for a base64 UUID")]
    TooLong(usize),
    /// Not URL-safe base64.
    #[error("not URL-safe base64: {0}")]
    NotBase64(String),
    /// Base64, but not of 16 bytes.
    #[error("decodes to {0} bytes, not the 16 of a UUID")]
    WrongLength(usize),
}

impl FromStr for Uuid {
    type Err = UuidParseError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        if text.len() > 24 {
            return Err(UuidParseError::TooLong(text.len()));
        }
        let bytes = KAFKA_BASE64
            .decode(text)
            .map_err(|e| UuidParseError::NotBase64(e.to_string()))?;
        let bytes: [u8; 16] = bytes
            .try_into()
            .map_err(|bytes: Vec<u8>| UuidParseError::WrongLength(bytes.len()))?;
        Ok(Uuid(bytes))
    }
}

impl From<[u8; 16]> for Uuid {
    fn from(bytes: [u8; 16]) -> Self {
        Uuid(bytes)
    }
}

impl Wire for Uuid {
    const TYPE: TypeSchema = TypeSchema::Uuid;

    #[inline]
    fn size(&self, _cx: Cx, _sizes: &mut Sizes) -> Result<usize, EncodeError> {
        Ok(16)
    }

    #[inline]
    fn write(&self, w: &mut Writer, _cx: Cx, _sizes: &mut Sizes) -> Result<(), EncodeError> {
        w.put_slice(&self.0);
        Ok(())
    }

    #[inline]
    fn read(reader: &mut Reader<'_>, _cx: Cx) -> Result<Self, DecodeError> {
        Ok(Uuid(reader.read_array()?))
    }

    fn schema_default() -> Self {
        Uuid::ZERO
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_and_parse_agree_as_kafka_writes_them() {
        for id in [
            Uuid::ZERO,
            Uuid::ONE,
            Uuid([0xff; 16]),
            Uuid::from_u64_pair(7, 9),
        ] {
            let text = id.to_string();
            assert_eq!(text.len(), 22);
            assert_eq!(text.parse::<Uuid>(), Ok(id), "{text}");
        }
        // Kafka's ONE_UUID prints as AAAAAAAAAAAAAAAAAAAAAQ.
        assert_eq!(Uuid::ONE.to_string(), "AAAAAAAAAAAAAAAAAAAAAQ");
        assert_eq!(Uuid([0xff; 16]).to_string(), "_____________________w");
        // The padded form reads too, as in Kafka.
        assert_eq!("AAAAAAAAAAAAAAAAAAAAAQ==".parse::<Uuid>(), Ok(Uuid::ONE));
    }

    #[test]
    fn malformed_text_is_refused() {
        assert_eq!(
            "AAAAAAAAAAAAAAAAAAAAAAAAA".parse::<Uuid>(),
            Err(UuidParseError::TooLong(25))
        );
        assert_eq!("AAAA".parse::<Uuid>(), Err(UuidParseError::WrongLength(3)));
        assert!(matches!(
            "AAAAAAAAAAAAAAAAAAAA+A".parse::<Uuid>(),
            Err(UuidParseError::NotBase64(_))
        ));
    }
}

//! Strict encoding: a request is refused if a value it holds would be dropped
//! at the version it is sent at (an ignorable field the version lacks, which
//! Kafka's rules let go without a word).

use kwire::{EncodeErrorKind, MessageEnum};
use kwire_messages::Request;

use super::ClientError;

/// Refuses `request` at `version` if encoding it would drop a value it holds,
/// naming the field ([`Message::check_strict`](kwire::Message::check_strict): a
/// walk over the fields that can lose a value, and the size pass).
pub(crate) fn check(request: &Request, version: i16) -> Result<(), ClientError> {
    request.check_strict(version).map_err(|error| {
        if matches!(error.kind(), EncodeErrorKind::IgnorableFieldDropped { .. }) {
            ClientError::WouldDrop(error)
        } else {
            ClientError::Encode(error)
        }
    })
}

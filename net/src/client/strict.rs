//! Strict encoding: a request is refused if a value it holds would be dropped
//! at the version it is sent at (an ignorable field the version lacks, which
//! Kafka's rules let go without a word).

use kwire::MessageEnum;
use kwire_messages::Request;

use super::ClientError;

/// Refuses `request` at `version` if encoding it would drop a value it holds.
///
/// Checked by reading the encoding back: what does not come back was dropped.
/// This costs one more encode and decode per request; a caller who wants
/// neither the cost nor the check turns it off
/// ([`with_strict_encoding(false)`](super::ConnectOptions::with_strict_encoding)).
pub(crate) fn check(request: &Request, version: i16) -> Result<(), ClientError> {
    let bytes = request.encode(version)?;
    let back = Request::decode(request.api().key(), version, &bytes);
    if back.is_ok_and(|back| back == *request) {
        return Ok(());
    }
    Err(ClientError::WouldDrop {
        message: request.schema().name,
        version,
    })
}

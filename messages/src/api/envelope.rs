//! Envelope (API key 58): a broker forwards a client's request, with the client's
//! principal and address, to the controller.

use bytes::Bytes;
use kwire::UnknownTaggedFields;

/// Envelope request: the forwarded request, with the original client's principal and address.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 58, kind = request, response = EnvelopeResponse, versions = "0", flexible = "0+",
        listeners = "controller")]
pub struct EnvelopeRequest {
    /// The embedded request header and data.
    #[kafka(versions = "0+", zero_copy)]
    pub request_data: Bytes,
    /// Value of the initial client principal when the request is redirected by a
    /// broker.
    #[kafka(versions = "0+", nullable = "0+")]
    pub request_principal: Option<Bytes>,
    /// The original client's address in bytes.
    #[kafka(versions = "0+")]
    pub client_host_address: Bytes,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// Envelope response: the controller's response to the forwarded request.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[non_exhaustive]
#[kafka(api_key = 58, kind = response, versions = "0", flexible = "0+")]
pub struct EnvelopeResponse {
    /// The embedded response header and data.
    #[kafka(versions = "0+", nullable = "0+", default = null, zero_copy)]
    pub response_data: Option<Bytes>,
    /// The error code, or 0 if there was no error.
    #[kafka(versions = "0+")]
    pub error_code: i16,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

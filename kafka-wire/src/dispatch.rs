//! Messages chosen at run time by API key.
//!
//! A request names its response (`#[kafka(kind = request, response = ...)]`), which
//! gives generic code [`ApiRequest::Response`]. An enum with one variant per request
//! (or per response) derives [`RequestEnum`](derive@crate::RequestEnum) (or
//! [`ResponseEnum`](derive@crate::ResponseEnum)) and then decodes any of them from
//! `(api_key, version, bytes)`, encodes whichever it holds and says its key.
//!
//! ```
//! use bytes::Bytes;
//! use kwire::{KafkaString, Message, MessageEnum, UnknownTaggedFields};
//!
//! /// Asks for a greeting.
//! #[derive(Debug, Clone, PartialEq, kwire::Message)]
//! #[kafka(api_key = 1000, kind = request, response = HelloResponse, versions = "0")]
//! struct HelloRequest {
//!     /// Who asks.
//!     #[kafka(versions = "0+")]
//!     name: KafkaString,
//! }
//!
//! /// The greeting.
//! #[derive(Debug, Clone, PartialEq, kwire::Message)]
//! #[kafka(api_key = 1000, kind = response, versions = "0")]
//! struct HelloResponse {
//!     /// The words.
//!     #[kafka(versions = "0+")]
//!     greeting: KafkaString,
//! }
//!
//! /// Every request this service answers.
//! #[derive(Debug, Clone, PartialEq, kwire::RequestEnum)]
//! enum MyRequest {
//!     Hello(HelloRequest),
//! }
//!
//! let bytes = HelloRequest::default().with_name("u03".into()).encode(0).unwrap();
//! let request = MyRequest::decode(1000, 0, &bytes).unwrap();
//! assert_eq!(request.api_key(), 1000);
//! assert_eq!(request.encode(0).unwrap(), bytes);
//! assert!(MyRequest::decode(7, 0, &bytes).is_err());
//! ```

use bytes::{Bytes, BytesMut};

use crate::wire::ChunkedBytes;
use crate::{AnyMessage, Encoder};

use crate::schema::MessageSchema;
use crate::{DecodeError, DecodeLimits, EncodeError, Message, Reader};

/// A request, linked at the type level to the response that answers it.
///
/// `#[derive(Message)]` implements it for `#[kafka(kind = request, response = R)]`,
/// so client code can name the answer to any request:
///
/// ```
/// fn answer_type<R: kwire::ApiRequest>() -> &'static str {
///     <R::Response as kwire::Message>::SCHEMA.name
/// }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a request that names its response",
    label = "not a request",
    note = "a request enum holds messages derived with \
            `#[kafka(kind = request, response = TheResponse, ...)]`"
)]
pub trait ApiRequest: Message {
    /// The message that answers this request.
    type Response: ApiResponse;
}

/// A response: `#[derive(Message)]` implements it for `#[kafka(kind = response)]`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a response",
    label = "not a response",
    note = "a response enum holds messages derived with `#[kafka(kind = response, ...)]`"
)]
pub trait ApiResponse: Message {}

/// Code to run on whichever message an enum holds, knowing its type:
/// [`MessageEnum::with_message`] calls [`call`](WithMessage::call) once.
///
/// ```
/// use kwire::{Message, WithMessage};
///
/// /// The message's name.
/// struct NameOf;
///
/// impl WithMessage for NameOf {
///     type Output = &'static str;
///     fn call<M: Message>(self, _message: &M) -> &'static str {
///         M::SCHEMA.name
///     }
/// }
/// ```
pub trait WithMessage {
    /// What the call returns.
    type Output;
    /// Runs on `message`.
    fn call<M: Message>(self, message: &M) -> Self::Output;
}

/// An enum with one variant per API, each holding that API's message: what
/// `#[derive(RequestEnum)]` and `#[derive(ResponseEnum)]` implement.
///
/// Decoding picks the variant by API key with one `match`, then decodes that type
/// directly; encoding is the held message's own.
pub trait MessageEnum: Sized {
    /// The schema of each variant's message, in declaration order.
    const SCHEMAS: &'static [&'static MessageSchema];

    /// The API key of the message held.
    #[inline]
    fn api_key(&self) -> i16 {
        // Every variant's type has a key: the derive checks it at compile time.
        api_key_of(self.schema())
    }

    /// The schema of the message held.
    fn schema(&self) -> &'static MessageSchema;

    /// Decodes the message with `api_key` at `version`; every byte of `input` must
    /// belong to it.
    #[inline]
    fn decode(api_key: i16, version: i16, input: &Bytes) -> Result<Self, DispatchError> {
        Self::decode_with_limits(api_key, version, input, &DecodeLimits::DEFAULT)
    }

    /// [`decode`](MessageEnum::decode) within `limits` (see
    /// [`Message::decode_with_limits`]).
    ///
    /// ```
    /// use kwire::{DecodeErrorKind, DecodeLimits, KafkaString, Limit, Message, MessageEnum};
    ///
    /// /// Asks for greetings.
    /// #[derive(Debug, Clone, PartialEq, kwire::Message)]
    /// #[kafka(api_key = 1000, kind = request, response = HelloResponse, versions = "0")]
    /// struct HelloRequest {
    ///     /// Who asks.
    ///     #[kafka(versions = "0+")]
    ///     names: Vec<KafkaString>,
    /// }
    ///
    /// /// The greeting.
    /// #[derive(Debug, Clone, PartialEq, kwire::Message)]
    /// #[kafka(api_key = 1000, kind = response, versions = "0")]
    /// struct HelloResponse {
    ///     /// The words.
    ///     #[kafka(versions = "0+")]
    ///     greeting: KafkaString,
    /// }
    ///
    /// /// Every request this service answers.
    /// #[derive(Debug, Clone, PartialEq, kwire::RequestEnum)]
    /// enum MyRequest {
    ///     Hello(HelloRequest),
    /// }
    ///
    /// let names = vec!["a".into(), "b".into()];
    /// let bytes = HelloRequest { names }.encode(0).unwrap();
    /// let limits = DecodeLimits::default().with_max_array_len(1);
    /// let err = MyRequest::decode_with_limits(1000, 0, &bytes, &limits).unwrap_err();
    /// match err {
    ///     kwire::DispatchError::Decode(e) => assert!(matches!(
    ///         e.kind(),
    ///         DecodeErrorKind::LimitExceeded { limit: Limit::ArrayLength, value: 2, max: 1 }
    ///     )),
    ///     other => panic!("{other:?}"),
    /// }
    /// ```
    #[inline]
    fn decode_with_limits(
        api_key: i16,
        version: i16,
        input: &Bytes,
        limits: &DecodeLimits,
    ) -> Result<Self, DispatchError> {
        let mut reader = Reader::with_limits(input, limits);
        let message = Self::read_from(api_key, version, &mut reader)?;
        match reader.expect_end() {
            Ok(()) => Ok(message),
            Err(trailing) => Err(trailing.within(message.schema().name).into()),
        }
    }

    /// Reads the message with `api_key` at `version` from `reader`, leaving what
    /// follows it.
    fn read_from(
        api_key: i16,
        version: i16,
        reader: &mut Reader<'_>,
    ) -> Result<Self, DispatchError>;

    /// Runs `f` on the message held.
    fn with_message<F: WithMessage>(&self, f: F) -> F::Output;

    /// The message held, its type forgotten: encoding it through this is one copy
    /// of code for every variant.
    fn as_message(&self) -> AnyMessage<'_>;

    /// The heap bytes the message held retains, as
    /// [`Wire::retained_size`](crate::Wire::retained_size) counts them: what a
    /// server weighs before it queues a decoded request. Strings, bytes and
    /// records decoded from a frame are slices of it and count nothing: the frame
    /// is what they retain.
    ///
    /// ```
    /// use kwire::{DecodeErrorKind, DecodeLimits, KafkaString, Limit, Message, MessageEnum};
    ///
    /// /// Asks for greetings.
    /// #[derive(Debug, Clone, PartialEq, kwire::Message)]
    /// #[kafka(api_key = 1000, kind = request, response = HelloResponse, versions = "0")]
    /// struct HelloRequest {
    ///     /// Who asks.
    ///     #[kafka(versions = "0+")]
    ///     names: Vec<KafkaString>,
    /// }
    ///
    /// /// The greeting.
    /// #[derive(Debug, Clone, PartialEq, kwire::Message)]
    /// #[kafka(api_key = 1000, kind = response, versions = "0")]
    /// struct HelloResponse {
    ///     /// The words.
    ///     #[kafka(versions = "0+")]
    ///     greeting: KafkaString,
    /// }
    ///
    /// /// Every request this service answers.
    /// #[derive(Debug, Clone, PartialEq, kwire::RequestEnum)]
    /// enum MyRequest {
    ///     Hello(HelloRequest),
    /// }
    ///
    /// let names = vec!["a".into(), "b".into()];
    /// let bytes = HelloRequest { names }.encode(0).unwrap();
    /// let request = MyRequest::decode(1000, 0, &bytes).unwrap();
    /// // Two strings in a vector: the vector's room for them; the strings are
    /// // slices of `bytes`.
    /// assert_eq!(request.retained_size(), 2 * std::mem::size_of::<KafkaString>());
    /// ```
    fn retained_size(&self) -> usize {
        self.with_message(RetainedSize)
    }

    /// The message held, checked and sized at `version`, ready to write
    /// ([`Message::encoder`]).
    fn encoder(&self, version: i16) -> Result<Encoder<'_>, EncodeError> {
        self.as_message().encoder(version)
    }

    /// The schema of the variant with `api_key`, if there is one.
    fn schema_of(api_key: i16) -> Option<&'static MessageSchema> {
        Self::SCHEMAS
            .iter()
            .copied()
            .find(|schema| schema.api_key == Some(api_key))
    }

    /// Encodes the message held at `version`.
    fn encode(&self, version: i16) -> Result<Bytes, EncodeError> {
        self.as_message().encode(version)
    }

    /// Succeeds when the message held would encode at `version` without losing a
    /// value it holds, and fails as [`Message::check_strict`] does, naming the
    /// field: a client checks a request so before framing it.
    fn check_strict(&self, version: i16) -> Result<(), EncodeError> {
        self.with_message(CheckStrict(version))
    }

    /// The exact size [`encode`](MessageEnum::encode) would write at `version`.
    fn encoded_size(&self, version: i16) -> Result<usize, EncodeError> {
        self.as_message().encoded_size(version)
    }

    /// Writes the message held at `version` into `buf`; returns the bytes written.
    fn encode_into(&self, buf: &mut BytesMut, version: i16) -> Result<usize, EncodeError> {
        self.as_message().encode_into(buf, version)
    }

    /// Encodes whichever message the enum holds as chunks, its records not copied
    /// ([`Message::encode_vectored`]).
    fn encode_vectored(&self, version: i16) -> Result<ChunkedBytes, EncodeError> {
        self.as_message().encode_vectored(version)
    }

    /// The message held, in Kafka's JSON form at `version` (feature `json`).
    #[cfg(feature = "json")]
    fn to_json(&self, version: i16) -> Result<serde_json::Value, crate::json::JsonError> {
        self.with_message(ToJson(version))
    }

    /// Reads the message with `api_key` from Kafka's JSON form at `version`
    /// (feature `json`).
    #[cfg(feature = "json")]
    fn from_json(
        api_key: i16,
        version: i16,
        value: &serde_json::Value,
    ) -> Result<Self, crate::json::JsonError>;
}

#[cfg(feature = "json")]
struct ToJson(i16);

#[cfg(feature = "json")]
impl WithMessage for ToJson {
    type Output = Result<serde_json::Value, crate::json::JsonError>;
    fn call<M: Message>(self, message: &M) -> Self::Output {
        message.to_json(self.0)
    }
}

/// An enum of requests: `#[derive(RequestEnum)]`.
pub trait RequestEnum: MessageEnum {}

/// An enum of responses: `#[derive(ResponseEnum)]`.
pub trait ResponseEnum: MessageEnum {}

/// Why a message enum could not decode.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DispatchError {
    /// No variant has this API key.
    #[error("API key {api_key} is not one of {enum_name}'s")]
    UnknownApiKey {
        /// The key asked for.
        api_key: i16,
        /// The enum's name.
        enum_name: &'static str,
    },
    /// The variant's message did not decode.
    #[error(transparent)]
    Decode(#[from] DecodeError),
}

/// A message enum held another message than the one asked for: what
/// `TryFrom<Enum>` gives for each variant's type when the enum holds another.
///
/// The value comes back whole, so nothing is lost by asking.
///
/// ```
/// use kwire::Message;
///
/// /// A greeting.
/// #[derive(Debug, Clone, PartialEq, kwire::Message)]
/// #[kafka(api_key = 1000, kind = response, versions = "0")]
/// struct HelloResponse {}
///
/// /// A farewell.
/// #[derive(Debug, Clone, PartialEq, kwire::Message)]
/// #[kafka(api_key = 1001, kind = response, versions = "0")]
/// struct ByeResponse {}
///
/// /// Every response a service gives.
/// #[derive(Debug, Clone, PartialEq, kwire::ResponseEnum)]
/// enum MyResponse {
///     Hello(HelloResponse),
///     Bye(ByeResponse),
/// }
///
/// let error = ByeResponse::try_from(MyResponse::from(HelloResponse {})).unwrap_err();
/// assert_eq!(error.expected().name, "ByeResponse");
/// assert_eq!(error.found().name, "HelloResponse");
/// assert_eq!(error.to_string(), "expected a ByeResponse, got a HelloResponse");
/// // The value comes back whole.
/// assert_eq!(HelloResponse::try_from(error.into_inner()), Ok(HelloResponse {}));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct WrongMessage<E> {
    expected: &'static MessageSchema,
    value: E,
}

impl<E: MessageEnum> WrongMessage<E> {
    /// `value`, which is not the `expected` message.
    pub fn new(expected: &'static MessageSchema, value: E) -> Self {
        WrongMessage { expected, value }
    }

    /// The schema of the message asked for.
    pub fn expected(&self) -> &'static MessageSchema {
        self.expected
    }

    /// The schema of the message the enum held.
    pub fn found(&self) -> &'static MessageSchema {
        self.value.schema()
    }

    /// The enum, as it was.
    pub fn into_inner(self) -> E {
        self.value
    }
}

impl<E: MessageEnum> std::fmt::Display for WrongMessage<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "expected a {}, got a {}",
            self.expected.name,
            self.found().name
        )
    }
}

impl<E: MessageEnum + std::fmt::Debug> std::error::Error for WrongMessage<E> {}

struct CheckStrict(i16);

impl WithMessage for CheckStrict {
    type Output = Result<(), EncodeError>;
    fn call<M: Message>(self, message: &M) -> Self::Output {
        message.check_strict(self.0)
    }
}

/// The API key of a message in a request or response enum, at compile time.
#[doc(hidden)]
pub const fn api_key_of(schema: &MessageSchema) -> i16 {
    match schema.api_key {
        Some(key) => key,
        None => panic!("a message in a request or response enum needs an API key"),
    }
}

/// The index of the first key that an earlier one repeats, or `usize::MAX`.
#[doc(hidden)]
pub const fn first_repeated_key(keys: &[i16]) -> usize {
    let mut i = 1;
    while i < keys.len() {
        let mut j = 0;
        while j < i {
            if keys[j] == keys[i] {
                return i;
            }
            j += 1;
        }
        i += 1;
    }
    usize::MAX
}

/// [`MessageEnum::retained_size`]'s call on the message held.
struct RetainedSize;

impl WithMessage for RetainedSize {
    type Output = usize;

    fn call<M: Message>(self, message: &M) -> usize {
        message.retained_size()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_repeat_is_found_after_its_original() {
        assert_eq!(first_repeated_key(&[0, 1, 2]), usize::MAX);
        assert_eq!(first_repeated_key(&[0, 1, 0, 1]), 2);
        assert_eq!(first_repeated_key(&[]), usize::MAX);
    }
}

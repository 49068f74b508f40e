//! Which Rust types an attribute allows, as traits the derive requires of a field's
//! type. A mistake is then a trait error on the type itself, with words of its own,
//! rather than a failed `const` evaluation: every one is reported, each on the whole
//! type.

use bytes::Bytes;
use smallvec::{Array, SmallVec};

use crate::wire::bytes::{size_zero_copy, write_zero_copy};
use crate::wire::{Cx, KafkaString, Sizes, Writer};
use crate::{EncodeError, EncodeErrorKind};

/// The types a field with `nullable` versions may have: `Option`s.
#[diagnostic::on_unimplemented(
    message = "field type `{Self}` cannot hold null, but the field has `nullable` versions",
    label = "write `Option<{Self}>` here",
    note = "null is `None`, so a nullable field holds an `Option`"
)]
pub trait NullableField {
    /// Named by generated code to require the trait.
    const REQUIRED: () = ();
}

// Any `Option`: whether `T` can be null at all is `Wire`'s to say, once.
impl<T> NullableField for Option<T> {}

/// The types a field-level `flexible` override applies to: strings and bytes.
#[diagnostic::on_unimplemented(
    message = "field type `{Self}` cannot take a `flexible` override",
    label = "`flexible` on a field applies to strings and bytes only",
    note = "remove `flexible` from this field: it follows the message's flexible versions"
)]
pub trait FlexibleOverride {
    /// Named by generated code to require the trait.
    const REQUIRED: () = ();
}

impl FlexibleOverride for KafkaString {}
impl FlexibleOverride for String {}
impl FlexibleOverride for Bytes {}
impl<T: FlexibleOverride> FlexibleOverride for Option<T> {}

/// The types `zero_copy` applies to: bytes (Kafka's generator allows no other). A
/// `zero_copy` field's value is attached by a vectored writer, as records are,
/// instead of being copied: the derive codes the field through this trait.
#[diagnostic::on_unimplemented(
    message = "field type `{Self}` cannot be `zero_copy`",
    label = "`zero_copy` applies to `Bytes` fields only",
    note = "remove `zero_copy` from this field"
)]
pub trait ZeroCopy {
    /// Named by generated code to require the trait.
    const REQUIRED: () = ();

    /// The field's size, its bytes counted as zero-copy.
    fn size_field(&self, cx: Cx, sizes: &mut Sizes) -> Result<usize, EncodeError>;

    /// Writes the field, attaching its bytes to a vectored writer.
    fn write_field(&self, w: &mut Writer, cx: Cx, sizes: &mut Sizes) -> Result<(), EncodeError>;
}

impl ZeroCopy for Bytes {
    #[inline]
    fn size_field(&self, cx: Cx, sizes: &mut Sizes) -> Result<usize, EncodeError> {
        size_zero_copy(Some(self), cx, sizes)
    }

    #[inline]
    fn write_field(&self, w: &mut Writer, cx: Cx, _sizes: &mut Sizes) -> Result<(), EncodeError> {
        write_zero_copy(Some(self), w, cx)
    }
}

impl ZeroCopy for Option<Bytes> {
    #[inline]
    fn size_field(&self, cx: Cx, sizes: &mut Sizes) -> Result<usize, EncodeError> {
        if self.is_none() && !cx.nullable {
            let kind = EncodeErrorKind::NullNotAllowed {
                version: cx.version,
            };
            return Err(EncodeError::new(kind));
        }
        size_zero_copy(self.as_ref(), cx, sizes)
    }

    #[inline]
    fn write_field(&self, w: &mut Writer, cx: Cx, _sizes: &mut Sizes) -> Result<(), EncodeError> {
        write_zero_copy(self.as_ref(), w, cx)
    }
}

/// The types of a field naming a topic, group or transactional ID: strings.
#[diagnostic::on_unimplemented(
    message = "field type `{Self}` cannot name this entity",
    label = "this `entity_type` needs a string or an array of strings",
    note = "Kafka's generator ties topic names, group IDs and transactional IDs to strings"
)]
pub trait StringEntity {
    /// Named by generated code to require the trait.
    const REQUIRED: () = ();
}
impl StringEntity for KafkaString {}
impl StringEntity for String {}
impl<T: StringEntity> StringEntity for Option<T> {}
impl<T: StringEntity> StringEntity for Vec<T> {}
impl<A: Array> StringEntity for SmallVec<A> where A::Item: StringEntity {}

/// The types of a field naming a broker: int32.
#[diagnostic::on_unimplemented(
    message = "field type `{Self}` cannot name a broker",
    label = "`entity_type = \"brokerId\"` needs an `i32` or an array of them",
    note = "Kafka's generator ties broker IDs to int32"
)]
pub trait BrokerIdEntity {
    /// Named by generated code to require the trait.
    const REQUIRED: () = ();
}
impl BrokerIdEntity for i32 {}
impl<T: BrokerIdEntity> BrokerIdEntity for Option<T> {}
impl<T: BrokerIdEntity> BrokerIdEntity for Vec<T> {}
impl<A: Array> BrokerIdEntity for SmallVec<A> where A::Item: BrokerIdEntity {}

/// The types of a field naming a producer: int64.
#[diagnostic::on_unimplemented(
    message = "field type `{Self}` cannot name a producer",
    label = "`entity_type = \"producerId\"` needs an `i64` or an array of them",
    note = "Kafka's generator ties producer IDs to int64"
)]
pub trait ProducerIdEntity {
    /// Named by generated code to require the trait.
    const REQUIRED: () = ();
}
impl ProducerIdEntity for i64 {}
impl<T: ProducerIdEntity> ProducerIdEntity for Option<T> {}
impl<T: ProducerIdEntity> ProducerIdEntity for Vec<T> {}
impl<A: Array> ProducerIdEntity for SmallVec<A> where A::Item: ProducerIdEntity {}

/// Turns a string default from an attribute into a value of the field's type.
#[diagnostic::on_unimplemented(
    message = "a string default does not fit a field of type `{Self}`",
    label = "string defaults are only for string fields"
)]
pub trait StrDefault {
    /// The value for `text`.
    fn from_default(text: &'static str) -> Self;
}

impl StrDefault for KafkaString {
    fn from_default(text: &'static str) -> Self {
        KafkaString::from_static(text)
    }
}

impl StrDefault for String {
    fn from_default(text: &'static str) -> Self {
        text.to_owned()
    }
}

impl<T: StrDefault> StrDefault for Option<T> {
    fn from_default(text: &'static str) -> Self {
        Some(T::from_default(text))
    }
}

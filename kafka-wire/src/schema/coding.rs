//! How a field is coded at a version: in its struct's body or in its tagged section,
//! and in which context (compact, nullable). The derived codecs and the
//! [schema walker](crate::walk) both ask here, so they cannot disagree about where
//! a field is.

use super::FieldSchema;
use crate::{Cx, DecodeError, DecodeErrorKind, Reader};

impl FieldSchema {
    /// True when the field is written in its struct's body at `version`: the
    /// version has it, and not in the tagged section.
    #[inline(always)]
    pub const fn is_in_body_at(&self, version: i16) -> bool {
        self.versions.contains(version) && !self.is_tagged_at(version)
    }

    /// The context the field's value is coded in, inside a struct coded at `cx`:
    /// compact where the struct is, unless the field's own flexible versions say
    /// otherwise, and nullable where the field's nullable versions say.
    ///
    /// ```
    /// use kwire::schema::{FieldSchema, TypeSchema};
    /// use kwire::{Cx, VersionRange};
    ///
    /// let mut field = FieldSchema::new("Name", TypeSchema::String, VersionRange::new(0, i16::MAX));
    /// field.nullable_versions = VersionRange::new(1, i16::MAX);
    /// assert_eq!(field.value_cx(Cx::new(1, true)), Cx::new(1, true).with_nullable(true));
    /// ```
    #[inline(always)]
    pub const fn value_cx(&self, cx: Cx) -> Cx {
        Cx {
            version: cx.version,
            flexible: self.is_compact_at(cx.version, cx.flexible),
            nullable: self.is_nullable_at(cx.version),
        }
    }

    /// Refuses the field's tag read at a version where the field is not tagged, as
    /// Kafka's generated code does ("Tag N is not valid for version V").
    #[inline(always)]
    pub(crate) fn check_tagged_at(
        &self,
        reader: &Reader<'_>,
        version: i16,
    ) -> Result<(), DecodeError> {
        if self.is_tagged_at(version) {
            return Ok(());
        }
        Err(reader.error(DecodeErrorKind::TagNotInVersion {
            tag: self.tag.unwrap_or_default(),
            version,
        }))
    }
}

//! The one rule the macro cannot check itself: each field keeps the type the
//! released schema gave it. Emitted as a `const` assertion per field, its error on
//! the field's type.

use kwire_schema::SchemaField;
use kwire_version::VersionRange;
use proc_macro2::TokenStream;
use quote::quote;

use super::report::{released, those};
use crate::check::types::assertion;
use crate::model::Container;
use crate::private_path;

/// One assertion for every field of `container` that the released struct has (by
/// name), over the released `valid` versions.
pub fn assertions(
    container: &Container,
    released_fields: &[SchemaField],
    valid: VersionRange,
    file: &str,
) -> TokenStream {
    let p = private_path::private();
    let mut out = TokenStream::new();
    for old in released_fields {
        let Some(field) = container.fields.iter().find(|f| f.name == old.name) else {
            continue;
        };
        let versions = kwire_schema::meaning::range(old.versions.as_deref())
            .unwrap_or(VersionRange::NONE)
            .intersect(valid);
        if versions.is_empty() {
            continue;
        }
        let ty = &field.ty;
        let text = old.ty.as_str();
        out.extend(assertion(
            ty,
            "RELEASED_TYPE_KEPT",
            quote!(#p::matches_released_type(&<#ty as #p::FieldRules>::FIELD_TYPE, #text)),
            format!(
                "`{}` is {text} in released {} ({file}); changing its type breaks {}",
                field.ident,
                released(versions),
                those(versions)
            ),
        ));
    }
    out
}

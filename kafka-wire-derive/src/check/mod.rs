//! Stage 3, check: every rule the derive enforces, in one stage. Rules on attribute
//! values are checked here and reported as spanned errors; rules that need a
//! field's type are emitted as code for the compiler to finish (`types`).

mod attributes;
mod default_derive;
mod released;
mod types;

use crate::errors::Errors;
use proc_macro2::TokenStream;

use crate::model::{Container, Derive};

/// What checking leaves for the expansion.
pub struct Checked {
    /// The type checks to emit with the impls.
    pub type_checks: TokenStream,
    /// The user derives `Default` too: the fallback must not add another.
    pub user_derives_default: bool,
}

/// Runs every rule and records what fails.
pub fn check(container: &Container, attrs: &[syn::Attribute], errors: &mut Errors) -> Checked {
    attributes::container_rules(container, errors);
    for field in &container.fields {
        attributes::field_rules(field, container.message.as_ref(), errors);
    }
    attributes::name_rules(&container.fields, errors);
    attributes::tags_of_struct(&container.fields, !container.incomplete, errors);
    let ours = match container.derive {
        Derive::Message => "Message",
        Derive::Struct => "Struct",
    };
    let user_derives_default = default_derive::check(attrs, ours, errors);
    let mut type_checks = types::type_checks(container);
    type_checks.extend(released::check(container, errors));
    Checked {
        type_checks,
        user_derives_default,
    }
}

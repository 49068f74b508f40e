//! `compatible_with = "schemas/Foo.json"`: the struct against the schema it was
//! released with, by the compatibility rules of `kwire-schema` (the ones
//! `kwire compat` runs). What the attributes say is compared here and every
//! finding reported on its token; the types, which only the compiler knows, are
//! asserted in the generated code (`types`).

mod file;
mod report;
mod schema;
mod types;

use kwire_schema::compat::{self, Finding, Rule, Types};
use kwire_schema::resolve;
use proc_macro2::TokenStream;
use quote::quote;

use crate::errors::Errors;
use crate::model::{Container, Derive};

/// Checks `container` against its released schema, when it names one: records a
/// finding per break and returns the file-tracking item and the type assertions.
pub fn check(container: &Container, errors: &mut Errors) -> TokenStream {
    let Some(lit) = &container.compatible_with else {
        return quote!();
    };
    let released = match file::load(lit) {
        Ok(released) => released,
        Err(message) => {
            errors.on(lit, message);
            return quote!();
        }
    };
    let tracking = released.tracking_item(lit);
    let old = &released.schema;
    let shown = released.shown.as_str();
    // A field that could not be modelled would show as removed.
    if container.incomplete {
        return tracking;
    }
    let findings = match container.derive {
        Derive::Message => {
            if old.name != container.name {
                errors.on(
                    lit,
                    format!(
                        "`{shown}` is the schema of `{}`, not of `{}`",
                        old.name, container.name
                    ),
                );
                return tracking;
            }
            match schema::message(container, old) {
                Some(new) => compat::compare_with(old, &new, Types::Skipped),
                None => return tracking,
            }
        }
        Derive::Struct => compat::compare_struct(
            old,
            &container.name,
            &schema::fields(container),
            Types::Skipped,
        ),
    };
    let findings = match findings {
        Ok(findings) => findings,
        Err(error) => {
            errors.on(lit, format!("`{shown}` cannot be compared: {error}"));
            return tracking;
        }
    };
    let target = report::Target {
        container,
        lit,
        file: shown,
    };
    for finding in &findings {
        if folded_into_nullability(finding, &findings).is_some() {
            continue;
        }
        let (span, mut message) = target.error(finding);
        if finding.rule == Rule::NullabilityChanged {
            // Dropping (or adding) nullability also moves a default from (or to)
            // null, which is what a reader of a version lacking the field gets:
            // one change, one error, saying both.
            let defaults = findings
                .iter()
                .filter(|other| folded_into_nullability(other, &findings) == Some(finding));
            for default in defaults {
                let (old, new) = default.detail.split_once(" -> ").unwrap_or_default();
                message.push_str(&format!(
                    "; and readers of released {}, which lack it, get {new} where they got {old}",
                    report::released(default.versions)
                ));
            }
        }
        errors.at(span, message);
    }
    let released_fields = match container.derive {
        Derive::Message => old.fields.as_slice(),
        Derive::Struct => resolve::struct_fields(old, &container.name).unwrap_or_default(),
    };
    let types = types::assertions(
        container,
        released_fields,
        compat::released_versions(old),
        shown,
    );
    quote!(#tracking #types)
}

/// The nullability finding a default finding belongs to: a default that moved
/// from or to null on a field whose nullability changed is that change's doing.
fn folded_into_nullability<'a>(finding: &Finding, findings: &'a [Finding]) -> Option<&'a Finding> {
    if finding.rule != Rule::DefaultChanged {
        return None;
    }
    let (old, new) = finding.detail.split_once(" -> ")?;
    if old != "null" && new != "null" {
        return None;
    }
    findings
        .iter()
        .find(|other| other.rule == Rule::NullabilityChanged && other.path == finding.path)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use kwire_version::VersionRange;

    use super::*;
    use crate::attr;
    use crate::model::{self, Derive};

    fn container(input: syn::DeriveInput, derive: Derive) -> Container {
        let mut errors = Errors::new();
        let raw = attr::parse(&input, &mut errors);
        let built = model::build(&raw, derive, &mut errors);
        assert!(errors.messages().is_empty(), "{:?}", errors.messages());
        built.expect("the test struct models")
    }

    const RELEASED: &str = r#"{
      "apiKey": 1000, "type": "request", "name": "HoldSeatsRequest",
      "validVersions": "0-2", "flexibleVersions": "2+",
      "fields": [
        { "name": "ShowId", "type": "string", "versions": "0+" },
        { "name": "Note", "type": "string", "versions": "1+", "nullableVersions": "1+",
          "ignorable": true, "default": "null" },
        { "name": "HoldSeconds", "type": "int32", "versions": "2+",
          "taggedVersions": "2+", "tag": 0, "default": "600" },
        { "name": "Seats", "type": "[]Seat", "versions": "0+", "fields": [
          { "name": "Row", "type": "string", "versions": "0+" } ] }
      ]
    }"#;

    /// The attributes, read as a schema, say what Kafka's JSON says: the quick
    /// start's message against its own released file finds nothing.
    #[test]
    fn a_struct_as_released_has_no_findings() {
        let message = container(
            syn::parse_quote! {
                #[kafka(api_key = 1000, kind = request, versions = "0-2", flexible = "2+")]
                struct HoldSeatsRequest {
                    #[kafka(versions = "0+")] show_id: KafkaString,
                    #[kafka(versions = "1+", nullable = "1+", default = null, ignorable)]
                    note: Option<KafkaString>,
                    #[kafka(versions = "2+", tag = 0, default = 600)] hold_seconds: i32,
                    #[kafka(versions = "0+")] seats: Vec<Seat>,
                    #[kafka(unknown_tagged)] unknown: UnknownTaggedFields,
                }
            },
            Derive::Message,
        );
        let released = kwire_schema::load_text(RELEASED, Path::new("H.json")).expect("reads");
        let new = schema::message(&message, &released).expect("a message");
        let found = compat::compare_with(&released, &new, Types::Skipped).expect("compares");
        assert_eq!(found, []);

        let seat = container(
            syn::parse_quote! { struct Seat { #[kafka(versions = "0+")] row: KafkaString } },
            Derive::Struct,
        );
        let fields = schema::fields(&seat);
        let found = compat::compare_struct(&released, "Seat", &fields, Types::Skipped);
        assert_eq!(found.expect("compares"), []);
        assert_eq!(
            resolve::struct_fields(&released, "Seat").map(<[_]>::len),
            Some(1)
        );
    }

    #[test]
    fn an_unstable_latest_version_is_not_released() {
        let mut released = kwire_schema::load_text(RELEASED, Path::new("H.json")).expect("reads");
        assert_eq!(
            compat::released_versions(&released),
            VersionRange::new(0, 2)
        );
        released.latest_version_unstable = true;
        assert_eq!(
            compat::released_versions(&released),
            VersionRange::new(0, 1)
        );
    }
}

//! `Default` comes from the derive (the schema defaults), so a `#[derive(Default)]`
//! beside it would be a second impl, which rustc reports only as "conflicting
//! implementations". This finds the user's `Default` and says what to do instead.
//!
//! rustc hands a derive the item without the `#[derive(...)]` list that invoked it,
//! so a `Default` in that list (the usual place) is found in the source file, read
//! from where the derive was called. When the file cannot be read (some tools run
//! macros without one), the conflict is left to rustc's own error.

use crate::errors::Errors;
use proc_macro2::Span;
use syn::punctuated::Punctuated;
use syn::{Attribute, Path, Token};

/// Reports a `Default` derived next to `ours` (`Message` or `Struct`); true when
/// there is one, so that no fallback `Default` is added to the conflict.
pub fn check(attrs: &[Attribute], ours: &str, errors: &mut Errors) -> bool {
    let message = format!(
        "`kwire::{ours}` already implements `Default` from the schema defaults: remove `Default` from the derives"
    );
    // A `#[derive(...)]` written after ours is still on the item.
    for attr in attrs.iter().filter(|a| a.path().is_ident("derive")) {
        let Ok(paths) = attr.parse_args_with(Punctuated::<Path, Token![,]>::parse_terminated)
        else {
            continue;
        };
        if let Some(default) = paths.iter().find(|p| is_default(p)) {
            errors.on(default, &message);
            return true;
        }
    }
    if derived_beside_call_site() {
        errors.at(Span::call_site(), &message);
        return true;
    }
    false
}

fn is_default(path: &Path) -> bool {
    path.segments.last().is_some_and(|s| s.ident == "Default")
}

/// True when the source file shows `Default` among the derives of the item whose
/// derive list holds the call site.
fn derived_beside_call_site() -> bool {
    if !proc_macro::is_available() {
        return false;
    }
    let call_site = proc_macro::Span::call_site();
    let Some(file) = call_site.local_file() else {
        return false;
    };
    let Ok(source) = std::fs::read_to_string(file) else {
        return false;
    };
    let Some(offset) = offset_of(&source, call_site.line(), call_site.column()) else {
        return false;
    };
    derives_default_around(&source, offset)
}

/// The byte offset of a one-based line and column (in characters).
fn offset_of(source: &str, line: usize, column: usize) -> Option<usize> {
    let line_start: usize = source
        .split_inclusive('\n')
        .take(line.checked_sub(1)?)
        .map(str::len)
        .sum();
    let line_text = source.get(line_start..)?;
    let within: usize = line_text
        .chars()
        .take(column.checked_sub(1)?)
        .map(char::len_utf8)
        .sum();
    Some(line_start + within)
}

/// True when a `derive(...)` among the attributes of the item around `offset`
/// lists `Default`. The attributes run from the end of the previous item (or the
/// file's start) to the item's `struct` keyword; comments are skipped.
fn derives_default_around(source: &str, offset: usize) -> bool {
    let before = source.get(..offset).unwrap_or_default();
    let after = source.get(offset..).unwrap_or_default();
    let start = before.rfind(['}', ';']).map_or(0, |at| at + 1);
    let end = offset + after.find("struct").unwrap_or(after.len());
    let attributes: String = source
        .get(start..end)
        .unwrap_or_default()
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    attributes.split("derive").skip(1).any(|rest| {
        let Some(list) = rest.trim_start().strip_prefix('(') else {
            return false;
        };
        let list = list.split(')').next().unwrap_or_default();
        list.split(',')
            .any(|entry| entry.trim().rsplit("::").next() == Some("Default"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finds_default(source: &str, marker: &str) -> bool {
        let offset = source.find(marker).expect("marker in source");
        derives_default_around(source, offset)
    }

    #[test]
    fn finds_default_in_the_same_list_or_another_one() {
        let same = "use x;\n#[derive(Debug, Default, kwire::Message)]\n#[kafka(kind = data)]\npub struct A {}";
        assert!(finds_default(same, "kwire::Message"));
        let earlier =
            "fn f() {}\n#[derive(std::default::Default)]\n#[derive(kwire::Struct)]\nstruct B;";
        assert!(finds_default(earlier, "kwire::Struct"));
        let absent = "struct Z;\n/// Not #[derive(Default)] here.\n#[derive(Debug, Clone, kwire::Message)]\npub struct C {}";
        assert!(!finds_default(absent, "kwire::Message"));
        let other_item =
            "#[derive(Default)]\nstruct Before;\n#[derive(kwire::Message)]\nstruct D {}";
        assert!(!finds_default(other_item, "kwire::Message"));
    }

    #[test]
    fn columns_are_characters() {
        let source = "ab\n\u{e9}x derive\n";
        assert_eq!(
            offset_of(source, 2, 3),
            Some(source.find(' ').expect("space"))
        );
        assert_eq!(offset_of(source, 1, 1), Some(0));
    }
}

//! The one path generated code names the runtime by: `::kwire::__private_<version>`.
//!
//! The runtime's private module carries its package version in its name, as serde's
//! `__private228` does, and the derive names it with its own version. The workspace
//! requires the derive at exactly the runtime's version; should a derive of one
//! version still meet a runtime of another, every expansion fails at once on a path
//! that does not resolve, rather than compiling against helpers whose meaning may
//! have changed between the two.

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote_spanned;

/// `::kwire::__private_<version>`, spanned at the call site like `quote!`'s tokens.
pub fn private() -> TokenStream {
    private_at(Span::call_site())
}

/// The same path with every token at `span`, for code whose error must point at
/// what the user wrote (a call's span runs from its first token to its last).
pub fn private_at(span: Span) -> TokenStream {
    let module = Ident::new(&module_name(env!("CARGO_PKG_VERSION")), span);
    quote_spanned!(span=> ::kwire::#module)
}

/// The module's name for a package version: `__private_` and the version with each
/// character an identifier cannot hold (`.`, `-`, `+`) as `_`. The separators stay,
/// so that `0.1.10` and `0.11.0` get different names.
fn module_name(version: &str) -> String {
    let version: String = version
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    format!("__private_{version}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `kafka-wire/src/lib.rs` checks its module's name against its own version the
    /// same way; the two crates share the workspace's version.
    #[test]
    fn the_path_carries_this_crates_version() {
        assert_eq!(module_name("0.1.0"), "__private_0_1_0");
        let expected = format!("::kwire::{}", module_name(env!("CARGO_PKG_VERSION")));
        assert_eq!(private().to_string().replace(' ', ""), expected);
    }

    #[test]
    fn every_version_makes_an_identifier_of_its_own() {
        assert_eq!(
            module_name("1.2.3-rc.1+build.5"),
            "__private_1_2_3_rc_1_build_5"
        );
        assert_ne!(module_name("0.1.10"), module_name("0.11.0"));
        assert!(syn::parse_str::<Ident>(&module_name("1.2.3-rc.1")).is_ok());
    }
}

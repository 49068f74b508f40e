//! The one path generated code names the runtime by: `::kwire::__private_<version>`.
//!
//! The runtime's private module carries its package version in its name, as serde's
//! `__private228` does, and the derive names it with its own version. The workspace
//! requires the derive at exactly the runtime's version; should a derive of one
//! version still meet a runtime of another, every expansion fails at once on a path
//! that does not resolve, rather than compiling against helpers whose meaning may
//! have changed between the two.
//!
//! Every expansion is one `const _: () = { ... };` block that imports that module
//! once under a short name ([`scoped`]), and the code inside names the runtime by
//! that name ([`private`]). The full path would be spelled some 54,000 times across
//! Kafka's messages; the alias takes five tokens off each, which the compiler does
//! not have to receive from the macro, parse or resolve.

use proc_macro2::{Ident, Span, TokenStream};
use quote::{quote, quote_spanned};

/// The name the runtime's private module goes by inside an expansion.
const ALIAS: &str = "__kwire";

/// The runtime's private module, spanned at the call site like `quote!`'s tokens:
/// valid inside [`scoped`] code only.
pub fn private() -> TokenStream {
    private_at(Span::call_site())
}

/// The same with its token at `span`, for code whose error must point at what the
/// user wrote.
pub fn private_at(span: Span) -> TokenStream {
    let alias = Ident::new(ALIAS, span);
    quote!(#alias)
}

/// An expansion's items in one anonymous block that imports the runtime's private
/// module as [`private`] names it. Impls inside such a block apply everywhere.
pub fn scoped(items: TokenStream) -> TokenStream {
    let span = Span::call_site();
    let module = Ident::new(&module_name(env!("CARGO_PKG_VERSION")), span);
    let alias = Ident::new(ALIAS, span);
    quote_spanned! {span=>
        const _: () = {
            #[allow(unused_imports)]
            use ::kwire::#module as #alias;
            #items
        };
    }
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
        let expected = format!(
            "use::kwire::{}as{ALIAS};",
            module_name(env!("CARGO_PKG_VERSION"))
        );
        let scoped = scoped(quote!()).to_string().replace(' ', "");
        assert!(scoped.contains(&expected), "{scoped}");
        assert_eq!(private().to_string(), ALIAS);
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

//! Finding and reading the released schema a struct names, and the item that makes
//! cargo rebuild the struct's crate when that file changes.

use std::path::{Path, PathBuf};

use kwire_schema::SchemaMessage;
use proc_macro2::TokenStream;
use quote::quote_spanned;
use syn::LitStr;

/// The variable a test harness sets when it compiles a crate's files from a
/// project of its own (trybuild does, in `target/tests/trybuild/`), so that
/// paths still resolve against the crate that holds the files. Asked only when
/// the crate's own directory has no such file: a variable left set in a shell
/// never changes which file a crate that has it compares with.
const MANIFEST_DIR_FALLBACK: &str = "KWIRE_MANIFEST_DIR";

/// A released schema, read.
pub struct Released {
    pub schema: SchemaMessage,
    /// The path as written, for messages.
    pub shown: String,
    /// The absolute path, for `include_bytes!`.
    absolute: PathBuf,
}

impl Released {
    /// `const _: &[u8] = include_bytes!("…");`: cargo's dependency tracking sees the
    /// file, so editing the released schema recompiles the struct against it.
    pub fn tracking_item(&self, lit: &LitStr) -> TokenStream {
        let path = self.absolute.to_string_lossy();
        quote_spanned! {lit.span()=>
            const _: &[::core::primitive::u8] = ::core::include_bytes!(#path);
        }
    }
}

/// Reads the file `lit` names, relative to the crate's directory; the error says
/// why it cannot be used (without the absolute path, which differs by machine).
pub fn load(lit: &LitStr) -> Result<Released, String> {
    let shown = lit.value();
    let base = std::env::var_os("CARGO_MANIFEST_DIR")
        .ok_or("`compatible_with` needs cargo: CARGO_MANIFEST_DIR is not set")?;
    let mut absolute = Path::new(&base).join(&shown);
    if !absolute.exists() {
        if let Some(fallback) = std::env::var_os(MANIFEST_DIR_FALLBACK) {
            absolute = Path::new(&fallback).join(&shown);
        }
    }
    let text = std::fs::read_to_string(&absolute).map_err(|e| {
        // The system's own words for a missing file differ by platform.
        let why = match e.kind() {
            std::io::ErrorKind::NotFound => "there is no such file".to_owned(),
            _ => e.to_string(),
        };
        format!(
            "cannot read the released schema `{shown}` (relative to the crate's directory): {why}"
        )
    })?;
    let schema = kwire_schema::load_text(&text, Path::new(&shown))
        .map_err(|e| format!("`{shown}` is not a Kafka JSON schema: {}", e.reason))?;
    Ok(Released {
        schema,
        shown,
        absolute,
    })
}

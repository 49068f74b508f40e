//! Stage 1, parse: the `#[kafka(...)]` attributes as written, read by `darling`.
//!
//! Nothing is interpreted here beyond syntax; darling already reports unknown and
//! duplicate keys, each spanned on the key.

use darling::util::Flag;
use darling::{FromDeriveInput, FromField, FromMeta};
use syn::{Attribute, Expr, Generics, Ident, LitStr, Type};

/// Any expression, kept exactly as written (darling would parse the inside of a
/// string literal as an expression, which loses string defaults).
#[derive(Debug, Clone)]
pub struct RawExpr(pub Expr);

impl FromMeta for RawExpr {
    fn from_expr(expr: &Expr) -> darling::Result<Self> {
        match expr {
            Expr::Group(group) => Self::from_expr(&group.expr),
            other => Ok(RawExpr(other.clone())),
        }
    }
}

/// The struct-level attribute.
#[derive(Debug, FromDeriveInput)]
#[darling(attributes(kafka), forward_attrs(doc), supports(struct_named))]
pub struct RawContainer {
    pub ident: Ident,
    pub generics: Generics,
    pub data: darling::ast::Data<(), RawField>,
    pub attrs: Vec<Attribute>,
    /// The schema name when it differs from the Rust name.
    pub name: Option<LitStr>,
    /// `request`, `response`, `header` or `data`.
    pub kind: Option<RawExpr>,
    pub api_key: Option<RawExpr>,
    pub versions: Option<LitStr>,
    pub flexible: Option<LitStr>,
    pub listeners: Option<LitStr>,
    pub latest_version_unstable: Flag,
}

/// One field's attribute.
#[derive(Debug, FromField)]
#[darling(attributes(kafka), forward_attrs(doc))]
pub struct RawField {
    pub ident: Option<Ident>,
    pub ty: Type,
    pub attrs: Vec<Attribute>,
    pub name: Option<LitStr>,
    pub versions: Option<LitStr>,
    pub nullable: Option<LitStr>,
    pub tag: Option<RawExpr>,
    pub tagged: Option<LitStr>,
    pub ignorable: Flag,
    pub default: Option<RawExpr>,
    pub flexible: Option<LitStr>,
    pub map_key: Flag,
    pub entity_type: Option<LitStr>,
    pub zero_copy: Flag,
    pub unknown_tagged: Flag,
}

/// The `///` comment of an item, lines joined by spaces (Kafka's `about` is one line).
pub fn doc_text(attrs: &[Attribute]) -> String {
    let mut lines = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        if let syn::Meta::NameValue(nv) = &attr.meta {
            if let Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) = &nv.value
            {
                let line = s.value();
                let line = line.trim();
                if !line.is_empty() {
                    lines.push(line.to_owned());
                }
            }
        }
    }
    lines.join(" ")
}

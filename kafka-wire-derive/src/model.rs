//! Stage 2, model: the attributes turned into typed values (ranges, integers,
//! defaults, schema names, docs). The only errors here are values that cannot be
//! read at all (a range string that is not one, a tag that is not an integer
//! literal); every rule about the values is the check stage's.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Expr, Ident, Lit, LitStr, Path, Type, UnOp};

use crate::attr::{doc_text, RawContainer, RawExpr, RawField, RawInput};
use crate::errors::Errors;
use crate::keys::{Key, Keys};
use crate::range::{self, Range};

/// The keys of one attribute as written, in order, each with its span.
pub type WrittenKeys = Vec<(&'static Key, Span)>;

/// Which derive is running.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Derive {
    Message,
    Struct,
}

/// A version range with the span of the string it came from.
#[derive(Debug, Clone, Copy)]
pub struct SpannedRange {
    pub range: Range,
    pub span: Span,
}

/// An integer literal (possibly negated) as written, not yet checked for range.
#[derive(Debug, Clone, Copy)]
pub struct SpannedInt {
    pub value: i128,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Request,
    Response,
    Header,
    Data,
}

/// What only a top-level message has.
pub struct MessageAttrs {
    pub kind: Kind,
    pub kind_span: Span,
    pub api_key: Option<SpannedInt>,
    pub versions: SpannedRange,
    pub flexible: SpannedRange,
    pub listeners: Vec<String>,
    pub listeners_span: Option<Span>,
    pub latest_version_unstable: Option<Span>,
    /// The response type a request names (`response = FooResponse`).
    pub response: Option<Path>,
}

/// A field's default, as written.
#[derive(Clone)]
pub enum DefaultValue {
    Null(Span),
    /// `true`, `false`, numbers (possibly negative): used as a typed Rust literal.
    Literal {
        text: String,
        expr: Expr,
    },
    Str(LitStr),
}

impl DefaultValue {
    /// The text stored in the schema metadata (Kafka's JSON `default`).
    pub fn schema_text(&self) -> String {
        match self {
            DefaultValue::Null(_) => "null".into(),
            DefaultValue::Literal { text, .. } => text.clone(),
            DefaultValue::Str(s) => s.value(),
        }
    }
}

pub struct Field {
    pub ident: Ident,
    pub vis: syn::Visibility,
    pub ty: Type,
    pub name: String,
    /// The `name = "..."` override, or the Rust field name the schema name comes from.
    pub name_span: Span,
    pub about: String,
    pub versions: SpannedRange,
    pub nullable: Option<SpannedRange>,
    pub tag: Option<SpannedInt>,
    /// Empty when the field is never tagged.
    pub tagged: SpannedRange,
    /// Where `tagged` was written, when it was.
    pub tagged_without_tag: Option<Span>,
    pub ignorable: bool,
    pub default: Option<DefaultValue>,
    pub flexible: Option<SpannedRange>,
    pub map_key: Option<Span>,
    pub entity_type: Option<LitStr>,
    pub zero_copy: Option<Span>,
}

impl Field {
    /// The tag as it is used once checked.
    pub fn tag_number(&self) -> Option<u32> {
        self.tag.and_then(|t| u32::try_from(t.value).ok())
    }
}

/// The field holding unknown tagged fields.
pub struct UnknownTagged {
    pub ident: Ident,
    pub vis: syn::Visibility,
    pub ty: Type,
    /// The span of its type, where a wrong type is reported.
    pub ty_span: Span,
    /// The span of the `unknown_tagged` key.
    pub key_span: Span,
    /// Every key written on the field (only `unknown_tagged` belongs there).
    pub keys: WrittenKeys,
}

pub struct Container {
    pub derive: Derive,
    pub ident: Ident,
    pub name: String,
    /// The `name = "..."` override, when given.
    pub name_override: Option<LitStr>,
    pub about: String,
    pub generics: syn::Generics,
    pub message: Option<MessageAttrs>,
    pub fields: Vec<Field>,
    /// Every field marked `unknown_tagged` (one is right; the check stage says so).
    pub unknown_tagged: Vec<UnknownTagged>,
    /// The keys of the struct attribute as written.
    pub keys: WrittenKeys,
    /// The released schema file named by `compatible_with`, as written.
    pub compatible_with: Option<LitStr>,
    /// True when some field could not be modelled (its errors are recorded), so
    /// rules over all fields (tag gaps) would see a false picture.
    pub incomplete: bool,
}

impl Container {
    /// The field holding unknown tags, when there is exactly one.
    pub fn unknown_field(&self) -> Option<&UnknownTagged> {
        match self.unknown_tagged.as_slice() {
            [one] => Some(one),
            _ => None,
        }
    }
}

fn range(lit: &LitStr, errors: &mut Errors) -> Option<SpannedRange> {
    match range::parse(&lit.value()) {
        Ok(range) => Some(SpannedRange {
            range,
            span: lit.span(),
        }),
        Err(message) => {
            errors.on(lit, message);
            None
        }
    }
}

/// Reads an integer literal, possibly negated, as written.
fn integer(expr: &Expr) -> Option<i128> {
    match expr {
        Expr::Lit(syn::ExprLit {
            lit: Lit::Int(int), ..
        }) => int.base10_parse::<i128>().ok(),
        Expr::Unary(syn::ExprUnary {
            op: UnOp::Neg(_),
            expr,
            ..
        }) => integer(expr).map(|value| -value),
        Expr::Paren(paren) => integer(&paren.expr),
        _ => None,
    }
}

fn spanned_int(raw: &RawExpr, key: &str, errors: &mut Errors) -> Option<SpannedInt> {
    match integer(&raw.0) {
        Some(value) => Some(SpannedInt {
            value,
            span: raw.0.span(),
        }),
        None => {
            errors.on(&raw.0, format!("`{key}` must be an integer literal"));
            None
        }
    }
}

fn default_value(raw: &RawExpr) -> syn::Result<DefaultValue> {
    let expr = &raw.0;
    let literal = |text: String| DefaultValue::Literal {
        text,
        expr: expr.clone(),
    };
    match expr {
        Expr::Path(path) if path.path.is_ident("null") => Ok(DefaultValue::Null(expr.span())),
        Expr::Lit(syn::ExprLit { lit, .. }) => match lit {
            Lit::Str(s) => Ok(DefaultValue::Str(s.clone())),
            Lit::Bool(b) => Ok(literal(b.value.to_string())),
            Lit::Int(i) => Ok(literal(i.to_string())),
            Lit::Float(f) => Ok(literal(f.to_string())),
            _ => Err(bad_default(expr)),
        },
        Expr::Unary(syn::ExprUnary {
            op: UnOp::Neg(_),
            expr: inner,
            ..
        }) => match &**inner {
            Expr::Lit(syn::ExprLit {
                lit: Lit::Int(i), ..
            }) => Ok(literal(format!("-{i}"))),
            Expr::Lit(syn::ExprLit {
                lit: Lit::Float(f), ..
            }) => Ok(literal(format!("-{f}"))),
            _ => Err(bad_default(expr)),
        },
        _ => Err(bad_default(expr)),
    }
}

fn bad_default(expr: &Expr) -> syn::Error {
    syn::Error::new_spanned(
        expr,
        "`default` must be a literal: a number, `true`, `false`, a string, or `null`",
    )
}

fn pascal_case(ident: &Ident) -> String {
    let text = ident.to_string();
    let text = text.strip_prefix("r#").unwrap_or(&text);
    text.split('_')
        .filter(|part| !part.is_empty())
        .map(|part| {
            let mut chars = part.chars();
            match chars.next() {
                Some(first) => first.to_uppercase().chain(chars).collect::<String>(),
                None => String::new(),
            }
        })
        .collect()
}

fn field(raw: &RawField, errors: &mut Errors) -> Option<Field> {
    let ident = raw.ident.clone()?;
    let keys = &raw.keys;
    let versions = match keys.versions.value() {
        Some(lit) => range(lit, errors),
        None => {
            errors.on(
                &ident,
                "missing `versions`: every field needs `#[kafka(versions = \"...\")]`",
            );
            None
        }
    };
    let nullable = keys.nullable.value().and_then(|lit| range(lit, errors));
    let flexible = keys.flexible.value().and_then(|lit| range(lit, errors));
    let raw_tag = keys.tag.value();
    let tag = raw_tag.and_then(|t| spanned_int(t, "tag", errors));
    let raw_tagged = keys.tagged.value();
    let tagged = match (raw_tagged, raw_tag) {
        (Some(lit), _) => range(lit, errors),
        // A tag's tagged versions default to the field's versions.
        (None, Some(raw_tag)) => versions.map(|v| SpannedRange {
            range: v.range,
            span: raw_tag.0.span(),
        }),
        (None, None) => Some(SpannedRange {
            range: Range::NONE,
            span: ident.span(),
        }),
    };
    let default = keys
        .default
        .value()
        .and_then(|d| errors.handle(default_value(d)));
    let (name, name_span) = match keys.name.value() {
        Some(lit) => (lit.value(), lit.span()),
        None => (pascal_case(&ident), ident.span()),
    };
    Some(Field {
        name,
        name_span,
        about: doc_text(&raw.attrs),
        ty: raw.ty.clone(),
        versions: versions?,
        nullable,
        tag,
        tagged: tagged?,
        tagged_without_tag: raw_tagged.filter(|_| raw_tag.is_none()).map(LitStr::span),
        ignorable: keys.ignorable.is_written(),
        default,
        flexible,
        map_key: keys.map_key.key_span(),
        entity_type: keys.entity_type.value().cloned(),
        zero_copy: keys.zero_copy.key_span(),
        vis: raw.vis.clone(),
        ident,
    })
}

fn kind(raw: &RawExpr) -> syn::Result<Kind> {
    let name = match &raw.0 {
        Expr::Path(path) => path.path.get_ident().map(Ident::to_string),
        Expr::Lit(syn::ExprLit {
            lit: Lit::Str(s), ..
        }) => Some(s.value()),
        _ => None,
    };
    match name.as_deref() {
        Some("request") => Ok(Kind::Request),
        Some("response") => Ok(Kind::Response),
        Some("header") => Ok(Kind::Header),
        Some("data") => Ok(Kind::Data),
        _ => Err(syn::Error::new_spanned(
            &raw.0,
            "`kind` must be one of `request`, `response`, `header` or `data`",
        )),
    }
}

fn message_attrs(raw: &RawContainer, errors: &mut Errors) -> Option<MessageAttrs> {
    let keys = &raw.keys;
    let raw_kind = keys.kind.value();
    let kind_span = raw_kind.map_or(raw.ident.span(), |k| k.0.span());
    let kind = match raw_kind {
        Some(k) => errors.handle(kind(k)),
        None => {
            errors.on(
                &raw.ident,
                "missing `kind`: `request`, `response`, `header` or `data`",
            );
            None
        }
    };
    let api_key = keys
        .api_key
        .value()
        .and_then(|key| spanned_int(key, "api_key", errors));
    let versions = match keys.versions.value() {
        Some(lit) => range(lit, errors),
        None => {
            errors.on(
                &raw.ident,
                "missing `versions`: a message needs `versions = \"0-N\"`",
            );
            None
        }
    };
    let flexible = match keys.flexible.value() {
        Some(lit) => range(lit, errors),
        None => Some(SpannedRange {
            range: Range::NONE,
            span: raw.ident.span(),
        }),
    };
    let raw_listeners = keys.listeners.value();
    let listeners = raw_listeners.map_or_else(Vec::new, |lit| {
        lit.value()
            .split(',')
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
            .collect()
    });
    Some(MessageAttrs {
        kind: kind?,
        kind_span,
        api_key,
        versions: versions?,
        flexible: flexible?,
        listeners,
        listeners_span: raw_listeners.map(LitStr::span),
        latest_version_unstable: keys.latest_version_unstable.key_span(),
        response: keys.response.value().and_then(|r| response_path(r, errors)),
    })
}

fn response_path(raw: &RawExpr, errors: &mut Errors) -> Option<Path> {
    match &raw.0 {
        Expr::Path(path) if path.qself.is_none() => Some(path.path.clone()),
        other => {
            errors.on(
                other,
                "`response` takes the response's type: `response = FooResponse`",
            );
            None
        }
    }
}

/// Builds the model, collecting every error reading a value. Fields are modelled
/// even when the struct attribute could not be read, so their errors show too.
pub fn build(raw: &RawInput, derive: Derive, errors: &mut Errors) -> Option<Container> {
    let message = match derive {
        Derive::Message => raw
            .container
            .as_ref()
            .and_then(|container| message_attrs(container, errors)),
        Derive::Struct => None,
    };
    let mut fields = Vec::new();
    let mut unknown_tagged = Vec::new();
    let mut incomplete = false;
    for raw_field in &raw.fields {
        let Some(parsed) = raw_field else {
            incomplete = true;
            continue;
        };
        if let Some(key_span) = parsed.keys.unknown_tagged.key_span() {
            if let Some(ident) = parsed.ident.clone() {
                unknown_tagged.push(UnknownTagged {
                    ident,
                    vis: parsed.vis.clone(),
                    ty: parsed.ty.clone(),
                    ty_span: parsed.ty.span(),
                    key_span,
                    keys: parsed.keys.written().to_vec(),
                });
            }
            continue;
        }
        match field(parsed, errors) {
            Some(f) => fields.push(f),
            None => incomplete = true,
        }
    }
    let raw_container = raw.container.as_ref()?;
    if derive == Derive::Message && message.is_none() {
        return None;
    }
    let name_override = raw_container.keys.name.value().cloned();
    let name = name_override
        .as_ref()
        .map_or_else(|| raw_container.ident.to_string(), LitStr::value);
    Some(Container {
        derive,
        name,
        name_override,
        about: doc_text(&raw_container.attrs),
        ident: raw_container.ident.clone(),
        generics: raw_container.generics.clone(),
        message,
        fields,
        unknown_tagged,
        keys: raw_container.keys.written().to_vec(),
        compatible_with: raw_container.keys.compatible_with.value().cloned(),
        incomplete,
    })
}

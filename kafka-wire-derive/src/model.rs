//! Stage 2, model: the attributes turned into typed values (ranges, tags, defaults,
//! schema names, docs). Problems with a single attribute are reported here, all of
//! them, each spanned on its token.

use darling::Error;
use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Expr, Ident, Lit, LitStr, Type, UnOp};

use crate::attr::{doc_text, RawContainer, RawExpr, RawField, RawInput};
use crate::range::Range;

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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Request,
    Response,
    Header,
    Data,
}

/// What only a top-level message has.
#[derive(Debug)]
pub struct MessageAttrs {
    pub kind: Kind,
    pub kind_span: Span,
    /// The key as written: its value when valid (errors already recorded if not).
    pub api_key: Option<(Option<i16>, Span)>,
    pub versions: SpannedRange,
    pub flexible: SpannedRange,
    pub listeners: Vec<String>,
    pub listeners_span: Option<Span>,
    pub latest_version_unstable: Option<Span>,
}

/// A field's default, as written.
#[derive(Debug, Clone)]
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

#[derive(Debug)]
pub struct Field {
    pub ident: Ident,
    pub ty: Type,
    pub name: String,
    /// The `name = "..."` override, or the Rust field name the schema name comes from.
    pub name_span: Span,
    pub about: String,
    pub versions: SpannedRange,
    pub nullable: Option<SpannedRange>,
    pub tag: Option<(u32, Span)>,
    /// Empty when the field is never tagged.
    pub tagged: SpannedRange,
    pub ignorable: bool,
    pub default: Option<DefaultValue>,
    pub flexible: Option<SpannedRange>,
    pub map_key: Option<Span>,
    pub entity_type: Option<LitStr>,
    pub zero_copy: Option<Span>,
}

#[derive(Debug)]
pub struct Container {
    pub ident: Ident,
    pub name: String,
    pub about: String,
    pub message: Option<MessageAttrs>,
    pub fields: Vec<Field>,
    /// The field holding unknown tags, and the span of its type.
    pub unknown_tagged: Option<(Ident, Span)>,
    /// True when some field could not be modelled (its errors are recorded), so
    /// rules over all fields (tag gaps) would see a false picture.
    pub incomplete: bool,
}

/// Kafka's `EntityType` values.
const ENTITY_TYPES: &[&str] = &[
    "unknown",
    "transactionalId",
    "producerId",
    "groupId",
    "topicName",
    "brokerId",
];

/// Kafka's rule for field names, `[A-Za-z][A-Za-z0-9]*`; struct names follow it too.
fn is_schema_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric())
}

/// The schema name: the override when given, else `derived`; reported when Kafka
/// would not accept it.
fn schema_name(
    name: Option<&LitStr>,
    derived: impl FnOnce() -> String,
    fallback_span: Span,
    errors: &mut darling::error::Accumulator,
) -> (String, Span) {
    let (text, span) = match name {
        Some(lit) => (lit.value(), lit.span()),
        None => (derived(), fallback_span),
    };
    if !is_schema_name(&text) {
        errors.push(
            Error::custom(format!(
                "`{text}` is not a Kafka schema name: use ASCII letters and digits, starting with a letter"
            ))
            .with_span(&span),
        );
    }
    (text, span)
}

fn range(lit: &LitStr, errors: &mut darling::error::Accumulator) -> Option<SpannedRange> {
    match Range::parse(&lit.value()) {
        Ok(range) => Some(SpannedRange {
            range,
            span: lit.span(),
        }),
        Err(message) => {
            errors.push(Error::custom(message).with_span(lit));
            None
        }
    }
}

/// Reads an integer literal, possibly negated, as written.
fn integer(expr: &Expr) -> Option<(i128, String)> {
    match expr {
        Expr::Lit(syn::ExprLit {
            lit: Lit::Int(int), ..
        }) => Some((int.base10_parse::<i128>().ok()?, int.to_string())),
        Expr::Unary(syn::ExprUnary {
            op: UnOp::Neg(_),
            expr,
            ..
        }) => {
            let (value, text) = integer(expr)?;
            Some((-value, format!("-{text}")))
        }
        Expr::Paren(paren) => integer(&paren.expr),
        _ => None,
    }
}

fn default_value(raw: &RawExpr) -> Result<DefaultValue, Error> {
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

fn bad_default(expr: &Expr) -> Error {
    Error::custom("`default` must be a literal: a number, `true`, `false`, a string, or `null`")
        .with_span(expr)
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

fn field(raw: &RawField, errors: &mut darling::error::Accumulator) -> Option<Field> {
    let ident = raw.ident.clone()?;
    let versions = match &raw.versions {
        Some(lit) => range(lit, errors),
        None => {
            errors.push(
                Error::custom(
                    "missing `versions`: every field needs `#[kafka(versions = \"...\")]`",
                )
                .with_span(&ident),
            );
            None
        }
    };
    let nullable = raw.nullable.as_ref().and_then(|lit| range(lit, errors));
    let flexible = raw.flexible.as_ref().and_then(|lit| range(lit, errors));
    let tag = raw
        .tag
        .as_ref()
        .and_then(|raw_tag| match integer(&raw_tag.0) {
            Some((value, _)) if value < 0 => {
                errors.push(Error::custom("tags must not be negative").with_span(&raw_tag.0));
                None
            }
            Some((value, _)) => match u32::try_from(value) {
                Ok(tag) if tag <= i32::MAX as u32 => Some((tag, raw_tag.0.span())),
                _ => {
                    errors.push(Error::custom("tag is too large").with_span(&raw_tag.0));
                    None
                }
            },
            None => {
                errors
                    .push(Error::custom("`tag` must be an integer literal").with_span(&raw_tag.0));
                None
            }
        });
    let tagged = match (&raw.tagged, &raw.tag) {
        (Some(lit), Some(_)) => range(lit, errors),
        (Some(lit), None) => {
            errors.push(Error::custom("`tagged` versions need a `tag`").with_span(lit));
            None
        }
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
    let default = raw
        .default
        .as_ref()
        .and_then(|d| errors.handle(default_value(d)));
    if let Some(entity) = &raw.entity_type {
        if !ENTITY_TYPES.contains(&entity.value().as_str()) {
            errors.push(
                Error::custom(format!(
                    "unknown entity type `{}`: Kafka knows {}",
                    entity.value(),
                    ENTITY_TYPES
                        .iter()
                        .map(|e| format!("`{e}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
                .with_span(entity),
            );
        }
    }
    let (name, name_span) = schema_name(
        raw.name.as_ref(),
        || pascal_case(&ident),
        ident.span(),
        errors,
    );
    Some(Field {
        name,
        name_span,
        about: doc_text(&raw.attrs),
        ty: raw.ty.clone(),
        versions: versions?,
        nullable,
        tag,
        tagged: tagged?,
        ignorable: raw.ignorable.is_present(),
        default,
        flexible,
        map_key: raw.map_key.is_present().then(|| raw.map_key.span()),
        entity_type: raw.entity_type.clone(),
        zero_copy: raw.zero_copy.is_present().then(|| raw.zero_copy.span()),
        ident,
    })
}

/// Keys that make no sense next to `unknown_tagged`.
fn check_unknown_tagged_alone(raw: &RawField, errors: &mut darling::error::Accumulator) {
    let has_other = raw.versions.is_some()
        || raw.nullable.is_some()
        || raw.tag.is_some()
        || raw.tagged.is_some()
        || raw.default.is_some()
        || raw.flexible.is_some()
        || raw.name.is_some()
        || raw.entity_type.is_some()
        || raw.ignorable.is_present()
        || raw.map_key.is_present()
        || raw.zero_copy.is_present();
    if has_other {
        errors.push(
            Error::custom(
                "`unknown_tagged` stands alone: the field holds unknown tags, it has no schema",
            )
            .with_span(&raw.unknown_tagged.span()),
        );
    }
}

fn kind(raw: &RawExpr) -> Result<Kind, Error> {
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
        _ => Err(
            Error::custom("`kind` must be one of `request`, `response`, `header` or `data`")
                .with_span(&raw.0),
        ),
    }
}

fn message_attrs(
    raw: &RawContainer,
    errors: &mut darling::error::Accumulator,
) -> Option<MessageAttrs> {
    let kind_span = raw.kind.as_ref().map_or(raw.ident.span(), |k| k.0.span());
    let kind = match &raw.kind {
        Some(k) => errors.handle(kind(k)),
        None => {
            errors.push(
                Error::custom("missing `kind`: `request`, `response`, `header` or `data`")
                    .with_span(&raw.ident),
            );
            None
        }
    };
    let api_key = raw.api_key.as_ref().map(|key| {
        let value = match integer(&key.0) {
            Some((value, _)) => match i16::try_from(value) {
                Ok(v) if v >= 0 => Some(v),
                _ => {
                    errors.push(Error::custom("`api_key` must be 0 to 32767").with_span(&key.0));
                    None
                }
            },
            None => {
                errors
                    .push(Error::custom("`api_key` must be an integer literal").with_span(&key.0));
                None
            }
        };
        (value, key.0.span())
    });
    let versions = match &raw.versions {
        Some(lit) => range(lit, errors),
        None => {
            errors.push(
                Error::custom("missing `versions`: a message needs `versions = \"0-N\"`")
                    .with_span(&raw.ident),
            );
            None
        }
    };
    let flexible = match &raw.flexible {
        Some(lit) => range(lit, errors),
        None => Some(SpannedRange {
            range: Range::NONE,
            span: raw.ident.span(),
        }),
    };
    let listeners_span = raw.listeners.as_ref().map(LitStr::span);
    let listeners = raw.listeners.as_ref().map_or_else(Vec::new, |lit| {
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
        listeners_span,
        latest_version_unstable: raw
            .latest_version_unstable
            .is_present()
            .then(|| raw.latest_version_unstable.span()),
    })
}

fn reject_message_keys(raw: &RawContainer, errors: &mut darling::error::Accumulator) {
    let keys = [
        ("api_key", raw.api_key.as_ref().map(|k| k.0.span())),
        ("kind", raw.kind.as_ref().map(|k| k.0.span())),
        ("versions", raw.versions.as_ref().map(LitStr::span)),
        ("flexible", raw.flexible.as_ref().map(LitStr::span)),
        ("listeners", raw.listeners.as_ref().map(LitStr::span)),
        (
            "latest_version_unstable",
            raw.latest_version_unstable
                .is_present()
                .then(|| raw.latest_version_unstable.span()),
        ),
    ];
    for (key, span) in keys {
        if let Some(span) = span {
            errors.push(
                Error::custom(format!(
                    "`{key}` belongs on a top-level `Message`; a nested `Struct` gets its versions and flexibility from its parent"
                ))
                .with_span(&span),
            );
        }
    }
}

/// Builds the model, collecting every attribute-level error. Fields are modelled
/// even when the struct attribute could not be read, so their errors show too.
pub fn build(
    raw: &RawInput,
    derive: Derive,
    errors: &mut darling::error::Accumulator,
) -> Option<Container> {
    let message = raw.container.as_ref().and_then(|container| {
        if let Some(param) = container.generics.params.first() {
            errors.push(Error::custom("kafka-wire structs cannot be generic").with_span(param));
        }
        match derive {
            Derive::Message => message_attrs(container, errors),
            Derive::Struct => {
                reject_message_keys(container, errors);
                None
            }
        }
    });
    let mut fields = Vec::new();
    let mut unknown_tagged: Option<(Ident, Span)> = None;
    let mut incomplete = false;
    for raw_field in &raw.fields {
        let Some(raw_field) = raw_field else {
            incomplete = true;
            continue;
        };
        if raw_field.unknown_tagged.is_present() {
            check_unknown_tagged_alone(raw_field, errors);
            if unknown_tagged.is_some() {
                errors.push(
                    Error::custom("only one field may hold unknown tagged fields")
                        .with_span(&raw_field.unknown_tagged.span()),
                );
            }
            unknown_tagged = raw_field
                .ident
                .clone()
                .map(|ident| (ident, raw_field.ty.span()));
            continue;
        }
        match field(raw_field, errors) {
            Some(f) => fields.push(f),
            None => incomplete = true,
        }
    }
    let raw_container = raw.container.as_ref()?;
    if derive == Derive::Message && message.is_none() {
        return None;
    }
    // Only an override is checked: a Rust type name is the user's to choose.
    let name = match &raw_container.name {
        Some(lit) => schema_name(Some(lit), String::new, lit.span(), errors).0,
        None => raw_container.ident.to_string(),
    };
    Some(Container {
        name,
        about: doc_text(&raw_container.attrs),
        ident: raw_container.ident.clone(),
        message,
        fields,
        unknown_tagged,
        incomplete,
    })
}

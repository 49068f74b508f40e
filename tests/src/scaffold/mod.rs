//! First drafts of message files: Rust source for Kafka schemas, following the
//! conventions of `messages/src/api/` (derives, `#[kafka]` attributes, `about` as doc
//! comments, nested structs and commonStructs, `unknown_tagged`, `#[non_exhaustive]`).
//!
//! A draft is a starting point: read it against the JSON, give each struct and the
//! module a better one-line doc, then run `cargo fmt` and the schema checker.
//!
//! ```
//! use kwire_tests::checker::load::load_file;
//!
//! let file = kwire_tests::schema_dir().join("ApiVersionsRequest.json");
//! let draft = kwire_tests::scaffold::render(&[load_file(&file).unwrap()]);
//! assert!(draft.contains("pub struct ApiVersionsRequest {"));
//! ```

mod emit;
mod names;

use std::collections::BTreeSet;

use crate::checker::meaning;
use crate::checker::resolve::{self, Shape};
use crate::checker::{SchemaField, SchemaMessage};

pub use names::{field_ident, pascal_case, snake_case};

/// A nested struct of the draft.
struct Nested<'a> {
    /// Its Rust name.
    rust: String,
    /// Its schema name.
    json: &'a str,
    fields: &'a [SchemaField],
    flexible: bool,
    doc: String,
    /// The message it was first met in.
    owner: usize,
}

/// Which Rust name each message gives each struct type name.
struct Plan<'a> {
    messages: &'a [SchemaMessage],
    nested: Vec<Nested<'a>>,
    /// `(message index, schema name)` → index in `nested`.
    used: Vec<((usize, &'a str), usize)>,
}

impl<'a> Plan<'a> {
    fn new(messages: &'a [SchemaMessage]) -> Plan<'a> {
        let mut plan = Plan {
            messages,
            nested: Vec::new(),
            used: Vec::new(),
        };
        for (index, message) in messages.iter().enumerate() {
            let path = message.name.clone();
            plan.walk(index, &path, &message.fields);
        }
        plan
    }

    fn walk(&mut self, owner: usize, parent: &str, fields: &'a [SchemaField]) {
        let message = &self.messages[owner];
        for field in fields {
            let shape = resolve::shape(message, field);
            let Some((json, inner)) = shape.struct_fields() else {
                continue;
            };
            if self.lookup(owner, json).is_some() {
                continue;
            }
            let (is_array, _) = resolve::element(&field.ty);
            let path = format!(
                "{parent}.{}{}",
                field.name,
                if is_array { "[]" } else { "" }
            );
            let flexible = is_flexible(message);
            let same = self
                .nested
                .iter()
                .position(|n| n.json == json && n.fields == inner && n.flexible == flexible);
            if let Some(existing) = same {
                self.used.push(((owner, json), existing));
                continue;
            }
            let doc = match shape {
                Shape::Common(..) => format!("{json}, a common struct of {}.", message.name),
                _ if is_array => format!("One entry of `{}`.", &path[..path.len() - 2]),
                _ => format!("The value of `{path}`."),
            };
            let rust = self.fresh_name(json, &message.kind);
            self.nested.push(Nested {
                rust,
                json,
                fields: inner,
                flexible,
                doc,
                owner,
            });
            self.used.push(((owner, json), self.nested.len() - 1));
            self.walk(owner, &path, inner);
        }
    }

    fn lookup(&self, owner: usize, json: &str) -> Option<&Nested<'a>> {
        self.used
            .iter()
            .find(|((o, j), _)| *o == owner && *j == json)
            .map(|(_, i)| &self.nested[*i])
    }

    /// The schema name when free, else prefixed with the message's kind
    /// (`ResponseTopic`), else numbered.
    fn fresh_name(&self, json: &str, kind: &str) -> String {
        let taken = |name: &str| {
            self.nested.iter().any(|n| n.rust == name)
                || self.messages.iter().any(|m| m.name == name)
        };
        if !taken(json) {
            return json.to_owned();
        }
        let prefixed = format!("{}{json}", pascal_case(kind));
        let mut candidate = prefixed.clone();
        let mut n = 2;
        while taken(&candidate) {
            candidate = format!("{prefixed}{n}");
            n += 1;
        }
        candidate
    }

    fn rust_name(&self, owner: usize, json: &str) -> String {
        self.lookup(owner, json)
            .map_or_else(|| json.to_owned(), |n| n.rust.clone())
    }
}

fn is_flexible(message: &SchemaMessage) -> bool {
    meaning::range(message.flexible_versions.as_deref()).is_ok_and(|r| !r.is_empty())
}

/// `FetchRequest` → `Fetch`.
fn api_name(name: &str) -> &str {
    name.strip_suffix("Request")
        .or_else(|| name.strip_suffix("Response"))
        .unwrap_or(name)
}

/// The draft of one module holding `messages` (usually an API's request and response).
pub fn render(messages: &[SchemaMessage]) -> String {
    let plan = Plan::new(messages);
    let mut body = String::new();
    for (index, message) in messages.iter().enumerate() {
        body.push('\n');
        message_struct(&mut body, &plan, index, message);
        for nested in plan.nested.iter().filter(|n| n.owner == index) {
            body.push('\n');
            emit::doc(&mut body, "", &nested.doc);
            body.push_str("#[derive(Debug, Clone, PartialEq, kwire::Struct)]\n");
            body.push_str("#[non_exhaustive]\n");
            if nested.rust != nested.json {
                body.push_str(&format!("#[kafka(name = \"{}\")]\n", nested.json));
            }
            struct_body(
                &mut body,
                &plan,
                index,
                &nested.rust,
                nested.fields,
                nested.flexible,
            );
        }
    }
    let mut out = String::new();
    out.push_str(&format!("//! {}\n\n", module_doc(messages)));
    // In rustfmt's order (`crate` first), so `cargo fmt` leaves them alone.
    if body.contains(": BrokerIds") || body.contains("<BrokerIds") {
        out.push_str("use crate::BrokerIds;\n");
    }
    for line in uses(&body) {
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str(&body);
    out
}

fn module_doc(messages: &[SchemaMessage]) -> String {
    let mut apis: Vec<String> = Vec::new();
    for m in messages {
        let line = match m.api_key {
            Some(key) => format!("{} (API key {key}).", api_name(&m.name)),
            None => format!("{}.", m.name),
        };
        if !apis.contains(&line) {
            apis.push(line);
        }
    }
    apis.join(" ")
}

/// The `use` lines the body needs.
fn uses(body: &str) -> Vec<String> {
    let mut wire: BTreeSet<&str> = BTreeSet::new();
    for (ty, pattern) in [
        ("KafkaString", "KafkaString"),
        ("Records", "Records"),
        ("UnknownTaggedFields", "UnknownTaggedFields"),
        ("Uuid", "Uuid"),
    ] {
        if body.contains(&format!(": {pattern}")) || body.contains(&format!("<{pattern}")) {
            wire.insert(ty);
        }
    }
    let mut lines = Vec::new();
    if body.contains(": Bytes") || body.contains("<Bytes") {
        lines.push("use bytes::Bytes;".to_owned());
    }
    match wire.len() {
        0 => {}
        1 => lines.push(format!("use kwire::{};", wire.iter().next().unwrap_or(&""))),
        _ => lines.push(format!(
            "use kwire::{{{}}};",
            wire.into_iter().collect::<Vec<_>>().join(", ")
        )),
    }
    lines
}

fn message_struct(out: &mut String, plan: &Plan<'_>, index: usize, message: &SchemaMessage) {
    let api = api_name(&message.name);
    let doc = match message.kind.as_str() {
        "request" | "response" => format!("{api} {}.", message.kind),
        "header" => format!("{}, a header.", message.name),
        _ => format!("{}, a data structure.", message.name),
    };
    emit::doc(out, "", &doc);
    out.push_str("#[derive(Debug, Clone, PartialEq, kwire::Message)]\n");
    out.push_str("#[non_exhaustive]\n");
    let mut parts = Vec::new();
    if let Some(key) = message.api_key {
        parts.push(format!("api_key = {key}"));
    }
    parts.push(format!("kind = {}", message.kind));
    if message.kind == "request" {
        parts.push(format!("response = {api}Response"));
    }
    parts.push(format!("versions = \"{}\"", message.valid_versions));
    if let Some(flexible) = &message.flexible_versions {
        if flexible.trim() != "none" {
            parts.push(format!("flexible = \"{flexible}\""));
        }
    }
    if !message.listeners.is_empty() {
        parts.push(format!("listeners = \"{}\"", message.listeners.join(", ")));
    }
    if message.latest_version_unstable {
        parts.push("latest_version_unstable".into());
    }
    emit::attribute(out, "", &parts);
    struct_body(
        out,
        plan,
        index,
        &message.name,
        &message.fields,
        is_flexible(message),
    );
}

fn struct_body(
    out: &mut String,
    plan: &Plan<'_>,
    owner: usize,
    rust_name: &str,
    fields: &[SchemaField],
    flexible: bool,
) {
    out.push_str(&format!("pub struct {rust_name} {{\n"));
    for field in fields {
        field_lines(out, plan, owner, field);
    }
    if flexible {
        out.push_str("    /// Tagged fields this code does not know.\n");
        out.push_str("    #[kafka(unknown_tagged)]\n");
        out.push_str("    pub unknown_tagged_fields: UnknownTaggedFields,\n");
    }
    out.push_str("}\n");
}

fn field_lines(out: &mut String, plan: &Plan<'_>, owner: usize, field: &SchemaField) {
    let (ident, needs_name) = field_ident(&field.name);
    let nullable = field
        .nullable_versions
        .as_deref()
        .filter(|n| meaning::range(Some(n)).is_ok_and(|r| !r.is_empty()));
    let mut parts = Vec::new();
    if needs_name {
        parts.push(format!("name = \"{}\"", field.name));
    }
    if let Some(v) = &field.versions {
        parts.push(format!("versions = \"{v}\""));
    }
    if let Some(n) = nullable {
        parts.push(format!("nullable = \"{n}\""));
    }
    if let Some(tag) = field.tag {
        parts.push(format!("tag = {tag}"));
    }
    if let Some(t) = &field.tagged_versions {
        parts.push(format!("tagged = \"{t}\""));
    }
    if let Some(d) = &field.default {
        parts.push(format!("default = {}", emit::default_value(&field.ty, d)));
    }
    if field.ignorable {
        parts.push("ignorable".into());
    }
    if let Some(f) = &field.flexible_versions {
        parts.push(format!("flexible = \"{f}\""));
    }
    if field.map_key {
        parts.push("map_key".into());
    }
    if let Some(e) = &field.entity_type {
        parts.push(format!("entity_type = \"{e}\""));
    }
    if field.zero_copy {
        parts.push("zero_copy".into());
    }
    let ty = emit::rust_type(
        &field.ty,
        field.entity_type.as_deref(),
        nullable.is_some(),
        &|json| plan.rust_name(owner, json),
    );
    emit::doc(out, "    ", &field.about);
    emit::attribute(out, "    ", &parts);
    out.push_str(&format!("    pub {ident}: {ty},\n"));
}

//! Pieces of Rust source: doc comments, `#[kafka(...)]` lines, defaults and types.

use crate::checker::meaning::ValueClass;
use crate::checker::resolve;
use crate::checker::SchemaDefault;

/// The widest line the drafts aim for (rustfmt's default).
const WIDTH: usize = 100;

/// rustfmt's `attr_fn_like_width`: the widest argument list it keeps on one line.
const RUSTFMT_ATTRIBUTE_WIDTH: usize = 70;

/// The widest doc comment line, as in the hand-written exemplars.
const DOC_WIDTH: usize = 88;

/// `text` as `///` lines at `indent`, wrapped at word boundaries; an empty text
/// gives one bare `///` so the item still counts as documented.
///
/// A line never starts with a word Markdown would read as a quote, list or heading
/// (`>= 0`, `- x`, `1.`): the word before it moves down with it.
pub fn doc(out: &mut String, indent: &str, text: &str) {
    let room = DOC_WIDTH.saturating_sub(indent.len() + 4).max(20);
    let mut lines: Vec<Vec<&str>> = vec![Vec::new()];
    for word in text.split_whitespace() {
        let current = lines.last_mut().expect("one line at least");
        let width: usize = current.iter().map(|w| w.len() + 1).sum();
        if current.is_empty() || width + word.len() <= room {
            current.push(word);
            continue;
        }
        let mut next = vec![word];
        while markdown_sensitive(next[0]) && current.len() > 1 {
            next.insert(0, current.pop().unwrap_or_default());
        }
        lines.push(next);
    }
    for line in lines {
        if line.is_empty() {
            out.push_str(&format!("{indent}///\n"));
        } else {
            out.push_str(&format!("{indent}/// {}\n", line.join(" ")));
        }
    }
}

/// True for words that change meaning at the start of a Markdown line.
fn markdown_sensitive(word: &str) -> bool {
    let starts_block = word.starts_with(['>', '#', '-', '+', '*', '=', '|', '`']);
    let ordered = word.trim_start_matches(|c: char| c.is_ascii_digit()).len() < word.len()
        && word
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .starts_with(['.', ')']);
    starts_block || ordered
}

/// `#[kafka(a, b, c)]` at `indent`, laid out the way `cargo fmt` leaves it: rustfmt
/// rewrites attributes whose values are all literals (one line up to 70 characters of
/// arguments, else one argument per line) and leaves the others alone, which are
/// wrapped here under the parenthesis.
pub fn attribute(out: &mut String, indent: &str, parts: &[String]) {
    if parts.iter().all(|p| rustfmt_reads(p)) {
        let joined = parts.join(", ");
        if joined.len() <= RUSTFMT_ATTRIBUTE_WIDTH {
            out.push_str(&format!("{indent}#[kafka({joined})]\n"));
        } else {
            out.push_str(&format!("{indent}#[kafka(\n"));
            out.push_str(&format!(
                "{indent}    {}\n",
                parts.join(&format!(",\n{indent}    "))
            ));
            out.push_str(&format!("{indent})]\n"));
        }
        return;
    }
    let open = format!("{indent}#[kafka(");
    let continuation = " ".repeat(open.len());
    let mut line = open;
    let mut first_on_line = true;
    for (i, part) in parts.iter().enumerate() {
        let tail = if i + 1 == parts.len() { ")]" } else { "," };
        let piece = format!("{}{part}{tail}", if first_on_line { "" } else { " " });
        if !first_on_line && line.len() + piece.len() > WIDTH {
            out.push_str(&line);
            out.push('\n');
            line = format!("{continuation}{part}{tail}");
        } else {
            line.push_str(&piece);
        }
        first_on_line = false;
    }
    if parts.is_empty() {
        line.push_str(")]");
    }
    out.push_str(&line);
    out.push('\n');
}

/// True for `flag` and `key = literal` (a string, an unsigned number or a boolean),
/// the only forms rustfmt parses (and so rewrites) in an attribute.
fn rustfmt_reads(part: &str) -> bool {
    match part.split_once(" = ") {
        None => true,
        Some((_, value)) => {
            value.starts_with('"')
                || value.starts_with(|c: char| c.is_ascii_digit())
                || value == "true"
                || value == "false"
        }
    }
}

/// The attribute value of a default: numbers and booleans bare (Kafka's spelling
/// kept), strings quoted, `null` bare.
pub fn default_value(ty: &str, default: &SchemaDefault) -> String {
    let text = default.to_text();
    if text.trim() == "null" {
        return "null".into();
    }
    match ValueClass::of_schema_type(ty) {
        ValueClass::Integer | ValueClass::Float if is_number(text.trim()) => text.trim().to_owned(),
        ValueClass::Bool if matches!(text.trim(), "true" | "false") => text.trim().to_owned(),
        _ => format!("{text:?}"),
    }
}

fn is_number(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let hex = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"));
    match hex {
        Some(h) => !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit()),
        None => !digits.is_empty() && digits.parse::<f64>().is_ok(),
    }
}

/// The Rust type of a schema type; `struct_name` maps a struct type name to its Rust
/// name. A list of broker IDs is `BrokerIds`, which holds short lists in place.
pub fn rust_type(
    ty: &str,
    entity_type: Option<&str>,
    nullable: bool,
    struct_name: &dyn Fn(&str) -> String,
) -> String {
    let (is_array, element) = resolve::element(ty);
    let broker_ids = is_array && element == "int32" && entity_type == Some("brokerId");
    let element = match element {
        "bool" => "bool".to_owned(),
        "int8" => "i8".to_owned(),
        "int16" => "i16".to_owned(),
        "uint16" => "u16".to_owned(),
        "int32" => "i32".to_owned(),
        "uint32" => "u32".to_owned(),
        "int64" => "i64".to_owned(),
        "float64" => "f64".to_owned(),
        "uuid" => "Uuid".to_owned(),
        "string" => "KafkaString".to_owned(),
        "bytes" => "Bytes".to_owned(),
        "records" => "Records".to_owned(),
        other => struct_name(other),
    };
    let ty = if broker_ids {
        "BrokerIds".to_owned()
    } else if is_array {
        format!("Vec<{element}>")
    } else {
        element
    };
    if nullable {
        format!("Option<{ty}>")
    } else {
        ty
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_keep_kafkas_spelling() {
        let text = |t: &str| SchemaDefault::Text(t.to_owned());
        assert_eq!(default_value("int32", &text("0x7fffffff")), "0x7fffffff");
        assert_eq!(
            default_value("int64", &SchemaDefault::Number("-1".into())),
            "-1"
        );
        assert_eq!(default_value("string", &text("null")), "null");
        assert_eq!(default_value("string", &text("-1")), "\"-1\"");
        assert_eq!(default_value("bool", &text("false")), "false");
    }

    #[test]
    fn attributes_rustfmt_cannot_read_wrap_under_the_parenthesis() {
        let mut out = String::new();
        let mut parts: Vec<String> = (0..12).map(|i| format!("key{i} = \"value\"")).collect();
        parts.push("kind = request".into());
        attribute(&mut out, "", &parts);
        assert!(out.lines().count() > 1);
        assert!(out.lines().all(|l| l.len() <= WIDTH));
        assert!(out
            .lines()
            .nth(1)
            .is_some_and(|l| l.starts_with("        key")));
    }

    #[test]
    fn literal_attributes_are_laid_out_like_rustfmt() {
        let parts = |s: &str| s.split(", ").map(str::to_owned).collect::<Vec<_>>();
        let mut out = String::new();
        attribute(
            &mut out,
            "    ",
            &parts("versions = \"18+\", tag = 1, ignorable"),
        );
        assert_eq!(
            out,
            "    #[kafka(versions = \"18+\", tag = 1, ignorable)]\n"
        );
        out.clear();
        let long = "versions = \"18+\", tag = 1, tagged = \"18+\", default = 92, ignorable, mmm";
        attribute(&mut out, "    ", &parts(long));
        assert!(
            out.starts_with("    #[kafka(\n        versions = \"18+\",\n"),
            "{out}"
        );
        assert!(out.ends_with("        mmm\n    )]\n"), "{out}");
        out.clear();
        attribute(
            &mut out,
            "    ",
            &parts("versions = \"5+\", default = -1, ignorable"),
        );
        assert_eq!(
            out,
            "    #[kafka(versions = \"5+\", default = -1, ignorable)]\n"
        );
    }

    #[test]
    fn doc_lines_never_start_a_quote() {
        let mut out = String::new();
        let text = format!("{} x >= 0 and more", "word ".repeat(18));
        doc(&mut out, "    ", &text);
        assert!(
            out.lines().all(|l| !l.trim_start().starts_with("/// >")),
            "{out}"
        );
        assert_eq!(
            out.lines()
                .map(|l| l.trim_start().trim_start_matches("///").trim())
                .collect::<Vec<_>>()
                .join(" "),
            text.split_whitespace().collect::<Vec<_>>().join(" ")
        );
    }

    #[test]
    fn types() {
        let name = |s: &str| s.to_owned();
        assert_eq!(
            rust_type("[]ApiVersion", None, false, &name),
            "Vec<ApiVersion>"
        );
        assert_eq!(
            rust_type("string", None, true, &name),
            "Option<KafkaString>"
        );
        assert_eq!(rust_type("[]int32", None, true, &name), "Option<Vec<i32>>");
        let broker = Some("brokerId");
        assert_eq!(rust_type("[]int32", broker, false, &name), "BrokerIds");
        assert_eq!(
            rust_type("[]int32", broker, true, &name),
            "Option<BrokerIds>"
        );
        assert_eq!(rust_type("int32", broker, false, &name), "i32");
    }
}

//! Rust names for schema names, the inverse of the derive's PascalCase rule.

/// `ClusterId` → `cluster_id`, `TopicID` → `topic_id`, `IsrV1` → `isr_v1`.
pub fn snake_case(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::with_capacity(name.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if c.is_uppercase() && i > 0 {
            let prev = chars[i - 1];
            let next_is_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            if prev.is_lowercase()
                || prev.is_ascii_digit()
                || (prev.is_uppercase() && next_is_lower)
            {
                out.push('_');
            }
        }
        out.extend(c.to_lowercase());
    }
    out
}

/// The schema name the derive gives a Rust field: each `_`-separated part with its
/// first letter upper-cased (a raw `r#` prefix dropped).
pub fn pascal_case(ident: &str) -> String {
    let ident = ident.strip_prefix("r#").unwrap_or(ident);
    ident
        .split('_')
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

/// Rust's reserved words, which need the `r#` prefix as field names.
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate",
    "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl",
    "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref",
    "return", "static", "struct", "super", "trait", "true", "try", "type", "typeof", "unsafe",
    "unsized", "use", "virtual", "where", "while", "yield",
];

/// The Rust field for a schema field name, and whether the derive would give back
/// a different schema name (so the field needs `name = "..."`).
pub fn field_ident(schema_name: &str) -> (String, bool) {
    let snake = snake_case(schema_name);
    let needs_name = pascal_case(&snake) != schema_name;
    if KEYWORDS.contains(&snake.as_str()) {
        (format!("r#{snake}"), needs_name)
    } else {
        (snake, needs_name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_case_round_trips_ordinary_names() {
        for (json, rust) in [
            ("ClusterId", "cluster_id"),
            ("ThrottleTimeMs", "throttle_time_ms"),
            ("IsrV1", "isr_v1"),
            ("Partition0", "partition0"),
        ] {
            assert_eq!(snake_case(json), rust);
            assert_eq!(field_ident(json), (rust.to_owned(), false));
        }
    }

    #[test]
    fn acronyms_and_keywords() {
        assert_eq!(field_ident("TopicID"), ("topic_id".to_owned(), true));
        assert_eq!(field_ident("Type"), ("r#type".to_owned(), false));
        assert_eq!(pascal_case("r#match"), "Match");
    }
}

//! The outcome of a check: every difference, one line each.

use std::fmt;

/// One line of the report: where, and what.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Line {
    /// The schema or field path: `FetchRequest.Topics[].Partitions[].ReplicaDirectoryId`.
    pub path: String,
    /// What differs there.
    pub text: String,
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.text)
    }
}

/// Everything one check found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Report {
    /// Schema files read.
    pub schemas: usize,
    /// Fields compared (present in both the schema and the struct).
    pub fields: usize,
    /// Differences between schemas and structs (a schema without a struct, or a
    /// struct without a schema, among them): each fails the check.
    pub differences: Vec<Line>,
}

impl Report {
    /// Records a difference at `path`.
    pub fn differ(&mut self, path: &str, text: impl Into<String>) {
        self.differences.push(Line {
            path: path.to_owned(),
            text: text.into(),
        });
    }

    /// Records a difference when `schema` and `runtime` differ, showing both.
    pub fn compare<T: PartialEq + fmt::Display>(
        &mut self,
        path: &str,
        key: &str,
        schema: T,
        runtime: T,
    ) {
        if schema != runtime {
            self.differ(
                path,
                format!("{key} {schema} in schema, {runtime} in struct"),
            );
        }
    }

    /// The difference lines as text, for tests that look for one.
    pub fn difference_lines(&self) -> Vec<String> {
        self.differences.iter().map(Line::to_string).collect()
    }

    /// The closing line: `checked N schemas, M fields: K differences`.
    pub fn summary(&self) -> String {
        format!(
            "checked {} schemas, {} fields: {} differences",
            self.schemas,
            self.fields,
            self.differences.len(),
        )
    }
}

/// The differences, then the summary.
impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::outcome::write(f, &[] as &[Line], &self.differences, &self.summary())
    }
}

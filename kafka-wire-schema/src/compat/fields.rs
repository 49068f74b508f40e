//! One version of a struct's fields, older against newer: the body in order, the
//! tagged section by tag, the defaults of what the version lacks, nested structs.

use std::collections::HashSet;

use kwire_version::VersionRange;

use super::findings::{PerVersion, Rule};
use super::{CompatError, Types};
use crate::meaning::{self, ValueClass};
use crate::model::{SchemaField, SchemaMessage};
use crate::resolve::{self, Shape, PRIMITIVES};

/// One version, and the two messages whose struct types the fields resolve in.
pub(super) struct At<'a> {
    pub version: i16,
    pub flexible: bool,
    pub types: Types,
    pub old: &'a SchemaMessage,
    pub new: &'a SchemaMessage,
}

/// A field with its ranges read.
struct Read<'a> {
    field: &'a SchemaField,
    versions: VersionRange,
    nullable: VersionRange,
    tagged: VersionRange,
}

impl<'a> Read<'a> {
    fn of(
        field: &'a SchemaField,
        path: &str,
        message: &SchemaMessage,
    ) -> Result<Self, CompatError> {
        let read = |key: &str, text: Option<&str>| {
            meaning::range(text).map_err(|reason| CompatError {
                path: format!("{}.{path}", message.name),
                reason: format!("`{key}` {reason}"),
            })
        };
        let Some(versions) = field.versions.as_deref() else {
            return Err(CompatError {
                path: format!("{}.{path}", message.name),
                reason: "no `versions`".into(),
            });
        };
        Ok(Read {
            field,
            versions: read("versions", Some(versions))?,
            nullable: read("nullableVersions", field.nullable_versions.as_deref())?,
            tagged: read("taggedVersions", field.tagged_versions.as_deref())?,
        })
    }

    fn name(&self) -> &'a str {
        &self.field.name
    }

    fn present(&self, version: i16) -> bool {
        self.versions.contains(version)
    }

    fn in_body(&self, version: i16) -> bool {
        self.present(version) && !self.tagged.contains(version)
    }

    fn in_tags(&self, version: i16) -> bool {
        self.present(version) && self.tagged.contains(version)
    }
}

fn join(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_owned()
    } else {
        format!("{prefix}.{name}")
    }
}

fn tagging(tagged: bool) -> &'static str {
    if tagged {
        "tagged -> untagged"
    } else {
        "untagged -> tagged"
    }
}

impl At<'_> {
    /// Compares `old` and `new`, the fields of one struct at `prefix`.
    pub(super) fn fields(
        &self,
        out: &mut PerVersion,
        prefix: &str,
        old: &[SchemaField],
        new: &[SchemaField],
    ) -> Result<(), CompatError> {
        let v = self.version;
        let old: Vec<Read<'_>> = old
            .iter()
            .map(|f| Read::of(f, &join(prefix, &f.name), self.old))
            .collect::<Result<_, _>>()?;
        let new: Vec<Read<'_>> = new
            .iter()
            .map(|f| Read::of(f, &join(prefix, &f.name), self.new))
            .collect::<Result<_, _>>()?;
        let old_names: HashSet<&str> = old.iter().map(Read::name).collect();
        let new_named = |name: &str| new.iter().find(|n| n.name() == name);
        let old_named = |name: &str| old.iter().find(|o| o.name() == name);

        // The body, in order: pairs of (old index, new index) in the body lists.
        let old_body: Vec<&Read<'_>> = old.iter().filter(|f| f.in_body(v)).collect();
        let new_body: Vec<&Read<'_>> = new.iter().filter(|f| f.in_body(v)).collect();
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        let mut new_used = vec![false; new_body.len()];
        for (i, o) in old_body.iter().enumerate() {
            let path = join(prefix, o.name());
            if let Some(j) = new_body.iter().position(|n| n.name() == o.name()) {
                pairs.push((i, j));
                new_used[j] = true;
                continue;
            }
            match new_named(o.name()) {
                Some(n) if n.in_tags(v) => {
                    out.add(v, &path, Rule::TaggingChanged, tagging(false).into())
                }
                Some(n) => out.add(
                    v,
                    &path,
                    Rule::FieldRemoved,
                    format!("versions {} -> {}", o.versions, n.versions),
                ),
                None => {
                    // Gone by name: the same place under a name the older schema
                    // never had is a rename.
                    let renamed = new_body
                        .get(i)
                        .filter(|n| !new_used[i] && !old_names.contains(n.name()));
                    match renamed {
                        Some(n) => {
                            out.add(
                                v,
                                &path,
                                Rule::FieldRenamed,
                                format!("{} -> {}", o.name(), n.name()),
                            );
                            pairs.push((i, i));
                            new_used[i] = true;
                        }
                        None => out.add(v, &path, Rule::FieldRemoved, String::new()),
                    }
                }
            }
        }
        for (j, n) in new_body.iter().enumerate() {
            if new_used[j] {
                continue;
            }
            let path = join(prefix, n.name());
            match old_named(n.name()) {
                // Reported from the older side, as tagging changed.
                Some(o) if o.in_tags(v) => {}
                Some(o) => out.add(
                    v,
                    &path,
                    Rule::FieldAdded,
                    format!("versions {} -> {}", o.versions, n.versions),
                ),
                None => out.add(v, &path, Rule::FieldAdded, String::new()),
            }
        }
        pairs.sort_unstable();
        let mut last = None;
        for &(i, j) in &pairs {
            if last.is_some_and(|last| j < last) {
                let o = old_body[i];
                out.add(
                    v,
                    &join(prefix, o.name()),
                    Rule::FieldMoved,
                    format!("position {i} -> {j}"),
                );
            }
            last = Some(j);
        }
        for &(i, j) in &pairs {
            self.field(
                out,
                &join(prefix, old_body[i].name()),
                old_body[i],
                new_body[j],
            )?;
        }

        // The tagged section, by name and then by tag.
        for o in old.iter().filter(|f| f.in_tags(v)) {
            let path = join(prefix, o.name());
            let n = match new_named(o.name()) {
                Some(n) => Some(n),
                None => new
                    .iter()
                    .find(|n| {
                        n.in_tags(v) && n.field.tag == o.field.tag && !old_names.contains(n.name())
                    })
                    .inspect(|n| {
                        out.add(
                            v,
                            &path,
                            Rule::FieldRenamed,
                            format!("{} -> {}", o.name(), n.name()),
                        )
                    }),
            };
            match n {
                None => out.add(v, &path, Rule::FieldRemoved, "tagged".into()),
                Some(n) if !n.present(v) => out.add(
                    v,
                    &path,
                    Rule::FieldRemoved,
                    format!("versions {} -> {}", o.versions, n.versions),
                ),
                Some(n) if !n.in_tags(v) => {
                    out.add(v, &path, Rule::TaggingChanged, tagging(true).into())
                }
                Some(n) => {
                    if o.field.tag != n.field.tag {
                        let tag = |t: Option<i64>| t.map_or("none".to_owned(), |t| t.to_string());
                        out.add(
                            v,
                            &path,
                            Rule::TagChanged,
                            format!("{} -> {}", tag(o.field.tag), tag(n.field.tag)),
                        );
                    }
                    self.field(out, &path, o, n)?;
                    self.default(out, &path, o.field, n.field)?;
                }
            }
        }

        // What a reader of this version gets for the fields it lacks. A field
        // renamed is found as the body finds renames: at the same place, under a
        // name the older schema never had, and (since nothing else shows it is
        // the same field) with the same versions. The reader of a version that
        // lacks it gets its default whatever it is called.
        for (i, o) in old.iter().enumerate() {
            if o.present(v) {
                continue;
            }
            let renamed = || {
                new.get(i).filter(|n| {
                    !old_names.contains(n.name()) && n.field.versions == o.field.versions
                })
            };
            if let Some(n) = new_named(o.name())
                .or_else(renamed)
                .filter(|n| !n.present(v))
            {
                self.default(out, &join(prefix, o.name()), o.field, n.field)?;
            }
        }
        Ok(())
    }

    /// One field present in both at this version, in the same section.
    fn field(
        &self,
        out: &mut PerVersion,
        path: &str,
        o: &Read<'_>,
        n: &Read<'_>,
    ) -> Result<(), CompatError> {
        let v = self.version;
        let (old_null, new_null) = (o.nullable.contains(v), n.nullable.contains(v));
        if old_null != new_null {
            let detail = if old_null {
                "nullable -> not nullable"
            } else {
                "not nullable -> nullable"
            };
            out.add(v, path, Rule::NullabilityChanged, detail.into());
        }
        let compact = |f: &Read<'_>, message: &SchemaMessage| -> Result<bool, CompatError> {
            match f.field.flexible_versions.as_deref() {
                None => Ok(self.flexible),
                Some(text) => meaning::range(Some(text))
                    .map(|r| r.contains(v))
                    .map_err(|reason| CompatError {
                        path: format!("{}.{path}", message.name),
                        reason: format!("`flexibleVersions` {reason}"),
                    }),
            }
        };
        if compact(o, self.old)? != compact(n, self.new)? {
            out.add(
                v,
                path,
                Rule::FieldFlexibilityChanged,
                format!(
                    "flexibleVersions {} -> {}",
                    o.field
                        .flexible_versions
                        .as_deref()
                        .unwrap_or("(the message's)"),
                    n.field
                        .flexible_versions
                        .as_deref()
                        .unwrap_or("(the message's)")
                ),
            );
        }
        if self.types == Types::Skipped {
            return Ok(());
        }
        let (old_array, old_element) = resolve::element(&o.field.ty);
        let (new_array, new_element) = resolve::element(&n.field.ty);
        let old_plain = PRIMITIVES.contains(&old_element);
        let new_plain = PRIMITIVES.contains(&new_element);
        if old_array != new_array
            || old_plain != new_plain
            || (old_plain && old_element != new_element)
        {
            out.add(
                v,
                path,
                Rule::TypeChanged,
                format!("{} -> {}", o.field.ty, n.field.ty),
            );
            return Ok(());
        }
        if old_plain {
            return Ok(());
        }
        // Structs: their names are in neither the bytes nor the JSON form; their
        // fields are.
        too_deep(self.old, path)?;
        let old_fields = struct_fields(self.old, o.field, path)?;
        let new_fields = struct_fields(self.new, n.field, path)?;
        self.fields(out, path, old_fields, new_fields)
    }

    /// The default, where the version's reader gets it.
    fn default(
        &self,
        out: &mut PerVersion,
        path: &str,
        o: &SchemaField,
        n: &SchemaField,
    ) -> Result<(), CompatError> {
        let old_class = ValueClass::of_schema_type(&o.ty);
        let new_class = match self.types {
            Types::Compared => ValueClass::of_schema_type(&n.ty),
            Types::Skipped => old_class,
        };
        if old_class != new_class {
            // A type change, reported as such.
            return Ok(());
        }
        let text = |f: &SchemaField| f.default.as_ref().map(|d| d.to_text());
        let old_default = meaning::default(old_class, text(o).as_deref());
        let new_default = meaning::default(new_class, text(n).as_deref());
        if old_default != new_default {
            out.add(
                self.version,
                path,
                Rule::DefaultChanged,
                format!("{old_default} -> {new_default}"),
            );
            return Ok(());
        }
        self.struct_defaults(out, path, o, n, &old_default)
    }

    /// A struct field (not an array of them) that the reader does not get is the
    /// struct with every field at its own default (Kafka's tagged `CurrentLeader`,
    /// `SnapshotId`, `ReplicaState`): those defaults are what it reads.
    fn struct_defaults(
        &self,
        out: &mut PerVersion,
        path: &str,
        o: &SchemaField,
        n: &SchemaField,
        default: &meaning::DefaultValue,
    ) -> Result<(), CompatError> {
        if self.types == Types::Skipped
            || *default == meaning::DefaultValue::Null
            || resolve::element(&o.ty).0
            || resolve::element(&n.ty).0
        {
            return Ok(());
        }
        let (Some((_, old_fields)), Some((_, new_fields))) = (
            resolve::shape(self.old, o).struct_fields(),
            resolve::shape(self.new, n).struct_fields(),
        ) else {
            return Ok(());
        };
        too_deep(self.old, path)?;
        for inner in old_fields {
            // A field gone from the struct or renamed is reported where the struct
            // is read; here only what a defaulted struct holds.
            if let Some(newer) = new_fields.iter().find(|f| f.name == inner.name) {
                self.default(out, &join(path, &inner.name), inner, newer)?;
            }
        }
        Ok(())
    }
}

/// Kafka's structs nest a few levels; a struct that contains itself (which no
/// reader could finish) would nest forever.
const MAX_DEPTH: usize = 32;

fn too_deep(message: &SchemaMessage, path: &str) -> Result<(), CompatError> {
    if path.split('.').count() > MAX_DEPTH {
        return Err(CompatError {
            path: format!("{}.{path}", message.name),
            reason: format!(
                "structs nest deeper than {MAX_DEPTH} levels (a struct within itself?)"
            ),
        });
    }
    Ok(())
}

fn struct_fields<'a>(
    message: &'a SchemaMessage,
    field: &'a SchemaField,
    path: &str,
) -> Result<&'a [SchemaField], CompatError> {
    match resolve::shape(message, field) {
        Shape::Inline(_, fields) | Shape::Common(_, fields) => Ok(fields),
        Shape::Plain => Ok(&[]),
        Shape::Unknown(name) => Err(CompatError {
            path: format!("{}.{path}", message.name),
            reason: format!(
                "the type `{name}` is neither a primitive, an inline struct nor a commonStruct"
            ),
        }),
    }
}

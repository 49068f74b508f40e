//! The fewest bytes a struct takes at a version, tabulated when the program is
//! compiled, so that decoding can bound an array by it at the cost of one load.

use super::{FieldSchema, TypeSchema};

/// Marks a table's last row as "later versions are not tabulated".
const NOT_TABULATED: u16 = u16::MAX;

/// Versions tabulated at most; a struct that still changes after them is worked out
/// field by field for those versions.
const MOST_ROWS: usize = 64;

/// The fewest bytes a struct takes at each version, `[classic, flexible]` per version
/// from 0. The last row holds for every later version, unless it is the
/// not-tabulated marker.
///
/// The derive builds the table with [`MinSizes::table`] from the struct's fields;
/// a schema written by hand can use [`MinSizes::UNTABULATED`].
///
/// ```
/// use kwire::schema::{FieldSchema, MinSizes, TypeSchema};
/// use kwire::VersionRange;
///
/// const FIELDS: &[FieldSchema] = &[
///     FieldSchema::new("Id", TypeSchema::Int32, VersionRange::at_least(0)),
///     FieldSchema::new("Name", TypeSchema::String, VersionRange::at_least(2)),
/// ];
/// const TABLE: [[u16; 2]; MinSizes::rows(FIELDS)] = MinSizes::table(FIELDS);
/// let sizes = MinSizes::from_table(&TABLE);
/// assert_eq!(sizes.get(0, false), Some(4));
/// assert_eq!(sizes.get(9, false), Some(4 + 2)); // the name's int16 length from v2
/// assert_eq!(sizes.get(9, true), Some(4 + 1 + 1)); // varint length, tagged section
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MinSizes {
    rows: &'static [[u16; 2]],
}

impl MinSizes {
    /// No table: every size is worked out from the fields when asked.
    pub const UNTABULATED: MinSizes = MinSizes { rows: &[] };

    /// Wraps a table built by [`MinSizes::table`].
    pub const fn from_table(rows: &'static [[u16; 2]]) -> Self {
        MinSizes { rows }
    }

    /// The tabulated size at `version`, or `None` when it is not tabulated.
    #[inline]
    pub const fn get(self, version: i16, flexible: bool) -> Option<usize> {
        let Some(last) = self.rows.len().checked_sub(1) else {
            return None;
        };
        if version < 0 {
            return None;
        }
        let row = if (version as usize) < last {
            self.rows[version as usize]
        } else {
            self.rows[last]
        };
        match row[flexible as usize] {
            NOT_TABULATED => None,
            size => Some(size as usize),
        }
    }

    /// How many rows the table of a struct with these fields has.
    pub const fn rows(fields: &[FieldSchema]) -> usize {
        let stable_from = stable_from(fields);
        if stable_from < MOST_ROWS {
            stable_from + 1
        } else {
            MOST_ROWS + 1
        }
    }

    /// The table of a struct with these fields; `N` must be [`MinSizes::rows`].
    pub const fn table<const N: usize>(fields: &[FieldSchema]) -> [[u16; 2]; N] {
        let mut rows = [[NOT_TABULATED; 2]; N];
        let tabulated = if N > MOST_ROWS { MOST_ROWS } else { N };
        let mut version = 0;
        while version < tabulated {
            rows[version] = [
                saturate(of_fields(fields, version as i16, false)),
                saturate(of_fields(fields, version as i16, true)),
            ];
            version += 1;
        }
        rows
    }
}

/// A size as a table entry; a size too large to hold is held as the largest that
/// is not the marker, which is still a lower bound.
const fn saturate(size: usize) -> u16 {
    if size >= NOT_TABULATED as usize {
        NOT_TABULATED - 1
    } else {
        size as u16
    }
}

/// The fewest bytes a struct with these fields takes: its fields in the body, and
/// in flexible versions the tagged section's count. Never inlined: it is where the
/// walk through nested types recurses, so the table lookups around it can be.
#[inline(never)]
pub(super) const fn of_fields(fields: &[FieldSchema], version: i16, flexible: bool) -> usize {
    let mut size = flexible as usize;
    let mut i = 0;
    while i < fields.len() {
        size += fields[i].min_size(version, flexible);
        i += 1;
    }
    size
}

/// The version from which a struct's smallest encoding no longer changes: after the
/// last version at which a field appears, leaves, turns tagged, nullable or compact,
/// or a struct inside it changes.
const fn stable_from(fields: &[FieldSchema]) -> usize {
    let mut latest = 0;
    let mut i = 0;
    while i < fields.len() {
        let field = &fields[i];
        latest = max(latest, change_points(field.versions));
        latest = max(latest, change_points(field.tagged_versions));
        latest = max(latest, change_points(field.nullable_versions));
        if let Some(flexible) = field.flexible_versions {
            latest = max(latest, change_points(flexible));
        }
        if let TypeSchema::Struct(nested) = field.ty {
            latest = max(latest, stable_from(nested.fields));
        }
        i += 1;
    }
    latest
}

/// The last version at which membership of `range` changes.
const fn change_points(range: crate::VersionRange) -> usize {
    match (range.min(), range.max()) {
        (Some(_), Some(max)) if max < i16::MAX => max as usize + 1,
        (Some(min), _) => min as usize,
        _ => 0,
    }
}

const fn max(a: usize, b: usize) -> usize {
    if a > b {
        a
    } else {
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::StructSchema;
    use crate::VersionRange;

    const INNER_FIELDS: &[FieldSchema] = &[
        FieldSchema::new("A", TypeSchema::Int64, VersionRange::new(0, 3)),
        FieldSchema::new("B", TypeSchema::Bytes, VersionRange::at_least(1)),
    ];
    const INNER: StructSchema = StructSchema {
        name: "Inner",
        fields: INNER_FIELDS,
        keeps_unknown_tags: true,
        min_sizes: MinSizes::UNTABULATED,
    };

    #[test]
    fn sizes_follow_the_fields_through_versions() {
        let mut tagged = FieldSchema::new("T", TypeSchema::Int32, VersionRange::at_least(0));
        tagged.tagged_versions = VersionRange::at_least(5);
        tagged.tag = Some(0);
        let mut nullable =
            FieldSchema::new("N", TypeSchema::Struct(&INNER), VersionRange::at_least(0));
        nullable.nullable_versions = VersionRange::at_least(6);
        let fields = [tagged, nullable];
        // Inner: A (8) until v3, B from v1 (4 classic, 1 compact).
        assert_eq!(of_fields(&fields, 0, false), 4 + 8);
        assert_eq!(of_fields(&fields, 2, false), 4 + 8 + 4);
        assert_eq!(of_fields(&fields, 4, true), 1 + 4 + (1 + 1));
        assert_eq!(of_fields(&fields, 5, true), 1 + (1 + 1)); // T is tagged now
        assert_eq!(of_fields(&fields, 6, true), 1 + 1); // a null struct is one byte
        assert_eq!(stable_from(&fields), 6);
    }

    #[test]
    fn the_table_agrees_with_the_fields_at_every_version() {
        const ROWS: usize = MinSizes::rows(INNER_FIELDS);
        const TABLE: [[u16; 2]; ROWS] = MinSizes::table(INNER_FIELDS);
        let sizes = MinSizes::from_table(&TABLE);
        assert_eq!(ROWS, 5);
        for version in 0..40 {
            for flexible in [false, true] {
                assert_eq!(
                    sizes.get(version, flexible),
                    Some(of_fields(INNER_FIELDS, version, flexible)),
                    "v{version} flexible {flexible}"
                );
            }
        }
        assert_eq!(sizes.get(-1, false), None);
        assert_eq!(MinSizes::UNTABULATED.get(0, false), None);
    }

    #[test]
    fn late_changes_leave_later_versions_to_the_fields() {
        const FIELDS: &[FieldSchema] = &[FieldSchema::new(
            "Late",
            TypeSchema::Int32,
            VersionRange::at_least(200),
        )];
        const TABLE: [[u16; 2]; MinSizes::rows(FIELDS)] = MinSizes::table(FIELDS);
        let sizes = MinSizes::from_table(&TABLE);
        assert_eq!(sizes.get(3, false), Some(0));
        assert_eq!(sizes.get(63, false), Some(0));
        assert_eq!(sizes.get(64, false), None);
        assert_eq!(sizes.get(250, false), None);
    }
}

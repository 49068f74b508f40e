//! What a comparison reports: one [`Finding`] per change, over the versions it
//! affects.

use std::collections::BTreeMap;
use std::fmt;

use kwire_version::VersionRange;

/// The rule a change breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Rule {
    /// A message of the older set is missing from the newer one.
    MessageRemoved,
    /// The message's name changed (matched by its API key): the bytes are the
    /// same, Kafka's JSON form and generated names are not.
    MessageRenamed,
    /// Request, response, header or data changed.
    KindChanged,
    /// The API key changed.
    ApiKeyChanged,
    /// A released version is no longer valid.
    VersionRemoved,
    /// A released version became flexible, or stopped being flexible.
    FlexibilityChanged,
    /// A field a released version has is gone from it (removed, or its versions
    /// narrowed).
    FieldRemoved,
    /// A field was added to the body of a released version, whose bytes it changes
    /// (adding it as a tagged field, or at a new version, is fine).
    FieldAdded,
    /// A field has a new name: the bytes are the same, Kafka's JSON form is not.
    FieldRenamed,
    /// The fields of a released version's body are in another order.
    FieldMoved,
    /// A field's type changed.
    TypeChanged,
    /// A field may be null where it could not, or no longer where it could.
    NullabilityChanged,
    /// A field moved into or out of the tagged section.
    TaggingChanged,
    /// A tagged field's tag number changed.
    TagChanged,
    /// The default of a field that a version lacks or leaves untagged changed: what
    /// a reader of that version gets.
    DefaultChanged,
    /// A string's or bytes' own compact encoding (`flexibleVersions` on the field)
    /// changed.
    FieldFlexibilityChanged,
}

impl Rule {
    /// Every rule, in the order findings of different rules are listed.
    pub const ALL: [Rule; 16] = [
        Rule::MessageRemoved,
        Rule::MessageRenamed,
        Rule::KindChanged,
        Rule::ApiKeyChanged,
        Rule::VersionRemoved,
        Rule::FlexibilityChanged,
        Rule::FieldRemoved,
        Rule::FieldAdded,
        Rule::FieldRenamed,
        Rule::FieldMoved,
        Rule::TypeChanged,
        Rule::NullabilityChanged,
        Rule::TaggingChanged,
        Rule::TagChanged,
        Rule::DefaultChanged,
        Rule::FieldFlexibilityChanged,
    ];

    /// The rule of a kebab-case name ([`Rule::name`]), as a command line spells it.
    ///
    /// ```
    /// use kwire_schema::compat::Rule;
    ///
    /// assert_eq!(Rule::from_name("version-removed"), Some(Rule::VersionRemoved));
    /// assert_eq!(Rule::from_name("version removed"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|rule| rule.name() == name)
    }

    /// Kebab-case name, as printed: `type-changed`.
    pub const fn name(self) -> &'static str {
        match self {
            Rule::MessageRemoved => "message-removed",
            Rule::MessageRenamed => "message-renamed",
            Rule::KindChanged => "kind-changed",
            Rule::ApiKeyChanged => "api-key-changed",
            Rule::VersionRemoved => "version-removed",
            Rule::FlexibilityChanged => "flexibility-changed",
            Rule::FieldRemoved => "field-removed",
            Rule::FieldAdded => "field-added",
            Rule::FieldRenamed => "field-renamed",
            Rule::FieldMoved => "field-moved",
            Rule::TypeChanged => "type-changed",
            Rule::NullabilityChanged => "nullability-changed",
            Rule::TaggingChanged => "tagging-changed",
            Rule::TagChanged => "tag-changed",
            Rule::DefaultChanged => "default-changed",
            Rule::FieldFlexibilityChanged => "field-flexibility-changed",
        }
    }

    /// What is printed for it: `type changed`.
    pub const fn describe(self) -> &'static str {
        match self {
            Rule::MessageRemoved => "message removed",
            Rule::MessageRenamed => "message renamed",
            Rule::KindChanged => "kind changed",
            Rule::ApiKeyChanged => "API key changed",
            Rule::VersionRemoved => "version removed",
            Rule::FlexibilityChanged => "flexibility changed",
            Rule::FieldRemoved => "field removed",
            Rule::FieldAdded => "field added to a released version",
            Rule::FieldRenamed => "field renamed",
            Rule::FieldMoved => "field moved",
            Rule::TypeChanged => "type changed",
            Rule::NullabilityChanged => "nullability changed",
            Rule::TaggingChanged => "tagging changed",
            Rule::TagChanged => "tag changed",
            Rule::DefaultChanged => "default changed",
            Rule::FieldFlexibilityChanged => "field's compact encoding changed",
        }
    }

    /// False for the renames ([`Rule::FieldRenamed`], [`Rule::MessageRenamed`]):
    /// names are in Kafka's JSON form, never in the bytes.
    ///
    /// ```
    /// use kwire_schema::compat::Rule;
    ///
    /// assert!(Rule::VersionRemoved.breaks_wire());
    /// assert!(!Rule::MessageRenamed.breaks_wire());
    /// ```
    pub const fn breaks_wire(self) -> bool {
        !matches!(self, Rule::FieldRenamed | Rule::MessageRenamed)
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// One change between an older and a newer schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The message, e.g. `HoldSeatsRequest` (the struct's name when a nested struct
    /// was compared on its own).
    pub message: String,
    /// The field, as a path of names in the older schema (`Seats.Row`); empty for
    /// the message itself.
    pub path: String,
    /// The versions it affects: released versions, all accepted by both schemas
    /// except for [`Rule::VersionRemoved`].
    pub versions: VersionRange,
    /// The rule.
    pub rule: Rule,
    /// What changed, `old -> new` where there is a before and after.
    pub detail: String,
}

impl Finding {
    /// A finding about the whole message.
    pub(crate) fn whole(message: &str, versions: VersionRange, rule: Rule, detail: String) -> Self {
        Finding {
            message: message.to_owned(),
            path: String::new(),
            versions,
            rule,
            detail,
        }
    }

    /// The field's name at the end of the path (`Row` of `Seats.Row`); `None` for
    /// a finding about the message.
    pub fn field(&self) -> Option<&str> {
        self.path.rsplit('.').next().filter(|name| !name.is_empty())
    }

    /// The path's names, outermost first; empty for the message.
    pub fn path_names(&self) -> Vec<&str> {
        self.path
            .split('.')
            .filter(|name| !name.is_empty())
            .collect()
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if !self.path.is_empty() {
            write!(f, ".{}", self.path)?;
        }
        let (min, max) = (self.versions.min(), self.versions.max());
        match (min, max) {
            (Some(min), Some(max)) if min == max => write!(f, ", version {min}")?,
            (Some(min), Some(max)) => write!(f, ", versions {min}-{max}")?,
            _ => {}
        }
        write!(f, ": {}", self.rule)?;
        if !self.detail.is_empty() {
            write!(f, " ({})", self.detail)?;
        }
        Ok(())
    }
}

/// Findings gathered one version at a time, merged into ranges of consecutive
/// versions where the path, rule and detail are the same.
#[derive(Debug, Default)]
pub(crate) struct PerVersion {
    /// (path, rule, detail) → versions, in the order first seen.
    seen: BTreeMap<(usize, String, Rule, String), Vec<i16>>,
    order: BTreeMap<(String, Rule, String), usize>,
}

impl PerVersion {
    pub(crate) fn add(&mut self, version: i16, path: &str, rule: Rule, detail: String) {
        let key = (path.to_owned(), rule, detail);
        let next = self.order.len();
        let index = *self.order.entry(key.clone()).or_insert(next);
        let (path, rule, detail) = key;
        self.seen
            .entry((index, path, rule, detail))
            .or_default()
            .push(version);
    }

    pub(crate) fn into_findings(self, message: &str) -> Vec<Finding> {
        let mut out = Vec::new();
        for ((_, path, rule, detail), versions) in self.seen {
            let mut runs: Vec<(i16, i16)> = Vec::new();
            for version in versions {
                match runs.last_mut() {
                    Some((_, end)) if *end + 1 == version => *end = version,
                    _ => runs.push((version, version)),
                }
            }
            for (min, max) in runs {
                out.push(Finding {
                    message: message.to_owned(),
                    path: path.clone(),
                    versions: VersionRange::new(min, max),
                    rule,
                    detail: detail.clone(),
                });
            }
        }
        out
    }
}

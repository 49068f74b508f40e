//! Differences a schema set is known to have from the structs, listed per set.
//!
//! The structs follow Apache Kafka 4.4.0's released schemas, and the checker holds
//! them to that set with no difference at all. The pinned set in `../shared` (trunk
//! 678c0e07, 4.4.0-SNAPSHOT) predates the release in a few places; until it moves
//! to 4.4.0 its check must pass too, so the differences it is known to give are
//! listed in a file (`tests/schemas/*.differences`), each line exactly as the
//! checker prints it. A list applies to one set only, named by a fingerprint of its
//! files: any other set, 4.4.0's among them, is allowed no difference, and a change
//! to the pinned files makes its list stop applying rather than hide something.
//! A listed line the check no longer gives is stale and fails too, so the list
//! cannot outlive what it explains.
//!
//! File format: `#` comments, one `set NAME FINGERPRINT` line, then one difference
//! per line.

use std::fmt;
use std::path::{Path, PathBuf};

use super::{Line, Report};

/// The folder holding the lists: `tests/schemas/` in the workspace.
pub fn lists_dir() -> PathBuf {
    crate::workspace_root().join("tests").join("schemas")
}

/// A list of differences known for one schema set.
#[derive(Debug, Clone, PartialEq)]
pub struct Known {
    /// The list's file.
    pub file: PathBuf,
    /// The set's name, e.g. `pinned-678c0e07`.
    pub set: String,
    /// The difference lines, as the checker prints them.
    pub lines: Vec<String>,
}

/// A list, or a schema folder, that cannot be read.
#[derive(Debug, Clone, PartialEq)]
pub struct KnownError {
    /// The file or folder.
    pub path: PathBuf,
    /// Why.
    pub reason: String,
}

impl fmt::Display for KnownError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.reason)
    }
}

impl std::error::Error for KnownError {}

/// What a report is, once the known differences are set apart.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Verdict {
    /// Differences the list explains.
    pub known: Vec<Line>,
    /// Differences it does not: each fails the check.
    pub unexplained: Vec<Line>,
    /// Listed lines the report no longer has: each fails the check.
    pub stale: Vec<String>,
}

impl Verdict {
    /// True when nothing is unexplained or stale.
    pub fn passes(&self) -> bool {
        self.unexplained.is_empty() && self.stale.is_empty()
    }
}

/// The fingerprint of a schema folder: FNV-1a (64 bits) over each `*.json` file's
/// name and bytes, in name order. Not a defence against anyone: it only tells the
/// pinned set from any other.
pub fn fingerprint(dir: &Path) -> Result<String, KnownError> {
    let fail = |path: &Path, e: std::io::Error| KnownError {
        path: path.to_path_buf(),
        reason: e.to_string(),
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| fail(dir, e))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json") && p.is_file())
        .collect();
    files.sort();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for file in &files {
        let name = file.file_name().unwrap_or_default().to_string_lossy();
        let bytes = std::fs::read(file).map_err(|e| fail(file, e))?;
        // The lengths keep a name's end from running into the bytes.
        eat(&(name.len() as u64).to_le_bytes());
        eat(name.as_bytes());
        eat(&(bytes.len() as u64).to_le_bytes());
        eat(&bytes);
    }
    Ok(format!("fnv1a64:{hash:016x}"))
}

/// Reads one list file.
pub fn read(file: &Path) -> Result<(String, String, Vec<String>), KnownError> {
    let fail = |reason: String| KnownError {
        path: file.to_path_buf(),
        reason,
    };
    let text = std::fs::read_to_string(file).map_err(|e| fail(e.to_string()))?;
    let mut set = None;
    let mut lines = Vec::new();
    for line in text.lines() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        match (line.strip_prefix("set "), &set) {
            (Some(rest), None) => {
                let mut words = rest.split_whitespace();
                match (words.next(), words.next(), words.next()) {
                    (Some(name), Some(print), None) => {
                        set = Some((name.to_owned(), print.to_owned()))
                    }
                    _ => return Err(fail(format!("`{line}`: write `set NAME FINGERPRINT`"))),
                }
            }
            (Some(_), Some(_)) => return Err(fail("more than one `set` line".to_owned())),
            (None, _) => lines.push(line.to_owned()),
        }
    }
    let (name, print) = set.ok_or_else(|| fail("no `set NAME FINGERPRINT` line".to_owned()))?;
    Ok((name, print, lines))
}

/// The list for the set in `dir`, if one of the `*.differences` files in `lists`
/// names its fingerprint.
pub fn for_set(dir: &Path, lists: &Path) -> Result<Option<Known>, KnownError> {
    let print = fingerprint(dir)?;
    let listing = std::fs::read_dir(lists).map_err(|e| KnownError {
        path: lists.to_path_buf(),
        reason: e.to_string(),
    })?;
    let mut files: Vec<PathBuf> = listing
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "differences"))
        .collect();
    files.sort();
    for file in files {
        let (set, listed, lines) = read(&file)?;
        if listed == print {
            return Ok(Some(Known { file, set, lines }));
        }
    }
    Ok(None)
}

/// Sets the report's differences apart by whether `known` lists them.
pub fn judge(report: &Report, known: Option<&Known>) -> Verdict {
    let listed: &[String] = known.map_or(&[], |k| &k.lines);
    let mut verdict = Verdict::default();
    for line in &report.differences {
        if listed.contains(&line.to_string()) {
            verdict.known.push(line.clone());
        } else {
            verdict.unexplained.push(line.clone());
        }
    }
    let found: Vec<String> = report.difference_lines();
    verdict.stale = listed
        .iter()
        .filter(|l| !found.contains(l))
        .cloned()
        .collect();
    verdict
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::temp::TempDir;

    fn report(lines: &[(&str, &str)]) -> Report {
        let mut report = Report::default();
        for (path, text) in lines {
            report.differ(path, *text);
        }
        report
    }

    fn known(lines: &[&str]) -> Known {
        Known {
            file: PathBuf::from("x.differences"),
            set: "x".to_owned(),
            lines: lines.iter().map(|l| l.to_string()).collect(),
        }
    }

    #[test]
    fn listed_lines_pass_others_fail_and_missing_ones_are_stale() {
        let found = report(&[("A", "struct without schema"), ("B.C", "extra field")]);
        let verdict = judge(
            &found,
            Some(&known(&["A: struct without schema", "D: gone"])),
        );
        assert_eq!(verdict.known.len(), 1);
        assert_eq!(verdict.unexplained[0].to_string(), "B.C: extra field");
        assert_eq!(verdict.stale, vec!["D: gone".to_owned()]);
        assert!(!verdict.passes());
        // No list: every difference is unexplained.
        let verdict = judge(&found, None);
        assert_eq!(verdict.unexplained.len(), 2);
        assert!(judge(&report(&[]), None).passes());
    }

    #[test]
    fn a_list_applies_only_to_the_set_it_names() {
        let set = TempDir::new("known-set").expect("temp folder");
        let lists = TempDir::new("known-lists").expect("temp folder");
        std::fs::write(set.path().join("A.json"), "{}").expect("write");
        let print = fingerprint(set.path()).expect("fingerprint");
        let list = format!("# why\nset pinned {print}\nA: struct without schema\n");
        std::fs::write(lists.path().join("pinned.differences"), list).expect("write");
        let found = for_set(set.path(), lists.path()).expect("reads");
        assert_eq!(
            found.map(|k| k.lines),
            Some(vec!["A: struct without schema".to_owned()])
        );
        // One byte changed in the set: the list no longer applies.
        std::fs::write(set.path().join("A.json"), "{ }").expect("write");
        assert_ne!(fingerprint(set.path()).expect("fingerprint"), print);
        assert_eq!(for_set(set.path(), lists.path()), Ok(None));
        // A list without its `set` line is an error, not an empty list.
        std::fs::write(lists.path().join("bad.differences"), "A: x\n").expect("write");
        assert!(for_set(set.path(), lists.path()).is_err());
    }
}

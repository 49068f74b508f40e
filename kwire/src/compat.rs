//! `kwire compat OLD NEW`: whether newer Kafka JSON schemas keep the bytes of older
//! (released) ones, by the rules of `kwire_schema::compat`, the same rules the
//! derive's `compatible_with` applies at compile time.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use kwire_schema::compat::{self, Finding, Rule, SetFindings};
use kwire_schema::{load_dir, load_file, SchemaMessage};

use crate::cli::CompatArgs;
use crate::error::CliError;

/// The status when a finding breaks the wire (as `diff` says "they differ").
const BREAKS: u8 = 1;
/// The status when a schema does not read or cannot be compared (as `diff` says
/// "trouble"): no verdict is possible.
const TROUBLE: u8 = 2;

/// Runs the command.
pub fn run(args: &CompatArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let allowed: Vec<Rule> = args
        .allow
        .iter()
        .map(|name| Rule::from_name(name).ok_or_else(|| unknown_rule(name)))
        .collect::<Result<_, _>>()?;
    let compared = compare(&args.old, &args.new)?;
    let write = |e: std::io::Error| CliError::new(format!("cannot write the output: {e}"));
    print(out, &compared, &allowed).map_err(write)?;
    if let Some(first) = compared.errors.first() {
        let more = match compared.errors.len() - 1 {
            0 => String::new(),
            n => format!(" (and {n} more)"),
        };
        return Err(CliError::with_status(
            format!("cannot compare {first}{more}"),
            TROUBLE,
        ));
    }
    let breaking = breaking(compared.findings.iter(), &allowed);
    if breaking > 0 {
        return Err(CliError::with_status(
            format!("{breaking} of the findings break a released version's bytes"),
            BREAKS,
        ));
    }
    Ok(())
}

/// How many of `findings` break a released version's bytes, the `allowed` rules
/// apart: what decides the exit status, and what the summary line says.
fn breaking<'a>(findings: impl Iterator<Item = &'a Finding>, allowed: &[Rule]) -> usize {
    findings
        .filter(|f| f.rule.breaks_wire() && !allowed.contains(&f.rule))
        .count()
}

fn unknown_rule(name: &str) -> CliError {
    let names: Vec<&str> = Rule::ALL.iter().map(|rule| rule.name()).collect();
    CliError::usage(format!(
        "no rule named `{name}` for --allow (rules: {})",
        names.join(", ")
    ))
}

/// Two files compare as one message whatever their names; two folders compare
/// as sets (by name, then by API key).
fn compare(old: &Path, new: &Path) -> Result<SetFindings, CliError> {
    match (old.is_dir(), new.is_dir()) {
        (true, true) => Ok(compat::compare_sets(&folder(old)?, &folder(new)?)),
        (false, false) => {
            let (old, new) = (file(old)?, file(new)?);
            let mut compared = SetFindings::default();
            match compat::compare(&old, &new) {
                Ok(findings) => compared.findings = findings,
                Err(error) => compared.errors.push(error),
            }
            Ok(compared)
        }
        _ => Err(CliError::usage(format!(
            "{} and {} must both be files or both be folders",
            old.display(),
            new.display()
        ))),
    }
}

fn file(path: &Path) -> Result<SchemaMessage, CliError> {
    load_file(path).map_err(|e| {
        CliError::with_status(
            format!("cannot read {}: {}", path.display(), e.reason),
            TROUBLE,
        )
    })
}

/// Every schema of a folder; one that does not read makes the whole comparison
/// meaningless (its message would look removed), so it fails.
fn folder(dir: &Path) -> Result<Vec<SchemaMessage>, CliError> {
    let trouble = |e: kwire_schema::LoadError| {
        CliError::with_status(
            format!("cannot read {}: {}", e.file.display(), e.reason),
            TROUBLE,
        )
    };
    let loaded = load_dir(dir).map_err(trouble)?;
    let messages: Vec<SchemaMessage> = loaded
        .into_iter()
        .collect::<Result<_, _>>()
        .map_err(trouble)?;
    if messages.is_empty() {
        return Err(CliError::with_status(
            format!("no *.json schema in {}", dir.display()),
            TROUBLE,
        ));
    }
    Ok(messages)
}

/// The findings by message name (each message's in the order the rules found
/// them: by field, then version), the added messages, then a count by rule.
fn print(out: &mut dyn Write, compared: &SetFindings, allowed: &[Rule]) -> std::io::Result<()> {
    let mut findings: Vec<&Finding> = compared.findings.iter().collect();
    findings.sort_by(|a, b| a.message.cmp(&b.message));
    for finding in &findings {
        writeln!(out, "{finding}")?;
    }
    for name in &compared.added {
        writeln!(out, "added: {name}")?;
    }
    writeln!(out, "{}", summary(&findings, compared.added.len(), allowed))
}

/// `51 findings (49 version-removed, 2 field-renamed); 3 break the wire; 2 added`.
fn summary(findings: &[&Finding], added: usize, allowed: &[Rule]) -> String {
    let mut by_rule: BTreeMap<Rule, usize> = BTreeMap::new();
    for finding in findings {
        *by_rule.entry(finding.rule).or_default() += 1;
    }
    let counts: Vec<String> = by_rule
        .iter()
        .map(|(rule, n)| {
            let note = if allowed.contains(rule) {
                ", allowed"
            } else {
                ""
            };
            format!("{n} {}{note}", rule.name())
        })
        .collect();
    let breaking = breaking(findings.iter().copied(), allowed);
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut line = plural(findings.len(), "finding", "findings");
    if !counts.is_empty() {
        line.push_str(&format!(" ({})", counts.join(", ")));
    }
    line.push_str(&format!(
        "; {} the wire",
        plural(breaking, "breaks", "break")
    ));
    if added > 0 {
        line.push_str(&format!("; {added} added"));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The help lists the rules by hand (clap wants a constant): every one of them.
    #[test]
    fn the_help_names_every_rule() {
        let help = crate::cli::COMPAT_EXAMPLES.replace(['\n', ' '], "");
        let listed = help
            .strip_prefix("Rules:")
            .and_then(|rest| rest.split("Examples:").next())
            .unwrap_or_default();
        let names: Vec<&str> = Rule::ALL.iter().map(|rule| rule.name()).collect();
        assert_eq!(listed, names.join(","));
    }
}

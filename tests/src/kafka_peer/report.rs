//! The table a suite prints: every check with what it proved or why it failed,
//! printed as it happens and as a table at the end.

use std::fmt;

/// One check's outcome.
#[derive(Debug, Clone)]
pub struct Check {
    /// The group it belongs to (`produce`, `sasl`, ...).
    pub section: String,
    /// What was checked.
    pub name: String,
    /// Whether it held.
    pub passed: bool,
    /// What was seen: the values that held, or what differed.
    pub detail: String,
}

/// The checks of a run, in order.
#[derive(Debug, Default)]
pub struct Report {
    checks: Vec<Check>,
}

impl Report {
    /// An empty report.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records a check: passed when `outcome` is `Ok` (its text says what was
    /// seen), failed with the error's text otherwise. Printed at once, so a
    /// hang shows where it is.
    pub fn record<E: fmt::Display>(
        &mut self,
        section: &str,
        name: &str,
        outcome: Result<String, E>,
    ) -> bool {
        let (passed, detail) = match outcome {
            Ok(seen) => (true, seen),
            Err(error) => (false, error.to_string()),
        };
        let check = Check {
            section: section.to_owned(),
            name: name.to_owned(),
            passed,
            detail,
        };
        println!("{check}");
        self.checks.push(check);
        passed
    }

    /// The checks so far.
    pub fn checks(&self) -> &[Check] {
        &self.checks
    }

    /// How many failed.
    pub fn failures(&self) -> usize {
        self.checks.iter().filter(|check| !check.passed).count()
    }

    /// The table of every check, then one line counting them.
    pub fn table(&self) -> String {
        let width = |f: fn(&Check) -> usize, title: &str| {
            self.checks
                .iter()
                .map(f)
                .max()
                .unwrap_or(0)
                .max(title.len())
        };
        let section = width(|c| c.section.len(), "section");
        let name = width(|c| c.name.chars().count(), "check");
        let mut out = format!(
            "{:section$}  {:name$}  {:4}  {}\n",
            "section", "check", "ok", "seen"
        );
        for check in &self.checks {
            out += &format!(
                "{:section$}  {:name$}  {:4}  {}\n",
                check.section,
                check.name,
                if check.passed { "pass" } else { "FAIL" },
                check.detail
            );
        }
        out += &format!(
            "{} checks: {} passed, {} failed\n",
            self.checks.len(),
            self.checks.len() - self.failures(),
            self.failures()
        );
        out
    }
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verdict = if self.passed { "pass" } else { "FAIL" };
        write!(
            f,
            "{verdict}: {} / {}: {}",
            self.section, self.name, self.detail
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_are_counted_and_shown() {
        let mut report = Report::new();
        assert!(report.record::<String>("produce", "v3", Ok("offset 0".into())));
        assert!(!report.record("produce", "v4", Err("offset 7, expected 3")));
        assert_eq!(report.failures(), 1);
        let table = report.table();
        assert!(table.contains("FAIL  offset 7, expected 3"), "{table}");
        assert!(table.ends_with("2 checks: 1 passed, 1 failed\n"), "{table}");
    }
}

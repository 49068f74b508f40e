//! `released_schemas OLD NEW`: every difference between two folders of Kafka's JSON
//! schemas, classified (see `kwire_tests::schema_sets`), then a count per class.
//!
//! `tests/schemas/released_run` runs it with the pinned set as OLD and the schemas
//! extracted from kafka-clients 4.4.0 as NEW. Exit status: 0 when both folders read
//! (the table is a record, not a verdict: the schema checker gives the verdict), 2
//! when a folder or a schema in it does not read.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use kwire_tests::schema_sets::{self, Entry};

fn main() -> ExitCode {
    let args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let [old, new] = args.as_slice() else {
        eprintln!("usage: released_schemas OLD-FOLDER NEW-FOLDER");
        return ExitCode::from(2);
    };
    let (old_set, new_set) = match (read(old), read(new)) {
        (Ok(o), Ok(n)) => (o, n),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("released_schemas: {e}");
            return ExitCode::from(2);
        }
    };
    println!(
        "{} ({} schemas) -> {} ({} schemas)",
        old.display(),
        old_set.len(),
        new.display(),
        new_set.len()
    );
    let differences = schema_sets::compare(&old_set, &new_set);
    for difference in &differences {
        println!("{difference}");
    }
    let counts: Vec<String> = schema_sets::counts(&differences)
        .iter()
        .map(|(class, n)| format!("{n} {}", class.name()))
        .collect();
    println!("{} differences: {}", differences.len(), counts.join(", "));
    // Versions still unstable in NEW are not differences, but they are what a
    // release can still change: name them.
    let unstable: Vec<String> = new_set
        .iter()
        .filter(|e| e.schema.latest_version_unstable)
        .map(|e| format!("{} {}", e.schema.name, e.schema.valid_versions))
        .collect();
    println!(
        "latest version unstable in NEW ({}): {}",
        unstable.len(),
        unstable.join(", ")
    );
    ExitCode::SUCCESS
}

/// Every schema of `dir` with its bytes; the first file that does not read fails
/// the whole set (a missing schema would look like a gone API).
fn read(dir: &Path) -> Result<Vec<Entry>, String> {
    let loaded = kwire_schema::load_dir(dir)
        .map_err(|e| format!("cannot list {}: {}", e.file.display(), e.reason))?;
    if loaded.is_empty() {
        return Err(format!("no *.json schema in {}", dir.display()));
    }
    loaded
        .into_iter()
        .map(|result| {
            let schema =
                result.map_err(|e| format!("cannot read {}: {}", e.file.display(), e.reason))?;
            let bytes = std::fs::read(&schema.file)
                .map_err(|e| format!("cannot read {}: {e}", schema.file.display()))?;
            Ok(Entry { schema, bytes })
        })
        .collect()
}

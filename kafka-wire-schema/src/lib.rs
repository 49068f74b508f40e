//! Kafka's JSON message schemas as data.
//!
//! Apache Kafka describes every message in a JSON file
//! (`clients/src/main/resources/common/message/*.json`). This crate
//!
//! - holds a schema as plain data ([`model`]: [`SchemaMessage`] and its parts);
//! - reads those files the way Kafka's generator does (`read`, behind the default
//!   feature `read`): standard JSON plus comments, every key kept as written,
//!   unknown keys set aside;
//! - writes them ([`write`](mod@write)), so that messages defined in Rust can be
//!   handed to Kafka's generator or to another language's;
//! - compares an older schema with a newer one, version by version ([`compat`]), and
//!   reports every change that alters what a released version's bytes mean.
//!
//! The `kwire` runtime, its derive (`compatible_with = "…"`) and the `kwire` command
//! line all use these, so a schema reads and a rule applies the same everywhere.
//!
//! Without the `read` feature the crate has no dependency on a JSON parser: what
//! the `kwire` runtime uses to write its messages out.
//!
//! ```
//! # #[cfg(feature = "read")] {
//! use std::path::Path;
//! use kwire_schema::read::load_text;
//!
//! let text = r#"{
//!   "apiKey": 1000, "type": "request", "name": "HoldSeatsRequest",
//!   "validVersions": "0-2", "flexibleVersions": "2+",
//!   "fields": [
//!     { "name": "HoldSeconds", "type": "int32", "versions": "0+", "about": "How long." }
//!   ]
//! }"#;
//! let schema = load_text(text, Path::new("HoldSeatsRequest.json")).unwrap();
//! assert_eq!(schema.fields[0].ty, "int32");
//! # }
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod compat;
#[cfg(feature = "read")]
pub mod json;
pub mod meaning;
pub mod model;
#[cfg(feature = "read")]
pub mod read;
pub mod resolve;
pub mod write;

pub use model::{SchemaDefault, SchemaField, SchemaMessage, SchemaStruct};
#[cfg(feature = "read")]
pub use read::{load_dir, load_file, load_text, LoadError};
pub use write::to_json;

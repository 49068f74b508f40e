//! Apache Kafka's messages, hand-written as [`kwire`] structs, with framing.
//!
//! - [`api`]: every live Kafka API, one module each, with its request, response and
//!   nested structs; [`data`]: the schemas stored or embedded elsewhere (control
//!   records, consumer protocol, snapshots); [`header`]: request and response
//!   headers.
//! - [`ApiKey`], [`Request`] and [`Response`]: the API table, for code that learns
//!   the API at run time; [`registry`] lists every message once.
//! - [`frame`]: `[length][header][body]`, both halves (a client's requests and
//!   responses, a server's), with the one reader of a frame's length prefix.
//! - [`ErrorCode`]: every error code of Kafka's `Errors` enum;
//!   [`control_records`]: transaction markers and KRaft records in record batches.
//!
//! Kafka adds fields to its messages in every release, so the structs are
//! `#[non_exhaustive]`: build them from `Default` (the schema defaults) with the
//! `with_<field>` setters, and code that builds them keeps compiling when fields
//! are added.
//!
//! ```
//! use kwire::{KafkaString, Message};
//! use kwire_messages::api::metadata::MetadataRequestTopic;
//! use kwire_messages::api::MetadataRequest;
//!
//! assert_eq!(MetadataRequest::SCHEMA.api_key, Some(3));
//! let topic = MetadataRequestTopic::default().with_name(Some(KafkaString::from_static("orders")));
//! let request = MetadataRequest::default()
//!     .with_topics(Some(vec![topic]))
//!     .with_allow_auto_topic_creation(false);
//! let bytes = request.encode(12).unwrap();
//! assert_eq!(MetadataRequest::decode(&bytes, 12).unwrap(), request);
//! ```
#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod api_table;
mod broker_ids;
mod error_code;

pub mod api;
pub mod control_records;
pub mod data;
pub mod frame;
pub mod header;

pub use api_table::registry;
pub use api_table::{ApiKey, ApiKeyError, Listener, Request, Response};
pub use broker_ids::BrokerIds;
pub use error_code::ErrorCode;
pub use frame::FrameError;
pub use header::{RequestHeader, ResponseHeader};

/// The crate README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

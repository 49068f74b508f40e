//! Every message this crate defines, listed once, for code that is generic over
//! messages: visit them all, or find a schema by name, or by API key and kind. The
//! APIs come from the API table (`apis.rs`); headers and `data` schemas are listed here.

use std::fmt::Debug;

use kwire::schema::{MessageKind, MessageSchema};
use kwire::Message;

/// API keys whose messages Kafka removed (`"validVersions": "none"`), with the API's
/// name. They have no structs.
pub const RETIRED_API_KEYS: &[(i16, &str)] = &[
    (4, "LeaderAndIsr"),
    (5, "StopReplica"),
    (6, "UpdateMetadata"),
    (7, "ControlledShutdown"),
];

/// Code to run once for each message type, knowing the type: to decode or encode
/// any message, build a table of functions, or collect schemas.
///
/// ```
/// use kwire::Message;
/// use kwire_messages::registry::{self, MessageVisitor};
///
/// /// Counts the messages that have a version 0.
/// struct SinceVersionZero(usize);
///
/// impl MessageVisitor for SinceVersionZero {
///     fn visit<M: Message + Clone + PartialEq + std::fmt::Debug>(&mut self) {
///         if M::SCHEMA.valid_versions.contains(0) {
///             self.0 += 1;
///         }
///     }
/// }
///
/// let mut count = SinceVersionZero(0);
/// registry::visit_all(&mut count);
/// assert!(count.0 > 50);
/// ```
pub trait MessageVisitor {
    /// Called once for message type `M`.
    fn visit<M: Message + Clone + PartialEq + Debug>(&mut self);
}

/// Calls `visitor` once for every message defined here: headers, requests and
/// responses, in API key order.
pub fn visit_all(visitor: &mut impl MessageVisitor) {
    visitor.visit::<crate::header::RequestHeader>();
    visitor.visit::<crate::header::ResponseHeader>();
    crate::api_table::visit_apis(visitor);
    visitor.visit::<crate::data::AbortedTxn>();
    visitor.visit::<crate::data::ConsumerProtocolAssignment>();
    visitor.visit::<crate::data::ConsumerProtocolSubscription>();
    visitor.visit::<crate::data::ControlRecordTypeSchema>();
    visitor.visit::<crate::data::DefaultPrincipalData>();
    visitor.visit::<crate::data::EndTxnMarker>();
    visitor.visit::<crate::data::KRaftVersionRecord>();
    visitor.visit::<crate::data::LeaderChangeMessage>();
    visitor.visit::<crate::data::SnapshotFooterRecord>();
    visitor.visit::<crate::data::SnapshotHeaderRecord>();
    visitor.visit::<crate::data::VotersRecord>();
}

/// The schema of every message defined here, in [`visit_all`]'s order.
///
/// ```
/// let all = kwire_messages::registry::schemas();
/// assert!(all.iter().any(|schema| schema.name == "ApiVersionsResponse"));
/// ```
pub fn schemas() -> Vec<&'static MessageSchema> {
    struct Schemas(Vec<&'static MessageSchema>);
    impl MessageVisitor for Schemas {
        fn visit<M: Message + Clone + PartialEq + Debug>(&mut self) {
            self.0.push(&M::SCHEMA);
        }
    }
    let mut schemas = Schemas(Vec::new());
    visit_all(&mut schemas);
    schemas.0
}

/// The schema of the message called `name` (e.g. `FetchResponse`), if this crate
/// defines it.
pub fn by_name(name: &str) -> Option<&'static MessageSchema> {
    schemas().into_iter().find(|schema| schema.name == name)
}

/// The schema of the request or response (`kind`) of the API with `api_key`, if it
/// is a live Kafka API.
///
/// ```
/// use kwire::schema::MessageKind;
/// use kwire_messages::registry;
///
/// let schema = registry::by_key(3, MessageKind::Response).unwrap();
/// assert_eq!(schema.name, "MetadataResponse");
/// assert!(registry::by_key(5, MessageKind::Request).is_none()); // retired
/// ```
pub fn by_key(api_key: i16, kind: MessageKind) -> Option<&'static MessageSchema> {
    let api = crate::ApiKey::from_i16(api_key).ok()?;
    match kind {
        MessageKind::Request => Some(api.request_schema()),
        MessageKind::Response => Some(api.response_schema()),
        _ => None,
    }
}

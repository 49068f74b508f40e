//! DescribeAcls (API key 29).

use kafka_wire::schema::MessageSchema;

/// The schemas of the messages in this module, for the registry.
pub(crate) const SCHEMAS: &[&MessageSchema] = &[];

//! CreatePartitions (API key 37).

use crate::registry::Registered;

/// The messages of this module, for the registry.
pub(crate) const MESSAGES: &[Registered] = &[];

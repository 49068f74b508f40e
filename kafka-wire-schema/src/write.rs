//! Writing a schema out as Kafka's JSON schema text.

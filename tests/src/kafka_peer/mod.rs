//! What the programs that test our client against Apache Kafka share: the
//! cluster the peer script started ([`cluster`]), the table of checks they
//! print ([`report`]), and how they set Kafka up ([`setup`]).

pub mod cluster;
pub mod report;
pub mod setup;

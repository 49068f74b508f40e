//! What the programs that test our client against Apache Kafka share: the
//! cluster the peer script started ([`cluster`]), and the table of checks they
//! print ([`report`]).

pub mod cluster;
pub mod report;

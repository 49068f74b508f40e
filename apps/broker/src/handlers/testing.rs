//! A broker for the handlers' unit tests: default options, nothing bound.

use std::sync::atomic::AtomicI64;
use std::sync::Mutex;

use bytes::Bytes;
use kwire::records::RecordBatchBuilder;
use tokio::sync::watch;

use crate::config::{Config, Limits, Options};
use crate::groups::Groups;
use crate::log::Topics;
use crate::transactions::Transactions;
use crate::Broker;

/// A broker with the default options but `limits`.
pub fn broker(limits: Limits) -> Broker {
    let mut options = Options::from_args(std::iter::empty()).expect("the defaults parse");
    options.limits = limits;
    let bound = "127.0.0.1:9092".parse().expect("an address");
    Broker {
        config: Config::new(&options, bound),
        topics: Mutex::new(Topics::default()),
        groups: Mutex::new(Groups::default()),
        transactions: Mutex::new(Transactions::default()),
        appended: watch::channel(0).0,
        next_producer_id: AtomicI64::new(1000),
        responses: kwire_net::server::MemoryBudget::new(512 << 20),
        security: None,
        authentication: kwire_net::server::AuthenticationPool::new(1),
        failed_authentication_delay: std::time::Duration::ZERO,
    }
}

/// One batch of one record whose value is `size` bytes.
pub fn batch_of_value(size: usize) -> Bytes {
    let mut builder = RecordBatchBuilder::new(0);
    builder
        .append(0, None, Some(&vec![b'v'; size]), &[])
        .expect("append");
    builder.build().expect("build")
}

//! Where responses name brokers: the (host, port) fields a proxy must rewrite so
//! that clients keep connecting through it rather than to the brokers directly.
//!
//! Three responses tell a client where to connect: Metadata (every broker),
//! FindCoordinator (the group or transaction coordinator: one set of fields up to
//! v3, an array of coordinators from v4) and DescribeCluster (every broker, used by
//! admin clients). Nothing else carries a connectable address.

use kwire::KafkaString;
use kwire_messages::Response;

/// A broker address inside a decoded response, to read and overwrite in place.
pub struct Endpoint<'a> {
    /// The host field.
    pub host: &'a mut KafkaString,
    /// The port field.
    pub port: &'a mut i32,
}

/// Every broker address in `response` (read at `version`) that a client may connect
/// to. Entries that carry an error are left out: their host and port are
/// placeholders (an empty host, port -1), not a broker.
pub fn endpoints(response: &mut Response, version: i16) -> Vec<Endpoint<'_>> {
    match response {
        Response::Metadata(metadata) => metadata
            .brokers
            .iter_mut()
            .map(|broker| Endpoint {
                host: &mut broker.host,
                port: &mut broker.port,
            })
            .collect(),
        Response::FindCoordinator(found) => {
            // Up to v3 the one coordinator is in top-level fields; v4+ has an array
            // of them instead (the old fields hold defaults, and are not written).
            if version >= 4 {
                found
                    .coordinators
                    .iter_mut()
                    .filter(|coordinator| coordinator.error_code == 0)
                    .map(|coordinator| Endpoint {
                        host: &mut coordinator.host,
                        port: &mut coordinator.port,
                    })
                    .collect()
            } else if found.error_code == 0 {
                vec![Endpoint {
                    host: &mut found.host,
                    port: &mut found.port,
                }]
            } else {
                Vec::new()
            }
        }
        Response::DescribeCluster(cluster) => cluster
            .brokers
            .iter_mut()
            .map(|broker| Endpoint {
                host: &mut broker.host,
                port: &mut broker.port,
            })
            .collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use kwire_messages::api::find_coordinator::Coordinator;
    use kwire_messages::api::metadata::MetadataResponseBroker;
    use kwire_messages::{api::FindCoordinatorResponse, api::MetadataResponse};

    use super::*;

    fn addresses(response: &mut Response, version: i16) -> Vec<(String, i32)> {
        endpoints(response, version)
            .into_iter()
            .map(|e| (e.host.to_string(), *e.port))
            .collect()
    }

    #[test]
    fn metadata_names_every_broker() {
        let broker = |id, port| {
            MetadataResponseBroker::default()
                .with_node_id(id)
                .with_host("b".into())
                .with_port(port)
        };
        let mut response = Response::Metadata(
            MetadataResponse::default().with_brokers(vec![broker(1, 9092), broker(2, 9093)]),
        );
        assert_eq!(
            addresses(&mut response, 12),
            [("b".into(), 9092), ("b".into(), 9093)]
        );
    }

    #[test]
    fn find_coordinator_by_version_and_without_errors() {
        let old = FindCoordinatorResponse::default()
            .with_host("c".into())
            .with_port(9092);
        let mut ok = Response::FindCoordinator(old.clone());
        assert_eq!(addresses(&mut ok, 3), [("c".into(), 9092)]);
        // At v4+ the old fields are not on the wire: only the array counts.
        assert!(addresses(&mut ok, 4).is_empty());
        let mut failed = Response::FindCoordinator(old.with_error_code(15));
        assert!(addresses(&mut failed, 3).is_empty());

        let coordinator = |host: &'static str, error_code| {
            Coordinator::default()
                .with_host(KafkaString::from_static(host))
                .with_port(9092)
                .with_error_code(error_code)
        };
        let mut new = Response::FindCoordinator(
            FindCoordinatorResponse::default()
                .with_coordinators(vec![coordinator("a", 0), coordinator("", 15)]),
        );
        assert_eq!(addresses(&mut new, 6), [("a".into(), 9092)]);
    }
}

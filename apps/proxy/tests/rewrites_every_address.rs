//! The real proxy binary in front of a fake broker: every response kind that names
//! a broker reaches the client naming a proxy listener instead, and that listener
//! leads back to the broker named.
//!
//! The fake broker answers each request with a response naming two nodes: an
//! unroutable one (10.99.99.99:9999: a client told it would leave the proxy, or
//! hang) and a second listener of the fake itself (reachable: the proxy listener
//! that replaces it must forward there). Single-address fields (UpdateRaftVoter's
//! current leader) name only the second.
//!
//! Plain threads and blocking sockets: every read has a timeout, so a proxy that
//! swallows a frame fails the test instead of hanging it; the timeouts bound the
//! test, nothing is timed.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Child, ChildStderr, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread;
use std::time::Duration;

use bytes::Bytes;
use kwire::KafkaString;
use kwire_messages::api::describe_cluster::DescribeClusterBroker;
use kwire_messages::api::describe_quorum::{DescribeQuorumNode, Listener};
use kwire_messages::api::find_coordinator::Coordinator;
use kwire_messages::api::metadata::MetadataResponseBroker;
use kwire_messages::api::update_raft_voter::CurrentLeader;
use kwire_messages::api::{
    begin_quorum_epoch, end_quorum_epoch, fetch, fetch_snapshot, produce, share_acknowledge,
    share_fetch, vote, BeginQuorumEpochRequest, BeginQuorumEpochResponse, DescribeClusterRequest,
    DescribeClusterResponse, DescribeQuorumRequest, DescribeQuorumResponse, EndQuorumEpochRequest,
    EndQuorumEpochResponse, FetchRequest, FetchResponse, FetchSnapshotRequest,
    FetchSnapshotResponse, FindCoordinatorRequest, FindCoordinatorResponse, MetadataRequest,
    MetadataResponse, ProduceRequest, ProduceResponse, ShareAcknowledgeRequest,
    ShareAcknowledgeResponse, ShareFetchRequest, ShareFetchResponse, UpdateRaftVoterRequest,
    UpdateRaftVoterResponse, VoteRequest, VoteResponse,
};
use kwire_messages::{frame, ApiKey, Request, RequestHeader, Response, ResponseHeader};

/// Bounds every wait: a read, the proxy's first line.
const TIMEOUT: Duration = Duration::from_secs(20);

/// The address no client must be told.
const UNROUTABLE: (&str, u16) = ("10.99.99.99", 9999);

/// Larger frames are not ours: fail rather than allocate.
const MAX_FRAME: usize = 1 << 20;

/// Each API with an address, and the versions tried: the first that carries the
/// address on the wire and the newest.
const CASES: &[(ApiKey, &[i16])] = &[
    (ApiKey::Metadata, &[0, 13]),
    (ApiKey::FindCoordinator, &[4, 6]),
    (ApiKey::DescribeCluster, &[0, 2]),
    (ApiKey::Produce, &[10, 13]),
    (ApiKey::Fetch, &[16, 18]),
    (ApiKey::ShareFetch, &[1, 2]),
    (ApiKey::ShareAcknowledge, &[1, 2]),
    (ApiKey::DescribeQuorum, &[2]),
    (ApiKey::Vote, &[1, 2]),
    (ApiKey::BeginQuorumEpoch, &[1]),
    (ApiKey::EndQuorumEpoch, &[1]),
    (ApiKey::FetchSnapshot, &[1]),
    (ApiKey::UpdateRaftVoter, &[0]),
];

#[test]
fn every_address_a_client_may_connect_to_is_a_proxy_listener() {
    let fake = FakeBroker::start();
    let proxy = ProxyProcess::start(fake.bootstrap);
    let mut seen = Seen::default();
    // Every case is tried, on a connection of its own, and the failures listed
    // together: one broken kind does not hide another.
    let failures: Vec<String> = CASES
        .iter()
        .flat_map(|&(api, versions)| versions.iter().map(move |&version| (api, version)))
        .filter_map(|(api, version)| {
            check(&fake, &proxy, &mut seen, api, version)
                .err()
                .map(|error| format!("{} v{version}: {error}", api.name()))
        })
        .collect();
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// The local addresses the responses so far gave for the two nodes: the same
/// broker must be the same listener in every response.
#[derive(Default)]
struct Seen {
    unroutable: Option<SocketAddr>,
    second: Option<SocketAddr>,
}

/// One request of `api` at `version` through the proxy: its response must name
/// proxy listeners only, and the one for the fake's second node must lead there.
fn check(
    fake: &FakeBroker,
    proxy: &ProxyProcess,
    seen: &mut Seen,
    api: ApiKey,
    version: i16,
) -> Result<(), String> {
    let named = round_trip(&mut connect(proxy.listen)?, api, version)?;
    let (unroutable, second) = match named.as_slice() {
        [second] if api == ApiKey::UpdateRaftVoter => (None, *second),
        [unroutable, second] => (Some(*unroutable), *second),
        other => return Err(format!("expected two addresses, got {other:?}")),
    };
    for address in unroutable.iter().chain([&second]) {
        // The proxy binds its broker listeners to its --listen IP.
        if address.ip() != proxy.listen.ip() || *address == fake.second {
            return Err(format!("{address} was not rewritten"));
        }
        if *address == proxy.listen {
            return Err(format!("{address} is the bootstrap listener"));
        }
    }
    if let Some(unroutable) = unroutable {
        if unroutable == second {
            return Err(format!("two brokers, one listener {second}"));
        }
        let first = *seen.unroutable.get_or_insert(unroutable);
        if first != unroutable {
            return Err(format!("{UNROUTABLE:?} was {first}, now {unroutable}"));
        }
        // A listener: it accepts (the proxy then fails to reach 10.99.99.99, which
        // is not this test's business).
        drop(connect(unroutable)?);
    }
    let first = *seen.second.get_or_insert(second);
    if first != second {
        return Err(format!("{} was {first}, now {second}", fake.second));
    }
    // The listener named for the second node leads to it: the same request through
    // it is answered by that listener of the fake.
    let served = fake.second_served.load(Ordering::SeqCst);
    round_trip(&mut connect(second)?, api, version)
        .map_err(|error| format!("through {second}: {error}"))?;
    if fake.second_served.load(Ordering::SeqCst) != served + 1 {
        return Err(format!("{second} did not reach {}", fake.second));
    }
    Ok(())
}

/// Sends a request of `api` at `version` and returns the addresses its response
/// names, in order.
fn round_trip(
    stream: &mut TcpStream,
    api: ApiKey,
    version: i16,
) -> Result<Vec<SocketAddr>, String> {
    // One request per connection: any id will do, as long as it is checked.
    let correlation_id = 42;
    let header = RequestHeader::default()
        .with_request_api_key(api.key())
        .with_request_api_version(version)
        .with_correlation_id(correlation_id)
        .with_client_id(Some(KafkaString::from_static("rewrites-test")));
    let bytes = frame::encode_any_request(&header, &request(api))
        .map_err(|error| format!("request does not encode: {error}"))?;
    stream
        .write_all(&bytes)
        .map_err(|error| format!("write: {error}"))?;
    let frame = read_frame(stream)
        .map_err(|error| format!("read: {error}"))?
        .ok_or("the proxy closed the connection")?;
    let (header, response) = frame::decode_any_response(&frame, api, version)
        .map_err(|error| format!("response does not decode: {error}"))?;
    if header.correlation_id != correlation_id {
        return Err(format!("answers {}", header.correlation_id));
    }
    named(&response)
        .into_iter()
        .map(|(host, port)| {
            let ip = host
                .parse()
                .map_err(|_| format!("host {host:?} is not an IP: not a proxy listener"))?;
            let port = u16::try_from(port).map_err(|_| format!("port {port}"))?;
            Ok(SocketAddr::new(ip, port))
        })
        .collect()
}

/// A request the proxy forwards and expects an answer to.
fn request(api: ApiKey) -> Request {
    match api {
        ApiKey::Metadata => Request::Metadata(MetadataRequest::default()),
        ApiKey::FindCoordinator => Request::FindCoordinator(FindCoordinatorRequest::default()),
        ApiKey::DescribeCluster => Request::DescribeCluster(DescribeClusterRequest::default()),
        // acks = 0 gets no response.
        ApiKey::Produce => Request::Produce(ProduceRequest::default().with_acks(-1)),
        ApiKey::Fetch => Request::Fetch(FetchRequest::default()),
        ApiKey::ShareFetch => Request::ShareFetch(ShareFetchRequest::default()),
        ApiKey::ShareAcknowledge => Request::ShareAcknowledge(ShareAcknowledgeRequest::default()),
        ApiKey::DescribeQuorum => Request::DescribeQuorum(DescribeQuorumRequest::default()),
        ApiKey::Vote => Request::Vote(VoteRequest::default()),
        ApiKey::BeginQuorumEpoch => Request::BeginQuorumEpoch(BeginQuorumEpochRequest::default()),
        ApiKey::EndQuorumEpoch => Request::EndQuorumEpoch(EndQuorumEpochRequest::default()),
        ApiKey::FetchSnapshot => Request::FetchSnapshot(FetchSnapshotRequest::default()),
        ApiKey::UpdateRaftVoter => Request::UpdateRaftVoter(UpdateRaftVoterRequest::default()),
        other => unreachable!("no case for {other:?}"),
    }
}

/// The fake broker's answer to `api`, naming `nodes` (the last alone where the
/// field holds one address).
fn response(api: ApiKey, nodes: &[(&str, u16)]) -> Response {
    let host = |host: &str| KafkaString::from(host.to_string());
    match api {
        ApiKey::Metadata => Response::Metadata(MetadataResponse::default().with_brokers(each(
            nodes,
            |h, p| {
                MetadataResponseBroker::default()
                    .with_host(host(h))
                    .with_port(i32::from(p))
            },
        ))),
        ApiKey::FindCoordinator => Response::FindCoordinator(
            FindCoordinatorResponse::default().with_coordinators(each(nodes, |h, p| {
                Coordinator::default()
                    .with_host(host(h))
                    .with_port(i32::from(p))
            })),
        ),
        ApiKey::DescribeCluster => Response::DescribeCluster(
            DescribeClusterResponse::default().with_brokers(each(nodes, |h, p| {
                DescribeClusterBroker::default()
                    .with_host(host(h))
                    .with_port(i32::from(p))
            })),
        ),
        ApiKey::Produce => Response::Produce(ProduceResponse::default().with_node_endpoints(each(
            nodes,
            |h, p| {
                produce::NodeEndpoint::default()
                    .with_host(host(h))
                    .with_port(i32::from(p))
            },
        ))),
        ApiKey::Fetch => Response::Fetch(FetchResponse::default().with_node_endpoints(each(
            nodes,
            |h, p| {
                fetch::NodeEndpoint::default()
                    .with_host(host(h))
                    .with_port(i32::from(p))
            },
        ))),
        ApiKey::ShareFetch => Response::ShareFetch(
            ShareFetchResponse::default().with_node_endpoints(each(nodes, |h, p| {
                share_fetch::NodeEndpoint::default()
                    .with_host(host(h))
                    .with_port(i32::from(p))
            })),
        ),
        ApiKey::ShareAcknowledge => Response::ShareAcknowledge(
            ShareAcknowledgeResponse::default().with_node_endpoints(each(nodes, |h, p| {
                share_acknowledge::NodeEndpoint::default()
                    .with_host(host(h))
                    .with_port(i32::from(p))
            })),
        ),
        // One node per address: a listener per node, as a quorum describes itself.
        ApiKey::DescribeQuorum => Response::DescribeQuorum(
            DescribeQuorumResponse::default().with_nodes(each(nodes, |h, p| {
                DescribeQuorumNode::default().with_listeners(vec![Listener::default()
                    .with_name(KafkaString::from_static("CONTROLLER"))
                    .with_host(host(h))
                    .with_port(p)])
            })),
        ),
        ApiKey::Vote => Response::Vote(VoteResponse::default().with_node_endpoints(each(
            nodes,
            |h, p| {
                vote::NodeEndpoint::default()
                    .with_host(host(h))
                    .with_port(p)
            },
        ))),
        ApiKey::BeginQuorumEpoch => Response::BeginQuorumEpoch(
            BeginQuorumEpochResponse::default().with_node_endpoints(each(nodes, |h, p| {
                begin_quorum_epoch::NodeEndpoint::default()
                    .with_host(host(h))
                    .with_port(p)
            })),
        ),
        ApiKey::EndQuorumEpoch => Response::EndQuorumEpoch(
            EndQuorumEpochResponse::default().with_node_endpoints(each(nodes, |h, p| {
                end_quorum_epoch::NodeEndpoint::default()
                    .with_host(host(h))
                    .with_port(p)
            })),
        ),
        ApiKey::FetchSnapshot => Response::FetchSnapshot(
            FetchSnapshotResponse::default().with_node_endpoints(each(nodes, |h, p| {
                fetch_snapshot::NodeEndpoint::default()
                    .with_host(host(h))
                    .with_port(p)
            })),
        ),
        ApiKey::UpdateRaftVoter => {
            let (h, p) = nodes.last().copied().unwrap_or(UNROUTABLE);
            Response::UpdateRaftVoter(
                UpdateRaftVoterResponse::default().with_current_leader(
                    CurrentLeader::default()
                        .with_leader_id(2)
                        .with_leader_epoch(1)
                        .with_host(host(h))
                        .with_port(i32::from(p)),
                ),
            )
        }
        other => unreachable!("no case for {other:?}"),
    }
}

/// One value per node, made by `make` from its host and port.
fn each<T>(nodes: &[(&str, u16)], make: impl Fn(&str, u16) -> T) -> Vec<T> {
    nodes.iter().map(|&(host, port)| make(host, port)).collect()
}

/// The addresses a response names, as the client reads them: written here
/// independently of the proxy's `rewrite.rs`, so that the two check each other.
fn named(response: &Response) -> Vec<(String, i32)> {
    fn pairs<'a, T: 'a>(
        items: impl IntoIterator<Item = &'a T>,
        pair: impl Fn(&T) -> (&KafkaString, i32),
    ) -> Vec<(String, i32)> {
        items
            .into_iter()
            .map(|item| {
                let (host, port) = pair(item);
                (host.to_string(), port)
            })
            .collect()
    }
    match response {
        Response::Metadata(r) => pairs(&r.brokers, |b| (&b.host, b.port)),
        Response::FindCoordinator(r) => pairs(&r.coordinators, |c| (&c.host, c.port)),
        Response::DescribeCluster(r) => pairs(&r.brokers, |b| (&b.host, b.port)),
        Response::Produce(r) => pairs(&r.node_endpoints, |n| (&n.host, n.port)),
        Response::Fetch(r) => pairs(&r.node_endpoints, |n| (&n.host, n.port)),
        Response::ShareFetch(r) => pairs(&r.node_endpoints, |n| (&n.host, n.port)),
        Response::ShareAcknowledge(r) => pairs(&r.node_endpoints, |n| (&n.host, n.port)),
        Response::DescribeQuorum(r) => pairs(r.nodes.iter().flat_map(|n| &n.listeners), |l| {
            (&l.host, i32::from(l.port))
        }),
        Response::Vote(r) => pairs(&r.node_endpoints, |n| (&n.host, i32::from(n.port))),
        Response::BeginQuorumEpoch(r) => pairs(&r.node_endpoints, |n| (&n.host, i32::from(n.port))),
        Response::EndQuorumEpoch(r) => pairs(&r.node_endpoints, |n| (&n.host, i32::from(n.port))),
        Response::FetchSnapshot(r) => pairs(&r.node_endpoints, |n| (&n.host, i32::from(n.port))),
        Response::UpdateRaftVoter(r) => {
            let leader = &r.current_leader;
            vec![(leader.host.to_string(), leader.port)]
        }
        _ => Vec::new(),
    }
}

/// A broker that answers every request with a response naming two nodes: the
/// unroutable address and its own second listener.
struct FakeBroker {
    /// Where the proxy's `--upstream` points.
    bootstrap: SocketAddr,
    /// The second node: a listener of the fake too.
    second: SocketAddr,
    /// Requests the second listener has answered.
    second_served: Arc<AtomicUsize>,
}

impl FakeBroker {
    fn start() -> Self {
        let bootstrap = TcpListener::bind("127.0.0.1:0").expect("bind the fake broker");
        let second = TcpListener::bind("127.0.0.1:0").expect("bind the fake's second node");
        let fake = FakeBroker {
            bootstrap: bootstrap.local_addr().expect("fake broker address"),
            second: second.local_addr().expect("fake second node address"),
            second_served: Arc::new(AtomicUsize::new(0)),
        };
        let nodes = Arc::new(fake.second);
        // The accept loops end with the test process: nothing joins them.
        for (listener, served) in [
            (bootstrap, None),
            (second, Some(Arc::clone(&fake.second_served))),
        ] {
            let nodes = Arc::clone(&nodes);
            thread::spawn(move || {
                for stream in listener.incoming().flatten() {
                    let (nodes, served) = (Arc::clone(&nodes), served.clone());
                    thread::spawn(move || serve(stream, *nodes, served.as_deref()));
                }
            });
        }
        fake
    }
}

/// Answers the requests on one connection until it closes, fails or falls silent.
fn serve(mut stream: TcpStream, second: SocketAddr, served: Option<&AtomicUsize>) {
    let second_host = second.ip().to_string();
    let nodes = [UNROUTABLE, (second_host.as_str(), second.port())];
    if stream.set_read_timeout(Some(TIMEOUT)).is_err() {
        return;
    }
    while let Ok(Some(frame)) = read_frame(&mut stream) {
        let Ok((header, _)) = frame::decode_any_request(&frame) else {
            return;
        };
        let version = header.request_api_version;
        let Ok(api) = ApiKey::from_i16(header.request_api_key) else {
            return;
        };
        let reply = ResponseHeader::default().with_correlation_id(header.correlation_id);
        let Ok(bytes) = frame::encode_any_response(&reply, &response(api, &nodes), version) else {
            return;
        };
        // Counted before the answer leaves, so the client sees the count once it
        // has the answer.
        if let Some(served) = served {
            served.fetch_add(1, Ordering::SeqCst);
        }
        if stream.write_all(&bytes).is_err() {
            return;
        }
    }
}

/// One frame, its length prefix included; `None` at a clean end of stream.
fn read_frame(stream: &mut TcpStream) -> io::Result<Option<Bytes>> {
    let mut prefix = [0; 4];
    match stream.read_exact(&mut prefix) {
        Ok(()) => {}
        Err(error) if error.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(error) => return Err(error),
    }
    let len = usize::try_from(i32::from_be_bytes(prefix))
        .ok()
        .filter(|len| *len <= MAX_FRAME)
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, "bad frame length"))?;
    let mut frame = vec![0; 4 + len];
    frame[..4].copy_from_slice(&prefix);
    stream.read_exact(&mut frame[4..])?;
    Ok(Some(Bytes::from(frame)))
}

fn connect(address: SocketAddr) -> Result<TcpStream, String> {
    let stream = TcpStream::connect_timeout(&address, TIMEOUT)
        .map_err(|error| format!("connect to {address}: {error}"))?;
    stream
        .set_read_timeout(Some(TIMEOUT))
        .map_err(|error| format!("set a read timeout: {error}"))?;
    Ok(stream)
}

/// The proxy binary, killed when dropped (a failed assertion included), its stderr
/// shown if the test failed.
struct ProxyProcess {
    child: Child,
    listen: SocketAddr,
    stderr: Arc<Mutex<String>>,
}

impl ProxyProcess {
    fn start(upstream: SocketAddr) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kwire-proxy"))
            .args([
                "--listen",
                "127.0.0.1:0",
                "--upstream",
                &upstream.to_string(),
            ])
            .env("RUST_LOG", "info")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start kwire-proxy");
        let stderr = Arc::new(Mutex::new(String::new()));
        if let Some(pipe) = child.stderr.take() {
            collect(pipe, Arc::clone(&stderr));
        }
        // The guard exists before anything can fail, so the process dies with it.
        let mut proxy = ProxyProcess {
            child,
            listen: SocketAddr::from(([0, 0, 0, 0], 0)),
            stderr,
        };
        let stdout = proxy.child.stdout.take().expect("piped stdout");
        // Read on a thread, so that a proxy that never prints fails the test in
        // TIMEOUT instead of blocking it.
        let (sender, receiver) = mpsc::channel();
        thread::spawn(move || {
            let mut lines = BufReader::new(stdout).lines();
            let first = lines.next();
            let _ = sender.send(first);
            // Keep the pipe open (and drained) while the proxy lives.
            for _ in lines {}
        });
        let line = match receiver.recv_timeout(TIMEOUT) {
            Ok(Some(Ok(line))) => line,
            other => panic!("no line from kwire-proxy: {other:?}"),
        };
        proxy.listen = line
            .strip_prefix("listening on ")
            .and_then(|address| address.parse().ok())
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"));
        proxy
    }
}

impl Drop for ProxyProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if thread::panicking() {
            if let Ok(stderr) = self.stderr.lock() {
                eprintln!("kwire-proxy's stderr:\n{stderr}");
            }
        }
    }
}

/// Appends everything `pipe` says to `into`, on a thread of its own.
fn collect(pipe: ChildStderr, into: Arc<Mutex<String>>) {
    thread::spawn(move || {
        for line in BufReader::new(pipe).lines() {
            let Ok(line) = line else { return };
            if let Ok(mut text) = into.lock() {
                text.push_str(&line);
                text.push('\n');
            }
        }
    });
}

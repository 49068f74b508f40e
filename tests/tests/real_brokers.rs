//! Against real Kafka-compatible brokers, started here by `tests/interop/broker.py`
//! (it installs them into a cache the first time): tansu 0.6.0 and noida-db 0.2.3.
//! A client session negotiates versions (surviving what each broker answers to an
//! ApiVersions version it does not know), then sends Metadata and CreateTopics and
//! decodes every response. Real brokers write non-canonical bytes, so values are
//! compared, not bytes.
//!
//! `KAFKA_WIRE_PYTHON` names the Python to run the script with (default `python3`).

use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use kwire::KafkaString;
use kwire_messages::api::create_topics::CreatableTopic;
use kwire_messages::api::metadata::MetadataRequestTopic;
use kwire_messages::ErrorCode;
use kwire_messages::{
    api::ApiVersionsRequest, api::CreateTopicsRequest, api::MetadataRequest, ApiKey, Request,
    Response,
};
use kwire_net::blocking::FrameReader;
use kwire_net::negotiation::{first_api_versions_version, next_step, Negotiated, NextStep};
use kwire_net::session::{ClientSession, Received};

/// A broker process, stopped when dropped.
struct Broker {
    port: u16,
    pidfile: PathBuf,
}

fn script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("interop/broker.py")
}

fn python() -> String {
    std::env::var("KAFKA_WIRE_PYTHON").unwrap_or_else(|_| "python3".into())
}

impl Broker {
    fn start(kind: &str) -> Broker {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let pidfile = std::env::temp_dir().join(format!("kafka-wire-{kind}-{port}.pid"));
        let status = Command::new(python())
            .arg(script())
            .args(["start", kind, "--port", &port.to_string(), "--pidfile"])
            .arg(&pidfile)
            .status()
            .expect("run tests/interop/broker.py");
        assert!(status.success(), "{kind} did not start: {status}");
        Broker { port, pidfile }
    }
}

impl Drop for Broker {
    fn drop(&mut self) {
        let _ = Command::new(python())
            .arg(script())
            .args(["stop", "--pidfile"])
            .arg(&self.pidfile)
            .status();
    }
}

/// One connection: a session, and the frames it writes and reads.
struct Connection {
    session: ClientSession,
    writer: TcpStream,
    reader: FrameReader<TcpStream>,
}

impl Connection {
    fn open(port: u16) -> Connection {
        let stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        Connection {
            session: ClientSession::new(Some(KafkaString::from_static("kafka-wire-interop"))),
            writer: stream.try_clone().unwrap(),
            reader: FrameReader::new(stream),
        }
    }

    fn call(&mut self, request: Request, version: i16) -> Received {
        let mut sent = self.session.send(&request, version).expect("frame");
        kwire_net::blocking::write_all_buf(&mut self.writer, &mut sent.frame).expect("write");
        let frame = self.reader.read_frame().expect("read").expect("a frame");
        let received = self.session.receive(&frame).expect("decode");
        assert_eq!(received.header.correlation_id, sent.correlation_id);
        received
    }

    /// ApiVersions at our highest version, then at the broker's when it says so.
    fn negotiate(&mut self) -> (Negotiated, Vec<i16>) {
        let mut asked = vec![first_api_versions_version()];
        loop {
            let version = *asked.last().unwrap();
            let request = ApiVersionsRequest::default()
                .with_client_software_name("kafka-wire".into())
                .with_client_software_version("0.1.0".into());
            let Response::ApiVersions(response) =
                self.call(Request::ApiVersions(request), version).body
            else {
                panic!("not an ApiVersions response");
            };
            match next_step(version, &response).expect("negotiation") {
                NextStep::Done(negotiated) => return (negotiated, asked),
                NextStep::RetryAt(lower) => asked.push(lower),
            }
        }
    }
}

fn metadata(connection: &mut Connection, version: i16, topic: Option<&str>) -> Response {
    let topics = topic
        .map(|name| vec![MetadataRequestTopic::default().with_name(Some(KafkaString::from(name)))]);
    let request = MetadataRequest::default()
        .with_topics(topics)
        .with_allow_auto_topic_creation(false);
    connection.call(Request::Metadata(request), version).body
}

fn exercise(kind: &str) {
    let broker = Broker::start(kind);
    let mut connection = Connection::open(broker.port);
    let (negotiated, asked) = connection.negotiate();
    eprintln!("{kind}: ApiVersions asked at {asked:?}");

    let metadata_version = negotiated.version(ApiKey::Metadata).expect("Metadata");
    let Response::Metadata(cluster) = metadata(&mut connection, metadata_version, None) else {
        panic!("not a Metadata response");
    };
    assert!(!cluster.brokers.is_empty(), "{kind}: no brokers listed");
    assert!(cluster
        .brokers
        .iter()
        .any(|b| b.port == i32::from(broker.port)));

    let create_version = negotiated
        .version(ApiKey::CreateTopics)
        .expect("CreateTopics");
    let topic = format!("kafka-wire-{kind}");
    let request = CreateTopicsRequest::default()
        .with_topics(vec![CreatableTopic::default()
            .with_name(KafkaString::from(topic.as_str()))
            .with_num_partitions(3)
            .with_replication_factor(1)])
        .with_timeout_ms(10_000);
    let Response::CreateTopics(created) = connection
        .call(Request::CreateTopics(request), create_version)
        .body
    else {
        panic!("not a CreateTopics response");
    };
    assert_eq!(created.topics.len(), 1);
    assert_eq!(&*created.topics[0].name, topic.as_str());
    let code = ErrorCode::from_code(created.topics[0].error_code);
    assert_eq!(code, ErrorCode::None, "{kind}: CreateTopics: {code}");

    let Response::Metadata(described) = metadata(&mut connection, metadata_version, Some(&topic))
    else {
        panic!("not a Metadata response");
    };
    let listed = described
        .topics
        .iter()
        .find(|t| t.name.as_deref() == Some(topic.as_str()))
        .unwrap_or_else(|| panic!("{kind}: {topic} not in {described:?}"));
    assert_eq!(ErrorCode::from_code(listed.error_code), ErrorCode::None);
    assert_eq!(listed.partitions.len(), 3, "{kind}");
    assert_eq!(connection.session.in_flight(), 0);
}

#[test]
fn tansu_negotiates_lists_and_creates_topics() {
    exercise("tansu");
}

#[test]
fn noida_negotiates_lists_and_creates_topics() {
    exercise("noida");
}

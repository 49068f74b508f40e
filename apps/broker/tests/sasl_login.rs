//! This crate's SASL client against the real broker binary started with
//! `--sasl-user`: SCRAM over SaslHandshake v1 and SaslAuthenticate, SCRAM over
//! SaslHandshake v0's raw tokens, a wrong password answered and closed, and a
//! request before authenticating closed without an answer.
//!
//! Blocking sockets with read timeouts: a broker that swallows a frame fails the
//! test instead of hanging it; nothing is timed.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use bytes::Bytes;
use kwire::KafkaString;
use kwire_messages::api::{MetadataRequest, SaslAuthenticateRequest, SaslHandshakeRequest};
use kwire_messages::{ErrorCode, Request, Response};
use kwire_net::blocking::{write_frame, FrameReader};
use kwire_net::sasl::{ClientStep, SaslClient, ScramHash};
use kwire_net::session::ClientSession;

/// The broker, killed when dropped.
struct Broker {
    child: Child,
    address: String,
}

impl Broker {
    fn start() -> Broker {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kwire-broker"))
            .args([
                "--listen",
                "127.0.0.1:0",
                "--sasl-user",
                "alice:alice-secret",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the broker");
        let mut line = String::new();
        let stdout = child.stdout.take().expect("stdout");
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("its first line");
        let address = line
            .strip_prefix("listening on ")
            .expect("listening on ADDRESS")
            .trim()
            .to_owned();
        Broker { child, address }
    }
}

impl Drop for Broker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Connection {
    session: ClientSession,
    writer: TcpStream,
    reader: FrameReader<TcpStream>,
}

impl Connection {
    fn open(broker: &Broker) -> Connection {
        let stream = TcpStream::connect(&broker.address).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        Connection {
            session: ClientSession::new(Some(KafkaString::from_static("sasl-login-test"))),
            writer: stream.try_clone().unwrap(),
            reader: FrameReader::new(stream),
        }
    }

    /// The response, or `None` when the broker closed the connection instead.
    fn call(&mut self, request: Request, version: i16) -> Option<Response> {
        let sent = self.session.send(&request, version).expect("frame");
        self.writer.write_all(&sent.frame).expect("write");
        let frame = self.reader.read_frame().ok()??;
        Some(self.session.receive(&frame).expect("decode").body)
    }

    fn metadata(&mut self) -> Option<Response> {
        self.call(
            Request::Metadata(MetadataRequest::default().with_topics(Some(vec![]))),
            12,
        )
    }

    fn handshake(&mut self, mechanism: &'static str, version: i16) {
        let request = SaslHandshakeRequest::default().with_mechanism(mechanism.into());
        let Some(Response::SaslHandshake(r)) = self.call(Request::SaslHandshake(request), version)
        else {
            panic!("no SaslHandshake answer");
        };
        assert_eq!(r.error_code, 0);
    }

    /// A whole SaslAuthenticate exchange; the last answer's error code.
    fn authenticate(&mut self, mut client: SaslClient) -> i16 {
        self.handshake(client.mechanism().name(), 1);
        let mut token = client.start().unwrap();
        loop {
            let request = SaslAuthenticateRequest::default().with_auth_bytes(Bytes::from(token));
            let Some(Response::SaslAuthenticate(r)) =
                self.call(Request::SaslAuthenticate(request), 2)
            else {
                panic!("no SaslAuthenticate answer");
            };
            if r.error_code != 0 {
                return r.error_code;
            }
            match client
                .step(&r.auth_bytes)
                .expect("the server's message verifies")
            {
                ClientStep::Send(next) => token = next,
                ClientStep::Done => return 0,
            }
        }
    }
}

#[test]
fn scram_over_sasl_authenticate_then_requests_are_served() {
    let broker = Broker::start();
    let mut connection = Connection::open(&broker);
    let client = SaslClient::scram(ScramHash::Sha512, "alice", "alice-secret").unwrap();
    assert_eq!(connection.authenticate(client), 0);
    assert!(matches!(connection.metadata(), Some(Response::Metadata(_))));
}

#[test]
fn scram_over_handshake_v0_raw_tokens() {
    let broker = Broker::start();
    let mut connection = Connection::open(&broker);
    connection.handshake("SCRAM-SHA-256", 0);
    let mut client = SaslClient::scram(ScramHash::Sha256, "alice", "alice-secret").unwrap();
    let mut token = client.start().unwrap();
    loop {
        write_frame(&mut connection.writer, &token).expect("write a token");
        let reply = connection
            .reader
            .read_frame()
            .expect("read")
            .expect("a token");
        match client
            .step(&reply[4..])
            .expect("the server's message verifies")
        {
            ClientStep::Send(next) => token = next,
            ClientStep::Done => break,
        }
    }
    assert!(matches!(connection.metadata(), Some(Response::Metadata(_))));
}

#[test]
fn a_wrong_password_is_refused_and_closed() {
    let broker = Broker::start();
    for client in [
        SaslClient::scram(ScramHash::Sha256, "alice", "guess").unwrap(),
        SaslClient::plain("alice", "guess").unwrap(),
        SaslClient::plain("nobody", "alice-secret").unwrap(),
    ] {
        let mut connection = Connection::open(&broker);
        assert_eq!(
            connection.authenticate(client),
            ErrorCode::SaslAuthenticationFailed.code()
        );
        assert!(
            connection.metadata().is_none(),
            "served after a failed login"
        );
    }
}

#[test]
fn nothing_is_served_before_authenticating() {
    let broker = Broker::start();
    let mut connection = Connection::open(&broker);
    assert!(
        connection.metadata().is_none(),
        "Metadata answered without a login"
    );
}

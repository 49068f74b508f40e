//! This crate's SASL client against the real broker binary started with
//! `--sasl-user`: SCRAM over SaslHandshake v1 and SaslAuthenticate, SCRAM over
//! SaslHandshake v0's raw tokens, a wrong password answered and closed, and a
//! request before authenticating closed without an answer. Then started with
//! only `--sasl-users-file` (salted credentials, no password): SCRAM and PLAIN
//! let the right password in, a wrong one and a mechanism the user has no
//! credential for are refused, and a bad file stops the start.
//!
//! Blocking sockets with read timeouts: a broker that swallows a frame fails the
//! test instead of hanging it; nothing is timed.

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use bytes::Bytes;
use kwire::KafkaString;
use kwire_messages::api::{MetadataRequest, SaslAuthenticateRequest, SaslHandshakeRequest};
use kwire_messages::{ErrorCode, Request, Response};
use kwire_net::blocking::{write_frame, FrameReader};
use kwire_net::sasl::{ClientStep, SaslClient, ScramCredential, ScramHash};
use kwire_net::session::ClientSession;

/// The broker, killed when dropped.
struct Broker {
    child: Child,
    address: String,
}

impl Broker {
    /// With `--sasl-user alice:alice-secret`.
    fn start() -> Broker {
        Broker::start_with(&["--sasl-user", "alice:alice-secret"])
    }

    /// Listening on a free port, with `args` for its users.
    fn start_with(args: &[&str]) -> Broker {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kwire-broker"))
            .args(["--listen", "127.0.0.1:0"])
            .args(args)
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
        let mut sent = self.session.send(&request, version).expect("frame");
        kwire_net::blocking::write_all_buf(&mut self.writer, &mut sent.frame).expect("write");
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
        assert_refused(&broker, client);
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

// ---------------------------------------------------------------------------
// --sasl-users-file

/// A users file holding `text` in Cargo's temporary directory for these tests.
fn users_file(name: &str, text: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}.users"));
    std::fs::write(&path, text).expect("write the users file");
    path
}

/// A broker whose only user is dave, stored for SCRAM-SHA-512 only, as
/// `kwire scram-credential dave` writes the line; `test` names its file (one
/// a test: the tests run at once).
fn dave_broker(test: &str) -> Broker {
    let credential = ScramCredential::new(ScramHash::Sha512, "dave-secret", 8192).unwrap();
    let text = format!("# NAME MECHANISM CREDENTIAL\n\ndave SCRAM-SHA-512 {credential}\n");
    let path = users_file(test, &text);
    Broker::start_with(&["--sasl-users-file", path.to_str().unwrap()])
}

#[test]
fn a_users_file_lets_the_right_password_in_by_scram_and_plain() {
    let broker = dave_broker("right");
    for client in [
        SaslClient::scram(ScramHash::Sha512, "dave", "dave-secret").unwrap(),
        SaslClient::plain("dave", "dave-secret").unwrap(),
    ] {
        let mut connection = Connection::open(&broker);
        assert_eq!(connection.authenticate(client), 0);
        assert!(matches!(connection.metadata(), Some(Response::Metadata(_))));
    }
}

#[test]
fn a_users_file_refuses_a_wrong_password_and_a_mechanism_not_stored() {
    let broker = dave_broker("wrong");
    for client in [
        SaslClient::scram(ScramHash::Sha512, "dave", "guess").unwrap(),
        SaslClient::plain("dave", "guess").unwrap(),
        // The right password, by a mechanism dave has no credential for.
        SaslClient::scram(ScramHash::Sha256, "dave", "dave-secret").unwrap(),
        SaslClient::scram(ScramHash::Sha512, "alice", "alice-secret").unwrap(),
    ] {
        assert_refused(&broker, client);
    }
}

#[test]
fn a_bad_users_file_stops_the_start() {
    let credential = ScramCredential::new(ScramHash::Sha256, "x", 4096).unwrap();
    // Line 2: SHA-256 keys under SCRAM-SHA-512.
    let text = format!("# users\nerin SCRAM-SHA-512 {credential}\n");
    let path = users_file("bad", &text);
    let output = Command::new(env!("CARGO_BIN_EXE_kwire-broker"))
        .args(["--listen", "127.0.0.1:0", "--sasl-users-file"])
        .arg(&path)
        .stdin(Stdio::null())
        .output()
        .expect("run the broker");
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(output.stdout.is_empty(), "it listened: {output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let first = stderr.lines().next().unwrap_or_default();
    assert_eq!(
        first,
        format!(
            "broker: --sasl-users-file {} line 2: erin SCRAM-SHA-512: bad SCRAM credential: \
             stored_key has 32 bytes, SCRAM-SHA-512 keys have 64",
            path.display()
        )
    );
}

/// `client`'s login to `broker` fails, and nothing is served after it.
fn assert_refused(broker: &Broker, client: SaslClient) {
    let mut connection = Connection::open(broker);
    assert_eq!(
        connection.authenticate(client),
        ErrorCode::SaslAuthenticationFailed.code()
    );
    assert!(
        connection.metadata().is_none(),
        "served after a failed login"
    );
}

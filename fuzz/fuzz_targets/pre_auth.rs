//! What a stranger can send a SASL listener before logging in, as a server built
//! from kwire-net reads it: a byte stream through `FrameReader` with
//! `sasl.server.max.receive.size`, each frame decoded and given to the SASL gate
//! with every mechanism, until the connection logs in or is closed.
//!
//! Large by construction: the input describes frames whose tokens repeat a piece
//! up to a mebibyte and more (`,a=b` after a SCRAM client-first, NUL bytes after
//! PLAIN, dots in a bearer token), and prefixes that declare any length, so
//! that the fuzzer meets the sizes an attacker sends without inputs that big.
//! Run with `-malloc_limit_mb=4` (`fuzz/run` does): no single allocation may be
//! several times a frame at the limit (a PLAIN message of NUL bytes split into a
//! vector of parts took 16 bytes for each byte). It must not panic, and:
//!
//! - no frame over the limit is returned before login, and one declared over it
//!   is refused with nothing but its prefix buffered;
//! - frames before login take nothing from the request budget;
//! - nothing but ApiVersions and the SASL exchange is served before login;
//! - once the gate has logged the connection in, the reader lifts the limit.
//!
//! The first byte configures the server (mechanisms enabled, a token validator,
//! a session lifetime); then each operation is a byte, see `Stream::op`.
#![no_main]

mod common;

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use kwire::{DecodeLimits, MessageEnum};
use kwire_messages::frame::{frame_contents, RequestFrame, TrailingBytes};
use kwire_messages::Request;
use kwire_net::sasl::{Gate, RawGate, ServerAuthenticator, UnsecuredValidator};
use kwire_net::server::{FrameReader, MemoryBudget, ServerError};
use libfuzzer_sys::fuzz_target;

use common::{Accounts, Input};

/// Kafka's `sasl.server.max.receive.size`.
const MAX_RECEIVE: usize = 512 << 10;
/// The most the stream of one input may hold, repetitions included: three frames
/// at the limit, and small enough that `-malloc_limit_mb=4` tells a parse that
/// allocates several times its frame from the stream's own buffers.
const MAX_STREAM: usize = 1536 << 10;
const BUDGET: usize = 64 << 20;

const NAMES: [&str; 5] = [
    "PLAIN",
    "SCRAM-SHA-256",
    "SCRAM-SHA-512",
    "OAUTHBEARER",
    "GSSAPI",
];

/// What a token starts with before its repeated piece, and ends with after it:
/// a SCRAM client-first, a PLAIN message, an OAUTHBEARER initial response (its
/// token the piece), a SCRAM client-final, PLAIN with an authorization id.
const HEADS: [(&[u8], &[u8]); 6] = [
    (b"n,,n=alice,r=abc", b""),
    (b"\0alice\0", b""),
    (b"n,,\x01auth=Bearer ", b"\x01\x01"),
    (b"c=biws,r=abc", b",p=AAAA"),
    (b"alice\0alice\0", b""),
    (b"", b""),
];

fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .expect("a runtime")
    })
}

/// Two bytes of the input, big-endian.
fn u16(input: &mut Input) -> u16 {
    u16::from_be_bytes([input.byte().unwrap_or(0), input.byte().unwrap_or(0)])
}

/// The client's byte stream, built from the input.
struct Stream {
    bytes: Vec<u8>,
    correlation: i32,
}

impl Stream {
    fn room(&self) -> usize {
        MAX_STREAM.saturating_sub(self.bytes.len())
    }

    /// A request frame of `key` at `version` (header v1: correlation id, a null
    /// client id) around `body`; a flexible version gets header v2's empty tags.
    fn request(&mut self, key: i16, version: i16, flexible: bool, body: &[u8]) {
        self.correlation += 1;
        let mut contents = Vec::with_capacity(body.len() + 11);
        contents.extend_from_slice(&key.to_be_bytes());
        contents.extend_from_slice(&version.to_be_bytes());
        contents.extend_from_slice(&self.correlation.to_be_bytes());
        contents.extend_from_slice(&(-1_i16).to_be_bytes());
        if flexible {
            contents.push(0);
        }
        contents.extend_from_slice(body);
        self.frame(&contents);
    }

    fn frame(&mut self, contents: &[u8]) {
        if contents.len() + 4 > self.room() {
            return;
        }
        self.bytes
            .extend_from_slice(&(contents.len() as i32).to_be_bytes());
        self.bytes.extend_from_slice(contents);
    }

    /// One operation of the input; `false` at its end.
    fn op(&mut self, input: &mut Input) -> bool {
        let Some(op) = input.byte() else {
            return false;
        };
        match op % 8 {
            // Bytes as they are.
            0 => {
                let raw = input.bytes();
                let n = raw.len().min(self.room());
                self.bytes.extend_from_slice(&raw[..n]);
            }
            // SaslHandshake v0 or v1.
            1 => {
                let name = NAMES[usize::from(input.byte().unwrap_or(0)) % NAMES.len()];
                let mut body = (name.len() as i16).to_be_bytes().to_vec();
                body.extend_from_slice(name.as_bytes());
                self.request(17, i16::from((op >> 3) & 1), false, &body);
            }
            // ApiVersions v0 or v3.
            2 => match (op >> 3) & 1 {
                0 => self.request(18, 0, false, b""),
                _ => self.request(18, 3, true, b"\x01\x01\x00"),
            },
            // A large token: a head, a piece repeated, in SaslAuthenticate v1
            // (bytes), v2 (compact bytes, flexible) or bare (after SaslHandshake v0).
            3 => {
                let (head, tail) = HEADS[usize::from(input.byte().unwrap_or(0)) % HEADS.len()];
                let repeat = usize::from(u16(input));
                let piece = input.bytes();
                let whole = head.len() + piece.len() * repeat + tail.len();
                let size = whole.min(self.room().saturating_sub(64));
                let mut token = Vec::with_capacity(size);
                token.extend_from_slice(&head[..head.len().min(size)]);
                while !piece.is_empty() && token.len() + piece.len() + tail.len() <= size {
                    token.extend_from_slice(piece);
                }
                if token.len() + tail.len() <= size {
                    token.extend_from_slice(tail);
                }
                match (op >> 3) % 3 {
                    0 => {
                        let mut body = (token.len() as i32).to_be_bytes().to_vec();
                        body.extend_from_slice(&token);
                        self.request(36, 1, false, &body);
                    }
                    1 => {
                        let mut body = uvarint(token.len() as u64 + 1);
                        body.extend_from_slice(&token);
                        body.push(0);
                        self.request(36, 2, true, &body);
                    }
                    _ => self.frame(&token),
                }
            }
            // A prefix declaring any length, and whatever follows.
            4 => {
                let declared = i32::from_be_bytes([
                    input.byte().unwrap_or(0),
                    input.byte().unwrap_or(0),
                    input.byte().unwrap_or(0),
                    input.byte().unwrap_or(0),
                ]);
                if self.room() >= 4 {
                    self.bytes.extend_from_slice(&declared.to_be_bytes());
                }
            }
            // A Metadata v1 for every topic: never before login.
            5 => self.request(3, 1, false, &(-1_i32).to_be_bytes()),
            // A request of any key and version with any body.
            _ => {
                let key = i16::from(input.byte().unwrap_or(0) % 80);
                let version = i16::from(input.byte().unwrap_or(0) % 16);
                let body = input.bytes();
                self.request(key, version, false, body);
            }
        }
        true
    }
}

fn uvarint(mut value: u64) -> Vec<u8> {
    let mut out = Vec::new();
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
    out
}

fn gate_for(config: u8) -> (ServerAuthenticator, Accounts) {
    let gate = ServerAuthenticator::new(common::enabled(config));
    let gate = match (config >> 5) & 3 {
        0 => gate,
        1 => gate.with_session_lifetime(Duration::from_millis(1)),
        _ => gate.with_session_lifetime(Duration::from_secs(3600)),
    };
    let validator = (config & 0x10 != 0).then(UnsecuredValidator::new);
    (gate, Accounts { validator })
}

/// Reads the stream as a server would, checking the rules at each frame.
async fn serve(stream: &[u8], config: u8) {
    let budget = MemoryBudget::with_reserve(BUDGET, 64 << 10, BUDGET);
    let (mut gate, accounts) = gate_for(config);
    let mut reader = FrameReader::new(stream, budget.clone()).with_authentication(MAX_RECEIVE);
    let decode = DecodeLimits::default();
    loop {
        let authenticating = reader.is_authenticating();
        let frame = match reader.next_frame().await {
            Ok(Some(frame)) => frame,
            Ok(None) => return,
            Err(ServerError::TooLargeBeforeAuthentication { len, max }) => {
                assert!(authenticating && len > max && max == MAX_RECEIVE);
                assert!(
                    reader.buffered() <= 4,
                    "{} bytes buffered",
                    reader.buffered()
                );
                return;
            }
            Err(_) => return,
        };
        if authenticating {
            assert!(frame.len() <= 4 + MAX_RECEIVE, "a frame of {}", frame.len());
            assert_eq!(budget.available(), BUDGET, "a stranger's frame budgeted");
            assert_eq!(budget.reserve_available(), BUDGET, "the reserve drawn on");
        }
        let now = Instant::now();
        if gate.expects_raw_token() {
            let Ok(token) = frame_contents(&frame) else {
                return;
            };
            match gate.on_raw_token(token, &accounts, now) {
                RawGate::Send(reply) => assert!(reply.len() <= 4096, "a reply of {}", reply.len()),
                RawGate::Close(_) => return,
            }
        } else {
            let Ok(parsed) = RequestFrame::parse(&frame) else {
                return;
            };
            let Ok(decoded) = parsed.decode_with_limits::<Request>(TrailingBytes::Ignore, &decode)
            else {
                return;
            };
            let before = gate.is_authenticated();
            match gate.on_request(&decoded.body, parsed.api_version(), &accounts, now) {
                Gate::Serve => assert!(
                    before || matches!(decoded.body, Request::ApiVersions(_)),
                    "{} served before login",
                    decoded.body.api().name()
                ),
                Gate::Answer(answer) => {
                    // Nothing the server says may echo a stranger's megabyte.
                    let size = answer.encoded_size(parsed.api_version()).unwrap_or(0);
                    assert!(size <= 4096, "an answer of {size} bytes");
                }
                Gate::AnswerAndClose(_) | Gate::Close(_) => return,
            }
        }
        drop(frame);
        if gate.is_authenticated() {
            reader.authenticated();
            assert!(!reader.is_authenticating());
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input(data);
    let Some(config) = input.byte() else {
        return;
    };
    let mut stream = Stream {
        bytes: Vec::new(),
        correlation: 0,
    };
    while stream.op(&mut input) {}
    runtime().block_on(serve(&stream.bytes, config));
});

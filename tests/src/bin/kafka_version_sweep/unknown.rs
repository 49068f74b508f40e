//! A version Kafka advertises that this code does not know cannot be sent by our
//! client (there is no schema to write it with). To say what Kafka does with
//! it, a bare request header at that version is sent on a socket of its own,
//! and the node's log is searched for Kafka's own verdict.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::Duration;

/// Sends a header-only request of `api_key` at `version` to `address`; says
/// whether Kafka answered or closed, and what its log says of that version.
pub fn bare_header(address: &str, api_key: i16, version: i16, log: Option<&Path>) -> String {
    let client_id = b"kwire-version-sweep";
    let mut frame = Vec::new();
    frame.extend_from_slice(&api_key.to_be_bytes());
    frame.extend_from_slice(&version.to_be_bytes());
    frame.extend_from_slice(&1_i32.to_be_bytes());
    frame.extend_from_slice(&(client_id.len() as i16).to_be_bytes());
    frame.extend_from_slice(client_id);
    let mut message = (frame.len() as i32).to_be_bytes().to_vec();
    message.extend_from_slice(&frame);
    let outcome = (|| -> std::io::Result<&'static str> {
        let mut socket = TcpStream::connect(address)?;
        socket.set_read_timeout(Some(Duration::from_secs(5)))?;
        socket.write_all(&message)?;
        let mut byte = [0u8; 1];
        Ok(match socket.read(&mut byte) {
            Ok(0) => "Kafka closed the connection",
            Ok(_) => "Kafka answered",
            Err(_) => "Kafka neither answered nor closed within 5 s",
        })
    })();
    let outcome = match outcome {
        Ok(outcome) => outcome.to_owned(),
        Err(error) => format!("the socket failed: {error}"),
    };
    // Kafka's words when it refuses a version it advertised:
    // "Received request for api with key K (Name) and unsupported version V".
    let needle = format!("key {api_key} (");
    let verdict = log
        .and_then(|log| std::fs::read_to_string(log).ok())
        .and_then(|text| {
            text.lines()
                .rev()
                .find(|line| {
                    line.contains(&needle)
                        && line.ends_with(&format!("unsupported version {version}"))
                })
                .map(|line| {
                    let start = line.find("Received request").unwrap_or(0);
                    line[start..].to_owned()
                })
        });
    match verdict {
        Some(verdict) => format!("{outcome}; its log: {verdict}"),
        None => outcome,
    }
}

//! `kwire versions`: what Kafka's `kafka-broker-api-versions.sh` prints, through the
//! crate's client session: ask ApiVersions at our highest version, fall back as
//! Kafka's client does when the broker does not know it, and print per API our
//! versions, the broker's and the one both would use.

use std::io::Write;
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::time::Duration;

use kwire_messages::{api::ApiVersionsRequest, Request, Response};
use kwire_net::blocking::FrameReader;
use kwire_net::negotiation::{first_api_versions_version, next_step, Negotiated, NextStep};
use kwire_net::session::ClientSession;

use crate::cli::VersionsArgs;
use crate::error::CliError;

/// Runs the command.
pub fn run(args: &VersionsArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let address = &args.address;
    let fail = |what: &str, error: &dyn std::error::Error| {
        CliError::from_error(&format!("{address}: {what}"), error)
    };
    let timeout = Duration::from_secs(args.timeout.max(1));
    let stream = connect(address, timeout)?;
    stream
        .set_read_timeout(Some(timeout))
        .and_then(|()| stream.set_write_timeout(Some(timeout)))
        .map_err(|e| fail("cannot set timeouts", &e))?;
    let mut writer = stream.try_clone().map_err(|e| fail("cannot write", &e))?;
    let mut reader = FrameReader::new(stream);
    let mut session = ClientSession::new(Some("kwire".into()));
    let mut notes = Vec::new();

    let mut version = first_api_versions_version();
    let negotiated = loop {
        let request = Request::ApiVersions(
            ApiVersionsRequest::default()
                .with_client_software_name("kwire".into())
                .with_client_software_version(env!("CARGO_PKG_VERSION").into()),
        );
        let mut sent = session
            .send(&request, version)
            .map_err(|e| fail("cannot frame ApiVersions", &e))?;
        kwire_net::blocking::write_all_buf(&mut writer, &mut sent.frame)
            .map_err(|e| fail("cannot send ApiVersions", &e))?;
        let frame = reader
            .read_frame()
            .map_err(|e| fail("no answer to ApiVersions", &e))?
            .ok_or_else(|| CliError::new(format!("{address}: the broker closed the connection")))?;
        let received = session
            .receive(&frame)
            .map_err(|e| fail("cannot read the ApiVersions answer", &e))?;
        let Response::ApiVersions(response) = received.body else {
            return Err(CliError::new(format!(
                "{address}: the broker answered ApiVersions with another API"
            )));
        };
        match next_step(version, &response).map_err(|e| fail("negotiation failed", &e))? {
            NextStep::Done(negotiated) => break negotiated,
            NextStep::RetryAt(lower) => {
                notes.push(format!(
                    "ApiVersions v{version} unsupported by the broker; asking at v{lower}"
                ));
                version = lower;
            }
        }
    };
    print(out, address, version, &notes, &negotiated)
        .map_err(|e| CliError::new(format!("cannot write the output: {e}")))
}

/// Connects to the first address the name resolves to that answers within
/// `timeout`.
fn connect(address: &str, timeout: Duration) -> Result<TcpStream, CliError> {
    let addresses: Vec<SocketAddr> = address
        .to_socket_addrs()
        .map_err(|e| CliError::from_error(&format!("{address}: cannot resolve"), &e))?
        .collect();
    let mut last = None;
    for candidate in &addresses {
        match TcpStream::connect_timeout(candidate, timeout) {
            Ok(stream) => return Ok(stream),
            Err(error) => last = Some(error),
        }
    }
    Err(match last {
        Some(error) => CliError::from_error(&format!("{address}: cannot connect"), &error),
        None => CliError::new(format!("{address}: resolves to no address")),
    })
}

fn print(
    out: &mut dyn Write,
    address: &str,
    version: i16,
    notes: &[String],
    negotiated: &Negotiated,
) -> std::io::Result<()> {
    for note in notes {
        writeln!(out, "{note}")?;
    }
    writeln!(out, "{address} (ApiVersions v{version})")?;
    write!(out, "{negotiated}")?;
    Ok(())
}

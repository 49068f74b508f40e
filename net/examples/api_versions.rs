//! What Kafka's `kafka-broker-api-versions.sh` does: connect to a broker, negotiate,
//! and print each API with our versions, the broker's and the version we will use.
//!
//! ```text
//! cargo run -p kwire-net --features blocking --example api_versions -- 127.0.0.1:9092
//! ```

use std::net::TcpStream;
use std::process::ExitCode;
use std::time::Duration;

use kwire_messages::{api::ApiVersionsRequest, Request, Response};
use kwire_net::blocking::FrameReader;
use kwire_net::negotiation::{first_api_versions_version, next_step, NextStep};
use kwire_net::session::ClientSession;

fn main() -> ExitCode {
    let Some(address) = std::env::args().nth(1) else {
        eprintln!("usage: api_versions HOST:PORT");
        return ExitCode::from(2);
    };
    match run(&address) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("api_versions: {address}: {error}");
            ExitCode::FAILURE
        }
    }
}

fn run(address: &str) -> Result<(), Box<dyn std::error::Error>> {
    let stream = TcpStream::connect(address)?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut writer = stream.try_clone()?;
    let mut reader = FrameReader::new(stream);
    let mut session = ClientSession::new(Some("kafka-wire-api-versions".into()));

    let mut version = first_api_versions_version();
    let negotiated = loop {
        let request = Request::ApiVersions(
            ApiVersionsRequest::default()
                .with_client_software_name("kafka-wire".into())
                .with_client_software_version(env!("CARGO_PKG_VERSION").into()),
        );
        let mut sent = session.send(&request, version)?;
        kwire_net::blocking::write_all_buf(&mut writer, &mut sent.frame)?;
        let frame = reader
            .read_frame()?
            .ok_or("the broker closed the connection")?;
        let received = session.receive(&frame)?;
        let Response::ApiVersions(response) = received.body else {
            return Err("the broker answered ApiVersions with another API".into());
        };
        match next_step(version, &response)? {
            NextStep::Done(negotiated) => break negotiated,
            NextStep::RetryAt(lower) => {
                println!("ApiVersions v{version} unsupported by the broker; asking at v{lower}");
                version = lower;
            }
        }
    };

    println!("{address} (ApiVersions v{version})");
    print!("{negotiated}");
    Ok(())
}

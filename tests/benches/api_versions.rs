//! kafka-wire against `kafka-protocol` on the same ApiVersionsResponse v3: 80 API keys
//! and two supported features, the answer every client reads on connect.
//!
//! Each operation is what a user writes on each side (see `side_by_side`):
//! - decode: from a `Bytes` holding the body;
//! - encode: compute the size, allocate a buffer of exactly that size, write, freeze;
//! - size: the exact encoded size.
//!
//! Setup checks that both sides encode the same bytes and read each other's output,
//! and panics otherwise. After criterion's report, a summary times both sides again,
//! interleaved in alternating rounds so that load from other processes on the machine
//! hits both alike, and prints one line per operation with both throughputs and the
//! ratio. Run: `cargo bench -p kwire-tests --bench api_versions`.

mod side_by_side;

use kwire::KafkaString;
use kwire_messages::api::api_versions::{ApiVersion, ApiVersionsResponse, SupportedFeatureKey};

use kafka_protocol::messages::api_versions_response as kp;
use kafka_protocol::protocol::StrBytes;

use side_by_side::{Fixture, Ops};

const VERSION: i16 = 3;
const API_KEYS: i16 = 80;
const FEATURES: [(&str, i16, i16); 2] = [("kraft.version", 0, 1), ("metadata.version", 1, 27)];
const OPS: Ops = Ops {
    decode: true,
    encode: true,
    size: true,
};

/// The API key entries both sides carry: key, min, max.
fn api_key_values() -> impl Iterator<Item = (i16, i16, i16)> {
    (0..API_KEYS).map(|key| (key, key % 3, key % 17 + 1))
}

fn kafka_wire_value() -> ApiVersionsResponse {
    let api_keys = api_key_values()
        .map(|(api_key, min_version, max_version)| {
            ApiVersion::default()
                .with_api_key(api_key)
                .with_min_version(min_version)
                .with_max_version(max_version)
        })
        .collect();
    let supported_features = FEATURES
        .iter()
        .map(|&(name, min_version, max_version)| {
            SupportedFeatureKey::default()
                .with_name(KafkaString::from(name))
                .with_min_version(min_version)
                .with_max_version(max_version)
        })
        .collect();
    ApiVersionsResponse::default()
        .with_api_keys(api_keys)
        .with_supported_features(supported_features)
}

fn kafka_protocol_value() -> kp::ApiVersionsResponse {
    kp::ApiVersionsResponse::default()
        .with_api_keys(
            api_key_values()
                .map(|(key, min, max)| {
                    kp::ApiVersion::default()
                        .with_api_key(key)
                        .with_min_version(min)
                        .with_max_version(max)
                })
                .collect(),
        )
        .with_supported_features(
            FEATURES
                .iter()
                .map(|&(name, min, max)| {
                    kp::SupportedFeatureKey::default()
                        .with_name(StrBytes::from_string(name.to_owned()))
                        .with_min_version(min)
                        .with_max_version(max)
                })
                .collect(),
        )
}

fn main() {
    let fixture = Fixture::new(kafka_wire_value(), kafka_protocol_value(), VERSION);
    side_by_side::run(
        |c| side_by_side::bench_group(c, "api_versions_response_v3", &fixture, OPS),
        || {
            side_by_side::summary_header(&format!(
                "ApiVersionsResponse v{VERSION}, {API_KEYS} API keys, {} features, {} bytes",
                FEATURES.len(),
                fixture.bytes.len()
            ));
            side_by_side::summarize("", &fixture, OPS);
        },
    );
}

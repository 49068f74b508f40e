//! kafka-wire against `kafka-protocol` on the same ApiVersionsResponse v3: 80 API keys
//! and two supported features, the answer every client reads on connect.
//!
//! Each operation is what a user writes on each side:
//! - decode: from a `Bytes` holding the body;
//! - encode: compute the size, allocate a buffer of exactly that size, write, freeze;
//! - size: the exact encoded size.
//!
//! Setup checks that both sides encode the same bytes and read each other's output,
//! and panics otherwise. After criterion's report, a summary times both sides again,
//! interleaved in alternating rounds so that load from other processes on the machine
//! hits both alike, and prints one line per operation with both throughputs and the
//! ratio. Run: `cargo bench -p kafka-wire-tests --bench api_versions`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use bytes::{Bytes, BytesMut};
use criterion::{BenchmarkId, Criterion, Throughput};
use kafka_wire::{KafkaString, Message};
use kafka_wire_messages::api_versions::{ApiVersion, ApiVersionsResponse, SupportedFeatureKey};

use kafka_protocol::messages::api_versions_response as kp;
use kafka_protocol::protocol::{Decodable, Encodable, StrBytes};

const VERSION: i16 = 3;
const API_KEYS: i16 = 80;
const FEATURES: [(&str, i16, i16); 2] = [("kraft.version", 0, 1), ("metadata.version", 1, 27)];

/// The API key entries both sides carry: key, min, max.
fn api_key_values() -> impl Iterator<Item = (i16, i16, i16)> {
    (0..API_KEYS).map(|key| (key, key % 3, key % 17 + 1))
}

fn kafka_wire_value() -> ApiVersionsResponse {
    ApiVersionsResponse {
        api_keys: api_key_values()
            .map(|(api_key, min_version, max_version)| ApiVersion {
                api_key,
                min_version,
                max_version,
                ..Default::default()
            })
            .collect(),
        supported_features: FEATURES
            .iter()
            .map(|&(name, min_version, max_version)| SupportedFeatureKey {
                name: KafkaString::from(name),
                min_version,
                max_version,
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    }
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

// The six operations, each written the way a user of that library would.

fn kw_decode(input: &Bytes) -> ApiVersionsResponse {
    ApiVersionsResponse::decode(input, VERSION).expect("kafka-wire decodes")
}

fn kp_decode(input: &Bytes) -> kp::ApiVersionsResponse {
    kp::ApiVersionsResponse::decode(&mut input.clone(), VERSION).expect("kafka-protocol decodes")
}

fn kw_encode(value: &ApiVersionsResponse) -> Bytes {
    value.encode(VERSION).expect("kafka-wire encodes")
}

fn kp_encode(value: &kp::ApiVersionsResponse) -> Bytes {
    let size = value.compute_size(VERSION).expect("kafka-protocol sizes");
    let mut buf = BytesMut::with_capacity(size);
    value
        .encode(&mut buf, VERSION)
        .expect("kafka-protocol encodes");
    buf.freeze()
}

fn kw_size(value: &ApiVersionsResponse) -> usize {
    value.encoded_size(VERSION).expect("kafka-wire sizes")
}

fn kp_size(value: &kp::ApiVersionsResponse) -> usize {
    value.compute_size(VERSION).expect("kafka-protocol sizes")
}

/// Both values, and the encoding they share; panics if the two sides disagree.
struct Fixture {
    kw: ApiVersionsResponse,
    kp: kp::ApiVersionsResponse,
    bytes: Bytes,
}

impl Fixture {
    fn new() -> Self {
        let kw = kafka_wire_value();
        let kp = kafka_protocol_value();
        let kw_bytes = kw_encode(&kw);
        let kp_bytes = kp_encode(&kp);
        assert_eq!(
            &kw_bytes[..],
            &kp_bytes[..],
            "kafka-wire and kafka-protocol encode ApiVersionsResponse v{VERSION} differently: \
             the comparison would be meaningless"
        );
        assert_eq!(kw_size(&kw), kw_bytes.len(), "kafka-wire's size is wrong");
        assert_eq!(
            kp_size(&kp),
            kp_bytes.len(),
            "kafka-protocol's size is wrong"
        );
        assert_eq!(
            kw_decode(&kp_bytes),
            kw,
            "kafka-wire misreads the shared bytes"
        );
        assert_eq!(
            kp_decode(&kw_bytes),
            kp,
            "kafka-protocol misreads the shared bytes"
        );
        Fixture {
            kw,
            kp,
            bytes: kw_bytes,
        }
    }
}

fn criterion_benches(c: &mut Criterion, f: &Fixture) {
    let mut group = c.benchmark_group("api_versions_response_v3");
    group.throughput(Throughput::Bytes(f.bytes.len() as u64));
    group.bench_function(BenchmarkId::new("decode", "kafka-wire"), |b| {
        b.iter(|| kw_decode(black_box(&f.bytes)))
    });
    group.bench_function(BenchmarkId::new("decode", "kafka-protocol"), |b| {
        b.iter(|| kp_decode(black_box(&f.bytes)))
    });
    group.bench_function(BenchmarkId::new("encode", "kafka-wire"), |b| {
        b.iter(|| kw_encode(black_box(&f.kw)))
    });
    group.bench_function(BenchmarkId::new("encode", "kafka-protocol"), |b| {
        b.iter(|| kp_encode(black_box(&f.kp)))
    });
    group.bench_function(BenchmarkId::new("size", "kafka-wire"), |b| {
        b.iter(|| kw_size(black_box(&f.kw)))
    });
    group.bench_function(BenchmarkId::new("size", "kafka-protocol"), |b| {
        b.iter(|| kp_size(black_box(&f.kp)))
    });
    group.finish();
}

/// Median nanoseconds per call of `a` and of `b`, timed in alternating batches.
fn interleaved<A, B, RA, RB>(mut a: A, mut b: B) -> (f64, f64)
where
    A: FnMut() -> RA,
    B: FnMut() -> RB,
{
    const ROUNDS: usize = 31;
    const BATCH_TIME: Duration = Duration::from_millis(20);
    // Size batches from a first timing of the slower side so that both run the same
    // number of calls per batch.
    let probe = Instant::now();
    let mut probes = 0u32;
    while probe.elapsed() < BATCH_TIME {
        black_box(a());
        black_box(b());
        probes += 1;
    }
    let batch = probes.max(1);
    let (mut ta, mut tb) = (Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        if round % 2 == 0 {
            ta.push(time_batch(&mut a, batch));
            tb.push(time_batch(&mut b, batch));
        } else {
            tb.push(time_batch(&mut b, batch));
            ta.push(time_batch(&mut a, batch));
        }
    }
    (median(&mut ta), median(&mut tb))
}

/// Nanoseconds per call over `batch` calls; generic so no indirect call is timed.
fn time_batch<F: FnMut() -> R, R>(f: &mut F, batch: u32) -> f64 {
    let start = Instant::now();
    for _ in 0..batch {
        black_box(f());
    }
    start.elapsed().as_nanos() as f64 / f64::from(batch)
}

fn median(samples: &mut [f64]) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn summary(f: &Fixture) {
    let len = f.bytes.len() as f64;
    let line = |op: &str, (kw_ns, kp_ns): (f64, f64)| {
        // Bytes per nanosecond is GB/s; MiB/s reads better here.
        let mib = |ns: f64| len / ns * 1e9 / (1024.0 * 1024.0);
        println!(
            "{op:<6} kafka-wire {kw_ns:>8.1} ns ({:>7.0} MiB/s) | kafka-protocol {kp_ns:>8.1} ns \
             ({:>7.0} MiB/s) | ratio {:.2}x",
            mib(kw_ns),
            mib(kp_ns),
            kp_ns / kw_ns
        );
    };
    println!(
        "\nApiVersionsResponse v{VERSION}, {API_KEYS} API keys, {} features, {} bytes; \
         median of interleaved rounds (ratio = kafka-wire throughput / kafka-protocol's):",
        FEATURES.len(),
        f.bytes.len()
    );
    line(
        "decode",
        interleaved(
            || kw_decode(black_box(&f.bytes)),
            || kp_decode(black_box(&f.bytes)),
        ),
    );
    line(
        "encode",
        interleaved(
            || kw_encode(black_box(&f.kw)),
            || kp_encode(black_box(&f.kp)),
        ),
    );
    line(
        "size",
        interleaved(|| kw_size(black_box(&f.kw)), || kp_size(black_box(&f.kp))),
    );
}

fn main() {
    let fixture = Fixture::new();
    let mut criterion = Criterion::default().configure_from_args();
    criterion_benches(&mut criterion, &fixture);
    criterion.final_summary();
    // `cargo test --benches` runs this binary without `--bench` (criterion then runs
    // each benchmark once as a test); profiling and listing are not measurements
    // either. The summary is for real runs only.
    let args: Vec<String> = std::env::args().collect();
    let measuring = args.iter().any(|arg| arg == "--bench")
        && !args
            .iter()
            .any(|arg| matches!(arg.as_str(), "--profile-time" | "--list" | "--test"));
    if measuring {
        summary(&fixture);
    }
}

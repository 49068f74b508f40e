//! What every kafka-wire vs `kafka-protocol` bench shares: the operations written the
//! way a user of each library writes them, the setup check that both sides agree, the
//! criterion groups, the interleaved timing of the summary, and the `main` that runs
//! criterion then the summary.

use std::hint::black_box;
use std::time::{Duration, Instant};

use bytes::{Bytes, BytesMut};
use criterion::{BenchmarkId, Criterion, Throughput};
use kafka_protocol::protocol::{Decodable, Encodable};
use kwire::wire::ChunkedBytes;
use kwire::Message;

// Each operation is its own function, never inlined, on both sides alike: what is
// timed is one call of it, and a profiler finds it by name
// (`valgrind --tool=callgrind --toggle-collect='*kw_decode*'`).

/// kafka-wire's decode: from a `Bytes` holding the body.
#[inline(never)]
pub fn kw_decode<M: Message>(input: &Bytes, version: i16) -> M {
    M::decode(input, version).expect("kafka-wire decodes")
}

/// kafka-protocol's decode: its API takes the buffer by `&mut`, so from a clone.
#[inline(never)]
pub fn kp_decode<K: Decodable>(input: &Bytes, version: i16) -> K {
    K::decode(&mut input.clone(), version).expect("kafka-protocol decodes")
}

/// kafka-wire's encode: exact size, a buffer of that size, write, freeze.
#[inline(never)]
pub fn kw_encode<M: Message>(value: &M, version: i16) -> Bytes {
    value.encode(version).expect("kafka-wire encodes")
}

/// kafka-wire's vectored encode (what a client or broker sends with one gather
/// write): one buffer for the ordinary fields, records attached, not copied.
#[inline(never)]
pub fn kw_encode_vectored<M: Message>(value: &M, version: i16) -> ChunkedBytes {
    value
        .encode_vectored(version)
        .expect("kafka-wire encodes vectored")
}

/// kafka-protocol's encode, the same steps spelled out.
#[inline(never)]
pub fn kp_encode<K: Encodable>(value: &K, version: i16) -> Bytes {
    let size = value.compute_size(version).expect("kafka-protocol sizes");
    let mut buf = BytesMut::with_capacity(size);
    value
        .encode(&mut buf, version)
        .expect("kafka-protocol encodes");
    buf.freeze()
}

/// kafka-wire's exact encoded size.
#[inline(never)]
pub fn kw_size<M: Message>(value: &M, version: i16) -> usize {
    value.encoded_size(version).expect("kafka-wire sizes")
}

/// kafka-protocol's exact encoded size.
#[inline(never)]
pub fn kp_size<K: Encodable>(value: &K, version: i16) -> usize {
    value.compute_size(version).expect("kafka-protocol sizes")
}

/// The same message as each library's value, and the encoding they share.
pub struct Fixture<M, K> {
    /// kafka-wire's value.
    pub kw: M,
    /// kafka-protocol's value.
    pub kp: K,
    /// What both encode it to.
    pub bytes: Bytes,
    /// The version everything is coded at.
    pub version: i16,
}

impl<M, K> Fixture<M, K>
where
    M: Message + PartialEq,
    K: Encodable + Decodable + PartialEq,
{
    /// Checks both sides encode identical bytes, size them right and read each
    /// other's output; panics otherwise, since the comparison would be meaningless.
    /// (`assert!` rather than `assert_eq!`: a megabyte of records is no diff to print.)
    pub fn new(kw: M, kp: K, version: i16) -> Self {
        let name = M::SCHEMA.name;
        let kw_bytes = kw_encode(&kw, version);
        let kp_bytes = kp_encode(&kp, version);
        assert!(
            kw_bytes == kp_bytes,
            "kafka-wire and kafka-protocol encode {name} v{version} differently \
             ({} and {} bytes): the comparison would be meaningless",
            kw_bytes.len(),
            kp_bytes.len()
        );
        assert!(
            kw_encode_vectored(&kw, version) == kw_bytes[..],
            "kafka-wire's vectored encoding of {name} differs from its contiguous one"
        );
        assert_eq!(
            kw_size(&kw, version),
            kw_bytes.len(),
            "kafka-wire's size of {name} is wrong"
        );
        assert_eq!(
            kp_size(&kp, version),
            kp_bytes.len(),
            "kafka-protocol's size of {name} is wrong"
        );
        assert!(
            kw_decode::<M>(&kp_bytes, version) == kw,
            "kafka-wire misreads the shared bytes of {name}"
        );
        assert!(
            kp_decode::<K>(&kw_bytes, version) == kp,
            "kafka-protocol misreads the shared bytes of {name}"
        );
        Fixture {
            kw,
            kp,
            bytes: kw_bytes,
            version,
        }
    }
}

/// Median nanoseconds per call of `a` and of `b`, timed in alternating batches so
/// that load from other processes on the machine hits both alike.
pub fn interleaved<A, B, RA, RB>(mut a: A, mut b: B) -> (f64, f64)
where
    A: FnMut() -> RA,
    B: FnMut() -> RB,
{
    const ROUNDS: usize = 31;
    const BATCH_TIME: Duration = Duration::from_millis(20);
    // Size batches from a first timing of both together so that both run the same
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

/// Times kafka-wire's `kw` against kafka-protocol's `kp` on a message of `len` bytes
/// and prints one line: both times and throughputs, and the throughput ratio.
pub fn compare<A, B, RA, RB>(op: &str, len: usize, kw: A, kp: B)
where
    A: FnMut() -> RA,
    B: FnMut() -> RB,
{
    let (kw_ns, kp_ns) = interleaved(kw, kp);
    // Bytes per nanosecond is GB/s; MiB/s reads better next to criterion's figures.
    let mib = |ns: f64| len as f64 / ns * 1e9 / (1024.0 * 1024.0);
    println!(
        "{op:<12} kafka-wire {kw_ns:>9.1} ns ({:>9.0} MiB/s) | kafka-protocol {kp_ns:>9.1} ns \
         ({:>9.0} MiB/s) | ratio {:.2}x",
        mib(kw_ns),
        mib(kp_ns),
        kp_ns / kw_ns
    );
}

/// Which operations a bench measures.
#[derive(Debug, Clone, Copy)]
pub struct Ops {
    /// Decode the shared bytes.
    pub decode: bool,
    /// Encode the value into a fresh buffer.
    pub encode: bool,
    /// Compute the exact encoded size.
    pub size: bool,
}

/// Criterion benchmarks of `ops` on both sides, in a group named `group`, with the
/// message's length as throughput.
pub fn bench_group<M, K>(c: &mut Criterion, group: &str, f: &Fixture<M, K>, ops: Ops)
where
    M: Message,
    K: Encodable + Decodable,
{
    let version = f.version;
    let mut group = c.benchmark_group(group);
    group.throughput(Throughput::Bytes(f.bytes.len() as u64));
    if ops.decode {
        group.bench_function(BenchmarkId::new("decode", "kafka-wire"), |b| {
            b.iter(|| kw_decode::<M>(black_box(&f.bytes), version))
        });
        group.bench_function(BenchmarkId::new("decode", "kafka-protocol"), |b| {
            b.iter(|| kp_decode::<K>(black_box(&f.bytes), version))
        });
    }
    if ops.encode {
        group.bench_function(BenchmarkId::new("encode", "kafka-wire"), |b| {
            b.iter(|| kw_encode(black_box(&f.kw), version))
        });
        group.bench_function(BenchmarkId::new("encode", "kafka-protocol"), |b| {
            b.iter(|| kp_encode(black_box(&f.kp), version))
        });
    }
    if ops.size {
        group.bench_function(BenchmarkId::new("size", "kafka-wire"), |b| {
            b.iter(|| kw_size(black_box(&f.kw), version))
        });
        group.bench_function(BenchmarkId::new("size", "kafka-protocol"), |b| {
            b.iter(|| kp_size(black_box(&f.kp), version))
        });
    }
    group.finish();
}

/// The summary lines of `ops` (see [`compare`]); `label` follows the operation's name.
pub fn summarize<M, K>(label: &str, f: &Fixture<M, K>, ops: Ops)
where
    M: Message,
    K: Encodable + Decodable,
{
    let (version, len) = (f.version, f.bytes.len());
    let op = |name: &str| format!("{name}{label}");
    if ops.decode {
        compare(
            &op("decode"),
            len,
            || kw_decode::<M>(black_box(&f.bytes), version),
            || kp_decode::<K>(black_box(&f.bytes), version),
        );
    }
    if ops.encode {
        compare(
            &op("encode"),
            len,
            || kw_encode(black_box(&f.kw), version),
            || kp_encode(black_box(&f.kp), version),
        );
    }
    if ops.size {
        compare(
            &op("size"),
            len,
            || kw_size(black_box(&f.kw), version),
            || kp_size(black_box(&f.kp), version),
        );
    }
}

/// The summary's first line: what is measured, then what the lines under it mean.
pub fn summary_header(description: &str) {
    println!(
        "{description}; median of interleaved rounds \
         (ratio = kafka-wire throughput / kafka-protocol's):"
    );
}

/// Writes `bytes` (a bench's shared encoding) to `$KWIRE_BENCH_BODIES/name` when that
/// variable names a folder, so that another implementation (Kafka's generated Java
/// classes, `java_speed.py`) is timed on exactly these bytes; otherwise does nothing.
#[allow(dead_code, reason = "api_versions and records write no bodies")]
pub fn write_body(name: &str, bytes: &[u8]) {
    if let Some(dir) = std::env::var_os("KWIRE_BENCH_BODIES") {
        let path = std::path::Path::new(&dir).join(name);
        std::fs::write(&path, bytes)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    }
}

/// Runs the criterion benchmarks, then, in a real measuring run, the summary.
pub fn run(benches: impl FnOnce(&mut Criterion), summary: impl FnOnce()) {
    let mut criterion = Criterion::default().configure_from_args();
    benches(&mut criterion);
    criterion.final_summary();
    // `cargo test --benches` runs a bench binary without `--bench` (criterion then
    // runs each benchmark once as a test); profiling and listing are not measurements
    // either. The summary is for real runs only.
    let args: Vec<String> = std::env::args().collect();
    let measuring = args.iter().any(|arg| arg == "--bench")
        && !args
            .iter()
            .any(|arg| matches!(arg.as_str(), "--profile-time" | "--list" | "--test"));
    if measuring {
        println!();
        summary();
    }
}

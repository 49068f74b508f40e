//! What the security tests share: the real proxy and broker binaries as child
//! processes, certificates made for the run, and Kafka frames over any stream.
//!
//! Every wait is bounded ([`TIMEOUT`]), so that a proxy that swallows a frame
//! fails a test instead of hanging it; every process is killed by its handle
//! when its guard drops, a failed assertion included, and its stderr shown then.

// Each test file uses a part of this.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex, OnceLock};
use std::thread;
use std::time::Duration;

use bytes::Bytes;
use kwire::KafkaString;
use kwire_messages::{frame, ApiKey, Request, RequestHeader, Response};
use kwire_net::tls::TlsClient;
use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
    KeyUsagePurpose,
};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// Bounds every wait: a read, a process's first line.
pub const TIMEOUT: Duration = Duration::from_secs(20);

/// Larger frames are not ours: fail rather than allocate.
const MAX_FRAME: usize = 1 << 20;

/// The proxy's binary, built with this test.
pub const PROXY: &str = env!("CARGO_BIN_EXE_kwire-proxy");

/// A CA, a server certificate it signed for 127.0.0.1 and localhost, and
/// another CA that signed nothing, in a folder removed on drop.
pub struct Certificates {
    pub dir: PathBuf,
    pub ca: PathBuf,
    pub ca_pem: String,
    pub other_ca: PathBuf,
    pub cert: PathBuf,
    pub key: PathBuf,
}

impl Certificates {
    pub fn new() -> Self {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "kwire-proxy-certs-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).expect("create the certificates' folder");
        let (ca_pem, issuer) = ca("kwire proxy test CA");
        let (other_pem, _) = ca("kwire proxy other CA");
        let mut server =
            CertificateParams::new(vec!["127.0.0.1".to_owned(), "localhost".to_owned()])
                .expect("server certificate parameters");
        server
            .distinguished_name
            .push(DnType::CommonName, "localhost");
        server.use_authority_key_identifier_extension = true;
        server.key_usages = vec![
            KeyUsagePurpose::DigitalSignature,
            KeyUsagePurpose::KeyEncipherment,
        ];
        server.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        let key = KeyPair::generate().expect("server key");
        let cert = server
            .signed_by(&key, &issuer)
            .expect("sign the server certificate");
        let certificates = Certificates {
            ca: dir.join("ca.pem"),
            other_ca: dir.join("other-ca.pem"),
            cert: dir.join("server.pem"),
            key: dir.join("server.key"),
            ca_pem: ca_pem.clone(),
            dir,
        };
        for (path, text) in [
            (&certificates.ca, ca_pem),
            (&certificates.other_ca, other_pem),
            (&certificates.cert, cert.pem()),
            (&certificates.key, key.serialize_pem()),
        ] {
            std::fs::write(path, text).expect("write a certificate");
        }
        certificates
    }

    /// A TLS client trusting the CA.
    pub fn client(&self) -> TlsClient {
        TlsClient::from_ca_pem(self.ca_pem.as_bytes()).expect("trust the CA")
    }

    /// `--tls-cert FILE --tls-key FILE`.
    pub fn server_args(&self) -> Vec<String> {
        vec![
            "--tls-cert".into(),
            path(&self.cert),
            "--tls-key".into(),
            path(&self.key),
        ]
    }
}

impl Drop for Certificates {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

pub fn path(path: &Path) -> String {
    path.to_str().expect("a UTF-8 temporary path").to_owned()
}

fn ca(name: &str) -> (String, Issuer<'static, KeyPair>) {
    let mut params = CertificateParams::new(Vec::new()).expect("CA parameters");
    params.distinguished_name.push(DnType::CommonName, name);
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    let key = KeyPair::generate().expect("CA key");
    let pem = params.self_signed(&key).expect("self-sign the CA").pem();
    (pem, Issuer::new(params, key))
}

/// A server binary: killed when dropped, its stderr shown if the test failed.
pub struct Process {
    name: &'static str,
    child: Child,
    /// The address of its first `listening on` line.
    pub address: SocketAddr,
    /// Every line of its stdout, the first included.
    stdout: Arc<Mutex<Vec<String>>>,
    stderr: Arc<Mutex<String>>,
}

impl Process {
    /// Starts `program` with `args` and waits for its `listening on ADDRESS`
    /// line.
    pub fn start(name: &'static str, program: &Path, args: &[String]) -> Self {
        let mut child = Command::new(program)
            .args(args)
            .env("RUST_LOG", "info")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|error| panic!("start {}: {error}", program.display()));
        let stderr = Arc::new(Mutex::new(String::new()));
        let stdout = Arc::new(Mutex::new(Vec::new()));
        let (first, listening) = mpsc::channel();
        if let Some(pipe) = child.stderr.take() {
            let into = Arc::clone(&stderr);
            thread::spawn(move || {
                for line in BufReader::new(pipe).lines() {
                    let Ok(line) = line else { return };
                    if let Ok(mut text) = into.lock() {
                        text.push_str(&line);
                        text.push('\n');
                    }
                }
            });
        }
        if let Some(pipe) = child.stdout.take() {
            let into = Arc::clone(&stdout);
            // Read on a thread, so that a process that never prints fails the
            // test in TIMEOUT instead of blocking it; drained while it lives.
            thread::spawn(move || {
                for line in BufReader::new(pipe).lines() {
                    let Ok(line) = line else { return };
                    let _ = first.send(line.clone());
                    if let Ok(mut lines) = into.lock() {
                        lines.push(line);
                    }
                }
            });
        }
        // The guard exists before anything can fail, so the process dies with it.
        let mut process = Process {
            name,
            child,
            address: SocketAddr::from(([0, 0, 0, 0], 0)),
            stdout,
            stderr,
        };
        let line = listening
            .recv_timeout(TIMEOUT)
            .unwrap_or_else(|_| panic!("no line from {name} in {TIMEOUT:?}"));
        process.address = line
            .strip_prefix("listening on ")
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|address| address.parse().ok())
            .unwrap_or_else(|| panic!("{name}'s first line is {line:?}"));
        process
    }

    /// What it has logged so far.
    pub fn stderr(&self) -> String {
        self.stderr
            .lock()
            .map(|text| text.clone())
            .unwrap_or_default()
    }

    /// Waits (up to TIMEOUT) until its stderr holds `text`; whether it did.
    pub fn logged(&self, text: &str) -> bool {
        let deadline = std::time::Instant::now() + TIMEOUT;
        while std::time::Instant::now() < deadline {
            if self.stderr().contains(text) {
                return true;
            }
            thread::sleep(Duration::from_millis(20));
        }
        false
    }

    /// Stops it with SIGTERM, by its PID, and waits for it to exit (as the
    /// proxy then writes its report); whether it exited 0.
    pub fn terminate(&mut self) -> bool {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .is_ok_and(|status| status.success());
        assert!(sent, "kill -TERM {pid} failed");
        let deadline = std::time::Instant::now() + TIMEOUT;
        while std::time::Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.success();
            }
            thread::sleep(Duration::from_millis(20));
        }
        panic!("{} did not stop in {TIMEOUT:?} after SIGTERM", self.name);
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if thread::panicking() {
            eprintln!("{}'s stderr:\n{}", self.name, self.stderr());
        }
    }
}

/// The proxy, forwarding to `upstream`, with `args`.
pub fn proxy(upstream: &str, args: &[String]) -> Process {
    let mut all = vec![
        "--listen".to_owned(),
        "127.0.0.1:0".to_owned(),
        "--upstream".to_owned(),
        upstream.to_owned(),
    ];
    all.extend_from_slice(args);
    Process::start("kwire-proxy", Path::new(PROXY), &all)
}

/// kwire-broker, with `args` (`--listen 127.0.0.1:0` unless they name
/// listeners).
pub fn broker(args: &[String]) -> Process {
    let mut all = Vec::new();
    if !args.iter().any(|arg| arg == "--listener") {
        all.extend(["--listen".to_owned(), "127.0.0.1:0".to_owned()]);
    }
    all.extend_from_slice(args);
    Process::start("kwire-broker", broker_binary(), &all)
}

/// The broker binary, built (once per test binary) beside the proxy's: it is
/// another package, which `cargo test -p kwire-proxy` does not build. A
/// broker that cannot be built fails the test, saying why.
fn broker_binary() -> &'static Path {
    static BUILT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let built = BUILT.get_or_init(|| {
        let proxy = Path::new(PROXY);
        let profile_dir = proxy.parent().ok_or("the proxy binary has no folder")?;
        let target_dir = profile_dir
            .parent()
            .ok_or("the profile folder has no parent")?;
        let broker = profile_dir.join(format!("kwire-broker{}", std::env::consts::EXE_SUFFIX));
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| env!("CARGO").to_owned());
        let mut build = Command::new(cargo);
        build
            .args([
                "build",
                "--quiet",
                "-p",
                "kwire-broker",
                "--bin",
                "kwire-broker",
            ])
            .arg("--target-dir")
            .arg(target_dir)
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
        if profile_dir
            .file_name()
            .is_some_and(|name| name == "release")
        {
            build.arg("--release");
        }
        let output = build
            .output()
            .map_err(|error| format!("cannot run cargo to build kwire-broker: {error}"))?;
        if !output.status.success() {
            return Err(format!(
                "`cargo build -p kwire-broker` failed:\n{}",
                String::from_utf8_lossy(&output.stderr)
            ));
        }
        if !broker.is_file() {
            return Err(format!(
                "no kwire-broker at {} after building it",
                broker.display()
            ));
        }
        Ok(broker)
    });
    match built {
        Ok(path) => path,
        Err(why) => panic!("the upstream broker is missing: {why}"),
    }
}

/// `request` framed at `version` with correlation id `id`.
pub fn request_frame(request: &Request, version: i16, id: i32) -> Bytes {
    let header = RequestHeader::default()
        .with_request_api_key(request.api().key())
        .with_request_api_version(version)
        .with_correlation_id(id)
        .with_client_id(Some(KafkaString::from_static("proxy-security-test")));
    frame::encode_any_request(&header, request).expect("the request encodes")
}

/// `token` as a bare SASL frame (after SaslHandshake v0).
pub fn token_frame(token: &[u8]) -> Vec<u8> {
    let prefix = frame::length_prefix(token.len()).expect("a small token");
    [&prefix[..], token].concat()
}

/// Writes a frame.
pub async fn send<S: AsyncWrite + Unpin>(stream: &mut S, frame: &[u8]) {
    stream.write_all(frame).await.expect("write a frame");
    stream.flush().await.expect("flush a frame");
}

/// The next frame, prefix included; `None` when the peer closed (or reset) the
/// connection first. Panics after TIMEOUT: a peer must answer or close.
pub async fn receive<S: AsyncRead + Unpin>(stream: &mut S) -> Option<Bytes> {
    let read = async {
        let mut prefix = [0; 4];
        stream.read_exact(&mut prefix).await.ok()?;
        let len = usize::try_from(i32::from_be_bytes(prefix))
            .ok()
            .filter(|len| *len <= MAX_FRAME)
            .expect("a frame length within bounds");
        let mut frame = vec![0; 4 + len];
        frame[..4].copy_from_slice(&prefix);
        stream.read_exact(&mut frame[4..]).await.ok()?;
        Some(Bytes::from(frame))
    };
    tokio::time::timeout(TIMEOUT, read)
        .await
        .unwrap_or_else(|_| panic!("neither an answer nor a close in {TIMEOUT:?}"))
}

/// One request and its response, read at `version`.
pub async fn round_trip<S: AsyncRead + AsyncWrite + Unpin>(
    stream: &mut S,
    request: Request,
    version: i16,
    id: i32,
) -> Response {
    let api = request.api();
    send(stream, &request_frame(&request, version, id)).await;
    let frame = receive(stream)
        .await
        .unwrap_or_else(|| panic!("{} v{version} not answered: closed", api.name()));
    let (header, response) =
        frame::decode_any_response(&frame, api, version).expect("the response decodes");
    assert_eq!(
        header.correlation_id,
        id,
        "{} answered another request",
        api.name()
    );
    response
}

/// Whether `key` is offered in an ApiVersions response, and at which versions.
pub fn offered(response: &Response, api: ApiKey) -> Option<(i16, i16)> {
    let Response::ApiVersions(answer) = response else {
        panic!("not an ApiVersions response: {response:?}");
    };
    answer
        .api_keys
        .iter()
        .find(|entry| entry.api_key == api.key())
        .map(|entry| (entry.min_version, entry.max_version))
}

/// The JSON report the proxy wrote at `path`, as text.
pub fn report(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap_or_else(|error| panic!("no report at {}: {error}", path.display()))
}

/// A number of the report's top level (`"name": N`).
pub fn report_number(report: &str, name: &str) -> u64 {
    let key = format!("\n  \"{name}\": ");
    let at = report
        .find(&key)
        .unwrap_or_else(|| panic!("no {name} in the report:\n{report}"))
        + key.len();
    report[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .unwrap_or_else(|_| panic!("{name} is not a number in the report:\n{report}"))
}

/// A temporary file path for a report, unique to the test process.
pub fn temp_path(name: &str) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    std::env::temp_dir().join(format!(
        "kwire-proxy-{name}-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ))
}

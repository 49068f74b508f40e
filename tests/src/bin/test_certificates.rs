//! Writes the certificates the TLS tests use into a folder, made afresh each
//! run so that no key is ever committed:
//!
//! - `ca.pem`: a CA certificate;
//! - `server.pem`, `server.key`: a server certificate for `127.0.0.1` and
//!   `localhost` that the CA signed, and its private key (PKCS#8);
//! - `other-ca.pem`: another CA, which signed nothing here: a client that
//!   trusts only it must refuse the server.
//!
//! `cargo run -p kwire-tests --bin test_certificates -- DIR`
#![forbid(unsafe_code)]

use std::path::Path;
use std::process::ExitCode;

use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
    KeyUsagePurpose,
};

/// A CA named `name`: its certificate (PEM) and what signs with it.
fn ca(name: &str) -> Result<(String, Issuer<'static, KeyPair>), rcgen::Error> {
    let mut params = CertificateParams::new(Vec::new())?;
    params.distinguished_name.push(DnType::CommonName, name);
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    // What OpenSSL's strict checks (Python 3.13's default) ask of a CA.
    params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    let key = KeyPair::generate()?;
    let pem = params.self_signed(&key)?.pem();
    Ok((pem, Issuer::new(params, key)))
}

fn write(dir: &Path) -> Result<(), Box<dyn std::error::Error>> {
    std::fs::create_dir_all(dir)?;
    let (ca_pem, issuer) = ca("kwire test CA")?;
    let (other_pem, _) = ca("kwire other test CA")?;
    let mut server = CertificateParams::new(vec!["127.0.0.1".to_owned(), "localhost".to_owned()])?;
    server
        .distinguished_name
        .push(DnType::CommonName, "localhost");
    server.use_authority_key_identifier_extension = true;
    server.key_usages = vec![
        KeyUsagePurpose::DigitalSignature,
        KeyUsagePurpose::KeyEncipherment,
    ];
    server.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
    let key = KeyPair::generate()?;
    let cert = server.signed_by(&key, &issuer)?;
    std::fs::write(dir.join("ca.pem"), ca_pem)?;
    std::fs::write(dir.join("other-ca.pem"), other_pem)?;
    std::fs::write(dir.join("server.pem"), cert.pem())?;
    std::fs::write(dir.join("server.key"), key.serialize_pem())?;
    Ok(())
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (Some(dir), None) = (args.next(), args.next()) else {
        eprintln!("usage: test_certificates <folder>");
        return ExitCode::from(2);
    };
    match write(Path::new(&dir)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("test_certificates: {dir}: {error}");
            ExitCode::FAILURE
        }
    }
}

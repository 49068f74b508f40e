//! The JVM running `tests/judge/RecordsJudge.java`: started once, spoken to over
//! its stdin and stdout, one request at a time (its protocol: the program's header).

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::{Child, ChildStdin, ChildStdout};

/// Why talking to the JVM failed: the run cannot judge anything after that.
#[derive(Debug, thiserror::Error)]
pub enum PeerError {
    #[error("cannot start {command}: {source}")]
    Start {
        command: String,
        source: std::io::Error,
    },
    #[error("the Java judge's pipe failed: {0}")]
    Io(#[from] std::io::Error),
    #[error("the Java judge ended in the middle of an answer")]
    Ended,
    #[error("the Java judge said something outside its protocol: {0}")]
    Protocol(String),
}

/// One batch (or several in one records field) that Kafka wrote, with Kafka's
/// listing of it.
#[derive(Debug)]
pub struct KafkaCase {
    /// `KIND/VARIANT`, e.g. `plain/gzip`.
    pub name: String,
    pub bytes: Vec<u8>,
    pub listing: String,
}

pub struct Peer {
    child: Child,
    /// `None` once closed by [`finish`](Peer::finish).
    input: Option<BufWriter<ChildStdin>>,
    output: BufReader<ChildStdout>,
}

impl Peer {
    /// Starts `command` (the java command line, program name last); its stderr
    /// is ours, so that a Java exception reaches the log.
    pub fn start(command: &[String]) -> Result<Peer, PeerError> {
        let (child, stdin, stdout) =
            kwire_tests::child::spawn_piped(command).map_err(|e| PeerError::Start {
                command: e.command,
                source: e.source,
            })?;
        Ok(Peer {
            child,
            input: Some(BufWriter::new(stdin)),
            output: BufReader::new(stdout),
        })
    }

    fn send(&mut self, line: &str) -> Result<(), PeerError> {
        let input = self.input.as_mut().ok_or(PeerError::Ended)?;
        input.write_all(line.as_bytes())?;
        input.write_all(b"\n")?;
        input.flush()?;
        Ok(())
    }

    fn line(&mut self) -> Result<String, PeerError> {
        let mut line = String::new();
        if self.output.read_line(&mut line)? == 0 {
            return Err(PeerError::Ended);
        }
        if line.ends_with('\n') {
            line.pop();
        }
        Ok(line)
    }

    /// Lines up to `end`, each with its newline.
    fn until_end(&mut self) -> Result<String, PeerError> {
        let mut listing = String::new();
        loop {
            let line = self.line()?;
            if line == "end" {
                return Ok(listing);
            }
            listing.push_str(&line);
            listing.push('\n');
        }
    }

    /// Kafka's batches: its fixed cases and `random` random ones from `seed`.
    pub fn kafka_cases(&mut self, seed: u64, random: u32) -> Result<Vec<KafkaCase>, PeerError> {
        self.send(&format!("kafka {seed} {random}"))?;
        let mut cases = Vec::new();
        loop {
            let line = self.line()?;
            if line == "done" {
                return Ok(cases);
            }
            let mut words = line.splitn(3, ' ');
            let (Some("case"), Some(name), hex) = (words.next(), words.next(), words.next()) else {
                return Err(PeerError::Protocol(line));
            };
            let bytes =
                unhex(hex.unwrap_or_default()).ok_or_else(|| PeerError::Protocol(line.clone()))?;
            let listing = self.until_end()?;
            cases.push(KafkaCase {
                name: name.to_string(),
                bytes,
                listing,
            });
        }
    }

    /// Kafka's listing of `bytes`, or its refusal (an `error` line).
    pub fn read(&mut self, name: &str, bytes: &[u8]) -> Result<String, PeerError> {
        self.send(&format!("read {name} {}", hex(bytes)))?;
        self.until_end()
    }

    /// Closes the JVM's stdin (its loop ends there) and waits for it.
    pub fn finish(mut self) -> Result<(), PeerError> {
        drop(self.input.take());
        let status = self.child.wait()?;
        if status.success() {
            Ok(())
        } else {
            Err(PeerError::Protocol(format!(
                "the Java judge exited with {status}"
            )))
        }
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        // Only reached without `finish` (an error on the way): the JVM is ours to stop.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Lower-case hex, as Java's `HexFormat.of()` writes it.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        out.push(char::from(DIGITS[usize::from(byte >> 4)]));
        out.push(char::from(DIGITS[usize::from(byte & 0x0f)]));
    }
    out
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    let digits = text.as_bytes();
    if !digits.len().is_multiple_of(2) {
        return None;
    }
    digits
        .chunks(2)
        .map(|pair| {
            let high = char::from(pair[0]).to_digit(16)?;
            let low = char::from(pair[1]).to_digit(16)?;
            u8::try_from(high * 16 + low).ok()
        })
        .collect()
}

//! What the proxy saw, per API key: counted by every connection, printed as a table
//! and written as JSON when the proxy stops.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

use kwire_messages::{ApiKey, ApiKeyError};

/// The counts of one API key. Bytes are whole frames as read from the wire, length
/// prefix included (a rewritten response counts what the broker sent).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ApiCounts {
    /// Request frames from clients.
    pub requests: u64,
    /// Response frames from brokers.
    pub responses: u64,
    /// Bytes of the request frames.
    pub request_bytes: u64,
    /// Bytes of the response frames.
    pub response_bytes: u64,
    /// Frames that decoded, but whose re-encoding did not decode to the same value.
    pub mismatches: u64,
    /// Frames that did not decode.
    pub decode_failures: u64,
    /// Responses forwarded with broker addresses rewritten.
    pub rewrites: u64,
}

impl ApiCounts {
    /// One request frame of `bytes`.
    pub fn request(bytes: usize) -> Self {
        ApiCounts {
            requests: 1,
            request_bytes: bytes as u64,
            ..ApiCounts::default()
        }
    }

    /// One response frame of `bytes`.
    pub fn response(bytes: usize) -> Self {
        ApiCounts {
            responses: 1,
            response_bytes: bytes as u64,
            ..ApiCounts::default()
        }
    }

    /// Adds `other` to these counts.
    pub fn add(&mut self, other: &ApiCounts) {
        self.requests += other.requests;
        self.responses += other.responses;
        self.request_bytes += other.request_bytes;
        self.response_bytes += other.response_bytes;
        self.mismatches += other.mismatches;
        self.decode_failures += other.decode_failures;
        self.rewrites += other.rewrites;
    }
}

/// The counts of every API key seen, shared by all connections.
#[derive(Debug, Default)]
pub struct Stats {
    // One lock per frame is far cheaper than the decode and re-encode each frame
    // gets anyway; a BTreeMap keeps the report in key order.
    by_key: Mutex<BTreeMap<i16, ApiCounts>>,
    /// Responses whose correlation id matched no request in flight: they are
    /// forwarded, but no API key is known to count them under.
    unmatched: AtomicU64,
    /// Frames forwarded whose check had not run when the proxy stopped: neither
    /// verified nor counted above, so a report that has any proves nothing of them.
    unchecked: AtomicU64,
    /// Bare SASL tokens (the frames after a SaslHandshake v0), either way: not
    /// requests nor responses, so neither decoded nor counted under an API.
    raw_tokens: AtomicU64,
    /// Their bytes, length prefixes included.
    raw_token_bytes: AtomicU64,
    /// SaslHandshake, SaslAuthenticate and bare tokens the proxy answered itself
    /// (`--sasl-user`): requests counted above, answers not forwarded from any
    /// broker.
    answered_by_proxy: AtomicU64,
}

/// The name of an API key for the report: Kafka's name, the retired API's name, or
/// "unknown".
pub fn api_name(key: i16) -> &'static str {
    match ApiKey::from_i16(key) {
        Ok(api) => api.name(),
        Err(ApiKeyError::Retired { name, .. }) => name,
        Err(_) => "unknown",
    }
}

impl Stats {
    /// Updates the counts of `key`.
    pub fn count(&self, key: i16, update: impl FnOnce(&mut ApiCounts)) {
        // A poisoned lock only means another task panicked mid-update; the counts
        // are still plain numbers, so keep counting rather than panic too.
        let mut by_key = self.by_key.lock().unwrap_or_else(PoisonError::into_inner);
        update(by_key.entry(key).or_default());
    }

    /// Counts a response that answered no request in flight.
    pub fn count_unmatched(&self) {
        self.unmatched.fetch_add(1, Ordering::Relaxed);
    }

    /// Records `frames` forwarded but never checked (the proxy stopped first).
    pub fn count_unchecked(&self, frames: u64) {
        self.unchecked.fetch_add(frames, Ordering::Relaxed);
    }

    /// Counts a bare SASL token of `bytes`.
    pub fn count_raw_token(&self, bytes: usize) {
        self.raw_tokens.fetch_add(1, Ordering::Relaxed);
        self.raw_token_bytes
            .fetch_add(bytes as u64, Ordering::Relaxed);
    }

    /// Counts an answer the proxy gave itself.
    pub fn count_answered_by_proxy(&self) {
        self.answered_by_proxy.fetch_add(1, Ordering::Relaxed);
    }

    fn snapshot(&self) -> (BTreeMap<i16, ApiCounts>, ApiCounts, u64) {
        let by_key = self
            .by_key
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        let mut total = ApiCounts::default();
        for counts in by_key.values() {
            total.add(counts);
        }
        (by_key, total, self.unmatched.load(Ordering::Relaxed))
    }

    /// The report as a text table: one row per API key seen, then the total.
    pub fn table(&self) -> String {
        let (by_key, total, unmatched) = self.snapshot();
        let headings = [
            "api",
            "key",
            "requests",
            "responses",
            "bytes in",
            "bytes out",
            "mismatches",
            "decode failures",
            "rewrites",
        ];
        let row = |name: &str, key: String, c: &ApiCounts| -> [String; 9] {
            [
                name.to_owned(),
                key,
                c.requests.to_string(),
                c.responses.to_string(),
                c.request_bytes.to_string(),
                c.response_bytes.to_string(),
                c.mismatches.to_string(),
                c.decode_failures.to_string(),
                c.rewrites.to_string(),
            ]
        };
        let mut rows: Vec<[String; 9]> = vec![headings.map(str::to_owned)];
        rows.extend(
            by_key
                .iter()
                .map(|(key, counts)| row(api_name(*key), key.to_string(), counts)),
        );
        rows.push(row("total", String::new(), &total));

        let mut widths = [0_usize; 9];
        for cells in &rows {
            for (width, cell) in widths.iter_mut().zip(cells) {
                *width = (*width).max(cell.len());
            }
        }
        let mut out = String::new();
        for (i, cells) in rows.iter().enumerate() {
            if i + 1 == rows.len() {
                // A rule above the total row.
                let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
                out.push_str(rule.join("  ").trim_end());
                out.push('\n');
            }
            let mut line = String::new();
            for (column, (cell, width)) in cells.iter().zip(widths).enumerate() {
                if column > 0 {
                    line.push_str("  ");
                }
                // Names left-aligned, numbers right-aligned.
                if column == 0 {
                    let _ = write!(line, "{cell:<width$}");
                } else {
                    let _ = write!(line, "{cell:>width$}");
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        if unmatched > 0 {
            let _ = writeln!(
                out,
                "{unmatched} responses matched no request in flight (forwarded, not counted above)"
            );
        }
        let raw_tokens = self.raw_tokens.load(Ordering::Relaxed);
        if raw_tokens > 0 {
            let _ = writeln!(
                out,
                "{raw_tokens} bare SASL tokens ({} bytes) after SaslHandshake v0, not read as requests",
                self.raw_token_bytes.load(Ordering::Relaxed)
            );
        }
        let answered_by_proxy = self.answered_by_proxy.load(Ordering::Relaxed);
        if answered_by_proxy > 0 {
            let _ = writeln!(
                out,
                "{answered_by_proxy} SASL requests and tokens answered by the proxy (not forwarded)"
            );
        }
        let unchecked = self.unchecked.load(Ordering::Relaxed);
        if unchecked > 0 {
            let _ = writeln!(
                out,
                "{unchecked} frames forwarded but not checked before the proxy stopped \
                 (not counted above)"
            );
        }
        out
    }

    /// The report as JSON (written by hand: the examples have no JSON dependency, and
    /// the values are numbers and API names).
    pub fn json(&self) -> String {
        let (by_key, total, unmatched) = self.snapshot();
        let apis: Vec<String> = by_key
            .iter()
            .map(|(key, c)| {
                format!(
                    "    {{\"api_key\": {key}, \"name\": \"{}\", \"requests\": {}, \
                     \"responses\": {}, \"request_bytes\": {}, \"response_bytes\": {}, \
                     \"mismatches\": {}, \"decode_failures\": {}, \"rewrites\": {}}}",
                    json_escape(api_name(*key)),
                    c.requests,
                    c.responses,
                    c.request_bytes,
                    c.response_bytes,
                    c.mismatches,
                    c.decode_failures,
                    c.rewrites,
                )
            })
            .collect();
        let apis = if apis.is_empty() {
            "[]".to_owned()
        } else {
            format!("[\n{}\n  ]", apis.join(",\n"))
        };
        format!(
            "{{\n  \"apis\": {apis},\n  \"mismatches\": {},\n  \"decode_failures\": {},\n  \
             \"unmatched_responses\": {unmatched},\n  \"unchecked\": {},\n  \
             \"raw_tokens\": {},\n  \"raw_token_bytes\": {},\n  \"answered_by_proxy\": {}\n}}\n",
            total.mismatches,
            total.decode_failures,
            self.unchecked.load(Ordering::Relaxed),
            self.raw_tokens.load(Ordering::Relaxed),
            self.raw_token_bytes.load(Ordering::Relaxed),
            self.answered_by_proxy.load(Ordering::Relaxed),
        )
    }
}

/// Escapes a string for a JSON string literal.
fn json_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out
}

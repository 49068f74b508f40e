//! `kwire decode`: a frame or body in Kafka's JSON form.

use std::io::Write;

use kwire::{Message, MessageEnum};
use kwire_messages::{Request, RequestHeader, Response, ResponseHeader};
use serde_json::{Map, Value};

use crate::cli::DecodeArgs;
use crate::error::CliError;
use crate::input;
use crate::layout::Layout;
use crate::read::{self, Body, Header};
use crate::target::Target;

/// Runs the command.
pub fn run(args: &DecodeArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let input = input::bytes(&args.read.input)?;
    let layout = Layout::of(&input, Target::from_args(&args.read.message)?)?;
    let decoded = read::read(&input, &layout).map_err(|e| e.into_cli(&layout))?;
    let to_json = |e: &dyn std::error::Error| CliError::from_error("cannot write JSON", e);
    let body = match &decoded.body {
        Body::Request(body) => body.to_json(layout.version),
        Body::Response(body) => body.to_json(layout.version),
    }
    .map_err(|e| to_json(&e))?;
    let mut lost = lost_in_json(&decoded.body, &body, layout.version);
    let value = match (&decoded.header, layout.frame) {
        (Some(header), Some(frame)) => {
            let header = match header {
                Header::Request(h) => {
                    let json = h.to_json(frame.header_version).map_err(|e| to_json(&e))?;
                    lost |= RequestHeader::from_json(&json, frame.header_version)
                        .is_ok_and(|again| again != *h);
                    json
                }
                Header::Response(h) => {
                    let json = h.to_json(frame.header_version).map_err(|e| to_json(&e))?;
                    lost |= ResponseHeader::from_json(&json, frame.header_version)
                        .is_ok_and(|again| again != *h);
                    json
                }
            };
            // Kept in this order: serde_json's maps keep insertion order here.
            let mut both = Map::new();
            both.insert("header".to_owned(), header);
            both.insert("body".to_owned(), body);
            Value::Object(both)
        }
        _ => body,
    };
    if lost {
        // Nothing given is dropped without a word: say so, on stderr.
        eprintln!(
            "kwire: note: unknown tagged fields are not shown (Kafka's JSON form has no \
             place for them); `kwire dissect` shows them"
        );
    }
    let text = if args.compact {
        serde_json::to_string(&value)
    } else {
        serde_json::to_string_pretty(&value)
    }
    .map_err(|e| CliError::new(format!("cannot write JSON: {e}")))?;
    writeln!(out, "{text}").map_err(|e| CliError::new(format!("cannot write the output: {e}")))
}

/// True when the body's JSON form reads back to another value: what the JSON
/// form cannot hold (unknown tagged fields) was dropped.
fn lost_in_json(body: &Body, json: &Value, version: i16) -> bool {
    match body {
        Body::Request(body) => {
            Request::from_json(body.api_key(), version, json).is_ok_and(|again| again != *body)
        }
        Body::Response(body) => {
            Response::from_json(body.api_key(), version, json).is_ok_and(|again| again != *body)
        }
    }
}

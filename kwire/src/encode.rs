//! `kwire encode`: a body or a whole frame from Kafka's JSON form, printed as hex
//! or written raw.

use std::io::Write;

use bytes::Bytes;
use kwire::{Message, MessageEnum};
use kwire_messages::{frame, ApiKey, Request, RequestHeader, Response, ResponseHeader};
use serde_json::Value;

use crate::cli::EncodeArgs;
use crate::error::CliError;
use crate::target::{self, Side, Target};
use crate::{hex, input};

/// Runs the command.
pub fn run(args: &EncodeArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let value = input::json(&args.input)?;
    let bytes = match Target::from_args(&args.message)? {
        Target::Body(side, api, version) => body(side, api, version, &value)?,
        Target::RequestFrame(named) => request_frame(named, &value)?,
        Target::ResponseFrame(api, version) => response_frame(api, version, &value)?,
    };
    let written = if args.raw {
        out.write_all(&bytes)
    } else {
        writeln!(out, "{}", hex::encode(&bytes))
    };
    written.map_err(|e| CliError::new(format!("cannot write the output: {e}")))
}

fn json_error(what: &str) -> impl Fn(kwire::json::JsonError) -> CliError + '_ {
    move |error| CliError::from_error(&format!("bad {what} JSON"), &error)
}

fn encode_error(error: impl std::error::Error) -> CliError {
    CliError::from_error("cannot encode", &error)
}

fn body(side: Side, api: ApiKey, version: i16, value: &Value) -> Result<Bytes, CliError> {
    let key = api.key();
    match side {
        Side::Request => Request::from_json(key, version, value)
            .map_err(json_error("body"))?
            .encode(version),
        Side::Response => Response::from_json(key, version, value)
            .map_err(json_error("body"))?
            .encode(version),
    }
    .map_err(encode_error)
}

/// The header and body of a frame's JSON: an object with exactly those two keys.
fn parts(value: &Value) -> Result<(&Value, &Value), CliError> {
    let shape = || CliError::new(r#"a frame's JSON is {"header": {...}, "body": {...}}"#);
    let object = value.as_object().ok_or_else(shape)?;
    if let Some(key) = object.keys().find(|k| *k != "header" && *k != "body") {
        return Err(CliError::new(format!(
            r#"a frame's JSON has only "header" and "body", not {key:?}"#
        )));
    }
    match (object.get("header"), object.get("body")) {
        (Some(header), Some(body)) => Ok((header, body)),
        _ => Err(shape()),
    }
}

/// The API and version a request header's JSON names: read before the header
/// itself, whose version follows from them.
fn named_in_header(header: &Value) -> Result<(ApiKey, i16), CliError> {
    let number = |key: &str| {
        header
            .get(key)
            .and_then(Value::as_i64)
            .and_then(|n| i16::try_from(n).ok())
            .ok_or_else(|| {
                CliError::new(format!(
                    "the header has no {key} (an int16): give it, or --api and --version"
                ))
            })
    };
    let api = target::api(&number("requestApiKey")?.to_string())?;
    let version = number("requestApiVersion")?;
    target::check_version(api.request_schema(), version)?;
    Ok((api, version))
}

fn request_frame(named: Option<(ApiKey, i16)>, value: &Value) -> Result<Bytes, CliError> {
    let (header, body) = parts(value)?;
    let (api, version) = match named {
        Some(named) => named,
        None => named_in_header(header)?,
    };
    let header = RequestHeader::from_json(header, api.request_header_version(version))
        .map_err(json_error("header"))?;
    if (header.request_api_key, header.request_api_version) != (api.key(), version) {
        return Err(CliError::new(format!(
            "the header says API key {} v{}, the options {} ({}) v{version}",
            header.request_api_key,
            header.request_api_version,
            api.name(),
            api.key()
        )));
    }
    let body = Request::from_json(api.key(), version, body).map_err(json_error("body"))?;
    frame::encode_any_request(&header, &body).map_err(encode_error)
}

fn response_frame(api: ApiKey, version: i16, value: &Value) -> Result<Bytes, CliError> {
    let (header, body) = parts(value)?;
    let header = ResponseHeader::from_json(header, api.response_header_version(version))
        .map_err(json_error("header"))?;
    let body = Response::from_json(api.key(), version, body).map_err(json_error("body"))?;
    frame::encode_any_response(&header, &body, version).map_err(encode_error)
}

//! What the options say the bytes or JSON are: which API, which version, request
//! or response, frame or bare body; each checked against the API table.

use kwire::schema::MessageSchema;
use kwire_messages::ApiKey;

use crate::cli::MessageArgs;
use crate::error::CliError;

/// Which side of an exchange a message is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Sent by a client.
    Request,
    /// Sent by a broker.
    Response,
}

impl Side {
    /// `request` or `response`.
    pub fn name(self) -> &'static str {
        match self {
            Side::Request => "request",
            Side::Response => "response",
        }
    }

    /// The schema of `api`'s message on this side.
    pub fn schema(self, api: ApiKey) -> &'static MessageSchema {
        match self {
            Side::Request => api.request_schema(),
            Side::Response => api.response_schema(),
        }
    }

    /// The header version that goes with `api`'s body at `version`.
    pub fn header_version(self, api: ApiKey, version: i16) -> i16 {
        match self {
            Side::Request => api.request_header_version(version),
            // ApiVersions answers with header v0 whatever its version: the table says so.
            Side::Response => api.response_header_version(version),
        }
    }
}

/// What the bytes or JSON given to a command are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// A request frame: the API and version are read from its header. When the
    /// options named them too, the header must agree.
    RequestFrame(Option<(ApiKey, i16)>),
    /// A response frame to a request of this API at this version.
    ResponseFrame(ApiKey, i16),
    /// A bare body.
    Body(Side, ApiKey, i16),
}

impl Target {
    /// Reads the options: no `--api` means a request frame; `--api` and `--version`
    /// mean a body, or a frame with `--frame`.
    pub fn from_args(args: &MessageArgs) -> Result<Target, CliError> {
        let side = if args.response {
            Side::Response
        } else {
            Side::Request
        };
        let named = match (&args.api, args.version) {
            (Some(name), Some(version)) => {
                let api = api(name)?;
                check_version(side.schema(api), version)?;
                Some((api, version))
            }
            (Some(_), None) => return Err(CliError::usage("--api needs --version")),
            (None, Some(_)) => return Err(CliError::usage("--version needs --api")),
            (None, None) => None,
        };
        match (side, named, args.frame) {
            (Side::Request, named, true) | (Side::Request, named @ None, false) => {
                Ok(Target::RequestFrame(named))
            }
            (Side::Response, Some((api, version)), true) => Ok(Target::ResponseFrame(api, version)),
            (side, Some((api, version)), false) => Ok(Target::Body(side, api, version)),
            (Side::Response, None, _) => Err(CliError::usage(
                "a response header names no API or version: give --api NAME --version V",
            )),
        }
    }
}

/// The API called `name`: its name as [`ApiKey`] spells it (`InitProducerId`, any
/// case) or its numeric key.
pub fn api(name: &str) -> Result<ApiKey, CliError> {
    if let Ok(key) = name.parse::<i16>() {
        return ApiKey::from_i16(key).map_err(|e| CliError::new(e.to_string()));
    }
    let found = ApiKey::ALL
        .iter()
        .find(|api| api.name() == name)
        .or_else(|| {
            ApiKey::ALL
                .iter()
                .find(|api| api.name().eq_ignore_ascii_case(name))
        });
    if let Some(&api) = found {
        return Ok(api);
    }
    // `InitProducerIdRequest` is a message's name; the option wants the API's.
    let stem = name
        .strip_suffix("Request")
        .or_else(|| name.strip_suffix("Response"));
    match stem.and_then(|stem| api(stem).ok()) {
        Some(api) => Err(CliError::new(format!(
            "unknown API {name:?}: did you mean {}{}?",
            api.name(),
            if name.ends_with("Response") {
                " with --response"
            } else {
                ""
            }
        ))),
        None => Err(CliError::new(format!(
            "unknown API {name:?}: give a name such as InitProducerId or a key such as 22"
        ))),
    }
}

/// Checks that `schema` has `version`.
pub fn check_version(schema: &MessageSchema, version: i16) -> Result<(), CliError> {
    if schema.valid_versions.contains(version) {
        Ok(())
    } else {
        Err(CliError::new(format!(
            "{} has no version {version} (its versions are {})",
            schema.name, schema.valid_versions
        )))
    }
}

//! SASL terminated at the proxy (`--sasl-user`): a client logs in to the proxy,
//! which runs kwire-net's broker-side gate, before anything of it but ApiVersions
//! reaches the broker.
//!
//! Until the client has authenticated, its frames are taken one at a time, each
//! at most `--sasl-server-max-receive-size` (the reader refuses a larger prefix):
//!
//! - ApiVersions goes upstream (the client must learn the broker's versions,
//!   which it uses for every request after), on a connection opened for it then
//!   and without the proxy's login, and the answer comes back with the proxy's
//!   SaslHandshake and SaslAuthenticate versions in place of the broker's: the
//!   proxy answers those, whatever the broker offers (a PLAINTEXT broker may
//!   offer none).
//! - SaslHandshake, SaslAuthenticate and, after a SaslHandshake v0, bare tokens
//!   are answered by the gate, never forwarded.
//! - Anything else closes the connection without an answer, as Kafka's broker
//!   does, and so does a failed exchange once it is answered.
//! - The steps that check a credential run on the authentication pool, off the
//!   I/O threads; a failure is answered after
//!   `--connection-failed-authentication-delay-ms`.
//!
//! One at a time: answers then go out in the order of the requests without a
//! queue of them, and clients do not pipeline while logging in anyway.

use std::sync::Arc;
use std::time::Instant;

use bytes::Bytes;
use kwire_messages::api::api_versions::{ApiVersion, ApiVersionsResponse};
use kwire_messages::frame::{self, frame_contents, RequestFrame};
use kwire_messages::{ApiKey, Response, ResponseHeader};
use kwire_net::sasl::{Gate, RawGate};
use kwire_net::server::{Frame, FrameReader};
use tracing::warn;

use crate::connection::{
    check_request, count_undecodable, count_unread_request, log_hex, mismatch, open_upstream,
    Upstream,
};
use crate::error::{chain, ProxyError};
use crate::io::{self, Reader, Writer};
use crate::listener::Proxy;
use crate::routes::BrokerAddress;
use crate::security::ClientSasl;
use crate::stats::{api_name, ApiCounts};
use crate::verify::{self, Verdict};

/// Both connections of a pair, before forwarding starts.
pub struct Sides<'a> {
    /// The client's frames.
    pub client: &'a mut FrameReader<Reader>,
    /// To the client.
    pub to_client: &'a mut Writer,
    /// The upstream connection, once the client's ApiVersions has opened it.
    pub upstream: &'a mut Option<Upstream>,
    /// The broker's answer to the client's ApiVersions on `upstream`, as the
    /// broker wrote it, once it accepted one (error 0). Kafka's broker then
    /// awaits SaslHandshake and closes a connection that asks ApiVersions
    /// again, so the proxy's own login there starts at SaslHandshake, at the
    /// versions read from it.
    pub answered: &'a mut Option<ApiVersionsResponse>,
    /// Where it goes.
    pub address: &'a BrokerAddress,
}

/// Runs the gate until the client has authenticated: `Ok(Some(principal))`
/// then; `Ok(None)` if it closed first; `Err(Unauthenticated)` when the gate
/// closes it (or another error of either connection).
pub async fn authenticate(
    sasl: &ClientSasl,
    mut sides: Sides<'_>,
    proxy: &Arc<Proxy>,
) -> Result<Option<String>, ProxyError> {
    let mut gate = sasl.gate();
    let limits = &proxy.limits.clients;
    // connection.failed.authentication.delay.ms: a guess costs the guesser this
    // long before its answer, and holds no thread meanwhile.
    let refused = |why: String| async move {
        tokio::time::sleep(limits.failed_authentication_delay).await;
        ProxyError::Unauthenticated(why)
    };
    loop {
        let Some(frame) = io::next_frame(sides.client, "client").await? else {
            return Ok(None);
        };
        if gate.expects_raw_token() {
            proxy.stats.count_raw_token(frame.len());
            let token = frame.slice_ref(frame_contents(&frame)?);
            let now = Instant::now();
            let pool = &limits.authentication;
            match pool
                .gate_raw_token(&mut gate, token, &sasl.users, now)
                .await
            {
                RawGate::Send(reply) => {
                    let prefix = frame::length_prefix(reply.len())?;
                    io::write_frame(sides.to_client, &[&prefix[..], &reply].concat()).await?;
                    proxy.stats.count_answered_by_proxy();
                }
                RawGate::Close(why) => return Err(refused(why).await),
            }
        } else {
            let parsed = RequestFrame::parse(&frame).map_err(|error| {
                ProxyError::Unauthenticated(format!(
                    "a frame that is not a request: {}",
                    chain(&error)
                ))
            })?;
            let (key, version) = (parsed.api_key(), parsed.api_version());
            if key == ApiKey::ApiVersions.key() {
                forward_api_versions(&frame, &parsed, &mut sides, proxy).await?;
                continue;
            }
            let decoded = verify::read_request(&parsed).map_err(|why| {
                ProxyError::Unauthenticated(format!(
                    "{} v{version} before logging in, unreadable: {why}",
                    api_name(key)
                ))
            })?;
            check_request(&frame, &decoded, proxy);
            let header = ResponseHeader::default().with_correlation_id(parsed.correlation_id());
            let (pool, now) = (&limits.authentication, Instant::now());
            match pool
                .gate_request(&mut gate, &decoded.body, version, &sasl.users, now)
                .await
            {
                Gate::Answer(response) => {
                    let out = frame::encode_any_response(&header, &response, version)?;
                    io::write_frame(sides.to_client, &out).await?;
                    proxy.stats.count_answered_by_proxy();
                }
                Gate::AnswerAndClose(response) => {
                    let out = frame::encode_any_response(&header, &response, version)?;
                    let error = refused(refusal(&response)).await;
                    // Closing anyway: a client gone already changes nothing.
                    let _ = io::write_frame(sides.to_client, &out).await;
                    proxy.stats.count_answered_by_proxy();
                    return Err(error);
                }
                Gate::Close(why) => return Err(refused(why).await),
                // Only ApiVersions is served before logging in, and it went
                // upstream above; once logged in, this loop has returned.
                Gate::Serve => {
                    return Err(ProxyError::Unauthenticated(format!(
                        "{} served before logging in",
                        api_name(key)
                    )))
                }
            }
        }
        if gate.is_authenticated() {
            // Logged in: its requests may be as large as any client's, are paid
            // for from the budget, and it is never evicted for a newcomer.
            sides.client.authenticated();
            return Ok(gate.principal().map(str::to_owned));
        }
    }
}

/// Why the gate refused, from its answer.
fn refusal(response: &Response) -> String {
    match response {
        Response::SaslAuthenticate(answer) => format!(
            "SASL authentication failed: {}",
            answer.error_message.as_ref().map_or("", |m| m.as_str())
        ),
        Response::SaslHandshake(answer) => {
            format!("SaslHandshake refused with error {}", answer.error_code)
        }
        other => format!("{} refused", other.api().name()),
    }
}

/// Forwards one ApiVersions request and its answer, each checked and counted
/// like any forwarded frame; the answer offers the proxy's SASL versions.
///
/// The request need not decode: a client asks at the newest version it knows,
/// and a broker answers one it does not know with a v0 body.
async fn forward_api_versions(
    frame: &Frame,
    parsed: &RequestFrame,
    sides: &mut Sides<'_>,
    proxy: &Proxy,
) -> Result<(), ProxyError> {
    let key = ApiKey::ApiVersions.key();
    let (version, sent) = (parsed.api_version(), parsed.correlation_id());
    match verify::read_request(parsed) {
        Ok(decoded) => check_request(frame, &decoded, proxy),
        Err(why) => count_unread_request(proxy, frame, (key, version, sent), &why),
    }
    let timeout = proxy.limits.request_timeout;
    let (upstream, to_upstream) = match sides.upstream {
        Some(opened) => opened,
        // The first ApiVersions opens the connection the client's requests go
        // on once it has logged in; the proxy logs in upstream only then.
        None => sides
            .upstream
            .insert(open_upstream(sides.address, proxy).await?),
    };
    io::write_frame(to_upstream, frame).await?;
    let answer = tokio::time::timeout(timeout, io::next_frame(upstream, "upstream"))
        .await
        .map_err(|_| ProxyError::UpstreamTimeout {
            api: api_name(key),
            correlation_id: sent,
            timeout,
        })??
        .ok_or(ProxyError::UpstreamClosed)?;
    let received = frame::response_correlation_id(&answer)?;
    if received != sent {
        return Err(ProxyError::UnexpectedResponse { sent, received });
    }
    let (out, accepted) = offering_sasl(&answer, version, proxy)?;
    if accepted.is_some() {
        *sides.answered = accepted;
    }
    io::write_frame(sides.to_client, &out).await?;
    Ok(())
}

/// The ApiVersions answer `frame`, checked and counted, with the SASL APIs the
/// proxy answers in place of the broker's; as it came if it does not read, or
/// does not re-encode to itself, or is an error (the v0 fallback). With it, the
/// broker's own answer when it accepted the request (error 0).
fn offering_sasl(
    frame: &Bytes,
    version: i16,
    proxy: &Proxy,
) -> Result<(Bytes, Option<ApiVersionsResponse>), ProxyError> {
    let key = ApiKey::ApiVersions.key();
    let mut counts = ApiCounts::response(frame.len());
    let mut decoded = match verify::read_response(frame, key, version) {
        Ok(decoded) => decoded,
        Err(why) => {
            warn!(
                version,
                "ApiVersions response does not decode (forwarded as is): {why}"
            );
            log_hex(frame, None);
            count_undecodable(proxy, key, counts);
            return Ok((frame.clone(), None));
        }
    };
    let accepted = match &decoded.body {
        Response::ApiVersions(answer) if answer.error_code == 0 => Some(answer.clone()),
        _ => None,
    };
    let mut out = frame.clone();
    match verify::check_response(frame, &decoded) {
        Verdict::Verified { .. } => {
            if let Response::ApiVersions(answer) = &mut decoded.body {
                if answer.error_code == 0 && offer_sasl(&mut answer.api_keys) {
                    out = frame::encode_any_response(
                        &decoded.header,
                        &decoded.body,
                        decoded.version,
                    )?;
                    counts.rewrites = 1;
                }
            }
        }
        Verdict::Mismatch { why, reencoded } => {
            let id = (
                "response",
                api_name(key),
                version,
                decoded.header.correlation_id,
            );
            mismatch(id, frame, &why, reencoded.as_ref(), &mut counts);
            warn!("SASL versions not offered: the re-encoding is not trusted");
        }
    }
    proxy.stats.count(key, |total| total.add(&counts));
    Ok((out, accepted))
}

/// Puts the proxy's SaslHandshake and SaslAuthenticate versions in `apis` in
/// place of the broker's, keeping the list in key order; whether that changed
/// anything.
fn offer_sasl(apis: &mut Vec<ApiVersion>) -> bool {
    let before = apis.clone();
    for api in [ApiKey::SaslHandshake, ApiKey::SaslAuthenticate] {
        apis.retain(|entry| entry.api_key != api.key());
        let Some((min, max)) = api.stable_versions() else {
            continue;
        };
        apis.push(
            ApiVersion::default()
                .with_api_key(api.key())
                .with_min_version(min)
                .with_max_version(max),
        );
    }
    apis.sort_by_key(|entry| entry.api_key);
    *apis != before
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: i16, min: i16, max: i16) -> ApiVersion {
        ApiVersion::default()
            .with_api_key(key)
            .with_min_version(min)
            .with_max_version(max)
    }

    #[test]
    fn the_proxys_sasl_versions_replace_the_brokers() {
        let sasl = |api: ApiKey| {
            let (min, max) = api.stable_versions().unwrap();
            entry(api.key(), min, max)
        };
        // A PLAINTEXT broker offering no SASL at all.
        let mut apis = vec![entry(0, 3, 11), entry(3, 0, 12), entry(18, 0, 4)];
        assert!(offer_sasl(&mut apis));
        assert_eq!(
            apis,
            [
                entry(0, 3, 11),
                entry(3, 0, 12),
                sasl(ApiKey::SaslHandshake),
                entry(18, 0, 4),
                sasl(ApiKey::SaslAuthenticate)
            ]
        );
        // Already the proxy's: nothing to rewrite.
        assert!(!offer_sasl(&mut apis));
        // Other versions of the broker's own.
        let mut apis = vec![entry(17, 0, 0), entry(36, 0, 0)];
        assert!(offer_sasl(&mut apis));
        assert_eq!(
            apis,
            [sasl(ApiKey::SaslHandshake), sasl(ApiKey::SaslAuthenticate)]
        );
    }
}

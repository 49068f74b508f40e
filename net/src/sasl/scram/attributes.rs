//! The text of SCRAM messages (RFC 5802 section 7): comma-separated `key=value`
//! attributes, user names escaped, nonces printable.

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;

use crate::sasl::error::SaslError;

/// Escapes a user name for `n=` (and `a=`): `=` as `=3D`, `,` as `=2C`.
pub(crate) fn escape_name(name: &str) -> String {
    name.replace('=', "=3D").replace(',', "=2C")
}

/// Undoes [`escape_name`]; any other `=` sequence is malformed (RFC 5802: a
/// server must fail the exchange on it).
pub(crate) fn unescape_name(escaped: &str) -> Result<String, SaslError> {
    let mut out = String::with_capacity(escaped.len());
    let mut rest = escaped;
    while let Some(at) = rest.find('=') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        if let Some(tail) = after.strip_prefix("3D") {
            out.push('=');
            rest = tail;
        } else if let Some(tail) = after.strip_prefix("2C") {
            out.push(',');
            rest = tail;
        } else {
            return Err(malformed(
                "user name",
                "an escape other than =2C or =3D".into(),
            ));
        }
    }
    out.push_str(rest);
    Ok(out)
}

/// A message as text: SCRAM messages are UTF-8.
pub(crate) fn text<'a>(message: &'a [u8], what: &'static str) -> Result<&'a str, SaslError> {
    std::str::from_utf8(message).map_err(|_| malformed(what, "not UTF-8".into()))
}

/// Refuses a message that starts with a mandatory extension (`m=`): RFC 5802
/// reserves it, and a side that does not know the extension must fail.
pub(crate) fn refuse_mandatory(
    attributes: &[(&str, &str)],
    what: &'static str,
) -> Result<(), SaslError> {
    if attributes.first().is_some_and(|(key, _)| *key == "m") {
        return Err(malformed(
            what,
            "a mandatory extension (m=) is not supported".into(),
        ));
    }
    Ok(())
}

/// The most extensions a SCRAM message may carry after its standard attributes.
/// Kafka sends one at most (`tokenauth=true`, for delegation tokens); 16 leaves
/// room for any a deployment adds, and bounds what a peer makes the other side
/// hold.
pub(crate) const MAX_EXTENSIONS: usize = 16;

/// A message's attributes in order: `key=value` pairs split at commas. A value may
/// hold `=` (base64 does); a key may be longer than one letter (Kafka's
/// extensions, such as `tokenauth`).
///
/// At most `standard` attributes (the message's own: 2 in client-first, 3 in
/// server-first...) and [`MAX_EXTENSIONS`] more: the reader stops at the first
/// one over with [`SaslError::TooMany`], so a message of a million `,a=b` costs
/// no more than one of 16.
///
/// A malformed part is named by its position, never quoted: a client that sends
/// another mechanism's message (an OAUTHBEARER token, a PLAIN password) to SCRAM
/// must not find its secret in the error, which servers log and answer with.
pub(crate) fn attributes<'a>(
    message: &'a str,
    what: &'static str,
    standard: usize,
) -> Result<Vec<(&'a str, &'a str)>, SaslError> {
    let max = standard + MAX_EXTENSIONS;
    let mut attributes = Vec::with_capacity(standard);
    for (index, part) in message.split(',').enumerate() {
        if index == max {
            return Err(SaslError::TooMany {
                what: "SCRAM extensions",
                max: MAX_EXTENSIONS,
            });
        }
        let pair = part
            .split_once('=')
            .filter(|(key, _)| !key.is_empty())
            .ok_or_else(|| malformed(what, format!("part {} is not key=value", index + 1)))?;
        attributes.push(pair);
    }
    Ok(attributes)
}

/// The value of the attribute at `index`, which must be `key`.
pub(crate) fn expect<'a>(
    attributes: &[(&str, &'a str)],
    index: usize,
    key: &str,
    what: &'static str,
) -> Result<&'a str, SaslError> {
    match attributes.get(index) {
        Some((found, value)) if *found == key => Ok(value),
        Some((found, _)) => Err(malformed(what, format!("{key}= expected, found {found}="))),
        None => Err(malformed(what, format!("{key}= missing"))),
    }
}

/// A nonce: printable ASCII but the comma, and not empty.
pub(crate) fn check_nonce(nonce: &str, what: &'static str) -> Result<(), SaslError> {
    let printable = |c: char| ('\x21'..='\x7e').contains(&c) && c != ',';
    if nonce.is_empty() || !nonce.chars().all(printable) {
        return Err(malformed(
            what,
            "the nonce is empty or not printable".into(),
        ));
    }
    Ok(())
}

/// Base64 as SCRAM writes it (standard alphabet, padded).
pub(crate) fn encode64(bytes: &[u8]) -> String {
    STANDARD.encode(bytes)
}

/// Reads base64, naming the attribute when it is not.
pub(crate) fn decode64(text: &str, what: &'static str) -> Result<Vec<u8>, SaslError> {
    STANDARD
        .decode(text)
        .map_err(|error| malformed(what, format!("not base64: {error}")))
}

/// Extensions (`key=value` after the standard attributes), checked as Kafka's
/// `ScramExtensions` reads them: a key of letters and digits.
pub(crate) fn extensions(
    attributes: &[(&str, &str)],
    what: &'static str,
) -> Result<Vec<(String, String)>, SaslError> {
    attributes
        .iter()
        .map(|(key, value)| {
            if key.chars().all(|c| c.is_ascii_alphanumeric()) {
                Ok(((*key).to_owned(), (*value).to_owned()))
            } else {
                Err(malformed(what, format!("extension name {key:?}")))
            }
        })
        .collect()
}

pub(crate) fn malformed(what: &'static str, detail: String) -> SaslError {
    SaslError::Malformed { what, detail }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_escape_and_unescape() {
        assert_eq!(escape_name("a=b,c"), "a=3Db=2Cc");
        assert_eq!(unescape_name("a=3Db=2Cc").unwrap(), "a=b,c");
        assert_eq!(unescape_name("plain").unwrap(), "plain");
        assert!(unescape_name("a=4Ab").is_err());
        assert!(unescape_name("a=").is_err());
    }

    #[test]
    fn attributes_keep_equals_in_values() {
        let parsed = attributes("r=abc,s=QSXCR+Q6sek8bf92,i=4096", "test", 3).unwrap();
        assert_eq!(
            parsed,
            [("r", "abc"), ("s", "QSXCR+Q6sek8bf92"), ("i", "4096")]
        );
        assert_eq!(attributes("p=YQ==", "test", 1).unwrap(), [("p", "YQ==")]);
        assert!(attributes("r=abc,junk", "test", 2).is_err());
        assert!(attributes("=x", "test", 1).is_err());
    }

    /// Issue 29: `,a=b` repeated made a Vec of every pair. The reader stops at
    /// the first attribute past the standard ones and 16 extensions.
    #[test]
    fn attributes_stop_at_the_bound() {
        let at_bound = format!("n=u,r=x{}", ",a=b".repeat(MAX_EXTENSIONS));
        assert_eq!(
            attributes(&at_bound, "test", 2).unwrap().len(),
            2 + MAX_EXTENSIONS
        );
        let over = format!("{at_bound},a=b");
        let too_many = SaslError::TooMany {
            what: "SCRAM extensions",
            max: MAX_EXTENSIONS,
        };
        assert_eq!(attributes(&over, "test", 2), Err(too_many.clone()));
        // Parts past the bound are not read at all: not even to find them
        // malformed.
        let hostile = format!("{over},junk{}", ",a=b".repeat(1 << 20));
        assert_eq!(attributes(&hostile, "test", 2), Err(too_many));
    }

    /// Found by the sasl_server fuzz target: an OAUTHBEARER message sent to SCRAM
    /// came back with its bearer token inside the error.
    #[test]
    fn a_malformed_part_is_not_quoted() {
        let message = "r=abc,\u{1}auth<Bearer secret-token\u{1}\u{1}";
        let error = attributes(message, "client-first message", 2).unwrap_err();
        let text = error.to_string();
        assert!(text.contains("part 2 is not key=value"), "{text}");
        assert!(!text.contains("secret-token"), "{text}");
    }

    #[test]
    fn nonces_are_printable_without_commas() {
        assert!(check_nonce("rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0", "t").is_ok());
        assert!(check_nonce("", "t").is_err());
        assert!(check_nonce("a b", "t").is_err());
        assert!(check_nonce("é", "t").is_err());
    }
}

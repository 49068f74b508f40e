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

/// A message's attributes in order: `key=value` pairs split at commas. A value may
/// hold `=` (base64 does); a key may be longer than one letter (Kafka's
/// extensions, such as `tokenauth`).
///
/// A malformed part is named by its position, never quoted: a client that sends
/// another mechanism's message (an OAUTHBEARER token, a PLAIN password) to SCRAM
/// must not find its secret in the error, which servers log and answer with.
pub(crate) fn attributes<'a>(
    message: &'a str,
    what: &'static str,
) -> Result<Vec<(&'a str, &'a str)>, SaslError> {
    message
        .split(',')
        .enumerate()
        .map(|(index, part)| {
            part.split_once('=')
                .filter(|(key, _)| !key.is_empty())
                .ok_or_else(|| malformed(what, format!("part {} is not key=value", index + 1)))
        })
        .collect()
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
        let parsed = attributes("r=abc,s=QSXCR+Q6sek8bf92,i=4096", "test").unwrap();
        assert_eq!(
            parsed,
            [("r", "abc"), ("s", "QSXCR+Q6sek8bf92"), ("i", "4096")]
        );
        assert_eq!(attributes("p=YQ==", "test").unwrap(), [("p", "YQ==")]);
        assert!(attributes("r=abc,junk", "test").is_err());
        assert!(attributes("=x", "test").is_err());
    }

    /// Found by the sasl_server fuzz target: an OAUTHBEARER message sent to SCRAM
    /// came back with its bearer token inside the error.
    #[test]
    fn a_malformed_part_is_not_quoted() {
        let message = "r=abc,\u{1}auth<Bearer secret-token\u{1}\u{1}";
        let error = attributes(message, "client-first message").unwrap_err();
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

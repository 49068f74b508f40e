//! The cluster `tests/interop/kafka.py start` describes in `cluster.json`: each
//! node's address per listener, the CA that signed the brokers' certificates,
//! another CA that signed nothing, and the SASL users.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// The listeners every node has, by Kafka's security protocol names.
pub const LISTENERS: [&str; 4] = ["PLAINTEXT", "SASL_PLAINTEXT", "SSL", "SASL_SSL"];

/// One node: its id and its `HOST:PORT` per listener.
#[derive(Debug, Clone)]
pub struct Node {
    /// `node.id`.
    pub id: i32,
    /// `HOST:PORT` by listener name (`PLAINTEXT`, `SASL_SSL`, ...).
    pub listeners: BTreeMap<String, String>,
    /// Its log file, printed when a check fails.
    pub log: Option<PathBuf>,
    /// Its `server.properties`.
    pub properties: Option<PathBuf>,
}

/// A cluster as `cluster.json` describes it.
#[derive(Debug, Clone)]
pub struct Cluster {
    /// The nodes, in the file's order.
    pub nodes: Vec<Node>,
    /// The CA (PEM) that signed every node's certificate.
    pub ca: PathBuf,
    /// A CA (PEM) that signed no node's certificate.
    pub other_ca: PathBuf,
    /// Users and their passwords, for PLAIN and both SCRAMs.
    pub users: BTreeMap<String, String>,
}

/// Why `cluster.json` could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not JSON.
    #[error("{path}: not JSON: {source}")]
    Json {
        /// The file.
        path: PathBuf,
        /// Why.
        source: serde_json::Error,
    },
    /// A key the interface promises is missing or of another type.
    #[error("cluster.json: {0} is missing or not what the peer script writes")]
    Missing(String),
}

impl Cluster {
    /// Reads `cluster.json` (the file, or the folder holding it).
    pub fn load(path: &Path) -> Result<Cluster, ClusterError> {
        let path = if path.is_dir() {
            path.join("cluster.json")
        } else {
            path.to_owned()
        };
        let text = std::fs::read_to_string(&path).map_err(|source| ClusterError::Read {
            path: path.clone(),
            source,
        })?;
        let json: Value = serde_json::from_str(&text).map_err(|source| ClusterError::Json {
            path: path.clone(),
            source,
        })?;
        Cluster::from_json(&json)
    }

    /// Reads the JSON the peer script writes.
    pub fn from_json(json: &Value) -> Result<Cluster, ClusterError> {
        let missing = |what: &str| ClusterError::Missing(what.to_owned());
        let text = |value: &Value, what: &str| {
            value
                .as_str()
                .map(str::to_owned)
                .ok_or_else(|| missing(what))
        };
        let mut nodes = Vec::new();
        for (index, node) in json["nodes"]
            .as_array()
            .ok_or_else(|| missing("nodes"))?
            .iter()
            .enumerate()
        {
            let id = node["id"]
                .as_i64()
                .and_then(|id| i32::try_from(id).ok())
                .ok_or_else(|| missing(&format!("nodes[{index}].id")))?;
            let mut listeners = BTreeMap::new();
            for name in LISTENERS {
                let address = text(&node[name], &format!("nodes[{index}].{name}"))?;
                listeners.insert(name.to_owned(), address);
            }
            let log = node["log"].as_str().map(PathBuf::from);
            let properties = node["properties"].as_str().map(PathBuf::from);
            nodes.push(Node {
                id,
                listeners,
                log,
                properties,
            });
        }
        if nodes.is_empty() {
            return Err(missing("nodes[0]"));
        }
        let mut users = BTreeMap::new();
        for (user, password) in json["users"].as_object().ok_or_else(|| missing("users"))? {
            users.insert(user.clone(), text(password, &format!("users.{user}"))?);
        }
        Ok(Cluster {
            nodes,
            ca: PathBuf::from(text(&json["ca"], "ca")?),
            other_ca: PathBuf::from(text(&json["other_ca"], "other_ca")?),
            users,
        })
    }

    /// The first node's `HOST:PORT` on `listener`.
    pub fn address(&self, listener: &str) -> &str {
        self.nodes[0]
            .listeners
            .get(listener)
            .map_or("", String::as_str)
    }

    /// The first node's setting `key` in its `server.properties`, if set.
    pub fn setting(&self, key: &str) -> Option<String> {
        let text = std::fs::read_to_string(self.nodes[0].properties.as_ref()?).ok()?;
        text.lines().find_map(|line| {
            let (name, value) = line.split_once('=')?;
            (name.trim() == key).then(|| value.trim().to_owned())
        })
    }

    /// A user and their password (the first in name order, `alice` with the
    /// peer script's users).
    pub fn user(&self) -> Option<(&str, &str)> {
        self.users
            .iter()
            .next()
            .map(|(user, password)| (user.as_str(), password.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Value {
        serde_json::json!({
            "nodes": [{"id": 1, "pid": 7, "PLAINTEXT": "127.0.0.1:1", "SASL_PLAINTEXT": "127.0.0.1:2",
                       "SSL": "127.0.0.1:3", "SASL_SSL": "127.0.0.1:4", "log": "/tmp/node-1.log",
                       "properties": "/tmp/node-1/server.properties"}],
            "ca": "/tmp/ca.pem", "other_ca": "/tmp/other-ca.pem",
            "users": {"proxy": "proxy-secret", "alice": "alice-secret"},
            "startup_seconds": 2.5, "rss_mib": [372]
        })
    }

    #[test]
    fn reads_what_the_peer_script_writes() {
        let cluster = Cluster::from_json(&sample()).unwrap();
        assert_eq!(cluster.address("SASL_SSL"), "127.0.0.1:4");
        assert_eq!(cluster.nodes[0].id, 1);
        assert_eq!(cluster.user(), Some(("alice", "alice-secret")));
        assert_eq!(cluster.other_ca, PathBuf::from("/tmp/other-ca.pem"));
        assert_eq!(
            cluster.nodes[0].properties,
            Some(PathBuf::from("/tmp/node-1/server.properties"))
        );
    }

    #[test]
    fn a_missing_listener_is_named() {
        let mut json = sample();
        json["nodes"][0].as_object_mut().unwrap().remove("SSL");
        let error = Cluster::from_json(&json).unwrap_err().to_string();
        assert!(error.contains("nodes[0].SSL"), "{error}");
    }
}

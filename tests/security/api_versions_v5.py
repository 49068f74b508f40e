"""ApiVersions v5 (KIP-1242) through kwire-proxy in front of a three-node
Kafka: a client that knows the cluster id and a node's id names them in its
ApiVersions, and Kafka 4.4.0 answers REBOOTSTRAP_REQUIRED (129) when they are
not its own (INVALID_REQUEST when only one is given); kafka-clients 4.4.0
names them to every node it learned from Metadata.

Kafka 4.4.0 checks them only where it handles ApiVersions as a request: on a
PLAINTEXT or SSL listener, and on a SASL listener once logged in. The
ApiVersions a SASL listener answers before the login (its authenticator's)
is answered 0 whatever it names: measured, and held as the reference below.

Through the proxy the bootstrap listener stands for node 1 (`--upstream`)
and each other node has a listener of its own, so a client that learned the
cluster id and the node ids from Metadata through the proxy must get, on each
node's listener, the answer that node gives directly on the listener the
proxy forwards to: 0 with its own cluster id and node id, and the client goes
on (asks Metadata); 129 for another cluster id, or another node's id. Each
case is asked of Kafka directly too, the same way, and the answers must
agree."""

import kafka_wire

GOOD, WRONG_CLUSTER = "its cluster and node", "another cluster id"
WRONG_NODE = "another node's id"


def learn(address, ca, login):
    """Metadata through the proxy's bootstrap listener: the cluster id and
    {node id: its listener}."""
    with kafka_wire.connect(address, ca) as sock:
        kafka_wire.api_versions_v5(sock, None, -1)
        if login and not kafka_wire.plain_login(sock, *login):
            raise kafka_wire.WireError("PLAIN login refused at %s" % address)
        found = kafka_wire.metadata(sock)
    return found["cluster_id"], found["brokers"]


def ask(address, ca, login, cluster_id, node_id):
    """On a new connection: ApiVersions v5 naming `cluster_id` and `node_id`;
    with a `login` ((user, password) for PLAIN), that, the login, and the
    same ApiVersions again. (the answer before the login or None, the answer
    that counts, whether Metadata was then served)."""
    with kafka_wire.connect(address, ca) as sock:
        before = None
        if login:
            before, _ = kafka_wire.api_versions_v5(sock, cluster_id, node_id)
            if not kafka_wire.plain_login(sock, *login):
                raise kafka_wire.WireError("PLAIN login refused at %s" % address)
        error, _ = kafka_wire.api_versions_v5(sock, cluster_id, node_id, correlation=9)
        served = error == 0 and bool(kafka_wire.metadata(sock)["brokers"])
        return before, error, served


def check(setup, proxy_address, ca, login, direct, direct_login):
    """The cases through one proxy. `direct` maps node ids to the Kafka
    listeners that proxy forwards to (over TLS with `ca` if it is SASL_SSL),
    where the same is asked with `direct_login`. Rows (setup, listener, case,
    through the proxy, directly, verdict) and the number of failures."""
    cluster_id, listeners = learn(proxy_address, ca, login)
    rows, failures = [], 0
    for node_id, listener in sorted(listeners.items()):
        other = min(n for n in listeners if n != node_id)
        cases = ((GOOD, cluster_id, node_id),
                 (WRONG_CLUSTER, "AAAAAAAAAAAAAAAAAAAAAA", node_id),
                 (WRONG_NODE, cluster_id, other))
        which = "node %d%s" % (node_id, " (bootstrap)" if listener == proxy_address else "")
        for case, named_cluster, named_node in cases:
            before, got, served = ask(listener, ca, login, named_cluster, named_node)
            wanted_before, wanted, _ = ask(direct[node_id], ca, direct_login, named_cluster,
                                           named_node)
            expected = 0 if case == GOOD else kafka_wire.REBOOTSTRAP_REQUIRED
            good = (got == wanted == expected and before == wanted_before
                    and served == (case == GOOD))
            failures += not good
            seen = lambda first, then: (  # noqa: E731
                "%s%s" % ("" if first is None else "%d, logged in: " % first, then))
            rows.append((setup, which, "%s (node %d)" % (case, named_node),
                         seen(before, "%d%s" % (got, ", served" if served else "")),
                         seen(wanted_before, str(wanted)), "ok" if good else "FAIL"))
    return rows, failures

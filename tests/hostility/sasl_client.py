"""A minimal SASL client for the hostility probes, standard library only (so that
the probes do not depend on the Rust code they attack): SaslHandshake v1, then
SaslAuthenticate v1 or v2 carrying PLAIN or SCRAM-SHA-256/512 as a Kafka client
sends them (RFC 4616, RFC 5802 with Kafka's empty GS2 header), and, once logged
in, Metadata, CreateTopics and Produce on the same connection.

Also: Kafka's stored form of a SCRAM credential (for --sasl-users-file), the
parts of the answers the probes read, and LoggedIn, a logged-in client asking
Metadata on its own connection at a steady pace (a bystander, or one of many)."""

import base64
import hashlib
import hmac
import math
import os
import socket
import struct
import threading
import time

import requests
from kafka_codec import read_uvarint
from servers import connect, read_frame

HASHES = {"SCRAM-SHA-256": "sha256", "SCRAM-SHA-512": "sha512"}

# Kafka's error codes the probes name.
SASL_AUTHENTICATION_FAILED = 58
ILLEGAL_SASL_STATE = 34


class LoginFailed(Exception):
    """The server refused the login, or closed the connection during it."""


# ------------------------------------------------------------------ answers --

def handshake_answer(payload):
    """(error code, [mechanism names]) of a SaslHandshake response (v0/v1)."""
    code, count = struct.unpack(">hi", payload[4:10])
    names, at = [], 10
    for _ in range(max(count, 0)):
        size = struct.unpack(">h", payload[at:at + 2])[0]
        names.append(payload[at + 2:at + 2 + size].decode())
        at += 2 + size
    return code, names


class Authenticated:
    """A SaslAuthenticate response's fields."""

    def __init__(self, code, message, auth_bytes, lifetime_ms):
        self.code, self.message = code, message
        self.auth_bytes, self.lifetime_ms = auth_bytes, lifetime_ms

    def __repr__(self):
        return "SaslAuthenticate(error %d, %r, %d bytes)" % (
            self.code, self.message, len(self.auth_bytes))


def _sized(payload, at, compact, prefix):
    """A nullable string's or bytes' contents at `at` (None for null) and where
    it ends: a compact length (unsigned varint, length + 1) in flexible versions,
    else a big-endian int of `prefix` (">h" for strings, ">i" for bytes)."""
    if compact:
        size, at = read_uvarint(payload, at)
        size -= 1
    else:
        size = struct.unpack(prefix, payload[at:at + struct.calcsize(prefix)])[0]
        at += struct.calcsize(prefix)
    if size < 0:
        return None, at
    return payload[at:at + size], at + size


def authenticate_answer(payload, version=1):
    """The fields of a SaslAuthenticate response at `version` (0-2)."""
    at = 4  # the correlation id
    if version >= 2:  # response header v1: its tagged fields
        _, at = read_uvarint(payload, at)
    code = struct.unpack(">h", payload[at:at + 2])[0]
    at += 2
    message, at = _sized(payload, at, version >= 2, ">h")
    message = None if message is None else message.decode(errors="replace")
    auth_bytes, at = _sized(payload, at, version >= 2, ">i")
    lifetime = struct.unpack(">q", payload[at:at + 8])[0] if version >= 1 else 0
    return Authenticated(code, message, auth_bytes or b"", lifetime)


# --------------------------------------------------------------- mechanisms --

def plain_token(user, password, authzid=""):
    """PLAIN's message: authzid NUL user NUL password."""
    return ("%s\0%s\0%s" % (authzid, user, password)).encode()


def sasl_name(user):
    """A user name as SCRAM writes it: '=' and ',' escaped."""
    return user.replace("=", "=3D").replace(",", "=2C")


def scram_attributes(message):
    """The attributes of a SCRAM message, as {letter: value}."""
    out = {}
    for part in message.decode(errors="replace").split(","):
        if "=" in part:
            key, value = part.split("=", 1)
            out.setdefault(key, value)
    return out


def _keys(hash_name, password, salt, iterations):
    """(ClientKey, StoredKey, ServerKey) of RFC 5802 for a password."""
    salted = hashlib.pbkdf2_hmac(hash_name, password.encode(), salt, iterations)
    client_key = hmac.new(salted, b"Client Key", hash_name).digest()
    server_key = hmac.new(salted, b"Server Key", hash_name).digest()
    return client_key, hashlib.new(hash_name, client_key).digest(), server_key


def scram_credential(mechanism, password, salt, iterations):
    """Kafka's text form of a stored SCRAM credential, as a --sasl-users-file
    line holds it: salt=<b64>,stored_key=<b64>,server_key=<b64>,iterations=<n>."""
    _, stored_key, server_key = _keys(HASHES[mechanism], password, salt, iterations)
    b64 = lambda raw: base64.b64encode(raw).decode()  # noqa: E731
    return "salt=%s,stored_key=%s,server_key=%s,iterations=%d" % (
        b64(salt), b64(stored_key), b64(server_key), iterations)


class Scram:
    """The client's side of one SCRAM exchange."""

    def __init__(self, mechanism, user, password, nonce=None):
        self.hash_name = HASHES[mechanism]
        self.password = password
        self.nonce = nonce or base64.b64encode(os.urandom(24)).decode()
        self.bare = "n=%s,r=%s" % (sasl_name(user), self.nonce)
        self.server_signature = None

    def client_first(self):
        return ("n,," + self.bare).encode()

    def client_final(self, server_first):
        """The client-final message answering `server_first` (bytes)."""
        attrs = scram_attributes(server_first)
        nonce, salt, iterations = attrs["r"], base64.b64decode(attrs["s"]), int(attrs["i"])
        if not nonce.startswith(self.nonce):
            raise LoginFailed("the server's nonce does not extend ours")
        without_proof = "c=%s,r=%s" % (base64.b64encode(b"n,,").decode(), nonce)
        auth_message = ("%s,%s,%s" % (self.bare, server_first.decode(), without_proof)).encode()
        client_key, stored_key, server_key = _keys(self.hash_name, self.password, salt,
                                                   iterations)
        signature = hmac.new(stored_key, auth_message, self.hash_name).digest()
        proof = bytes(a ^ b for a, b in zip(client_key, signature))
        self.server_signature = hmac.new(server_key, auth_message, self.hash_name).digest()
        return ("%s,p=%s" % (without_proof, base64.b64encode(proof).decode())).encode()

    def check_server_final(self, server_final):
        if scram_attributes(server_final).get("v") != base64.b64encode(
                self.server_signature).decode():
            raise LoginFailed("the server's signature does not match")


# --------------------------------------------------------------- connection --

class Session:
    """One connection to a SASL listener, with the calls a Kafka client makes on
    it. Every read has the socket's timeout; a call whose connection closes
    returns None."""

    def __init__(self, address, timeout=5.0):
        self.sock = connect(address, timeout)
        self.corr = 0
        self.version = 1  # of SaslAuthenticate

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def next_corr(self):
        self.corr += 1
        return self.corr

    def call(self, frame):
        """Sends a whole request frame; its answer's payload, or None if the
        connection closed (or reset) first. A timeout is raised."""
        try:
            self.sock.sendall(frame)
            return read_frame(self.sock)
        except (ConnectionError, BrokenPipeError):
            return None

    def handshake(self, mechanism):
        """(error code, mechanisms) of SaslHandshake v1, or None if closed."""
        got = self.call(requests.sasl_handshake(self.next_corr(), mechanism))
        return None if got is None else handshake_answer(got)

    def authenticate(self, token):
        """The SaslAuthenticate answer (Authenticated), or None if closed."""
        got = self.call(requests.sasl_authenticate(self.next_corr(), token, self.version))
        return None if got is None else authenticate_answer(got, self.version)

    def login(self, mechanism, user, password):
        """Logs in (PLAIN or SCRAM-SHA-256/512); the last answer. Raises
        LoginFailed if refused or closed."""
        shake = self.handshake(mechanism)
        if shake is None or shake[0] != 0:
            raise LoginFailed("SaslHandshake %s answered %r" % (mechanism, shake))
        if mechanism == "PLAIN":
            answer = self.authenticate(plain_token(user, password))
            if answer is None or answer.code != 0:
                raise LoginFailed("PLAIN answered %r" % answer)
            return answer
        scram = Scram(mechanism, user, password)
        first = self.authenticate(scram.client_first())
        if first is None or first.code != 0:
            raise LoginFailed("client-first answered %r" % first)
        final = self.authenticate(scram.client_final(first.auth_bytes))
        if final is None or final.code != 0:
            raise LoginFailed("client-final answered %r" % final)
        scram.check_server_final(final.auth_bytes)
        return final

    def metadata(self):
        """A Metadata (v1, every topic) answer's payload, or None if closed."""
        corr = self.next_corr()
        got = self.call(requests.metadata_all(corr))
        return got if got is not None and got[:4] == struct.pack(">i", corr) else None

    def create_topic(self, name, partitions=1):
        return self.call(requests.create_topics(self.next_corr(), name, partitions))

    def produce(self, topic, batch, acks=-1):
        """The partition's error code answering a Produce of `batch` to partition
        0 of `topic`, or None if closed."""
        got = self.call(requests.produce(self.next_corr(), topic, 0, batch, acks))
        if got is None:
            return None
        return struct.unpack(">h", got[requests.produce_error_at(topic):][:2])[0]


def logged_in(address, mechanism="SCRAM-SHA-512", user="alice", password="alice-secret",
              timeout=5.0):
    """A Session logged in as `user`."""
    session = Session(address, timeout)
    try:
        session.login(mechanism, user, password)
    except BaseException:
        session.close()
        raise
    return session


def percentile(values, fraction):
    """The value below which `fraction` of `values` lie (nearest rank); 0 if none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered), max(1, math.ceil(fraction * len(ordered)))) - 1]


# ---------------------------------------------------------------- logged in --

class LoggedIn:
    """A logged-in client asking Metadata on its own connection every `period`
    s, in a thread, until stopped or `rounds` are asked: how many were asked and
    answered, how long each took, how often the server closed the connection and
    how often an answer took longer than `timeout` (after either it logs in again
    on a new connection; a failed login counts as an unanswered question). Quacks like servers.Bystander (asked, answered,
    stop(), summary()), so Outcome.finish can judge it."""

    def __init__(self, address, period=0.25, rounds=None, mechanism="SCRAM-SHA-512",
                 user="alice", password="alice-secret", timeout=5.0):
        self.address, self.period, self.rounds = address, period, rounds
        self.mechanism, self.user, self.password = mechanism, user, password
        self.timeout = timeout
        self.asked = self.answered = self.closed = self.timeouts = 0
        self.times = []  # (when asked, seconds to the answer), answered ones
        self.session = None
        self.ready = threading.Event()  # set once logged in the first time (or failed)
        self._running = True
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _login(self):
        try:
            self.session = logged_in(self.address, self.mechanism, self.user, self.password,
                                     self.timeout)
        except (OSError, LoginFailed):
            self.session = None
        self.ready.set()

    def _run(self):
        self._login()
        next_at = time.monotonic()
        while self._running and (self.rounds is None or self.asked < self.rounds):
            now = time.monotonic()
            if now < next_at:
                time.sleep(min(next_at - now, 0.05))
                continue
            next_at += self.period
            if self.session is None:
                self._login()
            self.asked += 1
            if self.session is None:
                continue
            started = time.monotonic()
            try:
                got = self.session.metadata()
            except (socket.timeout, TimeoutError):
                got = False  # no answer in time: the connection is given up
                self.timeouts += 1
            except OSError:
                got = None
            if not got:
                self.closed += got is None
                self.session.close()
                self.session = None
                continue
            self.answered += 1
            self.times.append((started, time.monotonic() - started))

    def wait_ready(self, most=10.0):
        self.ready.wait(most)
        return self.session is not None

    def join(self, most):
        self._thread.join(most)

    def stop(self):
        self._running = False
        self._thread.join(self.timeout + 1)
        if self.session is not None:
            self.session.close()
        return self

    def latencies(self, since=0.0, until=float("inf")):
        """The answered questions' times (s), of those asked in [since, until)."""
        return [took for at, took in self.times if since <= at < until]

    def summary(self):
        slowest = max((took for _, took in self.times), default=0.0)
        text = "%d/%d (slowest %.1f s)" % (self.answered, self.asked, slowest)
        if self.closed:
            text += ", closed %d times" % self.closed
        if self.timeouts:
            text += ", %d not answered in %.0f s" % (self.timeouts, self.timeout)
        return text

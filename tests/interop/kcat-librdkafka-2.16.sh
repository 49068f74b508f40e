#!/bin/sh
# Run Debian's kcat 1.7.1 with librdkafka 2.16.0 (the copy bundled in the
# confluent-kafka 2.16.1 wheel) instead of Debian's librdkafka 2.0.2, which
# cannot parse tansu's ApiVersions response (see tests/interop/README.md).
#   tests/interop/kcat-librdkafka-2.16.sh -b 127.0.0.1:PORT -L
# Needs the clients virtualenv (made by tests/interop/capture_all.py).
set -eu
CACHE=${KAFKA_WIRE_INTEROP_CACHE:-$HOME/.cache/kafka-wire-interop}
VENV=$CACHE/clients-venv
installed() {
    ls "$VENV"/lib/python3*/site-packages/confluent_kafka.libs/librdkafka-*.so.1 >/dev/null 2>&1
}
if ! installed; then
    # Several kcats start at once on a fresh machine: one installs, the others
    # wait for it (a half-made venv has a python but no pip yet).
    mkdir -p "$CACHE"
    exec 9>"$CACHE/clients-venv.lock"
    flock 9
    if ! installed; then
        [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -m pip --version >/dev/null 2>&1 \
            || python3 -m venv --clear "$VENV"
        "$VENV/bin/python" -m pip install -q --disable-pip-version-check confluent-kafka==2.16.1 >&2
    fi
    flock -u 9
    exec 9>&-
fi
LIB=$(ls "$VENV"/lib/python3*/site-packages/confluent_kafka.libs/librdkafka-*.so.1 | head -n 1)
mkdir -p "$CACHE/kcat-librdkafka"
ln -sf "$LIB" "$CACHE/kcat-librdkafka/librdkafka.so.1"
LD_LIBRARY_PATH="$CACHE/kcat-librdkafka${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" exec kcat "$@"

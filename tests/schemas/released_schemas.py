#!/usr/bin/env python3
"""Kafka 4.4.0's released message schemas, taken from the jar every Java client
runs (kafka-clients-4.4.0.jar carries the `common/message/*.json` files its
classes were generated from).

    released_schemas.py extract     # print the folder of 4.4.0's schemas

The jar comes from Maven Central through ../interop/kafka_peer.py (installed
once into its cache). The schemas are Apache Kafka's, not ours: they are
extracted into the same cache ($KAFKA_WIRE_INTEROP_CACHE, default
~/.cache/kafka-wire-interop), never into the repository, in a folder named
after the jar's SHA-256 so that a different jar never reuses an old
extraction. The extraction is staged and renamed into place under a lock, so
parallel runs extract once and a run killed half-way leaves nothing a later
run would trust. Standard library only.
"""

import fcntl
import hashlib
import os
import shutil
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ in the checkout
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "interop"))
import kafka_peer  # noqa: E402  (the path above is where it lives)

JAR = "kafka-clients-%s.jar" % kafka_peer.VERSION
# Where the generator's inputs sit inside the jar (Kafka's
# clients/src/main/resources/common/message).
PREFIX = "common/message/"
FOLDER = os.path.join(kafka_peer.CACHE, "kafka-%s-schemas" % kafka_peer.VERSION)


class ExtractError(RuntimeError):
    """The jar is missing, unreadable, or holds no schemas; the message says which."""


def _sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def extract():
    """Returns the folder holding 4.4.0's schema files (extracting them first if
    this jar's have not been)."""
    jar = os.path.join(kafka_peer.install(), JAR)
    if not os.path.isfile(jar):
        raise ExtractError("%s is not in Kafka's installed lib folder" % jar)
    target = os.path.join(FOLDER, _sha256(jar)[:16])
    os.makedirs(FOLDER, exist_ok=True)
    with open(os.path.join(FOLDER, "extract.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.isdir(target):
            return target
        staged = tempfile.mkdtemp(prefix="staged-", dir=FOLDER)
        try:
            count = 0
            with zipfile.ZipFile(jar) as z:
                for name in z.namelist():
                    base = name[len(PREFIX):]
                    # Only the folder's own files: no subfolders, no other resources.
                    if not name.startswith(PREFIX) or "/" in base or not base.endswith(".json"):
                        continue
                    with z.open(name) as src, open(os.path.join(staged, base), "wb") as dst:
                        shutil.copyfileobj(src, dst)
                    count += 1
            if count == 0:
                raise ExtractError("no %s*.json in %s" % (PREFIX, jar))
            os.rename(staged, target)
        except (OSError, zipfile.BadZipFile) as e:
            raise ExtractError("cannot extract the schemas of %s: %s" % (jar, e)) from e
        finally:
            shutil.rmtree(staged, ignore_errors=True)
    return target


def main(argv):
    if argv != ["extract"]:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        print(extract())
    except (ExtractError, kafka_peer.KafkaError) as e:
        print("released_schemas.py: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

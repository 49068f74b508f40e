#!/usr/bin/env python3
"""Compile time of kwire-messages against kafka-protocol 0.18, in one run.

Each library is built, clean, into its own empty target folder, as a dependency of
a small scratch crate (the "user") that reads and writes every request and response
through the library's dispatch enums, the way a broker or proxy does:

  - kwire-messages: frame::decode_any_request / decode_any_response /
    encode_any_request / encode_any_response;
  - kafka-protocol 0.18 with every message (features client + broker) and its
    enums (messages_enums): RequestKind / ResponseKind decode and encode.

The two are built alternately, `--rounds` times each (3 unless told), and the
medians compared: one build on a shared 2-core machine moves by 10-20 %. Every
build is made as a user who depends on the published crates gets it: without
incremental compilation (`CARGO_INCREMENTAL=0`). Cargo turns incremental
compilation on for path dependencies in the dev profile, and kafka-wire is a path
dependency here, which would charge it a cost no crates.io user pays (about a
third more for the messages crate in dev); kafka-protocol, from crates.io, never
pays it.

Then one message file of kwire-messages is edited (a comment appended, and
removed again afterwards) and the user crate is rebuilt, with cargo's default
incremental setting: the loop of someone working on the messages crate.

For each build it prints the wall time and, from `cargo build --timings`, the time
of the library's own unit and of the user crate's unit.

Usage: python3 tests/benches/compile_time.py [--profile release|dev] [--rounds N]
       [--edit FILE]
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

KW_USER = """\
use kwire::bytes::Bytes;
use kwire_messages::frame::{self, FrameError};
use kwire_messages::{ApiKey, Request, RequestHeader, Response, ResponseHeader};

pub fn read_request(frame: &Bytes) -> Result<(RequestHeader, Request), FrameError> {
    frame::decode_any_request(frame)
}

pub fn read_response(
    frame: &Bytes,
    api: ApiKey,
    version: i16,
) -> Result<(ResponseHeader, Response), FrameError> {
    frame::decode_any_response(frame, api, version)
}

pub fn write_request(header: &RequestHeader, request: &Request) -> Result<Bytes, FrameError> {
    frame::encode_any_request(header, request)
}

pub fn write_response(
    header: &ResponseHeader,
    response: &Response,
    version: i16,
) -> Result<Bytes, FrameError> {
    frame::encode_any_response(header, response, version)
}
"""

KP_USER = """\
use bytes::{Bytes, BytesMut};
use kafka_protocol::messages::{ApiKey, RequestKind, ResponseKind};

pub fn read_request(api: ApiKey, body: &mut Bytes, version: i16) -> anyhow::Result<RequestKind> {
    RequestKind::decode(api, body, version)
}

pub fn read_response(api: ApiKey, body: &mut Bytes, version: i16) -> anyhow::Result<ResponseKind> {
    ResponseKind::decode(api, body, version)
}

pub fn write_request(request: &RequestKind, out: &mut BytesMut, version: i16) -> anyhow::Result<()> {
    request.encode(out, version)
}

pub fn write_response(response: &ResponseKind, out: &mut BytesMut, version: i16) -> anyhow::Result<()> {
    response.encode(out, version)
}
"""


def scratch_crate(folder, dependencies, source):
    (folder / "src").mkdir(parents=True)
    (folder / "src" / "lib.rs").write_text(source)
    (folder / "Cargo.toml").write_text(
        "[package]\nname = \"user\"\nversion = \"0.0.0\"\nedition = \"2021\"\n"
        "publish = false\n\n[workspace]\n\n[dependencies]\n" + dependencies
    )


def build(crate, target, profile, incremental=False):
    """One cargo build with timings: (wall seconds, unit seconds by crate name)."""
    env = dict(os.environ, CARGO_TARGET_DIR=str(target))
    if not incremental:
        env["CARGO_INCREMENTAL"] = "0"
    start = time.monotonic()
    subprocess.run(
        ["cargo", "build", "--timings", "--profile", profile],
        cwd=crate, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    wall = time.monotonic() - start
    reports = sorted((target / "cargo-timings").glob("cargo-timing-*.html"))
    html = reports[-1].read_text()
    units = json.loads(re.search(r"const UNIT_DATA = (\[.*?\]);\n", html, re.S).group(1))
    # Library units only: build scripts and their runs are separate units.
    return wall, {u["name"]: u["duration"] for u in units if not u["target"].strip()}


def line(label, wall, units, library):
    lib = units.get(library, 0.0)
    user = units.get("user", 0.0)
    print(f"{label:<38} wall {wall:6.1f} s | {library} unit {lib:6.1f} s | user unit {user:5.1f} s")
    return lib, user


def median_build(builds):
    """The median wall and the median of each unit over several builds."""
    walls = sorted(wall for wall, _ in builds)
    names = set().union(*(units for _, units in builds))
    units = {name: statistics.median(u.get(name, 0.0) for _, u in builds) for name in names}
    return statistics.median(walls), units


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--profile", default="release")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--edit", default="messages/src/api/heartbeat.rs")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="compile-time-"))
    edited = ROOT / args.edit
    original = edited.read_text()
    try:
        kw = scratch / "kw"
        scratch_crate(
            kw,
            f"kwire = {{ path = \"{ROOT / 'kafka-wire'}\" }}\n"
            f"kwire-messages = {{ path = \"{ROOT / 'messages'}\" }}\n",
            KW_USER,
        )
        kp = scratch / "kp"
        scratch_crate(
            kp,
            "anyhow = \"1\"\nbytes = \"1\"\n"
            "kafka-protocol = { version = \"=0.18.0\", default-features = false, "
            "features = [\"client\", \"broker\", \"messages_enums\"] }\n",
            KP_USER,
        )
        kw_builds, kp_builds = [], []
        for round in range(args.rounds):
            for crate, builds in ((kw, kw_builds), (kp, kp_builds)):
                target = scratch / f"{crate.name}-target"
                shutil.rmtree(target, ignore_errors=True)
                builds.append(build(crate, target, args.profile))
                print(f"round {round + 1}: {crate.name} {builds[-1][0]:.1f} s", file=sys.stderr)
        kw_clean, kp_clean = median_build(kw_builds), median_build(kp_builds)
        # The developer's loop: cargo's own incremental setting, then one edit.
        target = scratch / "kw-edit-target"
        kw_first = build(kw, target, args.profile, incremental=True)
        edited.write_text(original + "\n// edited by compile_time.py\n")
        kw_edit = build(kw, target, args.profile, incremental=True)
    finally:
        edited.write_text(original)
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"profile {args.profile}, {os.cpu_count()} cores, median of {args.rounds} clean builds each")
    kw_lib, kw_user = line("kwire-messages, clean", *kw_clean, "kwire-messages")
    kp_lib, kp_user = line("kafka-protocol 0.18, clean", *kp_clean, "kafka-protocol")
    line(f"after editing {args.edit}", *kw_edit, "kwire-messages")
    print(f"clean walls, kafka-wire: {', '.join(f'{w:.1f}' for w, _ in kw_builds)}; "
          f"kafka-protocol: {', '.join(f'{w:.1f}' for w, _ in kp_builds)}")
    print(f"library unit, kafka-wire / kafka-protocol:           {kw_lib / kp_lib:.2f}")
    print(f"library + user units, kafka-wire / kafka-protocol:   "
          f"{(kw_lib + kw_user) / (kp_lib + kp_user):.2f}")
    print(f"clean wall, kafka-wire / kafka-protocol:             {kw_clean[0] / kp_clean[0]:.2f}")
    print(f"rebuild after the edit / its incremental build (wall): {kw_edit[0] / kw_first[0]:.2f}")


if __name__ == "__main__":
    sys.exit(main())

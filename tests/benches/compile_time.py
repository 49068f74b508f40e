#!/usr/bin/env python3
"""Compile time of kafka-wire-messages against kafka-protocol 0.18, in one run.

Builds, each into its own empty target folder so nothing is shared or cached:

  1. kafka-wire-messages (this workspace), clean;
  2. kafka-protocol 0.18 with every message (features client + broker, and
     messages_enums, its request/response enums), clean, from a scratch crate;
  3. kafka-wire-messages again after touching one message file.

for the profile given (release by default, or `--profile dev`), and prints the
wall time of each build and the time of the message crate's own unit from
`cargo build --timings` (what the crate costs above its dependencies).

Usage: python3 tests/benches/compile_time.py [--profile release|dev] [--touch FILE]
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KAFKA_PROTOCOL = '"=0.18.0"'


def build(cwd, target, profile, package=None):
    """Runs one cargo build with timings; returns (wall seconds, unit seconds by crate)."""
    args = ["cargo", "build", "--timings", "--profile", profile]
    if package:
        args += ["-p", package]
    env = dict(os.environ, CARGO_TARGET_DIR=str(target))
    start = time.monotonic()
    subprocess.run(args, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    wall = time.monotonic() - start
    return wall, unit_times(target)


def unit_times(target):
    """Seconds per crate unit, from the newest cargo-timing report."""
    reports = sorted((target / "cargo-timings").glob("cargo-timing-*.html"))
    html = reports[-1].read_text()
    match = re.search(r"const UNIT_DATA = (\[.*?\]);\n", html, re.S)
    units = json.loads(match.group(1))
    # Library units only: build scripts and their runs are separate units.
    return {u["name"]: u["duration"] for u in units if not u["target"].strip()}


def kafka_protocol_crate(folder):
    (folder / "src").mkdir(parents=True)
    (folder / "src" / "lib.rs").write_text("pub use kafka_protocol;\n")
    (folder / "Cargo.toml").write_text(
        "[package]\nname = \"kp-compile-time\"\nversion = \"0.0.0\"\nedition = \"2021\"\n"
        "publish = false\n\n[workspace]\n\n[dependencies]\n"
        f"kafka-protocol = {{ version = {KAFKA_PROTOCOL}, default-features = false, "
        "features = [\"client\", \"broker\", \"messages_enums\"] }\n"
    )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--profile", default="release")
    parser.add_argument("--touch", default="messages/src/heartbeat.rs")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="compile-time-"))
    try:
        kw_target = scratch / "kw-target"
        kw_wall, kw_units = build(ROOT, kw_target, args.profile, "kafka-wire-messages")
        kp_crate = scratch / "kp"
        kafka_protocol_crate(kp_crate)
        kp_wall, kp_units = build(kp_crate, scratch / "kp-target", args.profile)
        touched = ROOT / args.touch
        os.utime(touched)
        re_wall, re_units = build(ROOT, kw_target, args.profile, "kafka-wire-messages")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    kw_unit = kw_units.get("kafka-wire-messages")
    kp_unit = kp_units.get("kafka-protocol")
    re_unit = re_units.get("kafka-wire-messages")
    print(f"profile {args.profile}, {os.cpu_count()} cores")
    print(f"kafka-wire-messages clean    wall {kw_wall:6.1f} s | crate unit {kw_unit:6.1f} s")
    print(f"kafka-protocol 0.18 clean    wall {kp_wall:6.1f} s | crate unit {kp_unit:6.1f} s")
    print(f"after touching {args.touch}  wall {re_wall:6.1f} s | crate unit {re_unit:6.1f} s")
    print(f"clean, crate unit: kafka-wire / kafka-protocol = {kw_unit / kp_unit:.2f}")
    print(f"rebuild / clean (wall): {re_wall / kw_wall:.2f}")


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""aiokafka: send the 5 records of spec.py in one batch.

    aiokafka_producer.py HOST:PORT CODEC [--idempotent]

CODEC is none, gzip, snappy, lz4 or zstd.
"""
import asyncio
import sys

import aiokafka
from aiokafka import AIOKafkaProducer

from spec import PARTITION, RECORDS, TOPIC


async def main(bootstrap, codec, idempotent):
    print("aiokafka", aiokafka.__version__, codec, "idempotent" if idempotent else "", flush=True)
    p = AIOKafkaProducer(bootstrap_servers=bootstrap, client_id="fixtures-aiokafka",
                         compression_type=None if codec == "none" else codec,
                         enable_idempotence=idempotent, acks="all", linger_ms=1000,
                         request_timeout_ms=5000)
    await asyncio.wait_for(p.start(), 10)
    try:
        futures = []
        for k, v, h, ts in RECORDS:
            # send() returns once the record is in the batch; the batch goes
            # out after linger_ms.
            futures.append(await p.send(TOPIC, key=k, value=v, headers=h,
                                        partition=PARTITION, timestamp_ms=ts))
        for md in await asyncio.wait_for(asyncio.gather(*futures), 10):
            print("offset", md.offset, "timestamp", md.timestamp, flush=True)
    finally:
        await p.stop()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], "--idempotent" in sys.argv[3:]))

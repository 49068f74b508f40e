#!/usr/bin/env python3
"""aiokafka: AIOKafkaClient bootstrap against BOOTSTRAP."""
import asyncio
import sys
import aiokafka
from aiokafka.client import AIOKafkaClient


async def main(bootstrap):
    print("aiokafka", aiokafka.__version__, flush=True)
    client = AIOKafkaClient(bootstrap_servers=bootstrap, client_id="interop-aiokafka",
                            request_timeout_ms=3000)
    try:
        await asyncio.wait_for(client.bootstrap(), 10)
        print("brokers:", client.cluster.brokers(), flush=True)
    except Exception as e:
        print("error:", repr(e), flush=True)
    finally:
        await client.close()

asyncio.run(main(sys.argv[1]))

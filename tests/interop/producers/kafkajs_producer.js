// kafkajs: send the 5 fixture records (same list as spec.py) in one batch.
//
//     node kafkajs_producer.js HOST:PORT CODEC [--idempotent]
//
// CODEC is none, gzip, snappy, lz4 or zstd. NODE_PATH must point at a
// node_modules folder with kafkajs 2.2.4 and, for snappy/lz4/zstd, the codec
// packages kafkajs-snappy 1.1.0, kafkajs-lz4 1.2.1, @kafkajs/zstd 0.1.1.
//
// kafkajs has no linger: one send() with all 5 messages makes one batch.
// Record 4's header h2 is "" and not null: kafkajs 2.2.4 throws on a null
// header value (record/v0 sizeOfHeaders calls Buffer.byteLength(null) before
// its null check).
const { Kafka, CompressionTypes, CompressionCodecs, logLevel } = require('kafkajs')
const version = require('kafkajs/package.json').version

const [bootstrap, codec] = process.argv.slice(2, 4)
const idempotent = process.argv.slice(4).includes('--idempotent')

const TYPES = {
  none: CompressionTypes.None,
  gzip: CompressionTypes.GZIP,
  snappy: CompressionTypes.Snappy,
  lz4: CompressionTypes.LZ4,
  zstd: CompressionTypes.ZSTD,
}
if (!(codec in TYPES)) {
  console.log('unknown codec', codec)
  process.exit(2)
}
if (codec === 'snappy') CompressionCodecs[CompressionTypes.Snappy] = require('kafkajs-snappy')
if (codec === 'lz4') {
  const LZ4Codec = require('kafkajs-lz4')
  CompressionCodecs[CompressionTypes.LZ4] = new LZ4Codec().codec
}
if (codec === 'zstd') CompressionCodecs[CompressionTypes.ZSTD] = require('@kafkajs/zstd')()

const messages = [
  { key: 'k1', value: 'v1', timestamp: '1700000000000' },
  { key: null, value: 'v2', headers: { h1: 'x' }, timestamp: '1700000000001' },
  { key: 'k3', value: null, timestamp: '1700000000002' },
  { key: '', value: '', headers: { h2: '' }, timestamp: '1700000000003' },
  { key: 'k5', value: 'abcdefghij'.repeat(100), headers: { a: '1', b: '2' }, timestamp: '1700000000004' },
].map((m) => ({ ...m, partition: 0 }))

console.log('kafkajs', version, codec, idempotent ? 'idempotent' : '')
const kafka = new Kafka({
  clientId: 'fixtures-kafkajs',
  brokers: [bootstrap],
  connectionTimeout: 3000,
  requestTimeout: 5000,
  retry: { retries: 0 },
  logLevel: logLevel.NOTHING,
})
// An idempotent kafkajs producer refuses retries: 0, so it gets 2.
const producer = kafka.producer(
  idempotent ? { idempotent: true, maxInFlightRequests: 1, retry: { retries: 2 } } : {}
)
const timer = setTimeout(() => { console.log('timeout'); process.exit(1) }, 15000)
let rc = 0
producer.connect()
  .then(() => producer.send({ topic: 'fixtures', acks: -1, compression: TYPES[codec], messages }))
  .then((r) => console.log('sent:', JSON.stringify(r)))
  .catch((e) => { console.log('error:', e.message); rc = 1 })
  .finally(() => producer.disconnect().then(() => { clearTimeout(timer); process.exit(rc) }))

// kafkajs 2.2.4 client of the interop matrix (see ../README.md for the contract).
//
//   node kafkajs_client.js produce --bootstrap HOST:PORT --producer P --topic T --codec C --count N
//   node kafkajs_client.js consume --bootstrap HOST:PORT --topics T1,T2,... --mode assign --expect N
//   node kafkajs_client.js consume --bootstrap HOST:PORT --topics T1,T2,... --mode group --group G --expect N
//   (every command also takes --timeout SECONDS, default 60)
//
// NODE_PATH must point at a node_modules folder with kafkajs 2.2.4,
// kafkajs-snappy, kafkajs-lz4 and @kafkajs/zstd (the codecs are registered
// the same way as in ../../producers/kafkajs_producer.js).
//
// stdout carries only the contract's JSON lines; diagnostics go to stderr.
// Exit codes: 0 success, 1 failure or timeout, 2 bad arguments.
//
// How each command maps onto kafkajs:
// - produce: messages are sent in index order in batches of 100, each
//   producer.send() awaited with acks -1 (all) before the next one. A batch
//   counts as acked when send() resolves, which kafkajs does only after every
//   partition's Produce response came back without error. The partitioner is
//   kafkajs's DefaultPartitioner (murmur2 of the key, as the Java client).
// - consume --mode assign: kafkajs 2.2.4 has no manual-assignment API (no
//   consumer.assign). So "assign" is done the only way kafkajs offers: the
//   admin client reads each topic's partitions and offsets (logged to stderr),
//   then a consumer in a fresh, random, throwaway group subscribes to all the
//   topics fromBeginning with autoCommit off; being the only member it is
//   given every partition (checked against the metadata, a warning otherwise)
//   and it never commits anything.
// - consume --mode group: group G, fromBeginning (auto.offset.reset=earliest),
//   autoCommit false. eachMessage processes the first N messages; later calls
//   (the rest of a fetched batch) are dropped. After the N-th, the topics are
//   paused, consumer.commitOffsets() commits last processed offset + 1 for
//   every partition read from (awaited; the consumer's COMMIT_OFFSETS event
//   must confirm it, since kafkajs skips the commit silently when the consumer
//   is not running), then consumer.disconnect() leaves the group.
//
// kafkajs hands headers over as an object (name -> value, or an array of
// values for a repeated name). The output lists them in the object's key
// order, which is the record's order for names that are not array indices.
// kafkajs 2.2.4 throws on a null header value when producing; none is sent.
//
// The consumers use sessionTimeout 10 s instead of kafkajs's 30 s: tansu 0.6.0
// answers a JoinGroup only after about half the session timeout (15 s with
// the default), which would make the two group runs needlessly slow. They
// also use a fetch maxWaitTimeInMs of 1 s instead of 5 s: disconnect() waits
// for the fetch in flight, which on caught-up partitions lasts that long.
'use strict'

const { Kafka, CompressionTypes, CompressionCodecs, Partitioners, logLevel } = require('kafkajs')

CompressionCodecs[CompressionTypes.Snappy] = require('kafkajs-snappy')
CompressionCodecs[CompressionTypes.LZ4] = new (require('kafkajs-lz4'))().codec
CompressionCodecs[CompressionTypes.ZSTD] = require('@kafkajs/zstd')()

const CODECS = {
  none: CompressionTypes.None,
  gzip: CompressionTypes.GZIP,
  snappy: CompressionTypes.Snappy,
  lz4: CompressionTypes.LZ4,
  zstd: CompressionTypes.ZSTD,
}
const BATCH = 100
const progress = { acked: 0, printed: false }
const SESSION_TIMEOUT_MS = 10000
const MAX_WAIT_MS = 1000

// ---------------------------------------------------------------- spec --

// Message i of producer P with codec C, as defined in ../README.md (spec.py).
function message(producer, codec, i) {
  const n = String(i).padStart(4, '0')
  return {
    key: `${producer}-${codec}-${n}`,
    value: `value-${n}-` + 'abcdefghij'[i % 10].repeat(i % 200),
    headers: [['producer', producer], ['codec', codec]],
  }
}

// ------------------------------------------------------------- helpers --

function log(...parts) {
  process.stderr.write('kafkajs_client: ' + parts.join(' ') + '\n')
}

function usage(msg) {
  log(msg)
  log('usage: produce --bootstrap B --producer P --topic T --codec C --count N [--timeout S]')
  log('       consume --bootstrap B --topics T1,T2 --mode assign|group [--group G] --expect N [--timeout S]')
  process.exit(2)
}

function parseArgs(argv) {
  const [command, ...rest] = argv
  if (command !== 'produce' && command !== 'consume') usage(`unknown command ${command}`)
  const opts = { command, timeout: '60' }
  for (let i = 0; i < rest.length; i += 2) {
    if (!rest[i].startsWith('--') || rest[i + 1] === undefined) usage(`bad argument ${rest[i]}`)
    opts[rest[i].slice(2)] = rest[i + 1]
  }
  const need = command === 'produce'
    ? ['bootstrap', 'producer', 'topic', 'codec', 'count']
    : ['bootstrap', 'topics', 'mode', 'expect'].concat(opts.mode === 'group' ? ['group'] : [])
  for (const name of need) if (opts[name] === undefined) usage(`missing --${name}`)
  if (command === 'produce' && !(opts.codec in CODECS)) usage(`unknown codec ${opts.codec}`)
  if (command === 'consume' && !['assign', 'group'].includes(opts.mode)) usage(`unknown mode ${opts.mode}`)
  for (const name of ['count', 'expect', 'timeout']) {
    if (opts[name] !== undefined && !(Number(opts[name]) >= 0)) usage(`bad --${name} ${opts[name]}`)
  }
  return opts
}

// kafkajs logs through this: everything to stderr, never stdout.
const logCreator = () => ({ namespace, level, label, log: entry }) => {
  const { message: text, timestamp, logger, stack, ...extra } = entry
  log(`[${label} ${namespace}] ${text}`, Object.keys(extra).length ? JSON.stringify(extra) : '')
}

function client(bootstrap) {
  return new Kafka({
    clientId: 'interop-kafkajs',
    brokers: [bootstrap],
    connectionTimeout: 5000,
    logLevel: logLevel.WARN,
    logCreator,
  })
}

const utf8 = (buf) => (buf === null || buf === undefined ? null : buf.toString('utf8'))

// One contract line, formatted like Python's json.dumps (", " and ": ").
function jsonLine(topic, partition, offset, m) {
  const headers = []
  for (const [name, value] of Object.entries(m.headers || {})) {
    for (const v of Array.isArray(value) ? value : [value]) headers.push([name, utf8(v)])
  }
  const s = JSON.stringify
  const hs = headers.map(([n, v]) => `[${s(n)}, ${s(v)}]`).join(', ')
  return `{"topic": ${s(topic)}, "partition": ${partition}, "offset": ${Number(offset)}, ` +
    `"key": ${s(utf8(m.key))}, "value": ${s(utf8(m.value))}, "headers": [${hs}]}\n`
}

// ------------------------------------------------------------- produce --

function printAcked() {
  if (progress.printed) return
  process.stdout.write(`{"acked": ${progress.acked}}\n`)
  progress.printed = true
}

async function produce(opts) {
  const count = Number(opts.count)
  const producer = client(opts.bootstrap).producer({
    createPartitioner: Partitioners.DefaultPartitioner,
    allowAutoTopicCreation: false,
  })
  let ok = true
  try {
    await producer.connect()
    for (let start = 0; start < count; start += BATCH) {
      const messages = []
      for (let i = start; i < Math.min(start + BATCH, count); i++) {
        const m = message(opts.producer, opts.codec, i)
        messages.push({ key: m.key, value: m.value, headers: Object.fromEntries(m.headers) })
      }
      await producer.send({ topic: opts.topic, acks: -1, compression: CODECS[opts.codec], messages })
      progress.acked += messages.length
    }
  } catch (e) {
    log(`send failed after ${progress.acked} acked: ${e.name}: ${e.message}`)
    ok = false
  }
  await producer.disconnect().catch((e) => log(`disconnect: ${e.message}`))
  printAcked()
  return ok && progress.acked === count ? 0 : 1
}

// ------------------------------------------------------------- consume --

async function consume(opts) {
  const topics = opts.topics.split(',').filter((t) => t)
  const expect = Number(opts.expect)
  const kafka = client(opts.bootstrap)

  // Partition counts (and offsets, for the log) from the admin client.
  const admin = kafka.admin()
  await admin.connect()
  const metadata = await admin.fetchTopicMetadata({ topics })
  const partitions = {}
  for (const t of metadata.topics) {
    partitions[t.name] = t.partitions.map((p) => p.partitionId).sort((a, b) => a - b)
    const offsets = await admin.fetchTopicOffsets(t.name)
    log(`topic ${t.name}, ListOffsets earliest..latest: ` +
      offsets.map((o) => `p${o.partition} ${o.low}..${o.high}`).join(', '))
  }
  await admin.disconnect()

  const group = opts.mode === 'group'
    ? opts.group
    : `kafkajs-assign-${process.pid}-${Math.random().toString(36).slice(2)}`
  const consumer = kafka.consumer({
    groupId: group,
    sessionTimeout: SESSION_TIMEOUT_MS,
    maxWaitTimeInMs: MAX_WAIT_MS,
    allowAutoTopicCreation: false,
  })

  consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
    const got = payload.memberAssignment
    log(`joined group ${group}: ${JSON.stringify(got)}`)
    if (opts.mode === 'assign') {
      for (const t of topics) {
        const mine = (got[t] || []).slice().sort((a, b) => a - b)
        if (String(mine) !== String(partitions[t])) log(`WARNING: ${t} assigned [${mine}], has [${partitions[t]}]`)
      }
    }
  })
  let crashed
  const fatal = new Promise((resolve, reject) => { crashed = reject })
  fatal.catch(() => {}) // a crash after the read is only logged
  consumer.on(consumer.events.CRASH, ({ payload }) => {
    const why = payload.error ? `${payload.error.name}: ${payload.error.message}` : 'unknown error'
    log(`consumer crashed (${payload.restart ? 'kafkajs restarts it' : 'for good'}): ${why}`)
    if (!payload.restart) crashed(new Error(`consumer crashed: ${why}`))
  })
  const commits = []
  consumer.on(consumer.events.COMMIT_OFFSETS, ({ payload }) => commits.push(payload.topics))

  let count = 0
  let dropped = 0
  const next = new Map() // "topic\0partition" -> offset after the last processed message
  let reached
  const done = new Promise((resolve) => { reached = resolve })
  if (expect === 0) reached()

  await consumer.connect()
  await consumer.subscribe({ topics, fromBeginning: true })
  await consumer.run({
    autoCommit: false,
    eachMessage: async ({ topic, partition, message: m }) => {
      if (count >= expect) { dropped++; return }
      process.stdout.write(jsonLine(topic, partition, m.offset, m))
      next.set(`${topic}\0${partition}`, { topic, partition, offset: (BigInt(m.offset) + 1n).toString() })
      if (++count === expect) reached()
    },
  })
  await Promise.race([done, fatal])
  consumer.pause(topics.map((topic) => ({ topic })))

  let rc = 0
  if (opts.mode === 'group' && next.size > 0) {
    const offsets = [...next.values()]
    await consumer.commitOffsets(offsets)
    const committed = commits.some((ts) => offsets.every((o) => ts.some((t) =>
      t.topic === o.topic && t.partitions.some((p) => p.partition === o.partition && String(p.offset) === o.offset))))
    log(`commit ${JSON.stringify(offsets)}: ${committed ? 'confirmed' : 'NOT confirmed'}`)
    if (!committed) rc = 1
  }
  if (dropped) log(`dropped ${dropped} message(s) fetched beyond the ${expect}th`)
  await consumer.disconnect()
  return rc
}

// ---------------------------------------------------------------- main --

const opts = parseArgs(process.argv.slice(2))
const started = Date.now()
const timer = setTimeout(() => {
  log(`timeout after ${opts.timeout} s`)
  if (opts.command === 'produce') printAcked()
  process.exit(1)
}, Math.max(0, Number(opts.timeout) * 1000 - 300))

;(opts.command === 'produce' ? produce(opts) : consume(opts))
  .then((rc) => rc, (e) => { log(`error: ${e.name}: ${e.message}`); return 1 })
  .then((rc) => {
    clearTimeout(timer)
    log(`${opts.command} done in ${((Date.now() - started) / 1000).toFixed(2)} s, exit ${rc}`)
    process.exit(rc)
  })

// kafkajs 2.2.4 for the security suite (sasl_clients.py): logs in, produces N
// messages or consumes them back.
//
//   node kafkajs_sasl.js produce --bootstrap HOST:PORT --topic T --count N [login]
//   node kafkajs_sasl.js consume --bootstrap HOST:PORT --topic T --expect N [login]
//   login: [--ca FILE] [--mechanism PLAIN|SCRAM-SHA-256|SCRAM-SHA-512
//           --username U --password P] [--mechanism OAUTHBEARER --token JWS]
//   every command also takes --timeout SECONDS (default 20)
//
// NODE_PATH must point at a node_modules folder with kafkajs 2.2.4.
//
// Message i of topic T is the value "T-i" (no key). produce prints one line,
// {"acked": N}; consume prints {"value": V} for each message read, in order,
// and reads for --idle seconds (default 4) after joining when --expect is 0.
// Diagnostics go to stderr. Exit code 0 when all N were acknowledged or read
// (with --expect 0: when the consumer joined its group and read nothing), 1
// otherwise (a refused login, a TLS failure, the timeout), 2 on bad
// arguments.
//
// kafkajs retries a failed connection with a backoff that makes a refused
// handshake take tens of seconds: retries are few and short here, and the
// connection and authentication timeouts are 3 s. A refused SASL login is not
// retried at all (KafkaJSSASLAuthenticationError is not retriable). --ca
// trusts that CA only; Node checks the server's certificate against the host
// (an IP address: its IP SANs).
'use strict'

const fs = require('fs')
const { Kafka, logLevel } = require('kafkajs')

const progress = { acked: 0, printed: false }

function log(...parts) {
  process.stderr.write('kafkajs_sasl: ' + parts.join(' ') + '\n')
}

function usage(msg) {
  log(msg)
  log('usage: produce|consume --bootstrap B --topic T --count N|--expect N [--ca F] ' +
    '[--mechanism M --username U --password P | --mechanism OAUTHBEARER --token JWS] [--timeout S]')
  process.exit(2)
}

function parseArgs(argv) {
  const [command, ...rest] = argv
  if (command !== 'produce' && command !== 'consume') usage(`unknown command ${command}`)
  const opts = { command, timeout: '20', idle: '4' }
  for (let i = 0; i < rest.length; i += 2) {
    if (!rest[i].startsWith('--') || rest[i + 1] === undefined) usage(`bad argument ${rest[i]}`)
    opts[rest[i].slice(2)] = rest[i + 1]
  }
  const need = ['bootstrap', 'topic', command === 'produce' ? 'count' : 'expect']
  for (const name of need) if (opts[name] === undefined) usage(`missing --${name}`)
  for (const name of ['count', 'expect', 'timeout', 'idle']) {
    if (opts[name] !== undefined && !(Number(opts[name]) >= 0)) usage(`bad --${name} ${opts[name]}`)
  }
  if (opts.mechanism === 'OAUTHBEARER' && opts.token === undefined) usage('OAUTHBEARER needs --token')
  return opts
}

function sasl(opts) {
  if (opts.mechanism === undefined) return undefined
  if (opts.mechanism === 'OAUTHBEARER') {
    return { mechanism: 'oauthbearer', oauthBearerProvider: async () => ({ value: opts.token }) }
  }
  const mechanism = opts.mechanism.toLowerCase()
  if (!['plain', 'scram-sha-256', 'scram-sha-512'].includes(mechanism)) usage(`unknown mechanism ${opts.mechanism}`)
  return { mechanism, username: opts.username, password: opts.password }
}

// kafkajs logs through this: everything to stderr, never stdout.
const logCreator = () => ({ namespace, label, log: entry }) => {
  const { message: text, timestamp, logger, stack, ...extra } = entry
  log(`[${label} ${namespace}] ${text}`, Object.keys(extra).length ? JSON.stringify(extra) : '')
}

function client(opts) {
  return new Kafka({
    clientId: 'security-kafkajs',
    brokers: [opts.bootstrap],
    ssl: opts.ca === undefined ? false : { ca: [fs.readFileSync(opts.ca, 'utf8')] },
    sasl: sasl(opts),
    connectionTimeout: 3000,
    authenticationTimeout: 3000,
    requestTimeout: 10000,
    retry: { retries: 2, initialRetryTime: 100, maxRetryTime: 500 },
    logLevel: logLevel.ERROR,
    logCreator,
  })
}

function printAcked() {
  if (progress.printed) return
  process.stdout.write(`{"acked": ${progress.acked}}\n`)
  progress.printed = true
}

async function produce(opts) {
  const count = Number(opts.count)
  const producer = client(opts).producer()
  let ok = true
  try {
    await producer.connect()
    const messages = []
    for (let i = 0; i < count; i++) messages.push({ value: `${opts.topic}-${i}` })
    // One send: it resolves once every partition's Produce response came back
    // without error (acks -1), so all or none are acknowledged.
    await producer.send({ topic: opts.topic, acks: -1, messages })
    progress.acked = count
  } catch (e) {
    log(`produce failed: ${e.name}: ${e.message}`)
    ok = false
  }
  await producer.disconnect().catch((e) => log(`disconnect: ${e.message}`))
  printAcked()
  return ok ? 0 : 1
}

async function consume(opts) {
  const expect = Number(opts.expect)
  const consumer = client(opts).consumer({
    groupId: `security-kafkajs-${process.pid}-${Math.random().toString(36).slice(2)}`,
    sessionTimeout: 10000,
    maxWaitTimeInMs: 500,
  })
  let reached
  const done = new Promise((resolve) => { reached = resolve })
  let crashed
  const fatal = new Promise((resolve, reject) => { crashed = reject })
  fatal.catch(() => {})
  consumer.on(consumer.events.CRASH, ({ payload }) => {
    const why = payload.error ? `${payload.error.name}: ${payload.error.message}` : 'unknown error'
    log(`consumer crashed: ${why}`)
    if (!payload.restart) crashed(new Error(`consumer crashed: ${why}`))
  })
  // Expecting nothing: read for --idle seconds once the group is joined.
  let joined = false
  consumer.on(consumer.events.GROUP_JOIN, () => {
    joined = true
    if (expect === 0) setTimeout(reached, Number(opts.idle) * 1000)
  })
  let count = 0
  try {
    await consumer.connect()
    await consumer.subscribe({ topics: [opts.topic], fromBeginning: true })
    await consumer.run({
      autoCommit: false,
      eachMessage: async ({ message: m }) => {
        count++
        if (expect > 0 && count > expect) return
        process.stdout.write(JSON.stringify({ value: m.value === null ? null : m.value.toString('utf8') }) + '\n')
        if (count === expect) reached()
      },
    })
    await Promise.race([done, fatal])
  } catch (e) {
    log(`consume failed after ${count}: ${e.name}: ${e.message}`)
  }
  await consumer.disconnect().catch((e) => log(`disconnect: ${e.message}`))
  // Nothing read counts only from a consumer that joined (so did log in).
  return count === expect && joined ? 0 : 1
}

const opts = parseArgs(process.argv.slice(2))
const timer = setTimeout(() => {
  log(`timeout after ${opts.timeout} s`)
  if (opts.command === 'produce') printAcked()
  process.exit(1)
}, Math.max(0, Number(opts.timeout) * 1000 - 300))

;(opts.command === 'produce' ? produce(opts) : consume(opts))
  .then((rc) => rc, (e) => { log(`error: ${e.name}: ${e.message}`); return 1 })
  .then((rc) => {
    clearTimeout(timer)
    process.exit(rc)
  })

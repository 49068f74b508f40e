// kafkajs: admin().connect() + describeCluster() against BOOTSTRAP (argv[2]).
// NODE_PATH must point at a node_modules folder holding kafkajs 2.2.4.
const { Kafka, logLevel } = require('kafkajs')
const version = require('kafkajs/package.json').version
const bootstrap = process.argv[2]
console.log('kafkajs', version)
const kafka = new Kafka({
  clientId: 'interop-kafkajs',
  brokers: [bootstrap],
  connectionTimeout: 3000,
  requestTimeout: 3000,
  retry: { retries: 0 },
  logLevel: logLevel.NOTHING,
})
const admin = kafka.admin()
const timer = setTimeout(() => { console.log('timeout'); process.exit(0) }, 10000)
admin.connect()
  .then(() => admin.describeCluster())
  .then((c) => console.log('cluster:', JSON.stringify(c)))
  .catch((e) => console.log('error:', e.message))
  .finally(() => admin.disconnect().then(() => { clearTimeout(timer); process.exit(0) }))

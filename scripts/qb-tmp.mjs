import autocannon from 'autocannon';
const [url, dur = '3'] = process.argv.slice(2);
const run = (d) => new Promise((res, rej) => autocannon({ url, connections: 50, duration: d }, (e, r) => (e ? rej(e) : res(r))));
await run(1);
const r = await run(Number(dur));
console.log(url, Math.round(r.requests.average), 'req/s p99', r.latency.p99);

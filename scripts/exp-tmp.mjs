import Fastify from 'fastify';
import pino from 'pino';
const variant = process.argv[2];
const port = Number(process.argv[3]);
const opts = { logger: false };
if (variant.includes('log')) opts.logger = { level: 'info', stream: pino.destination({ dest: '/dev/null', sync: false }) };
if (variant.includes('quiet')) opts.disableRequestLogging = true;
if (variant.includes('nochild')) opts.childLoggerFactory = (logger) => logger;
const app = Fastify(opts);
const H = { 'content-security-policy': "default-src 'none'; frame-ancestors 'none'", 'cross-origin-resource-policy': 'same-site', 'referrer-policy': 'no-referrer', 'strict-transport-security': 'max-age=31536000; includeSubDomains', 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY' };
if (variant.includes('hdr')) app.addHook('onRequest', (req, reply, done) => { reply.headers(H); done(); });
if (variant.includes('logline')) app.addHook('onResponse', (request, reply, done) => { request.log.info({ req: request, res: { statusCode: reply.statusCode } }, 'request'); done(); });
if (variant.includes('emptyhook')) app.addHook('onResponse', (request, reply, done) => done());
const body = JSON.stringify({ status: 'ok', database: 'sqlite', uptime: 4 });
if (variant.includes('schema')) {
  app.get('/x', { schema: { response: { 200: { type: 'object', properties: { status: { type: 'string' }, database: { type: 'string' }, uptime: { type: 'integer' } } } } } }, async () => ({ status: 'ok', database: 'sqlite', uptime: 4 }));
} else app.get('/x', (req, reply) => { reply.header('content-type', 'application/json; charset=utf-8').send(body); });
await app.listen({ port, host: '127.0.0.1' });
process.on('SIGINT', () => process.exit(0));

// The baseline of `npm run bench`: a bare Fastify route answering the recorded bytes of each
// endpoint (its body and response headers) from memory (no database, no plugins, no hooks), started
// as its own process like the real server, with the same V8 settings as the server's main.ts (they
// can only make the twin faster), loaded before Fastify as there.
import '../apps/server/dist/v8-flags.js';
import '../apps/server/dist/v8-tick-object.js';

const { default: fs } = await import('node:fs');
const { default: Fastify } = await import('fastify');

const [fixturesFile, port] = process.argv.slice(2);
const fixtures = JSON.parse(fs.readFileSync(fixturesFile, 'utf8'));
const app = Fastify({ logger: false });
for (const [i, fixture] of fixtures.entries()) {
  const body = Buffer.from(fixture.body, 'base64');
  const answer = (_request, reply) => {
    reply.headers(fixture.headers).send(body);
  };
  app.get(`/bare/${i}`, answer);
  // Varying endpoints (identifier lookups) send a different path each time: the twin ignores it.
  app.get(`/bare/${i}/*`, answer);
}
await app.listen({ port: Number(port), host: '127.0.0.1' });
// The bench waits for this line.
process.stdout.write('ready\n');

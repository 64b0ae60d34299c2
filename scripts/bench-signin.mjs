// Sign-in throughput as deployed, for `npm run bench`: full CAS sign-ins (the login form, its POST, the
// ticket validated as an application does), full OpenID Connect sign-ins (authorization request with
// PKCE, the central login, the code exchanged at the token endpoint), client-credentials grants, and
// beside them the bare argon2id verifies per second of this machine in the same run: a sign-in costs
// one verify, so the ratio says what the rest of the path costs. The browsers are plain HTTP/1.1
// clients on keep-alive connections (node:http), so the load generator takes little of the cores it
// shares with the server; the server's own CPU time per sign-in is read from /proc where there is one.
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { hash, verify } from '@node-rs/argon2';

/** The demo data's accounts and clients (README, "Demo accounts and clients"). */
const DEMO_PASSWORD = 'Portal@2026';
const OIDC_CLIENT = {
  id: 'hengyue-inspection',
  secret: 'hengyue-inspection-demo-secret-not-for-production',
  redirectUri: 'http://localhost:8083/callback',
};
const MACHINE_CLIENT = { id: 'hengyue-mes', secret: 'hengyue-mes-demo-secret-2026' };
/** Accounts of 恒岳 that sign in without a second factor, taken in turn. */
const USERS = ['wangfang', 'liuyang', 'zhoujie'];
const CAS_SERVICE = 'http://localhost:8081/';

const b64url = (buffer) => buffer.toString('base64url');

/** A browser's cookies for one sign-in (a fresh context each time). */
class Jar {
  #cookies = new Map();
  header() {
    return [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  take(response) {
    for (const line of response.headers['set-cookie'] ?? []) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      this.#cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  }
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** One request on a kept-alive connection; answers the status, the headers and the body as text (redirects are not followed). */
function request(url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : String(body));
  });
}

async function hop(jar, url, init = {}) {
  const response = await request(url, { ...init, headers: { ...init.headers, cookie: jar.header() } });
  jar.take(response);
  return response;
}

const formPost = (jar, url, fields) =>
  hop(jar, url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });

/** Submits the central login's form on `page` (read from `url`) with the demo password. */
async function submitLogin(jar, url, page, username) {
  const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1]?.replaceAll('&amp;', '&');
  const execution = /name="execution" value="([^"]+)"/.exec(page)?.[1];
  if (!action || !execution) throw new Error('no login form');
  return formPost(jar, new URL(action, url).href, { username, password: DEMO_PASSWORD, execution });
}

/** A CAS sign-in of a fresh browser: form, POST, and the application validating its ticket. */
async function casSignIn(base, username) {
  const jar = new Jar();
  const login = `${base}/cas/login?service=${encodeURIComponent(CAS_SERVICE)}`;
  const form = await hop(jar, login);
  const posted = await submitLogin(jar, login, form.text, username);
  const ticket = new URL(posted.headers.location ?? 'http://x/').searchParams.get('ticket');
  if (!ticket) throw new Error(`no ticket (${posted.status})`);
  const answer = await request(`${base}/cas/p3/serviceValidate?service=${encodeURIComponent(CAS_SERVICE)}&ticket=${ticket}`);
  if (!answer.text.includes('authenticationSuccess')) throw new Error('ticket not validated');
}

/** An OpenID Connect sign-in of a fresh browser: the code flow with PKCE through the central login. */
async function oidcSignIn(base, username) {
  const jar = new Jar();
  const verifier = b64url(randomBytes(32));
  const params = new URLSearchParams({
    client_id: OIDC_CLIENT.id,
    redirect_uri: OIDC_CLIENT.redirectUri,
    response_type: 'code',
    scope: 'openid profile',
    state: b64url(randomBytes(12)),
    nonce: b64url(randomBytes(12)),
    code_challenge: b64url(createHash('sha256').update(verifier).digest()),
    code_challenge_method: 'S256',
  });
  let url = `${base}/oidc/auth?${params}`;
  let response = await hop(jar, url);
  for (let hops = 0; hops < 12; hops++) {
    if (response.status === 200) {
      response = await submitLogin(jar, url, response.text, username);
      continue;
    }
    const location = response.headers.location;
    if (!location) throw new Error(`stopped at ${response.status} ${url}`);
    url = new URL(location, url).href;
    if (url.startsWith(OIDC_CLIENT.redirectUri)) {
      const code = new URL(url).searchParams.get('code');
      if (!code) throw new Error(`no code: ${url}`);
      const tokens = await request(`${base}/oidc/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${OIDC_CLIENT.id}:${OIDC_CLIENT.secret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: OIDC_CLIENT.redirectUri,
          code_verifier: verifier,
        }),
      });
      if (!JSON.parse(tokens.text).id_token) throw new Error(`no ID token (${tokens.status})`);
      return;
    }
    response = await hop(jar, url);
  }
  throw new Error('too many redirects');
}

async function clientCredentials(base) {
  const tokens = await request(`${base}/oidc/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${MACHINE_CLIENT.id}:${MACHINE_CLIENT.secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'identifiers:read' }),
  });
  if (!JSON.parse(tokens.text).access_token) throw new Error(`no access token (${tokens.status})`);
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/**
 * CPU time (user + system, ms, all its threads) a process has used so far, from /proc: what a request
 * costs it, whatever the load beside it. Undefined where there is no /proc.
 */
export function cpuMsOf(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** The ids of `pid`'s child processes (nginx's workers under its master), from /proc; none where there is no /proc. */
function childrenOf(pid) {
  try {
    return fs
      .readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .filter((name) => {
        try {
          const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
          return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
        } catch {
          return false;
        }
      })
      .map(Number);
  } catch {
    return [];
  }
}

/** CPU milliseconds used so far by each named group of processes (undefined where /proc cannot tell). */
function cpuOfGroups(groups) {
  const out = {};
  for (const [name, pids] of Object.entries(groups)) {
    let sum = 0;
    for (const pid of pids) {
      const ms = cpuMsOf(pid);
      if (ms === undefined) {
        sum = undefined;
        break;
      }
      sum += ms;
    }
    out[name] = sum;
  }
  return out;
}

/**
 * Runs `work` in `concurrency` loops for `seconds`; answers completions per second, the failures and,
 * for each named group of processes in `cpu`, its CPU milliseconds per completion (`cpuMsEach` is the
 * first group's).
 */
async function loops(work, { concurrency, seconds, cpu = { self: [process.pid] } }) {
  const cpuBefore = cpuOfGroups(cpu);
  const end = Date.now() + seconds * 1000;
  let done = 0;
  const failures = new Map();
  const started = Date.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      for (let i = worker; Date.now() < end; i += concurrency) {
        try {
          await work(i);
          done++;
        } catch (err) {
          failures.set(err.message, (failures.get(err.message) ?? 0) + 1);
        }
      }
    }),
  );
  const perSecond = +(done / ((Date.now() - started) / 1000)).toFixed(1);
  const cpuAfter = cpuOfGroups(cpu);
  const cpuMs = {};
  for (const name of Object.keys(cpu)) {
    const [before, after] = [cpuBefore[name], cpuAfter[name]];
    cpuMs[name] = before === undefined || after === undefined || done === 0 ? null : +((after - before) / done).toFixed(2);
  }
  return {
    perSecond,
    completed: done,
    failed: [...failures.values()].reduce((a, b) => a + b, 0),
    failures: Object.fromEntries(failures),
    cpuMsEach: cpuMs[Object.keys(cpu)[0]],
    cpuMs,
  };
}

/**
 * Sign-ins per second through `base` (nginx, master `proxyPid`, in front of the server `serverPid`, demo
 * data), each scenario for `seconds` with `concurrency` browsers at once, and the argon2id verifies per
 * second in this process (with their CPU time: `cpuMsEach`). The sign-ins' `cpuMsEach` is the server's
 * CPU time per sign-in (its argon2id verify included): its ratio to a verify's is what the whole path
 * costs. `cpuMs` adds nginx's and this load generator's, which share the cores and so the rate.
 */
export async function signInThroughput(base, { seconds = 10, concurrency = 8, serverPid, proxyPid } = {}) {
  const user = (i) => USERS[i % USERS.length];
  const stored = await hash(DEMO_PASSWORD, { algorithm: 2 });
  const argon2idVerify = await loops(() => verify(stored, DEMO_PASSWORD), { concurrency, seconds });
  const cpu = () => ({
    ...(serverPid ? { server: [serverPid] } : {}),
    ...(proxyPid ? { nginx: [proxyPid, ...childrenOf(proxyPid)] } : {}),
    generator: [process.pid],
  });
  const server = { concurrency, seconds, cpu: cpu() };
  return {
    argon2idVerify,
    casSignIn: await loops((i) => casSignIn(base, user(i)), server),
    oidcSignIn: await loops((i) => oidcSignIn(base, user(i)), server),
    clientCredentials: await loops(() => clientCredentials(base), server),
  };
}

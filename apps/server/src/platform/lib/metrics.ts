import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** How a sign-in reached the portal: the central login (CAS), an OpenID Connect client, or the portal's own session. */
export type SignInProtocol = 'cas' | 'oidc' | 'portal';
export type Result = 'success' | 'failure';
/** What the portal hands out and later checks: CAS tickets, OpenID Connect codes and tokens, the portal's own tokens. */
export type IssuedKind =
  | 'cas_tgt'
  | 'cas_service_ticket'
  | 'oidc_authorization_code'
  | 'oidc_access_token'
  | 'oidc_refresh_token'
  | 'oidc_client_credentials'
  | 'portal_token';
export type ValidatedKind = 'cas_service_ticket' | 'oidc_grant';
export type LogoutDeliveryResult = 'delivered' | 'retrying' | 'failed';
export type SyncRunResult = 'succeeded' | 'partial' | 'failed';

const HTTP_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** A request no route claimed (the web app's fallback, a 404): one label value, never the raw URL. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Process metrics (CPU, memory, event loop, GC) belong to the process, not to one app: registered once,
 * whatever number of apps a process builds (tests build many).
 */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, prefix: 'portal_' });
  }
  return processRegistry;
}

/**
 * The portal's Prometheus metrics: every counter one named method, called where the thing happens
 * (a service, an existing hook), so the names below are the whole list (docs/deploy/grafana-dashboard.json
 * draws them). Labels hold only bounded values. Each instance counts its own; Prometheus adds them up.
 */
export class PortalMetrics {
  readonly #registry = new Registry();
  readonly #http: Histogram<'method' | 'route' | 'status'>;
  readonly #signIns: Counter<'protocol' | 'result'>;
  readonly #issued: Counter<'kind'>;
  readonly #validated: Counter<'kind' | 'result'>;
  readonly #logoutDeliveries: Counter<'result'>;
  readonly #syncRuns: Histogram<'result'>;
  readonly #lookups: Counter<'channel' | 'outcome'>;
  readonly #queries: Histogram<'result'>;

  constructor(pool?: () => { total: number; idle: number; waiting: number }) {
    const registers = [this.#registry];
    this.#http = new Histogram({
      name: 'portal_http_request_duration_seconds',
      help: 'HTTP requests by route pattern, method and status, and how long they took',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.#signIns = new Counter({
      name: 'portal_sign_ins_total',
      help: 'Sign-ins by protocol (cas: attempts at the central login; oidc: authorization requests; portal: portal sessions) and result',
      labelNames: ['protocol', 'result'],
      registers,
    });
    this.#issued = new Counter({
      name: 'portal_tickets_issued_total',
      help: 'CAS tickets, OpenID Connect codes and tokens, and portal tokens issued',
      labelNames: ['kind'],
      registers,
    });
    this.#validated = new Counter({
      name: 'portal_tickets_validated_total',
      help: 'CAS service tickets validated and OpenID Connect token requests, by result',
      labelNames: ['kind', 'result'],
      registers,
    });
    this.#logoutDeliveries = new Counter({
      name: 'portal_single_logout_deliveries_total',
      help: 'Single-logout messages sent to applications (CAS and back-channel), by the attempt result',
      labelNames: ['result'],
      registers,
    });
    this.#syncRuns = new Histogram({
      name: 'portal_sync_run_duration_seconds',
      help: 'Directory sync runs (executed or scheduled) by result, and how long they took',
      labelNames: ['result'],
      buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600],
      registers,
    });
    this.#lookups = new Counter({
      name: 'portal_identifier_lookups_total',
      help: 'Identifier lookups counted for statistics, by channel and outcome',
      labelNames: ['channel', 'outcome'],
      registers,
    });
    this.#queries = new Histogram({
      name: 'portal_db_query_duration_seconds',
      help: 'Database queries by result, and how long they took',
      labelNames: ['result'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    });
    if (pool) {
      new Gauge({
        name: 'portal_db_pool_connections',
        help: 'PostgreSQL pool connections by state (in_use, idle) and queries waiting for one (waiting)',
        labelNames: ['state'],
        registers,
        collect() {
          const { total, idle, waiting } = pool();
          this.set({ state: 'in_use' }, total - idle);
          this.set({ state: 'idle' }, idle);
          this.set({ state: 'waiting' }, waiting);
        },
      });
    }
  }

  /** One answered request; `route` is the route's pattern (`/api/handles/*`), never the URL a client sent. */
  request(method: string, route: string | undefined, status: number, seconds: number): void {
    this.#http.observe(
      { method: HTTP_METHODS.has(method) ? method : 'OTHER', route: route ?? UNMATCHED_ROUTE, status: String(status) },
      seconds,
    );
  }

  signIn(protocol: SignInProtocol, result: Result): void {
    this.#signIns.inc({ protocol, result });
  }

  issued(kind: IssuedKind): void {
    this.#issued.inc({ kind });
  }

  validated(kind: ValidatedKind, result: Result): void {
    this.#validated.inc({ kind, result });
  }

  logoutDelivery(result: LogoutDeliveryResult): void {
    this.#logoutDeliveries.inc({ result });
  }

  syncRun(result: SyncRunResult, seconds: number): void {
    this.#syncRuns.observe({ result }, seconds);
  }

  lookup(channel: string, outcome: string): void {
    this.#lookups.inc({ channel, outcome });
  }

  query(ms: number, failed: boolean): void {
    this.#queries.observe({ result: failed ? 'error' : 'ok' }, ms / 1000);
  }

  /** The text a scrape answers, this app's metrics and the process's. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    const merged = Registry.merge([this.#registry, processMetrics()]);
    return { contentType: merged.contentType, body: await merged.metrics() };
  }
}

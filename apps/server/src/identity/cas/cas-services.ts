import fp from 'fastify-plugin';
import { type ReleasableAttribute, type SsoApplicationStatus, parseRedirectUrl } from '@portal/shared';
import type { OutboundGuard } from '../../platform/lib/outbound.js';
import type { IssuedTicket } from './cas-ticket-repository.js';
import { sendLogoutRequest } from './single-logout.js';

// The CAS declares what it needs of an application; sso-apps' repository answers in these shapes.
/**
 * A service address on a host, as the CAS's service registry looks it up: an enterprise's own
 * application's, or a platform application's (each subscribed enterprise signs in through
 * its own copy of it).
 */
export type ServiceCandidate =
  | { prefix: string; application: ServiceApplication; platformApplication?: undefined }
  | { prefix: string; application?: undefined; platformApplication: PlatformServiceApplication };

/** A platform application of the application center on single sign-on (`app_application`), as the CAS sees it. */
export interface PlatformServiceApplication {
  /** Its `app_application` id (the copies' `platform_app_id`), not an id of 应用列表. */
  id: number;
  name: string;
  logoutUrl: string;
}

/** What the CAS needs of an enterprise application: who owns it, whether it is on, where single logout goes, what it receives. */
export interface ServiceApplication {
  id: number;
  enterpriseId: number;
  name: string;
  status: SsoApplicationStatus;
  logoutUrl: string;
  attributes: ReleasableAttribute[];
}

/**
 * A registered service: its parsed address and the application it belongs to. Both null: a
 * platform-wide service (this portal, CAS_SERVICES), open to every account.
 */
export interface RegisteredService {
  /** The `service` parameter as given (a ticket is valid for exactly this string, CAS 3.0 §2.5.1). */
  service: string;
  url: URL;
  /** An enterprise's own application (应用列表). */
  application: ServiceApplication | null;
  /**
   * A platform application of the application center: a ticket goes only to an account
   * whose enterprise holds its approved copy (`SsoAppRepository.copyFor`), which 应用授权 then decides.
   */
  platformApplication: PlatformServiceApplication | null;
  /** One of the portal's own sign-ins through the central login (see InternalServices): no single-logout message. */
  internal?: boolean;
  /**
   * Where the browser goes at the end of the sign-in, when that is not the service's own origin (an
   * OpenID Connect sign-in ends at the relying party's redirect address): its forms' CSP form-action.
   */
  redirectOrigin?: string;
}

/**
 * The portal's own sign-ins that go through the central login like an application (OpenID Connect's
 * interactions): their callbacks lie under the portal's address, so they are asked before the
 * platform-wide prefixes would take them as the portal itself (no 应用授权, no application in 登录日志).
 */
export interface InternalServices {
  /** The protocol its applications hear of a logout through (LogoutMessage.protocol). */
  protocol: 'oidc' | 'saml2';
  /** Whether an ended ticket is one of its sign-ins, whose application it tells (logoutMessages). */
  claims(ticket: IssuedTicket, portalBase: string): boolean;
  /** Whether the address is one of them, by its form alone (a callback whose sign-in has expired too). */
  owns(url: URL, portalBase: string): boolean;
  /** The application it signs in to and where the browser goes at its end; undefined when the sign-in is gone. */
  resolve(url: URL, portalBase: string): Promise<{ application: ServiceApplication; redirectOrigin: string } | undefined>;
  /** The messages that tell the applications of ended sign-ins (the tickets it claims) through their own protocol. */
  logoutMessages(tickets: IssuedTicket[]): Promise<LogoutMessage[]>;
  /** Sends one of them; throws with the reason when the application does not accept it. */
  send(message: LogoutMessage): Promise<void>;
}

/** Where a single-logout message goes; `tenant`: an enterprise typed the address (the outbound guard checks it). */
export interface SingleLogoutTarget {
  url: URL;
  tenant: boolean;
  /** Who it is, as the delivery log names it. */
  applicationName: string;
}

/**
 * One single-logout message to one application for an ended SSO session: a CAS logoutRequest for a
 * ticket (`ticketId`), an OpenID Connect back-channel logout_token for a client's sid, or a SAML
 * LogoutRequest for a sign-in (`sid`, its SessionIndex).
 */
export interface LogoutMessage {
  protocol: 'cas3' | 'oidc' | 'saml2';
  target: string;
  /** Sent through the outbound rules (an address an enterprise typed). */
  guarded: boolean;
  ticketId: string | null;
  clientId: string | null;
  sid: string | null;
  applicationId: number | null;
  applicationName: string;
  accountId: number;
  tgtId: string;
}

/**
 * The embedded CAS server's service registry (CAS 3.0 §2.1.1: services must be registered; compare
 * scheme, host, port and path prefix exactly). Platform-wide services are this portal and the
 * CAS_SERVICES addresses; the enterprises' own applications (应用列表) and the platform
 * applications on single sign-on are read from the database at every call, by the
 * service's host, so a new or changed application holds at once on every instance. A service that is not registered gets no ticket, no logout redirect and no
 * single-logout message. The address is parsed by the one redirect check (`parseRedirectUrl`), as a
 * browser would read it, before its prefix is compared.
 */
export class ServiceRegistry {
  private readonly prefixes: URL[];
  private readonly internals: InternalServices[] = [];

  constructor(
    extra: string[],
    private readonly applicationsOnHost: (host: string) => Promise<ServiceCandidate[]> = async () => [],
  ) {
    this.prefixes = extra.map((p) => new URL(p));
  }

  /** Added by the OpenID and SAML identity providers (which the CAS does not import). */
  useInternalServices(internal: InternalServices): void {
    this.internals.push(internal);
  }

  private internalFor(url: URL, portalBase: string): InternalServices | undefined {
    return this.internals.find((i) => i.owns(url, portalBase));
  }

  /** Whether `service` is one of the portal's own sign-ins (InternalServices), live or expired. */
  isInternal(service: string | undefined, portalBase: string): boolean {
    const url = parseRedirectUrl(service);
    return !!url && this.internalFor(url, portalBase) !== undefined;
  }

  /** The platform-wide prefixes: this portal (`portalBase`, its own address) and CAS_SERVICES. */
  platformPrefixes(portalBase: string): URL[] {
    return [new URL(`${portalBase}/`), ...this.prefixes];
  }

  /** The parsed address of `service` if it is a platform-wide service. */
  platform(service: string | undefined, portalBase: string): URL | undefined {
    const url = parseRedirectUrl(service);
    if (!url) return undefined;
    return this.platformPrefixes(portalBase).some((prefix) => matches(url, prefix)) ? url : undefined;
  }

  /**
   * `service` if it is registered: platform-wide first, else the enterprise or platform application
   * whose service address matches it (the longest, should two ever both match).
   */
  async resolve(service: string | undefined, portalBase: string): Promise<RegisteredService | undefined> {
    const url = parseRedirectUrl(service);
    if (!url || service === undefined) return undefined;
    const internal = this.internalFor(url, portalBase);
    if (internal) {
      const found = await internal.resolve(url, portalBase);
      if (!found) return undefined;
      return {
        service,
        url,
        application: found.application,
        platformApplication: null,
        internal: true,
        redirectOrigin: found.redirectOrigin,
      };
    }
    if (this.platformPrefixes(portalBase).some((prefix) => matches(url, prefix))) {
      return { service, url, application: null, platformApplication: null };
    }
    const best = (await this.applicationsOnHost(url.hostname))
      .filter((c) => matches(url, new URL(c.prefix)))
      .sort((a, b) => b.prefix.length - a.prefix.length)[0];
    if (!best) return undefined;
    return { service, url, application: best.application ?? null, platformApplication: best.platformApplication ?? null };
  }

  /**
   * Where the single-logout message for a ticket of `service` goes (CAS 3.0 §2.3.3): the application's
   * 注销地址 when it has one, else the service address itself; nothing for a service no longer registered.
   */
  async singleLogoutTarget(service: string, portalBase: string): Promise<SingleLogoutTarget | undefined> {
    // The portal's own sign-ins hear of a logout through their own protocol (OIDC back-channel logout).
    if (this.isInternal(service, portalBase)) return undefined;
    const registered = await this.resolve(service, portalBase);
    if (!registered) return undefined;
    const logoutUrl = registered.application?.logoutUrl ?? registered.platformApplication?.logoutUrl;
    // A platform-wide service is named as 在线会话 names the portal's own sign-ins (门户), or by its host.
    const own = registered.url.origin === new URL(portalBase).origin;
    const applicationName = registered.application?.name ?? registered.platformApplication?.name ?? (own ? '门户' : registered.url.host);
    return { url: logoutUrl ? new URL(logoutUrl) : registered.url, tenant: registered.application !== null, applicationName };
  }

  /**
   * The single-logout messages ended tickets call for: a CAS logoutRequest to every registered service
   * (CAS 3.0 §2.3.3), and the portal's own sign-ins' applications told through their protocol (OpenID
   * Connect back-channel logout, SAML LogoutRequest). A callback ticket of a sign-in that never finished tells nobody.
   */
  async logoutMessages(tickets: IssuedTicket[], portalBase: string): Promise<LogoutMessage[]> {
    const cas = tickets.filter((t) => !t.oidc && !this.isInternal(t.service, portalBase));
    const casMessages = await Promise.all(
      cas.map(async (ticket): Promise<LogoutMessage | undefined> => {
        const found = await this.singleLogoutTarget(ticket.service, portalBase);
        if (!found) return undefined;
        return {
          protocol: 'cas3',
          target: found.url.href,
          guarded: found.tenant,
          ticketId: ticket.id,
          clientId: null,
          sid: null,
          applicationId: ticket.applicationId,
          applicationName: found.applicationName,
          accountId: ticket.accountId,
          tgtId: ticket.tgtId,
        };
      }),
    );
    const own = await Promise.all(
      this.internals.map((internal) => {
        const claimed = tickets.filter((t) => internal.claims(t, portalBase));
        return claimed.length > 0 ? internal.logoutMessages(claimed) : [];
      }),
    );
    return [...casMessages.filter((m) => m !== undefined), ...own.flat()];
  }

  /** Sends one single-logout message; throws with the reason when the application does not accept it. */
  async sendLogout(message: LogoutMessage, guard: OutboundGuard): Promise<void> {
    if (message.protocol !== 'cas3') {
      const internal = this.internals.find((i) => i.protocol === message.protocol);
      if (!internal) throw new Error(`${message.protocol} is not available`);
      return internal.send(message);
    }
    await sendLogoutRequest(new URL(message.target), message.ticketId ?? '', message.guarded ? guard : undefined);
  }

  /** Origins allowed to call the token endpoint with credentials (CORS): platform-wide services only, never an enterprise's. */
  isRegisteredOrigin(origin: string, portalBase: string): boolean {
    const portal = new URL(portalBase).origin;
    return origin === portal || this.prefixes.some((p) => p.origin === origin);
  }
}

/** `url` lies under `prefix`: same scheme, host and port, and the prefix's path or below it (CAS 3.0 §2.1.1). */
export function matches(url: URL, prefix: URL): boolean {
  if (url.protocol !== prefix.protocol || url.hostname !== prefix.hostname || url.port !== prefix.port) return false;
  const base = prefix.pathname.endsWith('/') ? prefix.pathname : prefix.pathname + '/';
  return url.pathname === prefix.pathname || url.pathname.startsWith(base);
}

/** Two service prefixes overlap when some address would match both. */
export function overlaps(a: URL, b: URL): boolean {
  return matches(a, b) || matches(b, a);
}

/** The one registry of the server: CAS_SERVICES from configuration, the enterprises' and platform applications from the database. */
export default fp(
  async (app) => {
    app.decorate(
      'casApplicationService',
      new ServiceRegistry(app.config.auth.casServices, (host) => app.ssoAppRepository.servicesOnHost(host)),
    );
  },
  { name: 'cas-services', dependencies: ['sso-app-repository'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    casApplicationService: ServiceRegistry;
  }
}

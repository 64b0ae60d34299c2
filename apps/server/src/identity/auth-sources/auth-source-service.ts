import {
  type TenantSourceActivity,
  AUTH_SOURCE_TYPE_LABELS,
  type AuthSourceConfig,
  samlSpEndpoints,
  type AuthSourceDetail,
  type AuthSourceInput,
  AuthSourceMessage,
  AuthSourceRules,
  type AuthSourceSummary,
  type AuthSourceTestInput,
  type AuthSourceTestResult,
  isChatSourceType,
  isFederatedSourceType,
  parseLdapUrl,
  SAML_DEFAULTS,
  type SamlIdpMetadata,
  type SamlMetadataRead,
} from '@portal/shared';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { auditBy } from '../../platform/audit/audit-log.js';
import { inEnterpriseTransaction } from '../../platform/db/transaction.js';
import { chinaTime } from '../../platform/lib/china-time.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/lib/errors.js';
import { callerEnterprise } from '../../platform/lib/tenant-scope.js';
import type { Caller } from '../portal-auth/auth.js';
import { type AuthSourceWrite, type SourceListRow, type StoredSource, endpointOf } from './auth-source-repository.js';
import { DirectoryError, type LoadedSource } from './directory.js';
import { openDirectory } from './open-directory.js';
import { isPublicMailDomain, normalDomain } from '../federation/email-domains.js';
import { fetchIdpMetadata, readableCertificates, readIdpMetadata, SamlSpRefusal } from './saml/saml-sp.js';
import { runSummary } from './sync-run-summary.js';

declare module 'fastify' {
  interface FastifyInstance {
    authSourceService: AuthSourceService;
  }
}

type Body = AuthSourceInput;
type TestBody = AuthSourceTestInput;

const text = (value: string | undefined) => (value ?? '').trim();

/** The posted settings of a type, trimmed and complete (absent ones empty), as they are stored. */
function settingsOf(body: Body | TestBody): AuthSourceConfig {
  switch (body.type) {
    case 'ldap': {
      const c = body.config;
      return {
        type: 'ldap',
        config: {
          url: text(c.url),
          startTls: c.startTls ?? false,
          bindDn: text(c.bindDn),
          baseDn: text(c.baseDn),
          userFilter: text(c.userFilter),
          mapping: {
            username: text(c.mapping.username),
            name: text(c.mapping.name),
            phone: text(c.mapping.phone),
            email: text(c.mapping.email),
          },
          adDomain: text(c.adDomain),
          groupBaseDn: text(c.groupBaseDn),
          groupFilter: text(c.groupFilter),
        },
      };
    }
    case 'wecom':
      return { type: 'wecom', config: { corpId: text(body.config.corpId), agentId: text(body.config.agentId) } };
    case 'dingtalk':
      return { type: 'dingtalk', config: { appKey: text(body.config.appKey), corpId: text(body.config.corpId) } };
    case 'feishu':
      return { type: 'feishu', config: { appId: text(body.config.appId) } };
    case 'oidc': {
      const c = body.config;
      return {
        type: 'oidc',
        config: {
          issuer: text(c.issuer),
          clientId: text(c.clientId),
          scopes: text(c.scopes).split(/\s+/).filter(Boolean).join(' '),
          mapping: {
            username: text(c.mapping.username),
            name: text(c.mapping.name),
            email: text(c.mapping.email),
            phone: text(c.mapping.phone),
          },
          // example.com, @example.com, Example.COM. and an IDN's ASCII form are one domain.
          domains: (c.domains ?? []).map(normalDomain).filter(Boolean),
          jit: c.jit ?? false,
          groupIds: [...new Set(c.groupIds ?? [])],
          enforce: c.enforce ?? false,
        },
      };
    }
    case 'saml': {
      const c = body.config;
      return {
        type: 'saml',
        config: {
          metadataUrl: text(c.metadataUrl),
          idpEntityId: text(c.idpEntityId),
          ssoUrl: text(c.ssoUrl),
          ssoBinding: c.ssoBinding ?? SAML_DEFAULTS.ssoBinding,
          sloUrl: text(c.sloUrl),
          certificates: (c.certificates ?? []).map((v) => v.trim()).filter((v) => v !== ''),
          nameIdFormat: c.nameIdFormat ?? SAML_DEFAULTS.nameIdFormat,
          mapping: {
            username: text(c.mapping.username),
            name: text(c.mapping.name),
            phone: text(c.mapping.phone),
            email: text(c.mapping.email),
          },
          wantAssertionsSigned: c.wantAssertionsSigned ?? SAML_DEFAULTS.wantAssertionsSigned,
          domains: (c.domains ?? []).map(normalDomain).filter(Boolean),
          jit: c.jit ?? false,
          groupIds: [...new Set(c.groupIds ?? [])],
          enforce: c.enforce ?? false,
        },
      };
    }
  }
}

/**
 * A stored secret goes only where it was typed for: an LDAP source whose address changes needs its
 * bind password again, or a console user could have it sent to a server of their choosing.
 */
function keepsAddress(stored: AuthSourceConfig, settings: AuthSourceConfig): boolean {
  // An OpenID Connect client secret goes to the token endpoint the issuer's discovery names.
  if (stored.type === 'oidc' && settings.type === 'oidc') return stored.config.issuer === settings.config.issuer;
  if (stored.type !== 'ldap' || settings.type !== 'ldap') return true;
  // StartTLS turned off would send it in clear text to the same host: that needs it typed again too.
  return stored.config.url === settings.config.url && (settings.config.startTls || !stored.config.startTls);
}

/**
 * Whether a federated source now names another provider (OIDC issuer, SAML IdP entity ID): subjects are
 * unique only per provider (OpenID Connect Core §2 `sub`; SAML Core §8.3.7), so its links no longer hold.
 */
function providerChanged(stored: AuthSourceConfig, settings: AuthSourceConfig): boolean {
  if (stored.type === 'oidc' && settings.type === 'oidc') return stored.config.issuer !== settings.config.issuer;
  if (stored.type === 'saml' && settings.type === 'saml') return stored.config.idpEntityId !== settings.config.idpEntityId;
  return false;
}

/** An OpenID Connect issuer's host and port (for the literal-address check). */
function issuerAddress(settings: AuthSourceConfig): { host: string; port: number } | undefined {
  if (settings.type !== 'oidc') return undefined;
  const url = new URL(settings.config.issuer);
  return { host: url.hostname, port: Number(url.port) || (url.protocol === 'https:' ? 443 : 80) };
}

/**
 * A federated source's email domains and default 账号组, inside its write: a domain claimed by another
 * source (any enterprise's) is refused, and the groups must be the enterprise's own.
 */
async function writeFederation(
  app: FastifyInstance,
  trx: Parameters<Parameters<typeof inEnterpriseTransaction>[2]>[0],
  enterpriseId: number,
  sourceId: number,
  input: AuthSourceWrite,
): Promise<void> {
  if (input.type !== 'oidc' && input.type !== 'saml') return;
  const repo = app.federationService.repository;
  const { domains, groupIds } = input.config;
  const taken = await repo.domainTaken(trx, domains, sourceId);
  if (taken) throw new ConflictError(AuthSourceMessage.domainTaken(taken));
  // A public mail service's domain, or one another enterprise's people use (their emails, an AD 域 for
  // UPN sign-in), would send them to this enterprise's provider: never claimable.
  const publicDomain = domains.find(isPublicMailDomain);
  if (publicDomain) throw new BadRequestError(AuthSourceMessage.domainPublic(publicDomain));
  const used = await repo.domainUsedElsewhere(trx, enterpriseId, domains);
  if (used) throw new ConflictError(AuthSourceMessage.domainOfOther(used));
  if ((await repo.groupsOf(trx, enterpriseId, groupIds)).length !== groupIds.length)
    throw new BadRequestError(AuthSourceMessage.groupUnknown);
  await repo.replaceDomains(trx, enterpriseId, sourceId, domains);
}

/** The audit row's detail: what the source is and whether it is on; a changed secret is said, never shown. */
const auditDetail = (settings: AuthSourceConfig, enabled: boolean, secretChanged: boolean) =>
  [AUTH_SOURCE_TYPE_LABELS[settings.type], endpointOf(settings), enabled ? '启用' : '停用', ...(secretChanged ? ['密钥已更换'] : [])].join(
    '；',
  );

/** The unique index of claimed domains (PostgreSQL names the constraint; SQLite the column). */
function federationDomainConflict(err: unknown): boolean {
  const { constraint, message } = err as { constraint?: unknown; message?: unknown };
  return constraint === 'federation_domain_domain' || (typeof message === 'string' && message.includes('federation_domain.domain'));
}

/** A unique name is checked first for its message; the constraint catches a concurrent twin. */
async function writing<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    // Two enterprises saving one domain at the same moment: the domain's unique index answers.
    if (isUniqueViolation(err) && federationDomainConflict(err)) throw new ConflictError(AuthSourceMessage.domainRaced);
    if (isUniqueViolation(err)) throw new ConflictError(AuthSourceMessage.nameTaken);
    throw err;
  }
}

/**
 * 认证源's rules (authority auth:source): an enterprise's LDAP/AD directory and its 企业微信, 钉钉
 * and 飞书 apps. Secrets are sealed at rest and never answered (hasSecret says whether one is kept);
 * 测试连接 shows each step with what went wrong, in Chinese. The caller's enterprise is the one
 * read and written; the caller is named in the audit row.
 */
export class AuthSourceService {
  constructor(private readonly app: FastifyInstance) {}

  private get sources() {
    return this.app.authSourceRepository;
  }

  /** The list with each source's last finished sync run as 同步日志 shows it. */
  private async withLastSync(rows: SourceListRow[]): Promise<AuthSourceSummary[]> {
    const runs = await this.app.syncRunService.repo.runsByIds(rows.flatMap((r) => (r.lastRunId === null ? [] : [r.lastRunId])));
    const byId = new Map(runs.map((run) => [run.id, runSummary(run)]));
    return rows.map(({ lastRunId, ...row }) => ({ ...row, lastSync: (lastRunId !== null && byId.get(lastRunId)) || null }));
  }

  /** A source of the caller's enterprise; another enterprise's answers 404. */
  private async sourceOf(caller: Caller, id: number): Promise<StoredSource> {
    const found = await this.sources.detail(callerEnterprise(caller), id);
    if (!found) throw new NotFoundError(AuthSourceMessage.notFound);
    return found;
  }

  /** The body checked and normalised for a write; `current` when editing (its secret may be kept). */
  private writeOf(body: Body, current?: StoredSource): AuthSourceWrite {
    if (current && current.type !== body.type) throw new BadRequestError(AuthSourceMessage.typeLocked);
    const name = body.name.trim();
    const secret = body.secret ?? '';
    const settings = settingsOf(body);
    // A SAML source keeps no secret: the IdP's certificates are public and our key is the portal's.
    const secretProblem = settings.type === 'saml' ? undefined : AuthSourceRules.secret(secret, current?.hasSecret ?? false);
    const problem = AuthSourceRules.name(name) ?? AuthSourceRules.config(settings) ?? secretProblem;
    if (problem) throw new BadRequestError(problem);
    if (settings.type === 'saml' && !readableCertificates(settings.config.certificates)) {
      throw new BadRequestError(AuthSourceMessage.samlCertificateInvalid);
    }
    const address = settings.type === 'ldap' ? parseLdapUrl(settings.config.url) : issuerAddress(settings);
    // A literal address the portal would never connect to is refused now; a name is checked where it resolves, at connect time.
    const refusal = address && this.app.outbound.literalRefusal(address.host, address.port);
    if (refusal) throw new BadRequestError(settings.type === 'oidc' ? `发现地址：${refusal}` : AuthSourceMessage.urlRefused(refusal));
    if (current?.hasSecret && !secret && !keepsAddress(current, settings)) throw new BadRequestError(AuthSourceMessage.secretRetype);
    return { ...settings, name, enabled: body.enabled, secret: settings.type === 'saml' ? '' : secret };
  }

  /** The caller's enterprise's sources. */
  async list(caller: Caller): Promise<AuthSourceSummary[]> {
    return this.withLastSync(await this.sources.list(callerEnterprise(caller)));
  }

  /** Any enterprise's sources (an operator's view in 租户管理); an unknown enterprise answers 404. */
  async listOfEnterprise(enterpriseId: number): Promise<AuthSourceSummary[]> {
    // Asked of identity's own repository: the tenants module sits above identity.
    if (!(await this.sources.enterpriseExists(enterpriseId))) throw new NotFoundError('企业不存在');
    return this.withLastSync(await this.sources.list(enterpriseId));
  }

  /** 租户管理's view (operators): any enterprise's sources, each with when the accounts it links last signed in. */
  async activityOfEnterprise(enterpriseId: number): Promise<TenantSourceActivity[]> {
    const sources = await this.listOfEnterprise(enterpriseId);
    const signIns = await this.sources.lastSignIns(enterpriseId);
    const reviews = await this.app.federationService.repository.domainsOf(sources.map((s) => s.id));
    return sources.map((source) => {
      const at = signIns.get(source.id);
      const domainReviews = reviews.filter((r) => r.sourceId === source.id).map(({ domain, status }) => ({ domain, status }));
      return { ...source, lastSignInAt: at ? chinaTime(new Date(at)) : '', domainReviews };
    });
  }

  /** A source without its secret, with the address a chat platform sends the person back to after the QR scan. */
  async detail(caller: Caller, id: number): Promise<AuthSourceDetail> {
    const source = await this.sourceOf(caller, id);
    // The configured address first, never a parameter.
    const base = this.app.config.publicUrl ?? caller.origin;
    const callbackUrl =
      source.type === 'ldap'
        ? null
        : isFederatedSourceType(source.type)
          ? `${base}/cas/login/federation/${source.id}/callback`
          : `${base}/cas/login/${source.type}/callback`;
    // SAML: what the enterprise registers at its IdP (the ACS is the federated sign-in's callback).
    const serviceProvider = source.type === 'saml' ? { serviceProvider: samlSpEndpoints(base, source.id) } : {};
    // The form shows each claimed domain's review (待审核 / 已批准 / 已驳回): only approved ones route sign-ins.
    const domainReviews = isFederatedSourceType(source.type)
      ? {
          domainReviews: (await this.app.federationService.repository.domainsOf([source.id])).map(({ domain, status }) => ({
            domain,
            status,
          })),
        }
      : {};
    return { ...source, callbackUrl, ...serviceProvider, ...domainReviews } as AuthSourceDetail;
  }

  /** 新建 (企业微信, 钉钉 and 飞书 at most one each); answers the new source's id. */
  async create(caller: Caller, body: Body): Promise<number> {
    const enterpriseId = callerEnterprise(caller);
    const sources = this.sources;
    const input = this.writeOf(body);
    if (await sources.nameTaken(enterpriseId, input.name)) throw new ConflictError(AuthSourceMessage.nameTaken);
    return writing(() =>
      inEnterpriseTransaction(this.app.database.db, enterpriseId, async (trx) => {
        if (isChatSourceType(input.type) && (await sources.chatTypeTaken(trx, enterpriseId, input.type))) {
          throw new ConflictError(AuthSourceMessage.chatTypeTaken);
        }
        const created = await sources.create(trx, enterpriseId, input);
        await writeFederation(this.app, trx, enterpriseId, created, input);
        await auditBy(trx, caller, 'auth-source.create', input.name, 'success', auditDetail(input, input.enabled, false));
        return created;
      }),
    );
  }

  /** 修改 (the type never changes; an empty secret keeps the stored one). */
  async update(caller: Caller, id: number, body: Body): Promise<void> {
    const enterpriseId = callerEnterprise(caller);
    const current = await this.sourceOf(caller, id);
    const input = this.writeOf(body, current);
    if (await this.sources.nameTaken(enterpriseId, input.name, current.id)) throw new ConflictError(AuthSourceMessage.nameTaken);
    await writing(() =>
      inEnterpriseTransaction(this.app.database.db, enterpriseId, async (trx) => {
        await this.sources.update(trx, enterpriseId, current.id, input);
        await writeFederation(this.app, trx, enterpriseId, current.id, input);
        // Another provider's subjects are not the old one's: its links (and sign-ins under way) end with the change.
        let unlinked = 0;
        if (providerChanged(current, input)) {
          unlinked = await this.sources.unlinkAll(trx, current.id);
          await this.app.federationService.repository.dropSignIns(trx, current.id);
        }
        const renamed = input.name === current.name ? current.name : `${current.name} → ${input.name}`;
        const detail = auditDetail(input, input.enabled, input.secret !== '');
        await auditBy(
          trx,
          caller,
          'auth-source.update',
          renamed,
          'success',
          unlinked ? `${detail}；身份提供方已更换，解除 ${unlinked} 个账号的关联` : detail,
        );
      }),
    );
  }

  /** 删除: refused while accounts are linked to the source or a sync job reads it. */
  async remove(caller: Caller, id: number): Promise<void> {
    const enterpriseId = callerEnterprise(caller);
    const current = await this.sourceOf(caller, id);
    await inEnterpriseTransaction(this.app.database.db, enterpriseId, async (trx) => {
      const usage = await this.sources.usage(trx, current.id);
      if (usage.linkedAccounts > 0) throw new ConflictError(AuthSourceMessage.inUse);
      if (usage.jobs > 0) throw new ConflictError(AuthSourceMessage.hasJobs);
      await this.sources.delete(trx, enterpriseId, current.id);
      await auditBy(trx, caller, 'auth-source.delete', current.name, 'success', AUTH_SOURCE_TYPE_LABELS[current.type]);
    });
  }

  /**
   * 测试连接's sign-in of a saved federated source: the popup's address, a signed link valid for two
   * minutes that starts a sign-in at the provider and shows what came back (no one is signed in).
   */
  async signInTest(caller: Caller, id: number): Promise<{ url: string }> {
    const source = await this.sourceOf(caller, id);
    if (!isFederatedSourceType(source.type)) throw new BadRequestError('该类型的认证源不支持测试登录');
    const base = this.app.config.publicUrl ?? caller.origin;
    const token = this.app.federationTestLinkService.issue(source.id);
    return { url: `${base}/cas/login/federation/${source.id}?test=${encodeURIComponent(token)}` };
  }

  /**
   * What 测试连接 would connect to: the form's settings with, when no secret is typed, the one saved
   * with `body.id`. Refuses settings that are incomplete before anything is contacted.
   */
  async testTarget(caller: Caller, body: TestBody): Promise<LoadedSource> {
    const enterpriseId = callerEnterprise(caller);
    const settings = settingsOf(body);
    const stored = body.id === undefined ? undefined : await this.sources.load(enterpriseId, body.id);
    if (body.id !== undefined && !stored) throw new NotFoundError(AuthSourceMessage.notFound);
    const typed = body.secret ?? '';
    // The stored secret stands in for an untyped one only for the same type and, for LDAP, the same address.
    const usable = stored !== undefined && stored.type === settings.type && stored.secret !== '';
    const problem = AuthSourceRules.config(settings) ?? (settings.type === 'saml' ? undefined : AuthSourceRules.secret(typed, usable));
    if (problem) throw new BadRequestError(problem);
    if (!typed && stored && !keepsAddress(stored, settings)) throw new BadRequestError(AuthSourceMessage.secretRetype);
    return {
      ...settings,
      id: stored?.id ?? 0,
      enterpriseId,
      name: stored?.name ?? '',
      enabled: true,
      secret: typed || (stored?.secret ?? ''),
    };
  }

  /**
   * 读取元数据: an IdP's metadata by its address (through the outbound rules, with a timeout and a size
   * limit) or as pasted / uploaded, read into the fields a SAML source keeps.
   */
  async readSamlMetadata(body: SamlMetadataRead): Promise<SamlIdpMetadata> {
    const url = text(body.url);
    const xml = body.xml ?? '';
    if (!url && !xml.trim()) throw new BadRequestError(AuthSourceMessage.samlMetadataMissing);
    let document = xml;
    if (url) {
      const problem = AuthSourceRules.samlUrl(url, true);
      if (problem) throw new BadRequestError(problem);
      try {
        document = await fetchIdpMetadata(this.app.outbound, url);
      } catch (err) {
        if (err instanceof SamlSpRefusal) throw new BadRequestError(AuthSourceMessage.samlMetadataUnreachable(err.reason));
        throw err;
      }
    }
    try {
      return readIdpMetadata(document);
    } catch (err) {
      if (err instanceof SamlSpRefusal) throw new BadRequestError(AuthSourceMessage.samlMetadataInvalid(err.reason));
      throw err;
    }
  }

  /** 测试连接: each step with what went wrong, in Chinese. */
  async test(source: LoadedSource, log: FastifyBaseLogger): Promise<AuthSourceTestResult> {
    if (source.type === 'oidc' || source.type === 'saml') {
      // Discovery, metadata and keys here; the sign-in itself runs in the administrator's popup (signInTest).
      const steps = await this.app.federationService.test(source);
      return { ok: steps.every((step) => step.ok), steps, sample: [] };
    }
    try {
      return await openDirectory(this.app, source, log).test();
    } catch (err) {
      // A source that cannot even be opened still answers as a failed test, saying why.
      if (!(err instanceof DirectoryError)) throw err;
      return { ok: false, steps: [{ name: '连接', ok: false, detail: err.message }], sample: [] };
    }
  }
}

export default fp(
  async (app) => {
    app.decorate('authSourceService', new AuthSourceService(app));
  },
  { name: 'auth-source-service', dependencies: ['auth-source-repository', 'sync-runner'] },
);

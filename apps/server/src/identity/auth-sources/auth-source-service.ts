import {
  AUTH_SOURCE_TYPE_LABELS,
  type AuthSourceConfig,
  certificateBase64,
  samlSpEndpoints,
  type AuthSourceDetail,
  type AuthSourceInput,
  AuthSourceMessage,
  AuthSourceRules,
  type AuthSourceSummary,
  type AuthSourceTestInput,
  type AuthSourceTestResult,
  isChatSourceType,
  parseLdapUrl,
  SAML_DEFAULTS,
  type SamlIdpMetadata,
  type SamlMetadataRead,
} from '@portal/shared';
import { X509Certificate } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { auditBy } from '../../platform/audit/audit-log.js';
import { inEnterpriseTransaction } from '../../platform/db/transaction.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/lib/errors.js';
import { callerEnterprise } from '../../platform/lib/tenant-scope.js';
import type { Caller } from '../portal-auth/auth.js';
import { type AuthSourceWrite, type SourceListRow, type StoredSource, endpointOf } from './auth-source-repository.js';
import { DirectoryError, type LoadedSource } from './directory.js';
import { openDirectory } from './open-directory.js';
import { certificatePem, fetchIdpMetadata, readableCertificates, readIdpMetadata, SamlSpRefusal } from './saml/saml-sp.js';
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
          jit: c.jit ?? false,
          defaultGroupIds: [...new Set(c.defaultGroupIds ?? [])],
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
  if (stored.type !== 'ldap' || settings.type !== 'ldap') return true;
  // StartTLS turned off would send it in clear text to the same host: that needs it typed again too.
  return stored.config.url === settings.config.url && (settings.config.startTls || !stored.config.startTls);
}

/** The audit row's detail: what the source is and whether it is on; a changed secret is said, never shown. */
const auditDetail = (settings: AuthSourceConfig, enabled: boolean, secretChanged: boolean) =>
  [AUTH_SOURCE_TYPE_LABELS[settings.type], endpointOf(settings), enabled ? '启用' : '停用', ...(secretChanged ? ['密钥已更换'] : [])].join(
    '；',
  );

/** A unique name is checked first for its message; the constraint catches a concurrent twin. */
async function writing<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
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
    if (
      settings.type === 'saml' &&
      settings.config.jit &&
      !settings.config.mapping.username &&
      settings.config.nameIdFormat === 'persistent'
    ) {
      // A persistent NameID is an opaque string, never a username.
      throw new BadRequestError(AuthSourceMessage.samlJitNeedsUsername);
    }
    const address = settings.type === 'ldap' ? parseLdapUrl(settings.config.url) : undefined;
    // A literal address the portal would never connect to is refused now; a name is checked where it resolves, at connect time.
    const refusal = address && this.app.outbound.literalRefusal(address.host, address.port);
    if (refusal) throw new BadRequestError(AuthSourceMessage.urlRefused(refusal));
    if (current?.hasSecret && !secret && !keepsAddress(current, settings)) throw new BadRequestError(AuthSourceMessage.secretRetype);
    return { ...settings, name, enabled: body.enabled, secret: settings.type === 'saml' ? '' : secret };
  }

  /** A SAML source's default groups must be 账号组 of the caller's enterprise. */
  private async checkGroups(enterpriseId: number, input: AuthSourceWrite): Promise<void> {
    if (input.type !== 'saml' || input.config.defaultGroupIds.length === 0) return;
    const found = await this.sources.groupsOfEnterprise(enterpriseId, input.config.defaultGroupIds);
    if (found.length !== input.config.defaultGroupIds.length) throw new BadRequestError(AuthSourceMessage.samlGroupUnknown);
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

  /** A source without its secret, with the address a chat platform sends the person back to after the QR scan. */
  async detail(caller: Caller, id: number): Promise<AuthSourceDetail> {
    const source = await this.sourceOf(caller, id);
    // The configured address first, never a parameter.
    const portalBase = this.app.config.publicUrl ?? caller.origin;
    const callbackUrl = isChatSourceType(source.type) ? `${portalBase}/cas/login/${source.type}/callback` : null;
    const serviceProvider = source.type === 'saml' ? samlSpEndpoints(portalBase, source.id) : null;
    return { ...source, callbackUrl, serviceProvider } as AuthSourceDetail;
  }

  /** 新建 (企业微信, 钉钉 and 飞书 at most one each); answers the new source's id. */
  async create(caller: Caller, body: Body): Promise<number> {
    const enterpriseId = callerEnterprise(caller);
    const sources = this.sources;
    const input = this.writeOf(body);
    if (await sources.nameTaken(enterpriseId, input.name)) throw new ConflictError(AuthSourceMessage.nameTaken);
    await this.checkGroups(enterpriseId, input);
    return writing(() =>
      inEnterpriseTransaction(this.app.database.db, enterpriseId, async (trx) => {
        if (isChatSourceType(input.type) && (await sources.chatTypeTaken(trx, enterpriseId, input.type))) {
          throw new ConflictError(AuthSourceMessage.chatTypeTaken);
        }
        const created = await sources.create(trx, enterpriseId, input);
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
    await this.checkGroups(enterpriseId, input);
    await writing(() =>
      inEnterpriseTransaction(this.app.database.db, enterpriseId, async (trx) => {
        await this.sources.update(trx, enterpriseId, current.id, input);
        const renamed = input.name === current.name ? current.name : `${current.name} → ${input.name}`;
        await auditBy(trx, caller, 'auth-source.update', renamed, 'success', auditDetail(input, input.enabled, input.secret !== ''));
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

  /** The popup address of 测试连接's sign-in for a saved SAML source of the caller's enterprise. */
  async samlTestUrl(caller: Caller, id: number): Promise<string> {
    const source = await this.sources.load(callerEnterprise(caller), id);
    if (!source) throw new NotFoundError(AuthSourceMessage.notFound);
    if (source.type !== 'saml') throw new BadRequestError(AuthSourceMessage.samlOnly);
    return this.app.samlSourceLoginService.testUrl(source, this.app.config.publicUrl ?? caller.origin);
  }

  /** 测试连接 of a SAML source: its metadata fetched again and compared, then what the sign-in in the popup needs. */
  private async testSaml(source: LoadedSource & { type: 'saml' }): Promise<AuthSourceTestResult> {
    const steps: AuthSourceTestResult['steps'] = [];
    const fail = (name: string, detail: string) => ({ ok: false, steps: [...steps, { name, ok: false, detail }], sample: [] });
    const c = source.config;
    if (c.metadataUrl) {
      let document: string;
      try {
        document = await fetchIdpMetadata(this.app.outbound, c.metadataUrl);
      } catch (err) {
        if (!(err instanceof SamlSpRefusal)) throw err;
        return fail('获取元数据', err.reason);
      }
      steps.push({ name: '获取元数据', ok: true, detail: c.metadataUrl });
      let meta: SamlIdpMetadata;
      try {
        meta = readIdpMetadata(document);
      } catch (err) {
        if (!(err instanceof SamlSpRefusal)) throw err;
        return fail('解析元数据', err.reason);
      }
      steps.push({ name: '解析元数据', ok: true, detail: `实体 ID ${meta.idpEntityId}` });
      if (meta.idpEntityId !== c.idpEntityId)
        return fail('核对设置', `元数据中的实体 ID 为 ${meta.idpEntityId}，与设置不符，请重新读取元数据`);
      const known = new Set(c.certificates.map(certificateBase64));
      if (!meta.certificates.some((cert) => known.has(certificateBase64(cert)))) {
        return fail('核对设置', 'IdP 的签名证书已更换，请重新读取元数据后保存');
      }
      steps.push({ name: '核对设置', ok: true, detail: '实体 ID 与签名证书与元数据一致' });
    } else {
      steps.push({ name: '元数据', ok: true, detail: '使用粘贴或上传的元数据（未设置元数据地址）' });
    }
    const certificates = c.certificates.map((pem) => new X509Certificate(certificatePem(pem)));
    const expired = certificates.filter((cert) => Date.parse(cert.validTo) < Date.now());
    steps.push({
      name: '签名证书',
      ok: true,
      detail: `${certificates.length} 个${expired.length ? `（${expired.length} 个已过期：SAML 只校验密钥，不影响登录）` : ''}`,
    });
    steps.push({ name: '单点登录地址', ok: true, detail: `${c.ssoUrl}（${c.ssoBinding === 'post' ? 'HTTP-POST' : 'HTTP-Redirect'}）` });
    steps.push({ name: '单点登出', ok: true, detail: c.sloUrl || '未提供：退出时只结束本平台的会话' });
    return { ok: true, steps, sample: [] };
  }

  /** 测试连接: each step with what went wrong, in Chinese. */
  async test(source: LoadedSource, log: FastifyBaseLogger): Promise<AuthSourceTestResult> {
    if (source.type === 'saml') return this.testSaml(source);
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

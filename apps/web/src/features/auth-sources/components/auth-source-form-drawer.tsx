import {
  AUTH_SOURCE_NAME_MAX,
  AUTH_SOURCE_TYPE_LABELS,
  type AuthSourceDetail,
  AuthSourceRules,
  type AuthSourceTestResult,
  type AuthSourceType,
  isChatSourceType,
  isLdapsUrl,
} from '@portal/shared';
import { Alert, Button, Drawer, Form, Input, Skeleton, Switch } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { tenantRule } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { useAuthSource, useCreateAuthSource, useTestAuthSource, useUpdateAuthSource } from '../api/auth-sources';
import {
  type AuthSourceFieldName,
  type AuthSourceFormValues,
  authSourceInput,
  authSourceTestInput,
  editAuthSourceForm,
  fieldOfMessage,
  newAuthSourceForm,
} from '../lib/auth-source-form';
import { TEST_STEPS } from '../lib/platforms';
import { ChatFields } from './chat-fields';
import { DomainReviews } from './domain-reviews';
import { LdapFields } from './ldap-fields';
import { OidcFields } from './oidc-fields';
import { SamlFields } from './saml-fields';
import { SourceTypeTag } from './source-type';
import { TestResultPanel } from './test-result-panel';

/** What the drawer is open for: a new source of a type, or the stored source to edit. */
export type AuthSourceFormTarget = { type: AuthSourceType } | { id: number };

/** The fields 测试连接 needs (every one but the name and the state). */
function connectionFields(type: AuthSourceType): AuthSourceFieldName[] {
  switch (type) {
    case 'ldap':
      return [
        ...(['url', 'startTls', 'bindDn', 'baseDn', 'userFilter', 'adDomain', 'groupBaseDn', 'groupFilter'] as const).map(
          (f): AuthSourceFieldName => ['ldap', f],
        ),
        ...(['username', 'name', 'phone', 'email'] as const).map((f): AuthSourceFieldName => ['ldap', 'mapping', f]),
        'secret',
      ];
    case 'wecom':
      return [['wecom', 'corpId'], ['wecom', 'agentId'], 'secret'];
    case 'dingtalk':
      return [['dingtalk', 'appKey'], ['dingtalk', 'corpId'], 'secret'];
    case 'feishu':
      return [['feishu', 'appId'], 'secret'];
    case 'oidc':
      return [['oidc', 'issuer'], ['oidc', 'clientId'], ['oidc', 'scopes'], 'secret'];
    case 'saml':
      return [
        ['saml', 'metadataUrl'],
        ['saml', 'idpEntityId'],
        ['saml', 'ssoUrl'],
        ['saml', 'sloUrl'],
        ['saml', 'certificates'],
      ];
  }
}

const messageOf = (err: unknown, fallback: string) => (err instanceof Error && err.message ? err.message : fallback);

/**
 * 新增 / 编辑 a source (认证源): its name and state, then the settings of its type; 测试连接
 * tries the unsaved values (the typed secret, or the stored one while none is typed) and shows each
 * step. The settings are checked before sending; the server's refusal shows under the field it names.
 * The secret is never read back: the mutations that carried one are forgotten when the drawer closes.
 */
export function AuthSourceFormDrawer({
  target,
  onClose,
  onCreated,
}: {
  target: AuthSourceFormTarget | null;
  onClose(): void;
  /** A new source is stored: the page may keep it open for editing (a chat platform's callback address). */
  onCreated(id: number, type: AuthSourceType): void;
}) {
  const [form] = Form.useForm<AuthSourceFormValues>();
  // While the drawer slides out (target already null) it keeps showing what it was open for.
  const [shown, setShown] = useState(target);
  if (target !== null && target !== shown) setShown(target);
  const current = target ?? shown;
  const editingId = current && 'id' in current ? current.id : undefined;
  const detail = useAuthSource(editingId);
  const create = useCreateAuthSource();
  const update = useUpdateAuthSource();
  const test = useTestAuthSource();
  const [saving, setSaving] = useState(false);
  const [tested, setTested] = useState<AuthSourceTestResult | null>(null);
  const [testError, setTestError] = useState<string | null>(null);
  const resultRef = useRef<HTMLDivElement>(null);
  // Bumped when the drawer closes: a test still running then must not show its answer in the next form.
  const session = useRef(0);

  const source: AuthSourceDetail | undefined = editingId !== undefined ? detail.data : undefined;
  const type = current ? ('type' in current ? current.type : source?.type) : undefined;
  const ready = type !== undefined && (editingId === undefined || source !== undefined);
  const failed = detail.isError && editingId !== undefined;
  const formShown = ready && !failed;

  // Nothing of what was typed or tested outlives the form: the mutations (their variables hold the
  // typed secret) leave the cache when it closes, not when the closing animation ends, which waits for
  // animation frames (none come while the tab is in the background).
  const forget = () => {
    session.current += 1;
    create.reset();
    update.reset();
    test.reset();
    setTested(null);
    setTestError(null);
  };
  const close = () => {
    forget();
    // The form is destroyed with the drawer, after the animation: its secret goes at once.
    if (formShown) form.setFieldValue('secret', '');
    onClose();
  };

  // A new result is brought into view below the long form once it is rendered (a frame scheduled
  // before React's commit would scroll to the hint it replaces).
  useEffect(() => {
    if (tested || testError) resultRef.current?.scrollIntoView?.({ behavior: 'smooth', block: 'nearest' });
  }, [tested, testError]);

  const showRefusal = (err: unknown, fallback: string) => {
    const message = messageOf(err, fallback);
    const field = type && fieldOfMessage(type, message);
    if (field) form.setFields([{ name: field, errors: [message] }]);
    else notify.error(message);
  };

  const runTest = async () => {
    if (!type) return;
    try {
      await form.validateFields(connectionFields(type));
    } catch {
      return;
    }
    setTestError(null);
    const asked = session.current;
    try {
      const result = await test.mutateAsync(authSourceTestInput(type, form.getFieldsValue(true) as AuthSourceFormValues, editingId));
      if (asked === session.current) setTested(result);
    } catch (err) {
      if (asked !== session.current) return;
      setTested(null);
      const message = messageOf(err, '测试失败');
      const field = fieldOfMessage(type, message);
      if (field) form.setFields([{ name: field, errors: [message] }]);
      else setTestError(message);
    }
  };

  const submit = async () => {
    if (!type) return;
    let values: AuthSourceFormValues;
    try {
      await form.validateFields();
      values = form.getFieldsValue(true) as AuthSourceFormValues;
    } catch {
      return;
    }
    setSaving(true);
    try {
      const body = authSourceInput(type, values);
      if (editingId !== undefined) {
        notify.success(await update.mutateAsync({ id: editingId, body }));
        close();
      } else {
        const created = await create.mutateAsync(body);
        notify.success(created.msg);
        forget();
        if (created.id !== undefined) onCreated(created.id, type);
        else onClose();
      }
    } catch (err) {
      showRefusal(err, '保存失败');
    } finally {
      setSaving(false);
    }
  };

  const title =
    editingId !== undefined ? `编辑认证源${source ? ` ${source.name}` : ''}` : `新增认证源（${type ? AUTH_SOURCE_TYPE_LABELS[type] : ''}）`;

  return (
    <Drawer
      title={title}
      open={target !== null}
      size="min(720px, 100vw)"
      onClose={close}
      destroyOnHidden
      mask={{ closable: false }}
      footer={
        <div className="auth-sources__drawer-footer">
          <Button onClick={close}>取消</Button>
          <Button disabled={!ready} loading={test.isPending} onClick={() => void runTest()}>
            测试连接
          </Button>
          <Button type="primary" disabled={!ready} loading={saving} onClick={() => void submit()}>
            保存
          </Button>
        </div>
      }
    >
      {failed ? (
        <Alert type="error" showIcon title={messageOf(detail.error, '认证源读取失败')} />
      ) : !ready ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <Form<AuthSourceFormValues>
          key={editingId ?? `new-${type}`}
          form={form}
          layout="vertical"
          clearOnDestroy
          autoComplete="off"
          initialValues={source ? editAuthSourceForm(source) : newAuthSourceForm(type)}
          onValuesChange={(changed: Partial<AuthSourceFormValues>) => {
            // ldaps:// is TLS from the first byte: StartTLS goes off with it (RFC 4511 §4.14 is for ldap://).
            const url = changed.ldap?.url;
            if (typeof url === 'string' && isLdapsUrl(url)) form.setFieldValue(['ldap', 'startTls'], false);
          }}
        >
          <div className="auth-sources__form-head">
            <SourceTypeTag type={type} />
          </div>
          <div className="auth-sources__name-row">
            <Form.Item name="name" label="名称" required rules={[tenantRule(AuthSourceRules.name)]} className="auth-sources__name">
              <Input
                maxLength={AUTH_SOURCE_NAME_MAX}
                placeholder={
                  type === 'ldap' ? '如：集团 AD、研发 OpenLDAP' : type === 'oidc' ? '如：集团统一身份（登录页按钮上显示）' : undefined
                }
              />
            </Form.Item>
            <Form.Item name="enabled" label="启用" valuePropName="checked">
              <Switch />
            </Form.Item>
          </div>
          {type === 'ldap' ? (
            <LdapFields form={form} storedSecret={source?.hasSecret ?? false} />
          ) : type === 'oidc' ? (
            <OidcFields
              storedSecret={source?.hasSecret ?? false}
              callbackUrl={source?.callbackUrl ?? null}
              {...(editingId !== undefined ? { sourceId: editingId } : {})}
            />
          ) : type === 'saml' ? (
            <SamlFields form={form} sourceId={editingId} serviceProvider={source?.serviceProvider ?? null} />
          ) : (
            isChatSourceType(type) && (
              <ChatFields type={type} storedSecret={source?.hasSecret ?? false} callbackUrl={source?.callbackUrl ?? null} />
            )
          )}
          {(type === 'oidc' || type === 'saml') && source && 'domainReviews' in source && <DomainReviews reviews={source.domainReviews} />}
          <div ref={resultRef}>
            {!tested && !testError && (
              <p className="auth-sources__meta auth-sources__test-hint">
                测试连接使用当前填写的内容（未保存也可），
                {TEST_STEPS[type === 'ldap' || type === 'saml' || type === 'oidc' ? type : 'chat']}
              </p>
            )}
            {testError && <Alert type="error" showIcon title={testError} className="auth-sources__test-error" />}
            {tested && <TestResultPanel result={tested} />}
          </div>
        </Form>
      )}
    </Drawer>
  );
}

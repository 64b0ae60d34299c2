import { ExperimentOutlined } from '@ant-design/icons';
import { Alert, Button, Typography } from 'antd';
import { useSelfTest, useSelfTestPrecheck } from '@/api/sso-self-test';
import { SelfTestChecklist } from './self-test-checklist';
import './self-test.css';

/**
 * 接入自检 of one application for one of its service addresses: what the check does, a notice before
 * the run when it will skip 测试账号登录 (the administrator is not admitted by 应用授权, or the CAS is
 * external), the button, and the checklist or the refusal. Mount it with `key={service}` so a new
 * address starts without the previous result.
 */
export function SelfTestRunner({ appId, service }: { appId: number; service: string }) {
  const precheck = useSelfTestPrecheck(appId);
  const selfTest = useSelfTest();
  const skipped = precheck.data?.signInSkipped;

  return (
    <div className="self-test-run">
      <p className="self-test-run__note">
        平台以您（当前管理员）的统一登录会话为测试账号：检查服务地址是否已登记并可访问、注销地址能否响应，再为该地址签发真实票据，到
        /p3/serviceValidate 校验并核对返回属性。应用返回的内容不会回显。
      </p>
      {skipped && <Alert className="self-test-run__notice" type="warning" showIcon title="本次自检将跳过测试登录" description={skipped} />}
      <div className="self-test-run__bar">
        <Button
          type="primary"
          icon={<ExperimentOutlined />}
          loading={selfTest.isPending}
          disabled={!service}
          onClick={() => selfTest.mutate({ id: appId, body: { service } })}
        >
          {selfTest.isPending ? '正在自检…' : '接入自检'}
        </Button>
        <Typography.Text type="secondary" className="self-test-run__target">
          {service}
        </Typography.Text>
      </div>
      {selfTest.isError && (
        <Alert className="self-test-run__error" type="error" showIcon title="接入自检未能运行" description={selfTest.error.message} />
      )}
      {selfTest.data && <SelfTestChecklist result={selfTest.data} />}
    </div>
  );
}

import { TenantRules } from '@portal/shared';
import { Alert, Button, Form, Input, Modal, Typography } from 'antd';
import { useSession } from '@/hooks/use-session';
import { useSendInvitation } from '../api/invitations';
import { tenantRule } from '@/lib/form-rules';
import { showRefusal } from '../lib/form-refusal';

interface InviteValues {
  phone: string;
}

/**
 * 邀请成员: an SMS with a one-time code to a phone. The invitee registers on the portal with this
 * enterprise's name, that phone and the code as the 验证码, and so joins the enterprise.
 */
export function InviteDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const [form] = Form.useForm<InviteValues>();
  const invite = useSendInvitation();
  const enterpriseName = useSession()?.enterpriseName ?? '';
  const sentTo = invite.isSuccess ? invite.variables : undefined;

  const submit = async () => {
    let values: InviteValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    try {
      await invite.mutateAsync(values.phone.trim());
    } catch (err) {
      showRefusal(form, ['phone'], err);
    }
  };

  const again = () => {
    invite.reset();
    form.resetFields();
  };

  return (
    <Modal
      title="邀请成员"
      open={open}
      onCancel={onClose}
      destroyOnHidden
      afterOpenChange={(visible) => {
        if (!visible) invite.reset();
      }}
      width={{ xs: '100%', sm: 520 }}
      footer={
        sentTo
          ? [
              <Button key="again" onClick={again}>
                继续邀请
              </Button>,
              <Button key="done" type="primary" onClick={onClose}>
                完成
              </Button>,
            ]
          : [
              <Button key="cancel" onClick={onClose}>
                取消
              </Button>,
              <Button key="send" type="primary" loading={invite.isPending} onClick={() => void submit()}>
                发送邀请
              </Button>,
            ]
      }
    >
      {sentTo ? (
        <Alert
          type="success"
          showIcon
          title={`邀请短信已发送至 ${sentTo}`}
          description={
            <>
              请对方在门户首页点击“注册”，企业名称填写“{enterpriseName}”，手机号填写 {sentTo}
              ，验证码填写短信中的邀请码，注册后即加入本企业。邀请码 7 天内有效，只能使用一次。
            </>
          }
        />
      ) : (
        <Form<InviteValues> form={form} layout="vertical" clearOnDestroy autoComplete="off" initialValues={{ phone: '' }}>
          <Typography.Paragraph type="secondary">
            向对方手机发送一次性邀请码。对方注册时填写本企业名称，并以邀请码作为短信验证码，即可加入本企业。
          </Typography.Paragraph>
          <Form.Item name="phone" label="手机号" required rules={[tenantRule(TenantRules.phone)]}>
            <Input inputMode="tel" maxLength={11} onPressEnter={() => void submit()} />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}

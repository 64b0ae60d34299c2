import { Form, Input, Modal } from 'antd';
import { useSession } from '@/hooks/use-session';

/** Spec section 2: personal information, read-only 账号, 姓名, 电话. */
export function PersonalInfoDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const session = useSession();
  return (
    <Modal title="个人信息" open={open} onCancel={onClose} onOk={onClose} okText="确定" cancelButtonProps={{ style: { display: 'none' } }}>
      <Form layout="vertical" className="personal-info">
        <Form.Item label="账号" htmlFor="personal-info-account">
          <Input id="personal-info-account" value={session?.loginName ?? ''} readOnly />
        </Form.Item>
        <Form.Item label="姓名" htmlFor="personal-info-name">
          <Input id="personal-info-name" value={session?.name ?? ''} readOnly />
        </Form.Item>
        <Form.Item label="电话" htmlFor="personal-info-phone">
          <Input id="personal-info-phone" value={session?.phone ?? ''} readOnly />
        </Form.Item>
      </Form>
    </Modal>
  );
}

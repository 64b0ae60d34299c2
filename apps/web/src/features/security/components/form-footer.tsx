import { Button } from 'antd';

/** The foot of a 安全设置 form: 还原 puts back what was loaded, 保存 submits. */
export function FormFooter({ onReset, saving }: { onReset: () => void; saving: boolean }) {
  return (
    <div className="security-setting__footer">
      <Button onClick={onReset}>还原</Button>
      <Button type="primary" htmlType="submit" loading={saving}>
        保存
      </Button>
    </div>
  );
}

import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Form, Space } from 'antd';

/** The end of a console filter form: 查询 submits it, 重置 clears it. */
export function FilterButtons({ onReset }: { onReset: () => void }) {
  return (
    <Form.Item>
      <Space>
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
          查询
        </Button>
        <Button onClick={onReset} icon={<ReloadOutlined />}>
          重置
        </Button>
      </Space>
    </Form.Item>
  );
}

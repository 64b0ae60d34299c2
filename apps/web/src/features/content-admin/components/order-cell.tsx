import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { Button } from 'antd';

/** A row's place in a reorderable table: its number and 上移 / 下移 buttons (delta −1 or +1). */
export function OrderCell({
  index,
  count,
  disabled,
  onMove,
}: {
  index: number;
  count: number;
  disabled: boolean;
  onMove: (delta: -1 | 1) => void;
}) {
  return (
    <span className="content-admin__order">
      <span className="content-admin__order-index">{index + 1}</span>
      <Button
        type="text"
        size="small"
        aria-label="上移"
        icon={<ArrowUpOutlined />}
        disabled={disabled || index === 0}
        onClick={() => onMove(-1)}
      />
      <Button
        type="text"
        size="small"
        aria-label="下移"
        icon={<ArrowDownOutlined />}
        disabled={disabled || index === count - 1}
        onClick={() => onMove(1)}
      />
    </span>
  );
}

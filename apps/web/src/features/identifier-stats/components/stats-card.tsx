import { DownloadOutlined } from '@ant-design/icons';
import { Button, Card, Empty } from 'antd';
import type { ReactNode } from 'react';

/**
 * A panel of 标识统计: a named region (readers and tests find it by its title) whose header carries a
 * note and, for a table the server exports, its 导出 CSV button.
 */
export function StatsCard({
  title,
  note,
  onExport,
  exporting = false,
  exportable = true,
  children,
}: {
  title: string;
  note?: ReactNode;
  onExport?: () => void;
  exporting?: boolean;
  /** False while there is nothing to export (no answer yet, or an empty table). */
  exportable?: boolean;
  children: ReactNode;
}) {
  const extra = (note || onExport) && (
    <div className="identifier-stats__card-extra">
      {note && <span className="identifier-stats__note">{note}</span>}
      {onExport && (
        <Button size="small" icon={<DownloadOutlined />} loading={exporting} disabled={!exportable} onClick={onExport}>
          导出 CSV
        </Button>
      )}
    </div>
  );
  return (
    <Card title={title} extra={extra} size="small" role="region" aria-label={title} className="identifier-stats__card">
      {children}
    </Card>
  );
}

/** An empty panel: what is missing, and what would fill it. */
export function StatsEmpty({ title, hint }: { title: string; hint?: ReactNode }) {
  return (
    <Empty
      className="identifier-stats__empty"
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={
        <>
          <span className="identifier-stats__empty-title">{title}</span>
          {hint && <span className="identifier-stats__empty-hint">{hint}</span>}
        </>
      }
    />
  );
}

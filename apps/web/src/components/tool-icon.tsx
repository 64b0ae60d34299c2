import type { OpenServiceIcon } from '@portal/shared';
import sprite from '@/assets/site-icons.svg?no-inline';
import './tool-icon.css';

/**
 * The icon of an open-service tool (`OPEN_SERVICE_ICONS`): a symbol of the site's icon sprite, one
 * cached SVG file shared with the home page, so the public pages carry no icon JavaScript.
 */
export function ToolIcon({ name, className }: { name: OpenServiceIcon; className?: string }) {
  return (
    <svg className={className ? `tool-icon ${className}` : 'tool-icon'} aria-hidden="true" focusable="false">
      <use href={`${sprite}#${name}`} />
    </svg>
  );
}

/** What each icon shows, for the console's icon picker. */
export const TOOL_ICON_LABELS: Record<OpenServiceIcon, string> = {
  mobile: '移动终端',
  control: '可视化控件',
  'safety-certificate': '安全认证',
  'deployment-unit': '物联网',
  cluster: '集群',
  experiment: '模型实验',
  api: '接口',
  appstore: '应用',
};

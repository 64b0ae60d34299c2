import { Avatar } from 'antd';
import { fileUrl, useRuntimeConfig } from '@/config/runtime-config';

/** An application's uploaded icon, or the first character of its name on a tinted square. */
export function AppIcon({ name, icon, size = 36 }: { name: string; icon: string; size?: number }) {
  const config = useRuntimeConfig();
  return (
    <Avatar shape="square" size={size} src={icon ? fileUrl(config, icon) : undefined} alt="" className="sso-apps__icon">
      {[...name][0] ?? '应'}
    </Avatar>
  );
}

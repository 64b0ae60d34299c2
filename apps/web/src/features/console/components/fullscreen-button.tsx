import { FullscreenExitOutlined, FullscreenOutlined } from '@ant-design/icons';
import { message } from 'antd';
import { useEffect, useState } from 'react';

/** Spec sections 2 and 8: fullscreen toggle; a browser that cannot gets a warning instead. */
export function FullscreenButton() {
  const [full, setFull] = useState(() => typeof document !== 'undefined' && document.fullscreenElement !== null);

  useEffect(() => {
    const sync = () => setFull(document.fullscreenElement !== null);
    document.addEventListener('fullscreenchange', sync);
    return () => document.removeEventListener('fullscreenchange', sync);
  }, []);

  const toggle = () => {
    if (!document.fullscreenEnabled) {
      void message.warning('您的浏览器不支持全屏，无法切换');
      return;
    }
    const done = document.fullscreenElement ? document.exitFullscreen() : document.documentElement.requestFullscreen();
    done.catch(() => void message.warning('您的浏览器不支持全屏，无法切换'));
  };

  return (
    <button
      type="button"
      className="console-navbar__icon"
      aria-label={full ? '退出全屏' : '全屏'}
      title={full ? '退出全屏' : '全屏'}
      onClick={toggle}
    >
      {full ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
    </button>
  );
}

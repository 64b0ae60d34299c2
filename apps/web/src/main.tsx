import { SSR_STATE_ELEMENT_ID } from '@portal/shared';
// antd's styles first (vite.config.ts extracts them at build time), so the app's own rules override them.
import 'virtual:antd.css';
import './styles/global.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

const boot = () => import('./app/start').then((m) => m.start(root));

// A server-rendered page is already readable: the app's code loads after the page's own images, so
// a slow phone connection shows text and pictures first. An empty root starts the app at once.
if (document.getElementById(SSR_STATE_ELEMENT_ID) && document.readyState !== 'complete') {
  window.addEventListener('load', () => void boot(), { once: true });
} else {
  void boot();
}

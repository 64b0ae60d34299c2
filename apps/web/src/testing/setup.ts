import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { setRuntimeConfig } from '@/config/runtime-config';

// findBy*/waitFor give up after 1 s by default; a lazy page or an antd popup on a busy CI runner can
// take longer. Within the 30 s test timeout (vitest.config.ts), a real failure still fails.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
  setRuntimeConfig(undefined);
  window.sessionStorage.clear();
});

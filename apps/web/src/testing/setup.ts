import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { setRuntimeConfig } from '@/config/runtime-config';

afterEach(() => {
  cleanup();
  setRuntimeConfig(undefined);
  window.sessionStorage.clear();
});

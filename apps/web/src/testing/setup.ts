import { createRequire } from 'node:module';
import { act, cleanup, configure } from '@testing-library/react';
import { message, notification } from 'antd';
import type { Window as HappyWindow } from 'happy-dom';
import { unstable_IdlePriority, unstable_scheduleCallback } from 'scheduler';
import { afterAll, afterEach } from 'vitest';
import { setRuntimeConfig } from '@/config/runtime-config';

// findBy*/waitFor give up after 1 s by default; a lazy page or an antd popup on a busy CI runner can
// take longer. Within the 30 s test timeout (vitest.config.ts), a real failure still fails.
configure({ asyncUtilTimeout: 10_000 });

// A call no test answered must fail at once inside its test, never reach the network: happy-dom would
// otherwise try the page's origin and its refused or aborted request could end after the test.
const happyWindow = window as unknown as Partial<HappyWindow>;
if (happyWindow.happyDOM && happyWindow.Response) {
  const { Response } = happyWindow;
  happyWindow.happyDOM.settings.fetch.interceptor = {
    beforeAsyncRequest: async ({ request }) =>
      new Response(JSON.stringify({ code: 1, msg: `测试未应答此请求：${request.url}` }), {
        status: 503,
        headers: { 'content-type': 'application/json' },
      }),
  };
}

// antd renders its static messages, notifications and Modal.confirm into roots of their own (through
// @rc-component/util's render) that nothing unmounts, so a closing animation can commit while the
// environment is torn down and React's follow-up task then finds no `window`. The file's last hook
// unmounts them; the holders are kept between tests so that a later toast still shows. After it, a
// late render (Modal.confirm closes on a timer) has nothing left to draw into and is dropped.
type RcRender = { render: (node: unknown, container: object) => void };
const rcRender = createRequire(import.meta.url)('@rc-component/util/lib/React/render') as RcRender;
const staticHolders = new Set<object>();
let fileEnded = false;
const renderHolder = rcRender.render;
rcRender.render = (node, container) => {
  if (fileEnded) return;
  staticHolders.add(container);
  renderHolder(node, container);
};
const holderRootKey = '__rc_react_root__';

afterEach(() => {
  cleanup();
  // antd's static messages live outside the rendered tree, each closing on a 3 s timer that would fire
  // after the file's environment is gone: they end with the test.
  message.destroy();
  notification.destroy();
  setRuntimeConfig(undefined);
  window.sessionStorage.clear();
});

/**
 * Resolves once React's scheduler has run every task queued before it: an idle-priority task runs
 * only after all tasks of higher priority (React's commits and passive-effect flushes) are done.
 */
const schedulerDrained = () => new Promise<void>((resolve) => unstable_scheduleCallback(unstable_IdlePriority, () => resolve()));

// Unmounting schedules React's passive-effect flush on the scheduler (Node's setImmediate); it must run
// before the environment removes `window`, or it throws after the file's tests have passed. A flush may
// schedule another, and a lazy component settling late (a busy machine) queues one more render: drain
// a few rounds, letting promises and immediates settle between them.
afterAll(async () => {
  fileEnded = true;
  act(() => {
    for (const container of staticHolders) {
      (container as Record<string, { unmount(): void } | undefined>)[holderRootKey]?.unmount();
    }
  });
  staticHolders.clear();
  for (let round = 0; round < 5; round++) {
    await schedulerDrained();
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
});

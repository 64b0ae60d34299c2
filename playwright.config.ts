import { defineConfig, devices } from '@playwright/test';

/** Debian's Chromium (never a downloaded browser); CHROME_PATH overrides. */
const executablePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: 'apps/web/e2e',
  // The built server is started once on a free port with a fresh SQLite file.
  globalSetup: './apps/web/e2e/global-setup.ts',
  // Spec files write in enterprises of their own (e2e/fixtures.ts, the tenant fixture; the exceptions are
  // in e2e/README.md): any test may run beside any other, in any order, on any number of workers.
  fullyParallel: true,
  workers: 2,
  retries: 0,
  // Journeys open several pages; each step still waits at most the expect timeout on a busy 2-core CI.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    // Set by the global setup; workers read the config after it ran.
    baseURL: process.env.E2E_BASE_URL,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    // A failed test keeps its trace for `npx playwright show-trace`; E2E_TRACE=off (the CI script, whose output
    // is text only) saves the snapshots' cost, about a third of the suite's time on 2 cores.
    trace: process.env.E2E_TRACE === 'off' ? 'off' : 'retain-on-failure',
    // antd's dialogs, popovers and menus open without animation (the app honours reduced motion):
    // a click lands on an overlay that is already in place, however slow the machine.
    reducedMotion: 'reduce',
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [
    {
      name: 'desktop',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1440, height: 900 } },
      grepInvert: /@mobile|@shared-content/,
    },
    {
      name: 'mobile',
      use: { ...devices['Desktop Chrome'], viewport: { width: 375, height: 812 }, isMobile: false, hasTouch: true },
      grep: /@mobile/,
      grepInvert: /@shared-content/,
    },
    // Journeys that change the platform's fixed rows other journeys read (the open-service tools): alone, last.
    {
      name: 'shared-content',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1440, height: 900 } },
      grep: /@shared-content/,
      dependencies: ['desktop', 'mobile'],
    },
  ],
});

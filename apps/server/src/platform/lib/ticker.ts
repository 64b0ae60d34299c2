import type { FastifyBaseLogger } from 'fastify';

/**
 * Runs `work` every `ms` on this instance, never two runs at once (a tick that finds the last one
 * still going is skipped); a failure is logged. The timer does not keep the process alive, and
 * `stop` waits for the run in progress (register it as the app's onClose).
 */
export function everyInterval(ms: number, work: () => Promise<unknown>, log: FastifyBaseLogger, what: string): { stop(): Promise<void> } {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = work()
      .catch((err: unknown) => log.error({ err }, `${what} failed`))
      .finally(() => (running = undefined));
  }, ms);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

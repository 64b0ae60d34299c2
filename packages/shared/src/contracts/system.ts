import { Type } from 'typebox';

/** `GET /healthz`: the liveness and readiness probe's answer (an unreachable database answers 503 in the error envelope). */
export const HealthSchema = Type.Object({
  status: Type.Literal('ok'),
  database: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')]),
  uptime: Type.Number(),
});

/** One readiness check: passed, not applicable (`off`), or what is wrong (Chinese). */
const ReadinessCheck = Type.String({ description: 'ok、off（未启用）或未就绪的原因' });

/**
 * `GET /readyz`: whether this instance should get traffic — the database answers, every migration this
 * code knows is applied, and the page renderer loaded (unless WEB_SSR=0). 503 with the same body when not.
 */
export const ReadinessSchema = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready')]),
  /** The failed checks' reasons, joined; '' when ready. */
  reason: Type.String(),
  checks: Type.Object({ database: ReadinessCheck, migrations: ReadinessCheck, renderer: ReadinessCheck }),
});

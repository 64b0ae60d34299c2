import { Type } from 'typebox';

/** `GET /healthz`: the liveness and readiness probe's answer (an unreachable database answers 503 in the error envelope). */
export const HealthSchema = Type.Object({
  status: Type.Literal('ok'),
  database: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')]),
  uptime: Type.Number(),
});

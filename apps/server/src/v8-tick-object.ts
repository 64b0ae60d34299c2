import { createHook } from 'node:async_hooks';

// Imported first by main.ts, after v8-flags.ts.
//
// Node's `process.nextTick` builds each tick object with one literal,
// `{ [async_id_symbol]: …, [trigger_async_id_symbol]: …, callback, args }`, and streams call it
// several times per request. V8 adds a computed key through the runtime, which keeps feedback for
// each key: the map the object had before it. That feedback goes from monomorphic straight to
// megamorphic on the first other map (Runtime_DefineKeyedOwnPropertyInLiteral has no polymorphic
// state). The maps between the keys live only as long as some tick object does: a full GC at a
// moment when no tick is queued frees them, the next tick object gets new ones, and the three later
// keys turn megamorphic for the life of the process. TurboFan then compiles nextTick with a runtime
// call per key instead of inline stores. Whether that happens depends on when the GCs of startup
// fall: measured, 5 of 6 starts of the portal fell into it, and served a cached article detail at
// 35 000–39 000 req/s instead of 45 000–47 000 (npm run bench, 50 connections).
//
// Keeping one tick object alive keeps its maps, so every later tick object gets the same ones.
// The hook that catches it is enabled for this one call only: with no hook left, Node skips the
// async-hook work on every later tick.

let keptTickObject: object | undefined;

const hook = createHook({
  init(_asyncId, type, _triggerAsyncId, resource) {
    if (type === 'TickObject') keptTickObject ??= resource;
  },
});
hook.enable();
process.nextTick(() => {});
hook.disable();

/** Whether a tick object is being kept (Node names its resources `TickObject`, which this relies on). */
export function keepsTickObject(): boolean {
  return keptTickObject !== undefined;
}

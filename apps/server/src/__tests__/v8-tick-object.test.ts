import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const moduleUrl = pathToFileURL(path.resolve(import.meta.dirname, '../v8-tick-object.ts')).href;

/**
 * V8's feedback for the computed keys of nextTick's tick-object literal, after ticks separated by
 * full GCs with no tick queued (what the GCs of a server's startup do), in a fresh Node process.
 */
function tickLiteralFeedback(keepTickObject: boolean): { states: string[]; kept: string } {
  const script = `
    const kept = ${keepTickObject} ? (await import(${JSON.stringify(moduleUrl)})).keepsTickObject() : false;
    const tick = () => new Promise((resolve) => process.nextTick(resolve));
    for (let i = 0; i < 100; i++) await tick();
    for (let round = 0; round < 3; round++) {
      globalThis.gc();
      for (let i = 0; i < 100; i++) await tick();
    }
    console.log('kept: ' + kept);
    %DebugPrint(process.nextTick);
  `;
  // V8 prints through C stdio, which may lose the end of its output into a pipe Node made
  // non-blocking: the child writes to a file.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tick-feedback-'));
  const outFile = path.join(dir, 'stdout.txt');
  const out = fs.openSync(outFile, 'w');
  let stdout: string;
  try {
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--allow-natives-syntax', '--expose-gc', '--input-type=module', '-e', script],
      { cwd: path.resolve(import.meta.dirname, '../..'), stdio: ['ignore', out, 'pipe'], encoding: 'utf8' },
    );
    expect(child.status, child.stderr).toBe(0);
    stdout = fs.readFileSync(outFile, 'utf8');
  } finally {
    fs.closeSync(out);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const states = [...stdout.matchAll(/slot #\d+ DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((m) => m[1]!);
  // nextTick's literal has four keys; anything else means this V8 prints its feedback differently.
  expect(states, 'the feedback of the tick-object literal was not found in %DebugPrint').toHaveLength(4);
  return { states, kept: /kept: (\w+)/.exec(stdout)?.[1] ?? '' };
}

describe('the kept tick object', () => {
  it('keeps every key of the tick-object literal monomorphic across full GCs', () => {
    const { states, kept } = tickLiteralFeedback(true);
    expect(kept).toBe('true');
    expect(states).toEqual(['MONOMORPHIC', 'MONOMORPHIC', 'MONOMORPHIC', 'MONOMORPHIC']);
  });

  it('is needed: without it the keys after the first turn megamorphic', () => {
    const { states } = tickLiteralFeedback(false);
    expect(states[0]).toBe('MONOMORPHIC');
    expect(states.slice(1)).toContain('MEGAMORPHIC');
  });
});

import { describe, expect, it } from 'vitest';
import { clause, sentence } from '../sentence.js';

describe('free text in a message', () => {
  it('closes a sentence with one 。, never a second after the writer’s own', () => {
    expect(sentence('请上传新版执照')).toBe('请上传新版执照。');
    expect(sentence('请上传新版执照。')).toBe('请上传新版执照。');
    expect(sentence(' 材料齐全！ ')).toBe('材料齐全！');
  });

  it('drops a closing 。 of text set inside （…）', () => {
    expect(clause('公章不清晰。')).toBe('公章不清晰');
    expect(clause('公章不清晰')).toBe('公章不清晰');
  });
});

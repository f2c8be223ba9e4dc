import { describe, expect, it } from 'vitest';
import { formatToken, MAX_SCHEDULE_LENGTH, parseSchedule, parseToken, ScheduleError } from '../../src/sim/schedule';

describe('schedule tokens', () => {
  it('reads every kind of token and writes it back the same', () => {
    for (const text of ['A', 'C', '+30', 'pause:A', 'resume:B', 'crash:C', 'cancel:123', 'kill:124']) {
      expect(formatToken(parseToken(text))).toBe(text);
    }
    expect(parseToken('+30')).toEqual({ kind: 'advance', seconds: 30 });
    expect(parseToken('cancel:123')).toEqual({ kind: 'cancel', runId: 123 });
  });

  it('rejects what is not a token with a message that lists the valid forms', () => {
    for (const bad of ['a', 'AB', '+0', '+-5', '+999999', 'pause:', 'pause:a', 'cancel:x', '<script>', '']) {
      expect(() => parseToken(bad), bad).toThrow(ScheduleError);
    }
    expect(() => parseToken('<img src=x onerror=alert(1)>')).toThrow(/worker letter/);
  });

  it('splits a comma list, ignoring blanks, and refuses absurd lengths', () => {
    expect(parseSchedule(' A, B ,,+30')).toEqual(['A', 'B', '+30']);
    const huge = Array.from({ length: MAX_SCHEDULE_LENGTH + 1 }, () => 'A').join(',');
    expect(() => parseSchedule(huge)).toThrow(/at most/);
  });
});

import { describe, expect, it } from 'vitest';
import { formatToken, isClockToken, isWorkerToken, MAX_SCHEDULE_LENGTH, parseSchedule, parseToken, ScheduleError } from '../../src/sim/schedule';

describe('schedule tokens', () => {
  it('reads every kind of token and writes it back the same', () => {
    for (const text of ['A', 'C', '+30', 'pause:A', 'resume:B', 'crash:C', 'restart:C', 'cancel:123', 'kill:124']) {
      expect(formatToken(parseToken(text))).toBe(text);
    }
    expect(parseToken('+30')).toEqual({ kind: 'advance', seconds: 30 });
    expect(parseToken('cancel:123')).toEqual({ kind: 'cancel', runId: 123 });
    expect(parseToken('restart:A')).toEqual({ kind: 'restart', worker: 'A' });
  });

  it('rejects what is not a token with a message that lists the valid forms', () => {
    for (const bad of ['a', 'AB', '+0', '+-5', '+999999', 'pause:', 'pause:a', 'restart:', 'restart:a', 'restart:123', 'cancel:x', '<script>', '']) {
      expect(() => parseToken(bad), bad).toThrow(ScheduleError);
    }
    expect(() => parseToken('<img src=x onerror=alert(1)>')).toThrow(/worker letter/);
  });

  it('tells the out-of-range move from what is no clock move at all', () => {
    expect(() => parseToken('+999999')).toThrow('"+999999": the clock moves between 1 and 86400 seconds at a time');
    expect(() => parseToken('+1234567')).toThrow('"+1234567" is not a schedule step');
  });

  it('names a worker step and a clock move the same way everywhere (isWorkerToken, isClockToken)', () => {
    for (const token of ['A', 'B', 'Z']) expect(isWorkerToken(token), token).toBe(true);
    for (const token of ['a', 'AB', ' A', 'crash:A', '+30', '', 'Ä']) expect(isWorkerToken(token), token).toBe(false);
    for (const token of ['+1', '+30', '+1234567']) expect(isClockToken(token), token).toBe(true);
    for (const token of ['+', '30', '+-5', '+3.5', ' +30', 'A', 'clock']) expect(isClockToken(token), token).toBe(false);
  });

  it('splits a comma list, ignoring blanks, and refuses absurd lengths', () => {
    expect(parseSchedule(' A, B ,,+30')).toEqual(['A', 'B', '+30']);
    const huge = Array.from({ length: MAX_SCHEDULE_LENGTH + 1 }, () => 'A').join(',');
    expect(() => parseSchedule(huge)).toThrow(/at most/);
  });
});

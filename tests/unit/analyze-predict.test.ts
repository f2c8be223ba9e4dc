// The predictor against the truth corpus: from each variant's shape alone it must predict the outcome the
// file declares (which tests/ground-truth/claim-corpus.test.ts checks on a real PostgreSQL), or refuse
// exactly where the file says the outcome cannot be known from the shape.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadParser, type Parser } from '../../src/sql/analyze/parser';
import { predictStatement } from '../../src/sql/analyze/predictor';
import { sceneFor } from '../../src/sql/analyze/scenario';
import { readCorpus } from '../support/claim-corpus';

let parser: Parser;
beforeAll(async () => {
  parser = await loadParser();
});

const corpus = readCorpus();

describe('the predictor agrees with every corpus file', () => {
  it('the corpus has at least 25 variants', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(25);
  });
  for (const variant of corpus) {
    it(`${variant.file}: ${variant.title}`, () => {
      const result = predictStatement(parser, variant.sql, variant.role, sceneFor(variant.role));
      if (!variant.predictable) {
        expect(result.ok, result.ok ? JSON.stringify(result.prediction) : result.reason).toBe(false);
        return;
      }
      expect(result.ok ? result.prediction : result.reason).toEqual(variant.outcome);
    });
  }
});

describe('what the predictor does not model, it refuses', () => {
  it.for(['good-job-advisory.sql', 'good-job-advisory-xact.sql', 'que-advisory.sql'])('%s: an advisory try-lock (a server plays it)', (name) => {
    const sql = readFileSync(join(__dirname, '../fixtures/claims', name), 'utf8');
    const result = predictStatement(parser, sql, 'claim', sceneFor('claim'));
    expect(result).toEqual({ ok: false, reason: expect.stringMatching(/^pg_try_advisory(_xact)?_lock: the predictor does not model advisory locks/) });
  });
});

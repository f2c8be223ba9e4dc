/**
 * Exit criteria: what the learner can do after the lesson, each ticked by what they actually did
 * (chapters finished, challenges won, quiz questions answered right the first time, predictions right
 * more often than wrong). A quiz question answered wrong the first time can still be shown by its
 * practice: predictions of the same idea on fresh parameters, or another question's first answer.
 */
import { findChallenge } from './challenges';
import { chapterById } from './chapters';
import { findGenerator } from './predict';
import { answeredRightFirst, type LessonProgress, predictsWell } from './progress';
import { findQuestion } from './quiz';
import type { ExitCriterion, Practice, Requirement } from './types';

export const EXIT_CRITERIA: readonly ExitCriterion[] = [
  {
    id: 'explain-race',
    title: 'I can explain the race',
    detail: 'Why two workers using SELECT then UPDATE can both own one run, and why that is a race condition.',
    requires: [
      { kind: 'chapter', id: 'race' },
      { kind: 'chapter', id: 'select-then-update' },
      { kind: 'challenge', id: 'double-run' },
      { kind: 'question', id: 'q-race-condition', practice: { kind: 'predict', id: 'claim-race' } },
      { kind: 'question', id: 'q-select-update', practice: { kind: 'predict', id: 'claim-race' } },
    ],
  },
  {
    id: 'write-claim',
    title: 'I can write an atomic claim',
    detail: 'A single statement that chooses and takes a run with FOR UPDATE SKIP LOCKED in a CTE, and what each clause is for.',
    requires: [
      { kind: 'chapter', id: 'compare-and-set' },
      { kind: 'chapter', id: 'atomic-claim' },
      { kind: 'chapter', id: 'lock-modes' },
      { kind: 'challenge', id: 'atomic-race' },
      { kind: 'question', id: 'q-cte', practice: { kind: 'question', id: 'q-bug-subselect' } },
      { kind: 'question', id: 'q-bug-expiry', practice: { kind: 'question', id: 'q-orphan' } },
    ],
  },
  {
    id: 'lease-heartbeat',
    title: 'I can choose a lease length and a heartbeat interval',
    detail: 'Trade recovery delay against false takeovers, and renew well inside the lease.',
    requires: [
      { kind: 'chapter', id: 'lease' },
      { kind: 'chapter', id: 'heartbeat' },
      { kind: 'chapter', id: 'progress-vs-liveness' },
      { kind: 'predict', id: 'heartbeat-gap' },
      { kind: 'question', id: 'q-heartbeat-interval', practice: { kind: 'predict', id: 'heartbeat-gap' } },
      { kind: 'question', id: 'q-lease', practice: { kind: 'predict', id: 'lease-expiry' } },
    ],
  },
  {
    id: 'fencing',
    title: 'I can explain what fencing protects and what it does not',
    detail: 'Stale writes to the store that checks the token are rejected; side effects elsewhere, and the stale worker itself, are not stopped.',
    requires: [
      { kind: 'chapter', id: 'orphan-reclaim' },
      { kind: 'chapter', id: 'fencing' },
      { kind: 'challenge', id: 'split-ownership' },
      { kind: 'question', id: 'q-fencing-scope', practice: { kind: 'predict', id: 'fencing-write' } },
    ],
  },
  {
    id: 'durable-cancel',
    title: 'I can make cancellation durable',
    detail: 'Store the request in the row and check it at safe boundaries, so it survives the worker.',
    requires: [
      { kind: 'chapter', id: 'cancellation' },
      { kind: 'challenge', id: 'sticky-cancel' },
      { kind: 'question', id: 'q-cancel', practice: { kind: 'predict', id: 'cancel-outcome' } },
    ],
  },
  {
    id: 'backpressure',
    title: 'I can name three backpressure limits',
    detail: 'Max active runs, max active runs per tenant, max concurrent model calls, max run cost.',
    requires: [
      { kind: 'chapter', id: 'backpressure' },
      { kind: 'question', id: 'q-backpressure', practice: { kind: 'question', id: 'q-backpressure-tenant' } },
    ],
  },
  {
    id: 'judge-a-queue',
    title: 'I can say how a production queue can run a job twice',
    detail: 'When its ownership ends, what renews it, and what its final write checks, read from its claim and its incidents.',
    requires: [
      { kind: 'chapter', id: 'production-queues' },
      { kind: 'predict', id: 'long-job' },
      { kind: 'question', id: 'q-queue-guards', practice: { kind: 'predict', id: 'late-finish' } },
    ],
  },
];

interface RequirementStatus {
  requirement: Requirement;
  label: string;
  met: boolean;
}

export interface CriterionStatus {
  criterion: ExitCriterion;
  met: boolean;
  requirements: RequirementStatus[];
}

function questionPrompt(id: string): string {
  const question = findQuestion(id);
  return question && question.kind !== 'predict' ? question.prompt : id;
}

function predictLabel(id: string): string {
  return `"${findGenerator(id)?.title ?? id}" right more often than wrong, in a chapter or the quiz`;
}

function practiceLabel(practice: Practice): string {
  return practice.kind === 'predict' ? `predict ${predictLabel(practice.id)}` : `answer "${questionPrompt(practice.id)}" right the first time`;
}

function requirementLabel(requirement: Requirement): string {
  switch (requirement.kind) {
    case 'chapter':
      return `Finish the chapter "${chapterById(requirement.id).title}"`;
    case 'challenge':
      return `Solve the level "${findChallenge(requirement.id)?.title ?? requirement.id}"`;
    case 'question':
      return `Answer correctly the first time: "${questionPrompt(requirement.id)}"; or ${practiceLabel(requirement.practice)}`;
    case 'predict':
      return `Predict ${predictLabel(requirement.id)}`;
  }
}

function practised(practice: Practice, progress: LessonProgress): boolean {
  return practice.kind === 'predict' ? predictsWell(progress, practice.id) : answeredRightFirst(progress, practice.id);
}

function requirementMet(requirement: Requirement, progress: LessonProgress): boolean {
  switch (requirement.kind) {
    case 'chapter':
      return progress.chapters[requirement.id]?.done === true;
    case 'challenge':
      return progress.challenges[requirement.id]?.won === true;
    case 'question':
      return answeredRightFirst(progress, requirement.id) || practised(requirement.practice, progress);
    case 'predict':
      return predictsWell(progress, requirement.id);
  }
}

export function evaluateExitCriteria(progress: LessonProgress): CriterionStatus[] {
  return EXIT_CRITERIA.map((criterion) => {
    const requirements = criterion.requires.map((requirement) => ({
      requirement,
      label: requirementLabel(requirement),
      met: requirementMet(requirement, progress),
    }));
    return { criterion, met: requirements.every((r) => r.met), requirements };
  });
}

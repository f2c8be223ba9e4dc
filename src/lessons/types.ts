/**
 * The lesson's vocabulary: chapters, narration, predict-then-run questions, the quiz, challenges, exit
 * criteria and the concept table. Content is plain typed data; the only functions in it are pure ones
 * that read an engine trace (answers, judgements), so everything a learner is told about a run comes
 * from running the engine, never from a hard-coded answer.
 */
import type { RecordingId } from '../recordings';
import type { FactPattern } from '../sim/narration';
import type { CHAPTERS } from './chapters';
import type { AnomalyKind, Scenario, Settings, Trace, Verdict } from '../sim/types';

/** The app's engine, as the lesson needs it: play a schedule on a scenario from a fresh start. */
export type RunTrace = (scenario: Scenario, settings: Settings, schedule: readonly string[]) => Promise<Trace>;

/** What the lesson asks the app to show in the lab. */
export interface OpenScenarioRequest {
  /** An id from src/scenarios (the base scenario, even when `scenario` is a variant of it). */
  scenarioId: string;
  /** Set when the lesson built a variant (other run ids, lease, faults): load this exact scenario. */
  scenario?: Scenario;
  settings: Settings;
  schedule: string[];
  /**
   * 0-based index into `schedule` of the token the narration talks about: play up to and including it
   * and point at the trace steps whose `tokenIndex` equals it. null: before the first token.
   */
  position: number | null;
}

export type OpenScenario = (request: OpenScenarioRequest) => void;

/** A link out: a repository file, an issue, a documentation page. */
export interface Source {
  id: string;
  label: string;
  url: string;
}

/** What must be true at a narration mark; checked by the unit tests against a real engine run. */
export interface MarkExpectation {
  actor?: string;
  action?: string;
  verdict?: Verdict;
  /** The step was a statement resuming after a lock wait. */
  resumed?: boolean;
  /** An anomaly of this kind names one of this token's steps. */
  anomaly?: AnomalyKind;
  /** The step is about this run (it read, claimed or wrote it). */
  runId?: number;
  /** After the step, the actor holds (believes it holds) this lease generation: a claim's, even before it commits. */
  generation?: number;
  /** After the step, the step's run has this lease generation in the committed table. */
  runGeneration?: number;
  /** After the step, the step's run has this progress. */
  runProgress?: number;
  /** The step records this fact (sim/narration.ts): what its note says, as data, so a wording change cannot break the mark. */
  fact?: FactPattern;
}

/** The moment on the timeline a narration step talks about. */
interface NarrationMark {
  /** Defaults to the chapter's scenario. */
  scenarioId?: string;
  /** Defaults to the chapter's settings. */
  settings?: Settings;
  /** Defaults to the scenario's script. */
  schedule?: string[];
  /** 0-based index into the schedule; null: the starting state. */
  tokenIndex: number | null;
  expect?: MarkExpectation;
}

/** One annotated clause of a SQL statement; `match` locates its first line, `lines` how many it spans. */
export interface SqlClause {
  match: string;
  lines?: number;
  note: string;
}

export interface SqlWalkthrough {
  /** A statement from src/sql (its id in the registry). */
  sqlId: string;
  /** A short title above the code. */
  caption: string;
  clauses: SqlClause[];
}

/** A SQL sketch written for the lesson (not executed by the lab). */
interface SqlSketch {
  caption: string;
  sql: string;
}

export interface NarrationStep {
  id: string;
  heading: string;
  /** Paragraphs; `backticks` mark code. */
  body: string[];
  mark?: NarrationMark;
  sql?: SqlWalkthrough;
  sketch?: SqlSketch;
  /** Predict-then-run question generator ids shown at this step. */
  predict?: string[];
  sources?: string[];
  /** A link to another view of the lab (the backpressure lab), shown after the step's text. */
  view?: { fragment: string; label: string };
  /** Traces recorded on a real PostgreSQL server (recordings/), each opened in the lab by a link after the step's text. */
  recordings?: RecordingId[];
}

/**
 * A chapter's id: one of the ids the chapters are defined with (chapters.ts), so anything that names a
 * chapter (a level, a question, a concept, a prediction, a requirement, saved progress, a link) and names
 * one that does not exist does not compile. A new chapter is one entry in CHAPTERS.
 */
export type ChapterId = (typeof CHAPTERS)[number]['id'];

export interface Chapter<Id extends string = ChapterId> {
  id: Id;
  title: string;
  /** One line for the table of contents. */
  summary: string;
  /** The scenario the learner steps through (the backpressure chapter's is three-workers); null makes a text-only chapter. */
  scenarioId: string | null;
  settings: Settings | null;
  concepts: ConceptId[];
  steps: NarrationStep[];
}

type ConceptId =
  | 'race'
  | 'claim'
  | 'atomic-claim'
  | 'lease'
  | 'lease-expiry'
  | 'heartbeat'
  | 'progress-vs-liveness'
  | 'orphan-reclaim'
  | 'fencing'
  | 'cancellation'
  | 'backpressure';

export interface Choice {
  id: string;
  label: string;
}

/** A concrete predict-then-run question, built from a seed. */
export interface PredictInstance {
  generatorId: string;
  seed: number;
  /** The parameters that vary, as stable text: two instances with the same key ask the same thing. */
  key: string;
  /** The parameters, for display ("lease 45 s", "fencing off"). */
  facts: string[];
  /** The base scenario in src/scenarios. */
  baseScenarioId: string;
  scenario: Scenario;
  settings: Settings;
  schedule: string[];
  prompt: string;
  choices: Choice[];
  /** Reads the engine's trace: the id of the choice that happened, or null if none did. */
  answerFrom(trace: Trace): string | null;
  /** Why it happened, from the same trace. */
  explain(trace: Trace): string[];
  /** The schedule position the reveal is about, for "Open in the lab". */
  focusTokenIndex: number | null;
}

export interface PredictGenerator {
  id: string;
  title: string;
  chapterId: ChapterId;
  baseScenarioId: string;
  generate(seed: number): PredictInstance;
}

interface QuestionBase {
  id: string;
  chapterId: ChapterId;
  /** Shown after a right answer: it names the right answer, so a wrong one is told only why it is wrong. */
  explanation: string;
  sources?: string[];
}

/**
 * A choice of a single or multiple choice question. A wrong one says why it is wrong (`whyNot`): that,
 * not the right answer, is what a learner who picked it is shown.
 */
export type AnswerChoice = Choice & ({ correct: true; whyNot?: undefined } | { correct?: false; whyNot: string });

export interface SingleChoiceQuestion extends QuestionBase {
  kind: 'single';
  prompt: string;
  choices: AnswerChoice[];
}

export interface MultipleChoiceQuestion extends QuestionBase {
  kind: 'multiple';
  prompt: string;
  choices: AnswerChoice[];
}

/** An event of an ordering question; `why` says what must have happened before it (shown when it is placed too early). */
type OrderItem = Choice & { why?: string };

export interface OrderQuestion extends QuestionBase {
  kind: 'order';
  prompt: string;
  /** In the correct order; every item but the first has a `why`. */
  items: OrderItem[];
}

/** Why a line of a spot-the-bug question is not the faulty one; `match` locates the line as in SqlClause. */
interface LineNote {
  match: string;
  note: string;
}

export interface SpotTheBugQuestion extends QuestionBase {
  kind: 'bug';
  prompt: string;
  sql: string;
  /** Text found on exactly one line of `sql`: the faulty one. */
  faultyLineContains: string;
  /** Why a line a learner might suspect is fine; lines without a note get a general one. */
  lineNotes: LineNote[];
}

interface PredictQuestion extends QuestionBase {
  kind: 'predict';
  generatorId: string;
}

export type QuizQuestion = SingleChoiceQuestion | MultipleChoiceQuestion | OrderQuestion | SpotTheBugQuestion | PredictQuestion;

/** A learner's answer, by question kind. */
export type QuizAnswer =
  | { kind: 'single'; choiceId: string }
  | { kind: 'multiple'; choiceIds: string[] }
  | { kind: 'order'; itemIds: string[] }
  | { kind: 'bug'; line: number }
  | { kind: 'predict'; choiceId: string; correctChoiceId: string | null };

export interface Judgement {
  won: boolean;
  message: string;
  /** Trace step indexes that show why. */
  steps: number[];
}

export interface Challenge {
  id: string;
  title: string;
  goal: string;
  /** Why it matters, shown once won (or, for the one that cannot be won the obvious way, once tried). */
  lesson: string;
  /** Traces recorded on a real PostgreSQL server (recordings/) that the lesson speaks of, each opened by a link after it. */
  recordings?: RecordingId[];
  scenarioId: string;
  settings: Settings;
  chapterId: ChapterId;
  /** Three hints, from a nudge to nearly the answer. */
  hints: [string, string, string];
  /** A schedule that wins it (used by the tests; never shown). */
  solution: string[];
  judge(trace: Trace | null): Judgement;
}

/** Practice that shows the same idea as a quiz question: more right predictions than wrong, or another question's first answer. */
export type Practice = { kind: 'predict'; id: string } | { kind: 'question'; id: string };

export type Requirement =
  | { kind: 'chapter'; id: ChapterId }
  | { kind: 'challenge'; id: string }
  /** Met by the question's first answer, if right, or else by `practice` (a wrong first answer is final). */
  | { kind: 'question'; id: string; practice: Practice }
  /** Met when more of the learner's predictions of this generator were right than wrong (each is a fresh variant). */
  | { kind: 'predict'; id: string };

export interface ExitCriterion {
  id: string;
  /** "I can …" */
  title: string;
  detail: string;
  requires: Requirement[];
}

interface QueueComparison {
  system: string;
  how: string;
  sources: string[];
}

export interface ConceptRow {
  id: ConceptId;
  name: string;
  meaning: string;
  /** Files in src/sql (ids in the registry). */
  labSql: string[];
  labNote: string;
  temporal: string;
  temporalSources: string[];
  queues: QueueComparison[];
  chapterId: ChapterId;
}

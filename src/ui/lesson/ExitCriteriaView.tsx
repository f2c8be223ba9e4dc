/** Exit criteria: what the learner can now do, ticked by what they did, and what is left. */
import './lesson.css';
import { type CriterionStatus, evaluateExitCriteria } from '../../lessons/exit-criteria';
import { findGenerator } from '../../lessons/predict';
import type { ProgressStore } from '../../store/progress-store';
import type { ChapterId, Requirement } from '../../lessons/types';
import { LessonLink } from './links';
import { useLessonProgress } from './useLessonProgress';

export interface ExitCriteriaViewProps {
  progressStore?: ProgressStore;
  onOpenChapter?: (chapterId: ChapterId) => void;
  onOpenChallenge?: (challengeId: string) => void;
  onOpenQuestion?: (questionId: string) => void;
}

export function ExitCriteriaView({ progressStore, onOpenChapter, onOpenChallenge, onOpenQuestion }: ExitCriteriaViewProps) {
  const { state } = useLessonProgress(progressStore);
  const statuses = evaluateExitCriteria(state.progress);
  const met = statuses.filter((s) => s.met).length;
  const left = statuses.flatMap((s) => s.requirements.filter((r) => !r.met)).length;
  const open = { onOpenChapter, onOpenChallenge, onOpenQuestion };
  return (
    <section className="ll-lesson ll-exit" aria-labelledby="ll-exit-title">
      <header>
        <h2 id="ll-exit-title">Exit criteria</h2>
        <p className="ll-score">
          {met} of {statuses.length} abilities shown.{' '}
          {left === 0 ? 'Nothing left: you have done everything this module asks.' : `${left} thing${left === 1 ? '' : 's'} left to do.`}
        </p>
        <p>Each item is ticked by what you did here: chapters finished, levels solved, questions answered correctly.</p>
      </header>
      <ul className="ll-criteria">
        {statuses.map((status) => (
          <li key={status.criterion.id}>
            <Criterion status={status} open={open} />
          </li>
        ))}
      </ul>
    </section>
  );
}

type Openers = Pick<ExitCriteriaViewProps, 'onOpenChapter' | 'onOpenChallenge' | 'onOpenQuestion'>;

function Criterion({ status, open }: { status: CriterionStatus; open: Openers }) {
  const { criterion } = status;
  return (
    <article className={status.met ? 'll-criterion is-met' : 'll-criterion'} aria-labelledby={`ll-exit-${criterion.id}`}>
      <h3 id={`ll-exit-${criterion.id}`}>
        <span aria-hidden="true">{status.met ? '✓ ' : '○ '}</span>
        {criterion.title}
        <span className="ll-visually-hidden">{status.met ? ' (done)' : ' (not yet)'}</span>
      </h3>
      <p>{criterion.detail}</p>
      <ul className="ll-requirements">
        {status.requirements.map((r) => (
          <li key={`${r.requirement.kind}/${r.requirement.id}`} className={r.met ? 'is-met' : undefined}>
            <span aria-hidden="true">{r.met ? '✓' : '○'}</span> <RequirementLink requirement={r.requirement} label={r.label} open={open} />
            <span className="ll-visually-hidden">{r.met ? ' (done)' : ' (to do)'}</span>
          </li>
        ))}
      </ul>
    </article>
  );
}

function RequirementLink({ requirement, label, open }: { requirement: Requirement; label: string; open: Openers }) {
  switch (requirement.kind) {
    case 'chapter':
      return (
        <LessonLink target={{ kind: 'chapter', id: requirement.id }} onOpen={open.onOpenChapter}>
          {label}
        </LessonLink>
      );
    case 'challenge':
      return (
        <LessonLink target={{ kind: 'challenge', id: requirement.id }} onOpen={open.onOpenChallenge}>
          {label}
        </LessonLink>
      );
    case 'question':
      return (
        <LessonLink target={{ kind: 'question', id: requirement.id }} onOpen={open.onOpenQuestion}>
          {label}
        </LessonLink>
      );
    case 'predict': {
      const chapterId = findGenerator(requirement.id)?.chapterId;
      return chapterId ? (
        <LessonLink target={{ kind: 'chapter', id: chapterId }} onOpen={open.onOpenChapter}>
          {label}
        </LessonLink>
      ) : (
        <span>{label}</span>
      );
    }
  }
}

/** The lesson's React components. Mount LessonHub for everything, or the views one by one. */
export { ChallengesView, type ChallengesViewProps } from './ChallengesView';
export { ChapterView, type ChapterViewProps } from './ChapterView';
export { ConceptTable, type ConceptTableProps } from './ConceptTable';
export { ExitCriteriaView, type ExitCriteriaViewProps } from './ExitCriteriaView';
export { type LessonHubProps, LessonHub, type LessonTab } from './LessonHub';
export { LessonView, type LessonViewProps } from './LessonView';
export { type LessonTarget, lessonHref, parseLessonHash } from './links';
export { PredictCard, type PredictCardProps } from './PredictCard';
export { ProgressNotice, ProgressSummary, ResetProgress } from './ProgressControls';
export { QuizView, type QuizViewProps } from './QuizView';
export { useLessonProgress } from './useLessonProgress';

import { useShownStep } from '../hooks';

/** One line saying what the shown step did (the step details say the rest). */
export function Narration() {
  const { step, index, count } = useShownStep();
  return (
    <p className="embed-narration" aria-live="polite">
      {step ? `Step ${(index ?? 0) + 1} ${count}: ${step.note}` : 'Press Next step (or →) to take the first step.'}
    </p>
  );
}

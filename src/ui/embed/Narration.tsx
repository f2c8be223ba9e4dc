import { useShownStep } from '../hooks';

/** One line saying what the shown step did (the step details say the rest). */
export function Narration() {
  const { step, index, total } = useShownStep();
  return (
    <p className="embed-narration" aria-live="polite">
      {step ? `Step ${(index ?? 0) + 1} of ${total}: ${step.note}` : 'Press Step (or →) to take the first step.'}
    </p>
  );
}

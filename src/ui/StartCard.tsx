import { START_CARD } from '../lessons/start-card';
import { useLab } from '../store/react';
import { isStartView } from '../store/view';
import { useReady } from './hooks';

/**
 * A first visit's first screen: what the learner will see, and the one move to make. Taking the move or
 * dismissing the card closes it for good (remembered with the preferences); so does any first step.
 */
/** The start card is on screen: opened at the lab's start, and still there (its scenario and settings, no step yet). */
export function useStartCardOpen(): boolean {
  return useLab((s) => s.startCardOpen && isStartView(s));
}

export function StartCard() {
  const open = useStartCardOpen();
  const ready = useReady();
  const applyToken = useLab((s) => s.applyToken);
  const close = useLab((s) => s.closeStartCard);
  if (!open) return null;
  return (
    <section className="start-card" aria-labelledby="start-card-heading">
      <h2 id="start-card-heading">{START_CARD.heading}</h2>
      <p>{START_CARD.body}</p>
      <div className="start-card-actions">
        <button
          type="button"
          className="primary"
          disabled={!ready}
          onClick={() => {
            close();
            void applyToken(START_CARD.action.token);
          }}
        >
          {START_CARD.action.label}
        </button>
        <button type="button" onClick={close}>
          {START_CARD.dismiss}
        </button>
      </div>
    </section>
  );
}

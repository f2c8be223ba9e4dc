/**
 * The lab's last line of defence: a view the page cannot draw (a render error anywhere in the lab) is
 * replaced by one message and a way back, not a blank page. The store is told (drawFailed), so the view
 * is never saved as the learner's place (store/sync.ts); going back opens the place saved before it.
 */
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useLab, useLabStore, usePanelLab } from '../store/react';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function LabErrorBoundary({ children }: { children: ReactNode }) {
  const store = useLabStore();
  // Drawn again only once the panels' copy (one task behind, store/trailing.ts) has left the failed view too.
  const failure = useLab((s) => s.drawFailure);
  const panelsFailure = usePanelLab((s) => s.drawFailure);
  return (
    <Boundary failure={failure ?? panelsFailure} onError={(message) => store.getState().drawFailed(message)}>
      {children}
    </Boundary>
  );
}

interface BoundaryProps {
  failure: string | null;
  onError: (message: string) => void;
  children: ReactNode;
}

class Boundary extends Component<BoundaryProps, { caught: string | null }> {
  override state = { caught: null as string | null };

  static getDerivedStateFromError(error: unknown) {
    return { caught: messageOf(error) };
  }

  override componentDidCatch(error: unknown, _info: ErrorInfo): void {
    this.props.onError(messageOf(error));
  }

  override componentDidUpdate(previous: BoundaryProps): void {
    if (previous.failure !== null && this.props.failure === null && this.state.caught !== null) this.setState({ caught: null });
  }

  override render() {
    const message = this.props.failure ?? this.state.caught;
    return message === null ? this.props.children : <DrawFailure message={message} />;
  }
}

function DrawFailure({ message }: { message: string }) {
  const back = useLab((s) => s.backToLastGoodPlace);
  return (
    <div className="app">
      <section className="draw-failure" role="alert" aria-labelledby="draw-failure-title">
        <h1 id="draw-failure-title">The lab could not show this view</h1>
        <p>
          Something in it could not be drawn, so the lab stopped here instead of showing a broken page. This view was not saved as your place: your saved place,
          your draft and your quiz answers are as they were.
        </p>
        <p className="draw-failure-detail">
          What went wrong: <code>{message}</code>
        </p>
        <button type="button" className="primary" onClick={() => void back()}>
          Go back to your last good place
        </button>
      </section>
    </div>
  );
}

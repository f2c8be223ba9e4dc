import { useEffect, useRef, useState } from 'react';
import { encodeView } from '../../store/permalink';
import { useLabStore } from '../../store/react';
import { viewOf } from '../../store/sync';
import { useScenario } from '../hooks';
import { iframeSnippet, withFragment } from './address';

/** The <iframe> snippet for the view on screen, to paste into a course page: shown when mounted (ExportMenu mounts it on "Embed…", from a chunk of its own); `onClose` once it has closed. */
export function EmbedDialog({ onClose }: { onClose: () => void }) {
  const scenario = useScenario();
  const store = useLabStore();
  const ref = useRef<HTMLDialogElement>(null);
  const [copied, setCopied] = useState(false);
  const [snippet, setSnippet] = useState('');
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) {
      // The view as the store has it now (the address bar is written a moment after each step).
      setSnippet(iframeSnippet(withFragment(window.location.href, encodeView(viewOf(store.getState()))), scenario.title));
      setCopied(false);
      dialog.showModal();
    }
  }, [scenario.title, store]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(snippet);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <dialog ref={ref} className="help embed-dialog" aria-labelledby="embed-title" onClose={onClose}>
      <h2 id="embed-title">Embed this view</h2>
      <p>
        Paste this into a course page: it shows this scenario at this step with the timeline, the controls and the step's details. Keys work while the frame has
        focus; nothing is stored in the learner's browser until they use it.
      </p>
      <textarea className="embed-snippet" readOnly rows={5} value={snippet} aria-label="The iframe snippet" onFocus={(e) => e.target.select()} />
      <form method="dialog" className="row-buttons">
        <button type="button" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy snippet'}
        </button>
        <button type="submit" className="primary">
          Close
        </button>
      </form>
    </dialog>
  );
}

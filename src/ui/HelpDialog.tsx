import { useEffect, useRef } from 'react';
import { useLab } from '../store/react';
import { KEY_HELP } from './commands';

/** The keyboard overlay: a native modal dialog (focus moves in, Escape closes, focus returns). */
export function HelpDialog() {
  const open = useLab((s) => s.helpOpen);
  const setHelpOpen = useLab((s) => s.setHelpOpen);
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className="help" aria-labelledby="help-title" onClose={() => setHelpOpen(false)}>
      <h2 id="help-title">Keyboard</h2>
      <table className="keys">
        <tbody>
          {KEY_HELP.map((row) => (
            <tr key={row.keys}>
              <th scope="row">
                <kbd>{row.keys}</kbd>
              </th>
              <td>{row.what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted">Keys are left alone while you type in a field or choose from a list.</p>
      <p className="muted">
        The address bar always holds a link to exactly this view (scenario, strategy, fencing, schedule and step): copy it to share the interleaving.
      </p>
      <form method="dialog">
        <button type="submit" className="primary">
          Close
        </button>
      </form>
    </dialog>
  );
}

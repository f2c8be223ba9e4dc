import type { LabState } from '../store/types';
import { useLab, useLabStore } from '../store/react';
import { type Command, titleOf } from './commands';

/** A lab command as a button: its words, tooltip, enabled state and action all come from the command. */
export function CommandButton({ command, className, busy }: { command: Command<LabState>; className?: string; busy?: boolean }) {
  const store = useLabStore();
  const enabled = useLab(command.enabled);
  const label = useLab(command.label);
  const playing = useLab((s) => s.playing);
  return (
    <button
      type="button"
      className={className}
      aria-busy={busy}
      aria-pressed={command.id === 'toggle-play' ? playing : undefined}
      onClick={() => command.perform(store.getState())}
      disabled={!enabled}
      title={titleOf(command)}
    >
      {label}
    </button>
  );
}

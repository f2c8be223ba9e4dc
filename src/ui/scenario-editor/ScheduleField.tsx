import { useState } from 'react';
import { Field } from './Field';
import type { PartProps } from './types';

/** The steps as typed: comma-separated schedule tokens; nothing at all means none. */
function stepsOf(text: string): string[] {
  return text.trim() === '' ? [] : text.split(',').map((part) => part.trim());
}

/** The optional scripted interleaving, in the schedule's own words (A, B, +30, pause:A, crash:B…). */
export function ScheduleField({ spec, problems, change }: PartProps) {
  // The text as typed (spaces and a trailing comma stay while typing); the spec holds its steps.
  const [text, setText] = useState(spec.script.join(','));
  return (
    <fieldset className="editor-part">
      <legend>Scripted schedule (optional)</legend>
      <Field
        id="editor-script"
        label="Steps, comma-separated: A, B… (a worker's next step), +30 (the clock), pause:A, resume:A, crash:A, restart:A"
        problem={problems.get('script')}
      >
        {(describedBy, invalid) => (
          <input
            id="editor-script"
            value={text}
            placeholder="empty: the workers take turns"
            onChange={(e) => {
              setText(e.target.value);
              change((s) => ({ ...s, script: stepsOf(e.target.value) }));
            }}
            aria-describedby={describedBy}
            aria-invalid={invalid}
          />
        )}
      </Field>
    </fieldset>
  );
}

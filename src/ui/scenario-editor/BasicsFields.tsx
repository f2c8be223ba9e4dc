import { SCENARIO_LIMITS } from '../../scenarios/define';
import { Field } from './Field';
import type { PartProps } from './types';

/** The title and the two lines that tell the learner what they will see. */
export function BasicsFields({ spec, problems, change }: PartProps) {
  const line = (index: 0 | 1) => (event: React.ChangeEvent<HTMLInputElement>) =>
    change((s) => ({ ...s, description: index === 0 ? [event.target.value, s.description[1]] : [s.description[0], event.target.value] }));
  return (
    <fieldset className="editor-part">
      <legend>What it shows</legend>
      <Field id="editor-title" label="Title" problem={problems.get('title')}>
        {(describedBy, invalid) => (
          <input
            id="editor-title"
            value={spec.title}
            maxLength={SCENARIO_LIMITS.titleChars + 20}
            onChange={(e) => change((s) => ({ ...s, title: e.target.value }))}
            aria-describedby={describedBy}
            aria-invalid={invalid}
          />
        )}
      </Field>
      <Field id="editor-line-1" label="Description, line 1" problem={problems.get('description')}>
        {(describedBy, invalid) => (
          <input id="editor-line-1" value={spec.description[0]} onChange={line(0)} aria-describedby={describedBy} aria-invalid={invalid} />
        )}
      </Field>
      <Field id="editor-line-2" label="Line 2 (optional)" problem={undefined}>
        {() => <input id="editor-line-2" value={spec.description[1]} onChange={line(1)} />}
      </Field>
    </fieldset>
  );
}

import type { ReactNode } from 'react';

/** A labelled input with the check's message for it underneath, tied to it for screen readers. */
export function Field({
  id,
  label,
  problem,
  children,
}: {
  id: string;
  label: string;
  problem: string | undefined;
  children: (describedBy: string | undefined, invalid: boolean) => ReactNode;
}) {
  const errorId = `${id}-problem`;
  return (
    <div className={`editor-field${problem ? ' has-problem' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children(problem ? errorId : undefined, problem !== undefined)}
      {problem ? (
        <p id={errorId} className="field-problem" role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
}

/** A number input bound to a number (NaN while empty). */
export function NumberInput({
  id,
  value,
  onChange,
  describedBy,
  invalid,
  min,
  max,
}: {
  id: string;
  value: number;
  onChange: (value: number) => void;
  describedBy: string | undefined;
  invalid: boolean;
  min?: number;
  max?: number;
}) {
  return (
    <input
      id={id}
      type="number"
      inputMode="numeric"
      min={min}
      max={max}
      value={Number.isNaN(value) ? '' : String(value)}
      onChange={(event) => onChange(event.target.value.trim() === '' ? Number.NaN : Number(event.target.value))}
      aria-describedby={describedBy}
      aria-invalid={invalid}
    />
  );
}

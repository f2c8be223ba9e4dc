/** A labelled checkbox that reads as a switch (role="switch"), in the header's field style. */
export function SwitchField({ id, label, title, on, onChange }: { id: string; label: string; title: string; on: boolean; onChange: (on: boolean) => void }) {
  return (
    <div className="field switch-field" title={title}>
      <input id={id} type="checkbox" role="switch" aria-checked={on} className="switch" checked={on} onChange={(e) => onChange(e.target.checked)} />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

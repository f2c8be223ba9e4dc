/** The hints the learner asked for, in order; the last one spells out a schedule (reading it reveals the level). */
export function LevelHints({ hints, shown }: { hints: readonly string[]; shown: number }) {
  if (shown === 0) return null;
  return (
    <ol className="level-hints" aria-label="Hints">
      {hints.slice(0, shown).map((hint) => (
        <li key={hint}>{hint}</li>
      ))}
    </ol>
  );
}

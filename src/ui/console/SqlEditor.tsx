import { type KeyboardEvent, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { highlightSql } from '../../sql/console';

function growToText(element: HTMLTextAreaElement): void {
  element.style.height = 'auto';
  element.style.height = `${element.scrollHeight}px`;
}

interface Props {
  value: string;
  onChange(value: string): void;
  /** Ctrl/Cmd+Enter. */
  onRun(): void;
  /** ↑ on the first line (-1: older) and ↓ on the last line (+1: newer); true when it moved. */
  onHistory(direction: -1 | 1): boolean;
  describedBy: string;
}

/**
 * A plain <textarea> for the SQL, with the same text drawn highlighted underneath it (the textarea's own
 * text is transparent). The textarea grows with its text, so both wrap and scroll the same way. Only the
 * first HIGHLIGHT_MAX_CHARS characters (and HIGHLIGHT_MAX_TOKENS tokens) are coloured, so a long paste
 * keeps typing responsive; the rest is the same text, uncoloured.
 */
export function SqlEditor({ value, onChange, onRun, onHistory, describedBy }: Props) {
  const area = useRef<HTMLTextAreaElement>(null);
  // Bounded work per keystroke: the first few thousand characters are highlighted, the rest drawn plain.
  const highlighted = useMemo(() => highlightSql(value), [value]);

  // The textarea grows with its text (no scrollbar of its own), so it wraps exactly like the copy under it.
  useLayoutEffect(() => {
    if (area.current?.value === value) growToText(area.current);
  }, [value]);

  // …and again when its width changes (the panel opens, the window is resized).
  useEffect(() => {
    const element = area.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    let width = -1;
    const observer = new ResizeObserver(() => {
      if (element.clientWidth === width) return;
      width = element.clientWidth;
      growToText(element);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    const element = event.currentTarget;
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      onRun();
      return;
    }
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (element.selectionStart !== element.selectionEnd) return;
    const caret = element.selectionStart;
    if (event.key === 'ArrowUp' && !element.value.slice(0, caret).includes('\n')) {
      if (onHistory(-1)) event.preventDefault();
    } else if (event.key === 'ArrowDown' && !element.value.slice(caret).includes('\n')) {
      if (onHistory(1)) event.preventDefault();
    }
  };

  return (
    <div className="console-editor">
      <pre className="console-highlight" aria-hidden="true">
        {highlighted.tokens.map((token) => (
          <span key={token.start} className={`tok-${token.kind}`}>
            {token.text}
          </span>
        ))}
        {highlighted.plain}
        {/* A final newline would otherwise take no height. */}
        {'\n'}
      </pre>
      <textarea
        ref={area}
        aria-label="SQL console"
        aria-describedby={describedBy}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={onKeyDown}
        spellCheck={false}
        autoCapitalize="off"
        autoComplete="off"
        autoCorrect="off"
        rows={3}
        placeholder="SELECT * FROM runs;"
      />
    </div>
  );
}

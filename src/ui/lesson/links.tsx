/** Links between lesson views, and out to sources. */
import type { MouseEvent, ReactNode } from 'react';
import { isChapterId } from '../../lessons/chapters';
import { findSource } from '../../lessons/sources';
import type { ChapterId } from '../../lessons/types';

export type LessonTarget = { kind: 'chapter'; id: ChapterId } | { kind: 'question'; id: string } | { kind: 'challenge'; id: string };

/** A stable hash for a lesson place, so links can be opened in a new tab or shared. */
export function lessonHref(target: LessonTarget): string {
  return `#lesson/${target.kind}/${encodeURIComponent(target.id)}`;
}

/** An in-lesson link: navigates with the callback when there is one, else shows plain text. */
export function LessonLink<Target extends LessonTarget>({
  target,
  onOpen,
  children,
}: {
  target: Target;
  onOpen?: ((id: Target['id']) => void) | undefined;
  children: ReactNode;
}) {
  if (!onOpen) return <span>{children}</span>;
  const open = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    onOpen(target.id);
  };
  return (
    <a href={lessonHref(target)} onClick={open}>
      {children}
    </a>
  );
}

export function SourceLinks({ ids, title = 'Sources' }: { ids: readonly string[] | undefined; title?: string }) {
  const sources = (ids ?? []).map((id) => findSource(id)).filter((s) => s !== undefined);
  if (sources.length === 0) return null;
  return (
    <div className="ll-sources">
      <p className="ll-sources-title">{title}</p>
      <ul>
        {sources.map((source) => (
          <li key={source.id}>
            <a href={source.url} target="_blank" rel="noreferrer noopener">
              {source.label}
              <span className="ll-visually-hidden"> (opens in a new tab)</span>
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Reads a lesson hash (as lessonHref writes it), or null. */
export function parseLessonHash(hash: string): LessonTarget | null {
  const match = /^#lesson\/(chapter|question|challenge)\/(.+)$/.exec(hash);
  if (!match) return null;
  try {
    const id = decodeURIComponent(match[2]!);
    if (match[1] === 'chapter') return isChapterId(id) ? { kind: 'chapter', id } : null;
    return { kind: match[1] as 'question' | 'challenge', id };
  } catch {
    return null;
  }
}

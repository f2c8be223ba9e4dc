/** The chapter list, with done marks and the current chapter. */
import { CHAPTERS } from '../../lessons/chapters';
import type { LessonProgress } from '../../lessons/progress';
import { lessonHref } from './links';
import type { ChapterId } from '../../lessons/types';

export interface TableOfContentsProps {
  progress: LessonProgress;
  currentChapterId: string;
  onSelect: (chapterId: ChapterId) => void;
}

export function TableOfContents({ progress, currentChapterId, onSelect }: TableOfContentsProps) {
  const done = CHAPTERS.filter((c) => progress.chapters[c.id]?.done).length;
  return (
    <nav className="ll-toc" aria-label="Lesson chapters">
      <p className="ll-toc-count">
        {done} of {CHAPTERS.length} chapters done
      </p>
      <ol>
        {CHAPTERS.map((chapter) => {
          const isDone = progress.chapters[chapter.id]?.done === true;
          const current = chapter.id === currentChapterId;
          return (
            <li key={chapter.id} className={[current ? 'is-current' : '', isDone ? 'is-done' : ''].join(' ').trim() || undefined}>
              <a
                href={lessonHref({ kind: 'chapter', id: chapter.id })}
                aria-current={current ? 'page' : undefined}
                onClick={(event) => {
                  if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
                  event.preventDefault();
                  onSelect(chapter.id);
                }}
              >
                <span className="ll-toc-mark" aria-hidden="true">
                  {isDone ? '✓' : '○'}
                </span>
                <span className="ll-toc-title">{chapter.title}</span>
                <span className="ll-visually-hidden">{isDone ? ' (done)' : ' (not done yet)'}</span>
              </a>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

/** Lesson text: plain sentences where `backticks` mark code. */
import { Fragment } from 'react';

export function Rich({ text }: { text: string }) {
  const segments = text.split('`').map((part, position) => ({ part, code: position % 2 === 1, id: position }));
  return <>{segments.map((segment) => (segment.code ? <code key={segment.id}>{segment.part}</code> : <Fragment key={segment.id}>{segment.part}</Fragment>))}</>;
}

/**
 * Where a level's banner goes, directly above the timeline. The level in play is part of the learner's
 * progress (lessons/progress.ts), whose store comes in the lesson's chunk: it is had when the lab has
 * settled, as the lesson below has it, and the banner's own code only while a level is in play.
 */
import { Suspense, useCallback, useState, useSyncExternalStore } from 'react';
import type { ProgressStore } from '../../store/progress-store';
import { useWhenSettledAndQuiet } from '../deferred';
import { lazyPanel } from '../lazyPanel';
import { useProgressLoader } from '../lesson/useLessonProgress';

const { Panel: LevelBanner } = lazyPanel('The level', () => import('./LevelBanner').then((module) => module.LevelBanner));

export function LevelSlot() {
  const loader = useProgressLoader();
  const [store, setStore] = useState<ProgressStore | null>(null);
  const have = useCallback(() => void loader.load().then(setStore), [loader]);
  useWhenSettledAndQuiet(have, undefined, false);
  return store ? <LevelInPlay progress={store} /> : null;
}

function LevelInPlay({ progress }: { progress: ProgressStore }) {
  const levelId = useSyncExternalStore(progress.subscribe, () => progress.getState().progress.currentLevel);
  if (levelId === null) return null;
  return (
    <Suspense fallback={null}>
      <LevelBanner progress={progress} levelId={levelId} />
    </Suspense>
  );
}

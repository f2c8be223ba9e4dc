/**
 * Where a level's banner goes, directly above the timeline. The level in play is part of the learner's
 * progress (lessons/progress.ts), whose store comes in the lesson's chunk: it is had in the first pause
 * after the lab has settled (not while a first step is drawn), as the lesson below has it, and the banner's own code only while a level is in play. Until
 * then a reload during a level holds the room its banner last took (level-room.ts), so the banner comes
 * into room already kept and the timeline stays where it was first drawn.
 */
import { Suspense, useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import type { ProgressStore } from '../../store/progress-store';
import { useWhenSettledAndQuiet } from '../deferred';
import { lazyPanel } from '../lazyPanel';
import { useProgressLoader } from '../lesson/useLessonProgress';
import { keepLevelRoom, type LevelRoom, readLevelRoom } from './level-room';

const { Panel: LevelBanner } = lazyPanel('The level', () => import('./LevelBanner').then((module) => module.LevelBanner));

export function LevelSlot() {
  const loader = useProgressLoader();
  // undefined: not had yet; null: its code could not be had (no level then).
  const [store, setStore] = useState<ProgressStore | null | undefined>(undefined);
  // Read at the first render: what the page's first paint keeps for a banner.
  const [room] = useState(readLevelRoom);
  const have = useCallback(() => void loader.load().then(setStore), [loader]);
  useWhenSettledAndQuiet(have);
  if (store === undefined) return <HeldRoom room={room} />;
  return store ? <LevelInPlay progress={store} room={room} /> : null;
}

/** Empty room of the banner's last height, while its progress and code are on their way. */
function HeldRoom({ room }: { room: LevelRoom | null }) {
  return room ? <div className="level-room" style={{ height: room.height }} aria-hidden="true" /> : null;
}

function LevelInPlay({ progress, room }: { progress: ProgressStore; room: LevelRoom | null }) {
  const levelId = useSyncExternalStore(progress.subscribe, () => progress.getState().progress.currentLevel);
  // No level in play: no room to keep for the next reload.
  useEffect(() => {
    if (levelId === null) keepLevelRoom(null);
  }, [levelId]);
  if (levelId === null) return null;
  const kept = room?.level === levelId ? room : null;
  return (
    <Suspense fallback={<HeldRoom room={room} />}>
      <LevelBanner progress={progress} levelId={levelId} openAtFirst={kept?.open} />
    </Suspense>
  );
}

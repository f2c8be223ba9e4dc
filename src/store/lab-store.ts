/**
 * The lab's store: a vanilla zustand store (no React here), made of slices combined once. The React
 * binding is in react.tsx; the playback loop, links and storage use the store directly.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { loadPrefs } from './persist';
import { createPlaybackSlice } from './playback-slice';
import { createSessionSlice } from './session-slice';
import { createSpecSlice } from './spec-slice';
import type { LabDeps, LabState } from './types';
import { createUiSlice } from './ui-slice';
import { createYourSqlSlice } from './your-sql-slice';

export type LabStore = StoreApi<LabState>;

export function createLabStore(deps: LabDeps): LabStore {
  const store = createStore<LabState>()((...a) => ({
    ...createSessionSlice(deps)(...a),
    ...createPlaybackSlice(deps)(...a),
    ...createUiSlice()(...a),
    ...createYourSqlSlice(deps)(...a),
    ...createSpecSlice(deps)(...a),
  }));
  const prefs = loadPrefs(deps.storage);
  store.setState({ theme: prefs.theme, speed: prefs.speed, allControls: prefs.allControls, startCardDone: prefs.startCardDone });
  // The start card's story begins at the first step: a first step taken any other way (Next step, a key) is the card done too.
  store.subscribe((state, previous) => {
    if (state.startCardOpen && state.schedule.length > 0) state.closeStartCard();
    // A notice about the place the learner stood at (a refused step) ends when they move elsewhere or edit.
    const { settings: now, position, scenarioId } = state;
    const was = previous.settings;
    const moved = position !== previous.position || scenarioId !== previous.scenarioId || now.strategy !== was.strategy || now.fencing !== was.fencing;
    if (moved || state.yourSql.draft !== previous.yourSql.draft) state.dropPlaceNotices();
  });
  return store;
}

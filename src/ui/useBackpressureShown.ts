/**
 * Is the backpressure view shown? Its code (and its store, which follows the address) loads only when
 * the address is a backpressure link, at the start or later; from then on its store decides.
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import { isBackpressureFragment } from '../store/backpressure-link';

type BackpressureStore = typeof import('./backpressure/context').backpressureStore;

const noSubscription = () => () => {};

export function loadBackpressureStore(): Promise<BackpressureStore> {
  return import('./backpressure/context').then((module) => module.backpressureStore);
}

export function useBackpressureShown(): boolean {
  const [linked, setLinked] = useState(() => isBackpressureFragment(window.location.hash));
  const [store, setStore] = useState<BackpressureStore | null>(null);

  useEffect(() => {
    const follow = () => setLinked(isBackpressureFragment(window.location.hash));
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);

  useEffect(() => {
    if (!linked || store) return;
    let current = true;
    void loadBackpressureStore().then((loaded) => {
      if (current) setStore(() => loaded);
    });
    return () => {
      current = false;
    };
  }, [linked, store]);

  const active = useSyncExternalStore(store ? store.subscribe : noSubscription, () => (store ? store.getState().active : null));
  return active ?? linked;
}

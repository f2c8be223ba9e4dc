/**
 * Is the backpressure view shown? Its store follows the address from the page's start (src/app/page.tsx
 * connects it), so its `active` decides; the view's code loads only once it is shown.
 */
import { useBackpressure } from './backpressure/context';

export function useBackpressureShown(): boolean {
  return useBackpressure((state) => state.active);
}

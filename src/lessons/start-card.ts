/**
 * The words of the start card: what a first visit sees above the lab, at the lab's start (its first
 * scenario, the race, before any step; store/view.ts isStartView), and the one move it invites. The move
 * is a schedule token the lab plays like any other (its first step).
 */
export const START_CARD = {
  heading: 'Start here: two workers, one queue',
  body: 'Workers A and B look for the oldest pending run at the same moment, on a real Postgres. Step them one SQL statement at a time: does run 123 get claimed twice?',
  // Its own words, not the toolbar's "Step worker A" (shown beside it with "All controls"): two controls
  // with one name on one screen leave a screen reader, or a voice command, guessing which is meant.
  action: { label: 'Start with A', token: 'A' },
  dismiss: 'Explore on my own',
} as const;

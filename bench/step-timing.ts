/**
 * The first click's timing, in the page: shared by the cold-start (browser.bench.ts) and the returning
 * learner's (warm.bench.ts) benchmarks. `timeSteps` runs inside the page (page.evaluate sends its source),
 * so it must stay self-contained: no imports, no outer names.
 */

export interface StepTime {
  /** Click → the timeline's marks changed in the DOM. */
  dom: number;
  /** Click → the next animation frame after that (the update is about to be painted). */
  frame: number;
  /** The load's first click. */
  first: boolean;
  /** When it was clicked, ms after the page said it was ready (the first click waits for firstAfterMs, or longer if the caller came later). */
  afterReady: number;
}

/** Runs in the page: clicks Step up to n times (the first firstAfterMs after ready), timing each until the timeline has a new mark. */
export async function timeSteps({ n, firstAfterMs }: { n: number; firstAfterMs: number }): Promise<StepTime[]> {
  const times: StepTime[] = [];
  const readyAt = (window as unknown as { __bench: { ready: number } }).__bench.ready;
  await new Promise((done) => setTimeout(done, Math.max(0, readyAt + firstAfterMs - performance.now())));
  const stepButton = () => [...document.querySelectorAll('button')].find((el) => el.textContent?.trim() === 'Next step');
  const timelineState = () => {
    const svg = document.querySelector('svg[role="img"][aria-label*="imeline"]');
    return `${svg?.querySelectorAll('path.tl-mark').length ?? -1}|${svg?.getAttribute('aria-label') ?? ''}`;
  };
  for (let i = 0; i < n; i++) {
    const button = stepButton();
    if (!button || button.disabled) break;
    const before = timelineState();
    const started = performance.now();
    const afterReady = started - readyAt;
    const dom = await new Promise<number | null>((done) => {
      const observer = new MutationObserver(() => {
        if (timelineState() === before) return;
        observer.disconnect();
        clearTimeout(timer);
        done(performance.now() - started);
      });
      const timer = setTimeout(() => {
        observer.disconnect();
        done(null);
      }, 10_000);
      observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
      button.click();
    });
    if (dom === null) break;
    const frame = await new Promise<number>((done) => requestAnimationFrame(() => done(performance.now() - started)));
    times.push({ dom, frame, first: i === 0, afterReady });
    // Let the page settle (and the button come back) before the next click.
    await new Promise((done) => setTimeout(done, 150));
  }
  return times;
}

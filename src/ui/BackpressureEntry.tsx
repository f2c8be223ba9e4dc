/** The way into the backpressure lab, under the race lab: a plain link, so the view's code loads only when followed. */
export function BackpressureEntry() {
  return (
    <nav className="bp-entry" aria-label="More labs">
      <a href="#backpressure">Backpressure lab: many runs, tenants and limits, FIFO against a fair claim →</a>
    </nav>
  );
}

import { useEffect, useMemo, useRef, useState } from 'react';
import { formatSeconds } from '../../charts/draw';
import { TimeChart } from '../../charts/TimeChart';
import { WaitBoxes } from '../../charts/WaitBoxes';
import type { Domain, ZoomSync } from '../../charts/zoom-sync';
import type { LaneState } from '../../store/backpressure-store';
import { CLAIM_LABELS, type ClaimPolicy } from '../../sim/backpressure/types';
import { useBackpressure } from './context';
import { chartsFor, dollars, waitsFor } from './model';

const CHART_HEIGHT = 92;

function useWidth<T extends HTMLElement>(): [React.RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(400);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    // The width a chart may take: inside the element's padding (clientWidth includes it; a chart that
    // took it stuck out of the lane, and out of the page at 1440 px).
    const measure = () => {
      const style = getComputedStyle(element);
      setWidth(Math.floor(element.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight)));
    };
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    measure();
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

function Headline({ lane, cursor }: { lane: LaneState; cursor: number }) {
  const tick = lane.ticks[Math.min(cursor, lane.ticks.length - 1)];
  if (!tick) return <p className="bp-headline">Waiting for the first second…</p>;
  const spent = tick.costCents.reduce((a, b) => a + b, 0);
  const waiting = tick.pending.reduce((a, b) => a + b, 0);
  return (
    <p className="bp-headline">
      <span>
        <strong>{tick.done}</strong> done
      </span>
      {tick.stopped > 0 ? (
        <span>
          <strong>{tick.stopped}</strong> stopped at their budget
        </span>
      ) : null}
      <span>
        <strong>{waiting}</strong> waiting
      </span>
      <span>
        <strong>{dollars(spent)}</strong> spent
      </span>
      <span>
        <strong>{tick.idleClaims}</strong> idle workers
      </span>
    </p>
  );
}

export function LaneColumn({
  policy,
  sync,
  full,
  maxWait,
  palette,
}: {
  policy: ClaimPolicy;
  sync: ZoomSync;
  full: Domain;
  maxWait: number;
  palette: string[];
}) {
  const config = useBackpressure((s) => s.config);
  const lanes = useBackpressure((s) => s.lanes);
  const cursor = useBackpressure((s) => s.cursor);
  const lane = lanes[policy];
  const [ref, width] = useWidth<HTMLDivElement>();
  const charts = useMemo(() => chartsFor(config, lane, [lanes.fifo, lanes.fair], cursor, palette), [config, lane, lanes, cursor, palette]);
  const waits = useMemo(() => waitsFor(config, lane, cursor, palette), [config, lane, cursor, palette]);
  const slowest = waits.reduce<{ tenant: string; seconds: number } | null>((worst, row) => {
    const seconds = Math.max(row.waits.at(-1) ?? 0, row.longestOpenWait);
    return worst === null || seconds > worst.seconds ? { tenant: row.tenant, seconds } : worst;
  }, null);
  return (
    <section className={`bp-lane bp-lane-${policy}`} aria-label={CLAIM_LABELS[policy]} data-policy={policy} ref={ref}>
      <h2>{CLAIM_LABELS[policy]}</h2>
      <Headline lane={lane} cursor={cursor} />
      {charts.map((chart) => {
        const tick = lane.ticks[chart.spec.upTo];
        const now = tick ? chart.spec.series.map((s) => `${s.label} ${chart.spec.formatY(s.value(tick))}`).join(', ') : 'no data yet';
        return (
          <figure key={chart.id} className="bp-chart" data-chart={chart.id}>
            <figcaption>{chart.title}</figcaption>
            <TimeChart
              spec={chart.spec}
              full={full}
              sync={sync}
              height={CHART_HEIGHT}
              label={`${chart.title}, ${policy} claim, at ${formatSeconds(cursor)}: ${now}`}
            />
          </figure>
        );
      })}
      <figure className="bp-chart" data-chart="waits">
        <figcaption>
          Waiting time per tenant (box: middle half, bar: median, dot: longest; dashed: still waiting)
          {slowest && slowest.seconds > 0 ? ` — longest: tenant ${slowest.tenant}, ${formatSeconds(slowest.seconds)}` : ''}
        </figcaption>
        <WaitBoxes rows={waits} maxSeconds={maxWait} width={Math.max(240, width)} label={`Waiting time per tenant, ${policy} claim`} />
      </figure>
    </section>
  );
}

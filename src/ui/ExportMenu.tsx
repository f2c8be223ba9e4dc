import { Suspense, useEffect, useRef, useState } from 'react';
import { useLab, useLabStore } from '../store/react';
import { download } from './download';
import { lazyPanel } from './lazyPanel';
import { timelineSvg } from './timelineRef';

// Neither is needed until the learner asks for it: the snippet dialog and the timeline's exporters come on the first click.
const { Panel: EmbedDialog } = lazyPanel('The embed dialog', () => import('./embed/EmbedDialog').then((module) => module.EmbedDialog));
const exporters = () => import('../timeline/export');

/** Downloads of what the learner sees, and the link to it, folded into one menu. */
export function ExportMenu() {
  const store = useLabStore();
  const ready = useLab((s) => s.loaded);
  const [copied, setCopied] = useState(false);
  const [embedding, setEmbedding] = useState(false);
  const menu = useRef<HTMLDetailsElement>(null);

  useEffect(() => {
    const close = (event: Event) => {
      const details = menu.current;
      if (!details?.open) return;
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !details.contains(event.target as Node)) {
        details.open = false;
        if (event instanceof KeyboardEvent) details.querySelector('summary')?.focus();
      }
    };
    document.addEventListener('pointerdown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('pointerdown', close);
      document.removeEventListener('keydown', close);
    };
  }, []);

  const fileBase = () => {
    const { scenarioId, settings, position } = store.getState();
    return `lease-lab-${scenarioId}-${settings.strategy}-fencing-${settings.fencing ? 'on' : 'off'}-step-${position}`;
  };
  const done = () => {
    if (menu.current) menu.current.open = false;
  };
  const exportSvg = async () => {
    const svg = timelineSvg.current;
    done();
    if (!svg) return;
    try {
      const { timelineSvgText } = await exporters();
      download(new Blob([timelineSvgText(svg)], { type: 'image/svg+xml' }), `${fileBase()}.svg`);
    } catch (error) {
      store.getState().notify('error', 'The timeline could not be saved as SVG.', [error instanceof Error ? error.message : String(error)]);
    }
  };
  const exportPng = async () => {
    const svg = timelineSvg.current;
    done();
    if (!svg) return;
    try {
      const { timelinePng } = await exporters();
      download(await timelinePng(svg), `${fileBase()}.png`);
    } catch (error) {
      store.getState().notify('error', 'The timeline could not be drawn as a PNG.', [error instanceof Error ? error.message : String(error)]);
    }
  };
  const exportJson = () => {
    const trace = store.getState().trace();
    download(new Blob([`${JSON.stringify(trace, null, 2)}\n`], { type: 'application/json' }), `${fileBase()}.json`);
    done();
  };
  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(window.location.href);
      setCopied(true);
      // The link was copied without the spec: said in one line, never a link cut short.
      const spec = store.getState().specRunner.link;
      if (spec?.kind === 'too-long') store.getState().notify('warning', spec.message);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      store.getState().notify('info', 'The browser did not let the lab copy the link; copy it from the address bar.');
    }
    done();
  };
  return (
    <>
      <details ref={menu} className="menu">
        <summary>{copied ? 'Link copied' : 'Export'}</summary>
        <div className="menu-items">
          <button type="button" onClick={() => void exportSvg()} disabled={!ready}>
            Timeline as SVG
          </button>
          <button type="button" onClick={() => void exportPng()} disabled={!ready}>
            Timeline as PNG
          </button>
          <button type="button" onClick={exportJson} disabled={!ready}>
            Trace as JSON
          </button>
          <button type="button" onClick={() => void copyLink()} disabled={!ready}>
            Copy link
          </button>
          <button
            type="button"
            onClick={() => {
              done();
              setEmbedding(true);
            }}
            disabled={!ready}
          >
            Embed…
          </button>
        </div>
      </details>
      {embedding ? (
        <Suspense fallback={<output className="lazy-loading">Loading the embed dialog…</output>}>
          <EmbedDialog onClose={() => setEmbedding(false)} />
        </Suspense>
      ) : null}
    </>
  );
}

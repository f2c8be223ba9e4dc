/**
 * The "Your SQL" editor: its statements (kept as the learner types, your-sql-draft.ts), whether it is
 * shown, and what the last Apply found. Applying builds the strategy (your-sql.ts) and plays it through
 * the session (playDefinition), so stepping, playing, the link and the explorer all use it.
 */
import type { StateCreator } from 'zustand/vanilla';
import { definitionOf } from '../sim/simulated-worker';
import type { Settings } from '../sim/types';
import { strategyDefinition } from '../strategies';
import type { WriteRole } from '../strategies/custom';
import type { ClaimShape } from '../strategies/types';
import { readBinding } from '../sim/param-bindings';
import { loadDraft, saveDraft } from './your-sql-draft';
import { tooLongForLink } from './your-sql-link';
import { withShownBindings } from './your-sql-params';
import { buildYourSql, type YourSqlProblem, type YourSqlTexts, yourSqlTextsOf } from './your-sql';
import type { LabDeps, LabState, YourSqlSlice } from './types';

export interface YourSqlEditor {
  open: boolean;
  /** The statements in the editor; null until it is first opened (and nothing was saved). */
  draft: YourSqlTexts | null;
  /** Apply is analyzing (the parser's first use downloads it). */
  checking: boolean;
  problem: YourSqlProblem | null;
  /** Something the learner should know about the saved draft (damaged, or from a newer lab and so not saved over). */
  note: string | null;
  /** A newer lab's draft: shown, never written over. */
  readOnlyDraft: boolean;
}

function oneStatementText(claim: ClaimShape): string | null {
  return claim.shape === 'one-statement' ? claim.claim.text : null;
}

/** The claim the editor starts from: the current strategy's, or the atomic claim's for a two-step strategy. */
export function prefill(settings: Settings): YourSqlTexts {
  const own = yourSqlTextsOf(settings.definition);
  if (own) return own;
  const text = oneStatementText(definitionOf(settings).claim) ?? oneStatementText(strategyDefinition('skip-locked').claim) ?? '';
  return { claim: text, heartbeat: null, work: null, complete: null };
}

/** The lab's own file for a write role, which the editor starts from when the learner writes their own. */
export function labWriteText(settings: Settings, role: WriteRole): string {
  return strategyDefinition(settings.strategy)[role].fenced.text;
}

export function createYourSqlSlice(deps: LabDeps): StateCreator<LabState, [], [], YourSqlSlice> {
  return (set, get) => {
    const saved = loadDraft(deps.storage);
    const editor: YourSqlEditor = {
      open: false,
      draft: saved.kind === 'read' || saved.kind === 'newer' ? saved.texts : null,
      checking: false,
      problem: null,
      note:
        saved.kind === 'unreadable'
          ? `Your saved draft could not be read (${saved.why}), so the editor starts from the current strategy.`
          : saved.kind === 'newer'
            ? 'Your draft was saved by a newer version of Lease Lab: it is shown here, and this version will not save over it.'
            : null,
      readOnlyDraft: saved.kind === 'newer',
    };
    const update = (change: Partial<YourSqlEditor>) => set({ yourSql: { ...get().yourSql, ...change } });
    return {
      yourSql: editor,

      openYourSql() {
        const { yourSql, settings } = get();
        update({ open: true, draft: yourSql.draft ?? prefill(settings) });
      },

      closeYourSql() {
        update({ open: false });
      },

      editYourSql(role, text) {
        const { yourSql, settings } = get();
        if (role === 'claim' && text === null) return;
        const draft = { ...(yourSql.draft ?? prefill(settings)), [role]: text } as YourSqlTexts;
        update({ draft, problem: yourSql.problem?.role === role ? null : yourSql.problem });
        if (!get().yourSql.readOnlyDraft) saveDraft(deps.storage, draft);
      },

      bindYourSql(role, flags) {
        const { yourSql, settings } = get();
        const current = yourSql.draft ?? prefill(settings);
        const others = (current.params ?? []).filter((flag) => readBinding(flag).roleWord !== role);
        const params = [...others, ...flags];
        const { params: _old, ...rest } = current;
        const draft: YourSqlTexts = params.length === 0 ? rest : { ...rest, params };
        update({ draft, problem: yourSql.problem?.role === role || yourSql.problem?.role === null ? null : yourSql.problem });
        if (!get().yourSql.readOnlyDraft) saveDraft(deps.storage, draft);
      },

      async applyYourSql() {
        const { yourSql, settings, engineDatabase } = get();
        const typed = yourSql.draft ?? prefill(settings);
        // What the Parameters rows show runs, and the link carries it: a row left as offered binds its values.
        const draft = withShownBindings(typed);
        if (draft !== typed) {
          update({ draft });
          if (!yourSql.readOnlyDraft) saveDraft(deps.storage, draft);
        }
        if (engineDatabase?.kind === 'live') {
          update({
            problem: {
              role: null,
              kind: 'invalid',
              message:
                "in live mode the bridge runs only the lab's own statements; play your claim on your server from the command line: npm run sim -- run <scenario> --claim FILE --db URL",
            },
          });
          return false;
        }
        const tooLong = tooLongForLink(draft);
        if (tooLong) {
          update({ problem: { role: null, kind: 'invalid', message: tooLong } });
          return false;
        }
        update({ checking: true, problem: null });
        const built = await buildYourSql(draft);
        if (!built.ok) {
          update({ checking: false, problem: built.problem });
          return false;
        }
        update({ checking: false, problem: null });
        await get().playDefinition(built.definition);
        return true;
      },
    };
  };
}

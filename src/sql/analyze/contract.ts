/**
 * What the lab gives each role's statement and what it reads back: the parameters (the same as the lab's
 * own files for that role) and the RETURNING columns, in order, of the lab's file for the role
 * (claim-*.sql, heartbeat-fenced.sql, work-fenced.sql, complete-fenced.sql). A reaper (`check --reaper`) is
 * given none of the lab's values (only constants someone binds, `--param reaper:1=…`) and read for nothing:
 * which runs it put back is read from the rows before and after it.
 */
export type Role = 'claim' | 'heartbeat' | 'work' | 'complete' | 'reaper';

export interface Parameter {
  number: number;
  name: string;
  /** The SQL type the lab sends it as. */
  type: 'text' | 'integer';
}

export interface RoleSignature {
  parameters: readonly Parameter[];
  returning: readonly string[];
}

export const CONTRACTS: Readonly<Record<Role, RoleSignature>> = {
  claim: {
    parameters: [
      { number: 1, name: 'worker', type: 'text' },
      { number: 2, name: 'lease seconds', type: 'integer' },
    ],
    returning: ['run_id', 'lease_generation', 'lease_expires_at', 'cancel_requested'],
  },
  heartbeat: {
    parameters: [
      { number: 1, name: 'run', type: 'integer' },
      { number: 2, name: 'worker', type: 'text' },
      { number: 3, name: 'generation', type: 'integer' },
      { number: 4, name: 'lease seconds', type: 'integer' },
    ],
    returning: ['lease_expires_at', 'cancel_requested'],
  },
  work: {
    parameters: [
      { number: 1, name: 'run', type: 'integer' },
      { number: 2, name: 'generation', type: 'integer' },
      { number: 3, name: 'cost cents', type: 'integer' },
    ],
    returning: ['progress', 'cancel_requested'],
  },
  complete: {
    parameters: [
      { number: 1, name: 'run', type: 'integer' },
      { number: 2, name: 'generation', type: 'integer' },
      { number: 3, name: 'result', type: 'text' },
    ],
    returning: ['status', 'result'],
  },
  reaper: { parameters: [], returning: [] },
};

/** Each column's SQL type (src/sql/schema.sql). */
export const RUNS_COLUMN_TYPES: Readonly<Record<string, string>> = {
  run_id: 'integer',
  tenant: 'text',
  status: 'text',
  lease_owner: 'text',
  lease_expires_at: 'timestamptz',
  lease_generation: 'integer',
  heartbeat_at: 'timestamptz',
  cancel_requested: 'boolean',
  created_at: 'timestamptz',
  progress: 'integer',
  cost_cents: 'integer',
  result: 'text',
  work_steps: 'integer',
  call_cost_cents: 'integer',
  call_started_at: 'timestamptz',
  claimed_at: 'timestamptz',
  finished_at: 'timestamptz',
};

export const KEY_COLUMNS: readonly string[] = ['run_id'];

/**
 * What a two-statement claim's UPDATE is given (./gset.ts), so no binding of the learner's own goes with it
 * (check --param, the page's Parameters row). Here, not in gset.ts: the page's first load must not pull the parser's code.
 */
export const GSET_UPDATE_VALUES = 'its UPDATE gets $1 worker, $2 lease seconds and :name';

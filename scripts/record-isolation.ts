/**
 * npm run record-isolation [-- --db postgres://…]: records every plan of src/recordings/plans.ts on a real
 * PostgreSQL server and writes each to src/recordings/<id>.json, the traces the page shows for the
 * isolation levels it cannot run (PGlite is one session). Without --db it starts a throwaway server from
 * the machine's PostgreSQL binaries (as the ground truth does) and deletes it afterwards. The lab works in
 * a schema of its own on the server and drops it again.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { PostgresLab } from '../src/db/postgres-lab';
import { recordPlan } from '../src/engine/record';
import { RECORDING_PLANS } from '../src/recordings/plans';
import type { Recording } from '../src/recordings/recording';
import { findScenario } from '../src/scenarios';
import { sqlText } from '../src/sql/registry';
import { startPostgresServer } from '../tests/support/postgres-server';

const root = join(import.meta.dirname, '..');

/** server_version up to its first space: "15.18". */
async function serverVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ version: string }>(sqlText('server-version'));
    return String(result.rows[0]?.version).split(' ')[0]!;
  } finally {
    await client.end();
  }
}

/** One field a line, and one step a line: a new recording's diff shows which steps changed. */
function fileText(recording: Recording): string {
  const fields = Object.entries(recording).map(([key, value]) => {
    const text = Array.isArray(value) && key === 'steps' ? `[\n${value.map((step) => `  ${JSON.stringify(step)}`).join(',\n')}\n ]` : JSON.stringify(value);
    return ` ${JSON.stringify(key)}: ${text}`;
  });
  return `{\n${fields.join(',\n')}\n}\n`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { db: { type: 'string' } } });
  const server = values.db ? null : await startPostgresServer();
  const url = values.db ?? server!.url;
  try {
    const version = await serverVersion(url);
    for (const plan of RECORDING_PLANS) {
      const workers = findScenario(plan.scenarioId)?.workers.map((worker) => worker.id) ?? [];
      const db = await PostgresLab.connect(url, workers, { schema: 'own' });
      try {
        const recording = await recordPlan(db, plan, version);
        const file = join(root, 'src/recordings', `${plan.id}.json`);
        writeFileSync(file, fileText(recording));
        console.log(`${plan.id}: ${recording.steps.length} steps on PostgreSQL ${version} → ${file}`);
      } finally {
        await db.close();
      }
    }
  } finally {
    await server?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(`record-isolation: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

// The baseline: PGlite as its README starts it, on the main thread, running initdb, no lab settings.
import { PGlite } from '@electric-sql/pglite';

const status = document.getElementById('status')!;
const pg = await PGlite.create();
await pg.query('SELECT 1');
status.textContent = 'Postgres answered.';
document.documentElement.dataset.labReady = 'true';

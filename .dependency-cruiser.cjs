/**
 * The layers of src/, enforced by `npm run layers` (run by `npm test` right after lint).
 *
 *   sql ← strategies ← sim ← db ← engine ← webworker ← store ← ui / timeline / charts ← app
 *
 * Each layer's rule lists what it may import; anything else in src/ is a violation. sql, strategies (the claim strategies
 * as data: their .sql files and definitions) and sim are the pure foundation; scenarios sit beside sim (data the sim runs), recordings beside them (traces recorded on a real server) and lessons are content over sim and scenarios;
 * persist/ is the one way anything is kept in the browser's storage, below everything that keeps something. The
 * store reaches the engine only through the Web Worker clients (webworker/, explorer/, the explorer's own worker);
 * the views (ui, timeline, charts) reach everything below only through the store. app/ is the composition root
 * (main.tsx's page): it builds the engines and stores and hands them to the views through React context. offline/ (the service worker)
 * stands alone. cli/ and live/ are Node-only roots that nothing in src/ imports, and they import no browser code.
 * Node-only code (cli/, live/, db/postgres-*, the Vite plugin) is never imported by browser
 * code, and browser code imports no Node core module and no pg. Imports are resolved paths, including
 * `import()` and `./x.sql?raw` (resolved to the .sql file).
 */
const layer = (name, allowed) => ({
  name: `layer-${name}`,
  comment: `${name} may import only ${allowed.length ? allowed.join(', ') : 'itself'}`,
  severity: 'error',
  from: { path: `^src/${name}/` },
  to: { path: '^src/', pathNot: [`^src/(${[name, ...allowed].join('|')})/`] },
});

const nodeOnly = ['^src/(cli|live)/', '^src/db/postgres-', '^src/offline/vite-plugin\\.mjs$'];

module.exports = {
  forbidden: [
    layer('sql', []),
    layer('strategies', ['sql']),
    layer('sim', ['sql', 'strategies']),
    layer('scenarios', ['sql', 'strategies', 'sim']),
    // traces recorded on a real server, as data the page steps through (recorded by engine/record.ts)
    layer('recordings', ['sql', 'strategies', 'sim', 'scenarios']),
    // the one persistence mechanism (versions, migrations, guarded storage): imports nothing
    layer('persist', []),
    layer('lessons', ['sql', 'strategies', 'sim', 'scenarios', 'recordings', 'persist']),
    // a spec in PostgreSQL's isolation-tester format: its parser, output form and permutation runner, pure
    layer('spec', []),
    layer('db', ['sql', 'strategies', 'sim', 'spec']),
    layer('engine', ['sql', 'strategies', 'sim', 'scenarios', 'recordings', 'db']),
    layer('webworker', ['sql', 'strategies', 'sim', 'scenarios', 'recordings', 'lessons', 'spec', 'db', 'engine']),
    layer('explorer', ['sql', 'strategies', 'sim', 'scenarios', 'db', 'engine']),
    layer('offline', []),
    layer('store', ['sql', 'strategies', 'sim', 'scenarios', 'recordings', 'lessons', 'persist', 'webworker', 'explorer']),
    // the views reach the engine only through the store
    layer('charts', ['sql', 'strategies', 'sim', 'scenarios', 'lessons', 'store']),
    layer('timeline', ['sql', 'strategies', 'sim', 'scenarios', 'lessons', 'store', 'charts']),
    layer('ui', ['sql', 'strategies', 'sim', 'scenarios', 'recordings', 'lessons', 'persist', 'store', 'timeline', 'charts', 'offline']),
    // the composition root: builds every engine and store and hands them to the views; nothing below imports it
    layer('app', ['sql', 'strategies', 'sim', 'scenarios', 'lessons', 'persist', 'db', 'engine', 'webworker', 'explorer', 'offline', 'store', 'ui', 'timeline', 'charts']),
    layer('cli', ['sql', 'strategies', 'sim', 'scenarios', 'lessons', 'db', 'engine', 'spec']),
    layer('live', ['sql', 'strategies', 'sim', 'scenarios', 'lessons', 'db', 'engine', 'webworker']),
    {
      name: 'sim-is-pure',
      comment: 'sim/, the strategies it runs and spec/ import no package at all: no framework, driver or renderer',
      severity: 'error',
      from: { path: '^src/(sim|strategies|spec)/' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown', 'core'] },
    },
    {
      name: 'driver-only-in-db',
      comment: 'only db/ imports a database driver (PGlite or pg)',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/db/' },
      to: { path: '(^|/)node_modules/(@electric-sql/pglite|pg)/' },
    },
    {
      name: 'engine-through-the-port',
      comment: 'engine/ reaches the database only through db/port.ts',
      severity: 'error',
      from: { path: '^src/engine/' },
      to: { path: '^src/db/', pathNot: '^src/db/port\\.ts$' },
    },
    {
      name: 'node-not-to-browser-code',
      comment: 'Node-only code (cli/, live/) does not import browser-only code (the live bridge client, the Web Workers, the views)',
      severity: 'error',
      from: { path: '^src/(cli|live)/' },
      to: { path: '^src/(db/bridge-lab\\.ts$|webworker/|explorer/|store/|ui/|timeline/|charts/|offline/)' },
    },
    {
      name: 'no-node-only-in-browser',
      comment: 'browser code never imports Node-only code (cli/, live/, db/postgres-*, the Vite plugin)',
      severity: 'error',
      from: { path: '^src/', pathNot: nodeOnly },
      to: { path: nodeOnly },
    },
    {
      name: 'no-pg-in-browser',
      comment: 'browser code never imports pg (the PostgreSQL driver)',
      severity: 'error',
      from: { path: '^src/', pathNot: nodeOnly },
      to: { path: '(^|/)node_modules/pg/' },
    },
    {
      name: 'no-node-builtins-core-in-browser',
      comment: 'browser code never imports a Node core module',
      severity: 'error',
      from: { path: '^src/', pathNot: nodeOnly },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'every relative import in src/ resolves (so no layer rule is dodged by a path the cruiser cannot follow)',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true, path: '^\\.\\.?/' },
    },
  ],
  options: {
    parser: 'swc',
    exclude: { path: '\\.d\\.m?ts$' },
    tsPreCompilationDeps: true,
    moduleSystems: ['es6', 'cjs'],
    doNotFollow: { path: 'node_modules' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
    // `./x.sql?raw` resolves to the .sql file (the resolver drops the query), so sql/ is cruised like the rest.
  },
};

/**
 * PostgreSQL's own parser (libpg_query compiled to WebAssembly, the `libpg-query` package), loaded on first
 * use only: the module and its 1.7 MB of wasm are fetched by a dynamic import() the first time a statement is
 * analyzed, never by the app's first load.
 *
 * The package's own entry point starts the wasm module as soon as it is imported, with no way to say where
 * the .wasm file is; in a bundled page that guess (the page's own directory) is wrong. So this file starts
 * the Emscripten module itself: in the browser with the URL the bundler gave the .wasm asset, in Node from
 * the package's directory (the module's own default). It then calls the library's C entry points
 * (pg_query_parse through wasm_parse_query_raw) directly.
 */

/** The members of the Emscripten module this file uses (see libpg-query's wasm/index.js for the ABI). */
interface ParserModule {
  _malloc(size: number): number;
  _free(pointer: number): void;
  _wasm_parse_query_raw(query: number): number;
  _wasm_free_parse_result(result: number): void;
  getValue(pointer: number, type: 'i32'): number;
  UTF8ToString(pointer: number): string;
  lengthBytesUTF8(text: string): number;
  stringToUTF8(text: string, pointer: number, capacity: number): void;
}

type ModuleFactory = (options?: { locateFile?: (file: string) => string }) => Promise<ParserModule>;

/** A syntax error as PostgreSQL reports it: its message and the 0-based character offset of its cursor. */
interface ParserError {
  message: string;
  cursor: number;
}

type ParseOutcome = { ok: true; tree: ParseTree } | { ok: false; error: ParserError };

/** The JSON parse tree (PostgreSQL 18's node names; see @pgsql/types). Read through ./tree.ts. */
export interface ParseTree {
  version: number;
  stmts?: { stmt: Record<string, unknown>; stmt_location?: number; stmt_len?: number }[];
}

export interface Parser {
  parse(text: string): ParseOutcome;
}

let loading: Promise<Parser> | null = null;

/** The parser, loaded once per page or process. */
export function loadParser(): Promise<Parser> {
  loading ??= startParser().catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

const inNode = typeof process !== 'undefined' && typeof process.versions?.node === 'string' && typeof window === 'undefined';

async function startParser(): Promise<Parser> {
  const factory = ((await import('libpg-query/wasm/libpg-query.js')) as { default: ModuleFactory }).default;
  const module = inNode ? await factory() : await factory({ locateFile: await browserWasmLocator() });
  return { parse: (text) => parseWith(module, text) };
}

async function browserWasmLocator(): Promise<(file: string) => string> {
  const wasmUrl = ((await import('libpg-query/wasm/libpg-query.wasm?url')) as { default: string }).default;
  return () => wasmUrl;
}

// Offsets in libpg_query's PgQueryParseResult and PgQueryError structs (32-bit wasm pointers).
const RESULT_TREE = 0;
const RESULT_ERROR = 8;
const ERROR_MESSAGE = 0;
const ERROR_CURSOR = 16;

function parseWith(module: ParserModule, text: string): ParseOutcome {
  const capacity = module.lengthBytesUTF8(text) + 1;
  const query = module._malloc(capacity);
  let result = 0;
  try {
    module.stringToUTF8(text, query, capacity);
    result = module._wasm_parse_query_raw(query);
    if (!result) throw new Error('the SQL parser ran out of memory');
    const error = module.getValue(result + RESULT_ERROR, 'i32');
    if (error) {
      const message = module.UTF8ToString(module.getValue(error + ERROR_MESSAGE, 'i32'));
      // PostgreSQL's cursor position counts characters from 1; 0 means "no position".
      const cursor = module.getValue(error + ERROR_CURSOR, 'i32');
      return { ok: false, error: { message, cursor: Math.max(0, cursor - 1) } };
    }
    return { ok: true, tree: JSON.parse(module.UTF8ToString(module.getValue(result + RESULT_TREE, 'i32'))) as ParseTree };
  } finally {
    module._free(query);
    if (result) module._wasm_free_parse_result(result);
  }
}

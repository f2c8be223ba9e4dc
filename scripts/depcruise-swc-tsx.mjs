// Preloaded by `npm run layers`: dependency-cruiser's swc parser parses every file as TypeScript without JSX
// (its options have no `tsx`), so .tsx files fail to parse. This turns `tsx` on for .tsx files only, on the same
// @swc/core module object dependency-cruiser imports. (TypeScript 7 has no JavaScript compiler API, so the
// cruiser's default `tsc` parser is not available.)
import { createRequire } from 'node:module';

const swc = createRequire(import.meta.url)('@swc/core');
const parseFileSync = swc.parseFileSync;
swc.parseFileSync = (file, options) => parseFileSync(file, { ...options, tsx: String(file).endsWith('.tsx') });

// Lets Node (the CLI and benchmarks) import `file.sql?raw` the way Vite does: as the file's text.
import { register } from 'node:module';

register('./raw-loader-hooks.mjs', import.meta.url);

/**
 * The project's own Vite config, plus what the benchmark needs: the data-directory plugin (when the
 * project config does not have it yet) and a record of the bundle's composition for the size table.
 */
import { type ConfigEnv, defineConfig, mergeConfig, type PluginOption, type UserConfig } from 'vite';
import base from '../vite.config';
import { labDataDir } from '../scripts/build-datadir-plugin.mjs';
import { composition } from './composition-plugin';

type ConfigInput = UserConfig | ((env: ConfigEnv) => UserConfig | Promise<UserConfig>);

function names(plugins: PluginOption | undefined): string[] {
  if (Array.isArray(plugins)) return plugins.flatMap((p: PluginOption) => names(p));
  return plugins && typeof plugins === 'object' && 'name' in plugins ? [String(plugins.name)] : [];
}

export default defineConfig(async (env) => {
  const input = base as ConfigInput;
  const project = typeof input === 'function' ? await input(env) : input;
  const hasDataDir = names(project.plugins).includes('lease-lab:data-dir');
  return mergeConfig(project, {
    cacheDir: 'node_modules/.vite-bench-app',
    plugins: [...(hasDataDir ? [] : [labDataDir()]), composition()],
    worker: { plugins: () => [composition()] },
    logLevel: 'warn',
  } satisfies UserConfig);
});

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { listenOn, portFlag, waitFlag } from './args.js';
import { defineCommand } from './command.js';

const USAGE = `crawlbench serve [--dir WORKSPACE] [--port N]

Browser mode: serves the workbench and its API on 127.0.0.1 only, guarded by a random
token; open the URL it prints. Crawls are kept in WORKSPACE (default ./crawls).
  --dir DIR              workspace folder of crawl databases (default ./crawls)
  --port N               port (default 0: any free port)
  --demo-port N          the demo webs' port (default 38471): one stable port, so that demo
                         crawls made at different times have the same URLs (history, comparison)
  --demo-log FILE        append every request the demo webs serve to FILE (NDJSON)
  --export-throttle D    pause every export for D after each chunk of rows (to watch or test
                         its progress and Cancel; default 0)
  --datasets DIR         dataset folders the simulator offers (each holding pages.tsv.gz and
                         links.tsv.gz; default WORKSPACE/datasets)
  --simulation-throttle D  pause a simulation for D after each progress step (to watch or test
                         its progress and Cancel; default 0)`;

const OPTIONS = {
  dir: { type: 'string' },
  port: { type: 'string' },
  'demo-log': { type: 'string' },
  'demo-port': { type: 'string' },
  'export-throttle': { type: 'string' },
  datasets: { type: 'string' },
  'simulation-throttle': { type: 'string' },
} as const;

/** The renderer's build output, beside dist/core/ when compiled (dist/renderer). */
export function rendererDir(): string {
  return fileURLToPath(new URL('../../renderer/', import.meta.url)).replace(/[/\\]$/, '');
}

export const serveCommand = defineCommand({
  name: 'serve',
  summary: 'the workbench in a browser: UI and API on 127.0.0.1, guarded by a token',
  usage: USAGE,
  options: OPTIONS,
  async run(flags) {
    const demoPort = portFlag(flags, 'demo-port');
    const port = portFlag(flags, 'port') ?? 0;
    // Loaded here, not at start-up: every other command would pay for the whole engine API.
    const [{ EngineApi }, { keepServing, startBrowserServer }] = await Promise.all([import('../api/engine-api.js'), import('../api/browser-server.js')]);
    const api = new EngineApi(flags.dir ?? 'crawls', { demoLog: flags['demo-log'], demoPort, datasetsDir: flags.datasets, simulationThrottleMs: waitFlag(flags, 'simulation-throttle'), exportThrottleMs: waitFlag(flags, 'export-throttle') });
    const staticDir = rendererDir();
    if (!existsSync(staticDir)) process.stderr.write(`crawlbench serve: the renderer is not built (${staticDir}); run \`npm run build:renderer\`\n`);
    const server = await listenOn('port', port, () => startBrowserServer({ api, staticDir, exportsDir: api.exportsDir, port })).catch(async (err: unknown) => {
      await api.close();
      throw err;
    });
    process.stdout.write(`crawlbench workbench: ${server.url}\n`);
    // An error outside any request is logged and the server serves on (no request can take it down).
    const unguard = keepServing();
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    // Pausing commits each running crawl's batch, so that all of them can be resumed later.
    await api.close();
    await server.close();
    unguard();
    return 0;
  },
});

// Bundles the Electron host: main (ESM), the engine's utility process and the sandboxed
// preload (CommonJS, one file: sandboxed preloads cannot load modules).
import { build } from 'esbuild';

const common = { bundle: true, platform: 'node', target: 'node22', sourcemap: true, external: ['electron', 'better-sqlite3'], logLevel: 'warning' };
await build({ ...common, entryPoints: ['electron/main.ts'], outfile: 'dist/electron/main.mjs', format: 'esm' });
await build({ ...common, entryPoints: ['electron/engine-host.ts'], outfile: 'dist/electron/engine-host.cjs', format: 'cjs' });
// The simulator's worker thread (simulation-jobs.ts starts it; engine-host.ts names this file).
await build({ ...common, entryPoints: ['core/api/simulation-worker.ts'], outfile: 'dist/electron/simulation-worker.cjs', format: 'cjs' });
// The heavy jobs' worker thread: PageRank, evaluation, compare, export, graph export, partition (worker-jobs.ts starts it; engine-host.ts names this file).
await build({ ...common, entryPoints: ['core/api/job-worker.ts'], outfile: 'dist/electron/job-worker.cjs', format: 'cjs' });
// The Sites and Pages reads' worker threads (read-pool.ts starts them; engine-host.ts names this file).
await build({ ...common, entryPoints: ['core/api/read-worker.ts'], outfile: 'dist/electron/read-worker.cjs', format: 'cjs' });
// Each running crawl's own process (crawl-process.ts starts it with ELECTRON_RUN_AS_NODE; engine-host.ts names this file).
await build({ ...common, entryPoints: ['core/api/crawl-runner.ts'], outfile: 'dist/electron/crawl-runner.cjs', format: 'cjs' });
// A running crawl's writer thread and parse thread (store-writer.ts, parse-pool.ts start them beside crawl-runner.cjs).
await build({ ...common, entryPoints: ['core/store/writer-thread.ts'], outfile: 'dist/electron/writer-thread.cjs', format: 'cjs' });
await build({ ...common, entryPoints: ['core/parse/parse-thread.ts'], outfile: 'dist/electron/parse-thread.cjs', format: 'cjs' });
await build({ ...common, entryPoints: ['electron/preload.ts'], outfile: 'dist/electron/preload.cjs', format: 'cjs' });

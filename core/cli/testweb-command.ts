import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { badOption } from '../errors.js';
import { generateWeb, type WebSpec } from '../testweb/generator.js';
import { exportGraphDir, loadGraphDir } from '../testweb/graph-files.js';
import { applySchemes } from '../testweb/schemes.js';
import { DEFAULT_TLS_BOTH } from '../testweb/spec.js';
import { TestCa } from '../testweb/tls-certs.js';
import { TestWebServer } from '../testweb/server.js';
import { seedUrls, type Web } from '../testweb/web.js';
import { writeQualities } from '../testweb/quality-file.js';
import { intFlag, listenOn, numberFlag, portFlag, type FlagsOf } from './args.js';
import { defineCommand } from './command.js';

const USAGE = `crawlbench testweb [options]    serve a test web on 127.0.0.1 until interrupted

  --web-seed N           seed of the generated web (default 1): same seed, same web
  --sites N              ordinary sites (default 500)
  --pages N              ordinary pages, about (default 20000)
  --max-site-pages N     cap on one site's size
  --revision 1|2         2 = the same web months later (55% of URLs survive)
  --faults               add the fault sites (stalls, resets, traps, bombs, bad robots.txt ...)
  --sitemaps             some sites serve sitemaps, broken ones too, listing pages no page links to
  --latency MS|off       per-site latency, heavy-tailed, at most MS (default 20)
  --bandwidth            per-site transfer rates, heavy-tailed
  --time-factor F        multiply latencies and transfer times (default 1; 0 = off)
  --graph DIR            serve pages.tsv.gz + links.tsv.gz from DIR instead
  --export DIR           write the generated web as pages.tsv.gz + links.tsv.gz and exit
  --port N               port (default 0: any free port)
  --bind-per-site        every site on its own loopback address (127.x.y.z hosts keep theirs,
                         others get 127.1.0.1, 127.1.0.2 ...), all on one port; 'resolve' maps each
  --log FILE             append every request served as NDJSON (time, host, connection id)
  --seeds-out FILE       write every site's home page URL to FILE
  --validators           send ETag and Last-Modified and answer conditional requests honestly
                         (304 only for a page that did not change since revision 1)
  --tls SHARE            serve this share of the sites (0..1) over TLS too, on the same port, with
                         certificates from a test CA; with --faults, the TLS fault sites as well
  --tls-both SHARE       of the sites on TLS, the share also on http, redirecting to https (default 0.33)
  --handshake-rtt        a connection's first answer waits the site's latency once more (the round
                         trip of a TCP handshake), so that a new connection per page costs what it does
  --keep-alive-header    every site says its keep-alive limit on each response before the last
                         (Keep-Alive: timeout=15, max=requests left), as Apache does
  --quality zipf         give pages a quality from a Zipf law (1/i, in a random order from
                         --web-seed), written as URL<TAB>quality to --qualities-out: crawl --history
                         reads it (quality, crawl-ability)
  --qualities-out FILE   where the qualities go (default: qualities.tsv beside --seeds-out)
  --ca-out FILE          where the test CA's certificate goes (default: ca.pem beside --seeds-out);
                         its key beside it (FILE-key.pem); both reused if there, so a restarted web
                         serves certificates a crawl made against it still trusts (crawl --ca FILE)
Prints one JSON line {url, port, resolve, sites, pages, ca} when it is ready.`;

const OPTIONS = {
  'web-seed': { type: 'string' },
  sites: { type: 'string' },
  pages: { type: 'string' },
  'max-site-pages': { type: 'string' },
  revision: { type: 'string' },
  faults: { type: 'boolean' },
  sitemaps: { type: 'boolean' },
  latency: { type: 'string' },
  bandwidth: { type: 'boolean' },
  'time-factor': { type: 'string' },
  graph: { type: 'string' },
  export: { type: 'string' },
  port: { type: 'string' },
  'bind-per-site': { type: 'boolean' },
  log: { type: 'string' },
  'seeds-out': { type: 'string' },
  tls: { type: 'string' },
  'tls-both': { type: 'string' },
  'ca-out': { type: 'string' },
  validators: { type: 'boolean' },
  'keep-alive-header': { type: 'boolean' },
  'handshake-rtt': { type: 'boolean' },
  quality: { type: 'string' },
  'qualities-out': { type: 'string' },
} as const;

/** A share flag (0..1), or its default. */
function shareFlag(flags: FlagsOf<typeof OPTIONS>, name: 'tls' | 'tls-both', fallback: number): number {
  const v = numberFlag(flags, name, 0) ?? fallback;
  if (v > 1) throw badOption(`--${name}`, 'must be a share from 0 to 1');
  return v;
}

export function webFromFlags(flags: FlagsOf<typeof OPTIONS>): Web {
  const tls = shareFlag(flags, 'tls', 0);
  const tlsBoth = shareFlag(flags, 'tls-both', DEFAULT_TLS_BOTH);
  if (flags.graph) {
    const web = loadGraphDir(flags.graph);
    applySchemes(web.sites, web.seed ?? 0, tls, tlsBoth);
    return web;
  }
  const revision = intFlag(flags, 'revision', 1) ?? 1;
  if (revision !== 1 && revision !== 2) throw badOption('--revision', 'must be 1 or 2');
  const latencyText = flags.latency ?? '20';
  const spec: WebSpec = {
    seed: intFlag(flags, 'web-seed', 0) ?? 1,
    sites: intFlag(flags, 'sites', 1) ?? 500,
    pages: intFlag(flags, 'pages', 1) ?? 20_000,
    revision,
    faults: !!flags.faults,
    sitemaps: !!flags.sitemaps,
    maxSitePages: intFlag(flags, 'max-site-pages', 1),
    latency: latencyText === 'off' ? false : { maxMs: numberFlag({ latency: latencyText }, 'latency', 0)! },
    bandwidth: !!flags.bandwidth,
    tls,
    tlsBoth,
    keepAliveHeader: !!flags['keep-alive-header'],
  };
  if (flags.quality !== undefined) {
    if (flags.quality !== 'zipf') throw badOption('--quality', "must be 'zipf'");
    spec.quality = 'zipf';
  }
  return generateWeb(spec);
}

export const testwebCommand = defineCommand({
  name: 'testweb',
  summary: 'serve a generated national web (or a graph from files) on loopback',
  usage: USAGE,
  options: OPTIONS,
  async run(flags) {
    const listenPort = portFlag(flags, 'port') ?? 0;
    const web = webFromFlags(flags);
    if (flags.export) {
      await exportGraphDir(web, flags.export);
      process.stdout.write(JSON.stringify({ exported: flags.export, sites: web.sites.length, pages: web.pageCount }) + '\n');
      return 0;
    }
    const caFile = flags['ca-out'] ?? (flags['seeds-out'] ? join(dirname(flags['seeds-out']), 'ca.pem') : undefined);
    const hasTls = web.sites.some((s) => s.scheme === 'https' || s.scheme === 'both');
    const ca = hasTls && caFile ? await TestCa.atFiles(caFile, caFile.replace(/(\.pem)?$/, '-key.pem')) : undefined;
    const server = new TestWebServer(web, {
      ca,
      port: listenPort,
      timeFactor: numberFlag(flags, 'time-factor', 0) ?? 1,
      validators: !!flags.validators,
      logFile: flags.log,
      memoryLog: false,
      bindPerSite: !!flags['bind-per-site'],
      handshakeRtt: !!flags['handshake-rtt'],
    });
    // A web bound per site may fail on its tenth address: the nine it holds are let go, or they would keep the process.
    const port = await listenOn('port', listenPort, async () => {
      try {
        return await server.start();
      } catch (err) {
        await server.stop();
        throw err;
      }
    });
    const seeds = seedUrls(web, port);
    if (flags['seeds-out']) writeFileSync(flags['seeds-out'], seeds.join('\n') + '\n');
    const qualitiesFile = flags['qualities-out'] ?? (flags['seeds-out'] ? join(dirname(flags['seeds-out']), 'qualities.tsv') : undefined);
    if (web.quality && qualitiesFile) writeQualities(web, port, qualitiesFile);
    const suffixes = [...new Set(web.sites.map((s) => s.host.slice(s.host.indexOf('.'))))];
    const resolve =
      server.addresses.size > 0
        ? [...server.addresses].filter(([host, ip]) => host !== ip).map(([host, ip]) => `${host}=${ip}`).join(',')
        : flags.graph
          ? '*=127.0.0.1'
          : suffixes.map((s) => `*${s}=127.0.0.1`).join(',');
    process.stdout.write(
      JSON.stringify({
        url: `http://${server.addresses.values().next().value ?? '127.0.0.1'}:${port}`,
        port,
        resolve,
        sites: web.sites.length,
        pages: web.pageCount,
        ca: hasTls ? (caFile ?? null) : null,
      }) + '\n',
    );
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await server.stop();
    return 0;
  },
});

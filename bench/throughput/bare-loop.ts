/**
 * The bare loop: this machine's practical limit for fetching and parsing the throughput web.
 * One undici Client per origin (one keep-alive connection, no pipelining), up to
 * `concurrency` origins at once, each fetching its pages back to back; links extracted with
 * htmlparser2 and resolved against the page URL; nothing scheduled, deduplicated or stored.
 *
 *   node bare-loop.js URLS_FILE CONCURRENCY      (URLS_FILE: one URL per line)
 * Prints {pages, links, bytes, errors, seconds} as one JSON line.
 */
import { readFileSync } from 'node:fs';
import { Parser } from 'htmlparser2';
import { Client } from 'undici';

const [file, concurrencyText] = process.argv.slice(2);
const concurrency = Number(concurrencyText ?? 64);
const byOrigin = new Map<string, string[]>();
for (const line of readFileSync(file!, 'utf8').split('\n')) {
  if (line === '') continue;
  const origin = new URL(line).origin;
  let list = byOrigin.get(origin);
  if (!list) byOrigin.set(origin, (list = []));
  list.push(line);
}

let pages = 0;
let links = 0;
let bytes = 0;
let errors = 0;

function extract(html: string, base: string): number {
  let n = 0;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'a' && attrs.href !== undefined) {
          try {
            new URL(attrs.href, base);
            n++;
          } catch {
            /* not a URL */
          }
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  return n;
}

async function crawlOrigin(origin: string, urls: string[]): Promise<void> {
  const client = new Client(origin, { pipelining: 1, keepAliveTimeout: 15_000 });
  try {
    for (const url of urls) {
      const u = new URL(url);
      try {
        const res = await client.request({ path: u.pathname + u.search, method: 'GET' });
        const chunks: Buffer[] = [];
        for await (const c of res.body) chunks.push(c as Buffer);
        const body = Buffer.concat(chunks);
        bytes += body.length;
        if (res.statusCode === 200) {
          pages++;
          links += extract(body.toString('utf8'), url);
        } else errors++;
      } catch {
        errors++;
      }
    }
  } finally {
    await client.close();
  }
}

const origins = [...byOrigin.keys()];
let next = 0;
const t0 = performance.now();
await Promise.all(
  Array.from({ length: Math.min(concurrency, origins.length) }, async () => {
    while (next < origins.length) {
      const origin = origins[next++]!;
      await crawlOrigin(origin, byOrigin.get(origin)!);
    }
  }),
);
const seconds = (performance.now() - t0) / 1000;
process.stdout.write(JSON.stringify({ pages, links, bytes, errors, seconds }) + '\n');

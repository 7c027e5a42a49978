/**
 * Folders made for what crawlbench writes (an export, a comparison's tables, a parallel crawl's
 * parts, a crawl's bodies), without Node's recursive mkdir: where a file system answers ENOENT
 * for a folder that cannot be made under one that exists (/proc, /sys), that mkdir retries for
 * ever at full CPU, and `compare --out /proc/x` spun after its work was done.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Makes `path` and every missing folder above it, each by one mkdir; an error of any is thrown as mkdir gives it. */
export function makeFolders(path: string): void {
  const missing: string[] = [];
  for (let at = resolve(path); !existsSync(at); at = dirname(at)) {
    missing.push(at);
    if (dirname(at) === at) break;
  }
  // A file in the folder's place: mkdir's own error (EEXIST), as the recursive mkdir gave.
  if (missing.length === 0 && !statSync(path).isDirectory()) mkdirSync(path);
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder);
    } catch (err) {
      // Made meanwhile by another writer; anything else in its place (a file, a dangling link) as mkdir says it.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || !existsSync(folder) || !statSync(folder).isDirectory()) throw err;
    }
  }
}

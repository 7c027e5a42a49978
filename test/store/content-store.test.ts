import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ContentStore } from '../../core/store/content-store.js';
import { tmpDir } from '../helpers/tmp.js';

const dir = tmpDir();

describe('content store segments', () => {
  it('a resumed crawl appends to its last segment and goes on to new ones, never back to the first', () => {
    const path = join(dir, 'crawl.db.content');
    const body = Buffer.alloc(300, 'x');
    const first = new ContentStore(path, 1e9, 0, 1000);
    const at1 = [1, 2, 3, 4, 5].map(() => first.append('GET / HTTP/1.1\r\n\r\n', 'HTTP/1.1 200 OK\r\n\r\n', body)!);
    first.close();
    // ~337 bytes a record, 1,000 a segment: two records per segment.
    expect(at1.map((a) => a.segment)).toEqual([1, 1, 2, 2, 3]);

    const resumed = new ContentStore(path, 1e9, first.bytesStored, 1000);
    const at2 = [1, 2, 3].map(() => resumed.append('GET / HTTP/1.1\r\n\r\n', 'HTTP/1.1 200 OK\r\n\r\n', body)!);
    resumed.close();
    expect(at2.map((a) => a.segment)).toEqual([3, 4, 4]);
    expect(at2[0]!.offset).toBe(at1[4]!.offset + 337);
    expect(readdirSync(path).sort()).toEqual(['00001.bin', '00002.bin', '00003.bin', '00004.bin']);
    for (const f of readdirSync(path)) expect(statSync(join(path, f)).size).toBeLessThanOrEqual(1000);
  });

  it('a record larger than a segment goes whole into a segment of its own', () => {
    const path = join(dir, 'big.db.content');
    const store = new ContentStore(path, 1e9, 0, 100);
    const a = store.append('R', 'H', Buffer.alloc(500))!;
    const b = store.append('R', 'H', Buffer.alloc(10))!;
    store.close();
    expect([a.segment, a.offset, b.segment, b.offset]).toEqual([1, 0, 2, 0]);
  });
});

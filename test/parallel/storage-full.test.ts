/**
 * What a parallel crawl takes for a full disk (core/parallel/broker.ts storageFull): the
 * coordinator and the workers pause the whole crawl on it (exit 3, "PAUSED: ... full"), where
 * any other failure is an error. The broker answers a full store in two ways: 10047 when a write
 * finds no room, and 10023 "insufficient resources" once it has stopped writing; a CI run
 * started a crawl paused with its disk full again while still full and got the second, printed
 * as an internal error with a stack trace. The real disk is filled in parallel-faults.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { JetStreamApiError } from '@nats-io/jetstream';
import { storageFull } from '../../core/parallel/broker.js';
import { CrawlError, ErrorCodes } from '../../core/errors.js';

const api = (err_code: number, description: string) => new JetStreamApiError({ code: 500, err_code, description });

describe('a full disk, as the broker and this machine say it', () => {
  it('takes both of the broker answers for a full store, and a full disk here, for a full disk', () => {
    expect(storageFull(api(10047, 'insufficient storage resources available'))).toBe(true);
    expect(storageFull(api(10023, 'insufficient resources'))).toBe(true);
    expect(storageFull(new Error('write failed', { cause: api(10023, 'insufficient resources') }))).toBe(true);
    expect(storageFull(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }))).toBe(true);
    expect(storageFull(new CrawlError(ErrorCodes.DISK_FULL, 'full'))).toBe(true);
  });

  it('takes no other answer of the broker for one', () => {
    expect(storageFull(api(10059, 'stream not found'))).toBe(false);
    expect(storageFull(api(10071, 'wrong last sequence: 4'))).toBe(false);
    expect(storageFull(new Error('TIMEOUT'))).toBe(false);
  });
});

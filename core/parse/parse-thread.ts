/**
 * A parse pool's thread (parse-pool.ts): parses every page of a message (parsePage, as the
 * crawl thread would inline) and sends their results back in one message.
 */
import { parentPort } from 'node:worker_threads';
import { Bytes, BytesReader, readRequest, releaseBuffer, writeResult } from './parse-messages.js';
import { parsePage } from './page-parser.js';

const port = parentPort!;
const out = new Bytes();

port.on('message', (m: { batch: number; buffer: ArrayBuffer; length: number }) => {
  const r = new BytesReader(m.buffer, m.length);
  while (!r.done) {
    const { token, input } = readRequest(r);
    writeResult(out, token, parsePage(input));
  }
  releaseBuffer(m.buffer);
  const { buffer, length } = out.take();
  port.postMessage({ batch: m.batch, buffer, length }, [buffer]);
});

/**
 * Preloaded into bench/server-load's crawl maker: every import of the bench's own dist/core/
 * is answered from another checkout's dist/core/ ($CB_CORE_FROM, $CB_CORE_TO: file URLs of
 * both folders), so the makers of bench/export and bench/sites write the crawls with that
 * checkout's store, in its schema (a crawl database of a newer schema is refused by an older
 * crawlbench).
 */
import { register } from 'node:module';

const from = process.env.CB_CORE_FROM;
const to = process.env.CB_CORE_TO;
if (from && to && from !== to) register('./core-redirect-hooks.js', import.meta.url, { data: { from, to } });

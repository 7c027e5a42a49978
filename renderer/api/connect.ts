/**
 * Finds the API: in Electron the preload exposes it as window.crawlbench; in browser mode
 * it is reached over WebSocket with the token from the page's URL (then hidden from the
 * address bar, as the session cookie carries it from here on). A socket the server closes
 * (a request over the limit of one message, a restarted server) is opened again behind the
 * same API object; connectionStatus says what happened.
 */
import type { CrawlbenchApi } from '../../core/api/contract.js';
import { connectReconnecting } from '../../core/api/ws-client.js';
import { connectionStatus } from './connection.js';

declare global {
  interface Window {
    crawlbench?: CrawlbenchApi;
  }
}

export async function connectApi(): Promise<CrawlbenchApi> {
  if (window.crawlbench) return window.crawlbench;
  const token = new URLSearchParams(location.search).get('token') ?? sessionStorage.getItem('crawlbench-token') ?? '';
  sessionStorage.setItem('crawlbench-token', token);
  // The hash stays: it is the workbench's place (#/crawls/demo1/live).
  if (location.search.includes('token=')) history.replaceState(null, '', location.pathname + location.hash);
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const conn = await connectReconnecting(`${scheme}://${location.host}/api?token=${encodeURIComponent(token)}`, {
    onStatus: (s) => (connectionStatus.value = s),
  });
  return conn.api;
}

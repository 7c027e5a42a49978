/**
 * The test web: a reproducible synthetic national web served on loopback (docs/design.md
 * section 7).
 */
export { generateWeb, GeneratedWeb, type WebSpec } from './generator.js';
export { handWeb, type HandLink, type HandPage, type HandSite } from './hand-web.js';
export { exportGraphDir, loadGraphDir, type LoadOptions } from './graph-files.js';
export { TestWebServer, type ConnRecord, type ServedRequest, type TestWebServerOptions } from './server.js';
export {
  BROKEN_HTML_LINKS,
  BROKEN_HTML_NOT_LINKS,
  FAULT_HOSTS,
  FAULT_KINDS,
  faultHost,
  LATIN1_TITLES,
  REDIRECT_CHAIN_LENGTH,
  TLS_FAULT_HOSTS,
  TLS_FAULT_KINDS,
} from './faults.js';
export { TestCa } from './tls-certs.js';
export { renderPage, relativeRef } from './html.js';
export { now } from './request-log.js';
export {
  homePages,
  pageUrl,
  seedUrls,
  type Anchor,
  type FaultKind,
  type RobotsKind,
  type SiteInfo,
  type SiteScheme,
  type TlsFaultKind,
  type Web,
} from './web.js';

/**
 * generateWeb: a reproducible synthetic "national web" (docs/design.md section 7). Same spec, same
 * web, byte for byte. Revision 2 is the same web months later (see revision.ts).
 *
 * Layout: ordinary sites 's0000.demo' .. in id order (site 0 is the largest and acts as the
 * portal), then, with `faults: true`, one single-page site per fault kind ('calendar.demo', ...)
 * whose deeper pages are served by faults.ts and are not part of the graph.
 */
import { GeneratedWeb } from './generated-web.js';
import { makeLayout, REV1_SALT, siteInfos } from './layout.js';
import { buildLinks } from './link-builder.js';
import { hash, Rng } from '../random.js';
import { buildRevision2 } from './revision.js';
import { largestFirst, siteSizes } from './site-sizes.js';
import { resolveSpec, type ResolvedSpec, type WebSpec } from './spec.js';
import { assignSitemaps } from './sitemaps.js';
import { zipfQualities } from './quality.js';

export type { Anchor, FaultKind, RobotsKind, SiteInfo, Web } from './web.js';
export type { WebSpec } from './spec.js';
export { homePages, pageUrl, seedUrls } from './web.js';
export { GeneratedWeb } from './generated-web.js';

export function generateWeb(spec: WebSpec): GeneratedWeb {
  const o = resolveSpec(spec);
  const rev1 = buildRevision1(o);
  const web = o.revision === 1 ? rev1 : buildRevision2(o, rev1);
  // Sitemaps change no page or link of the graph: they are served beside it.
  if (o.sitemaps) assignSitemaps(web.sites, web.ordinarySites);
  if (o.quality === 'zipf') {
    const q = zipfQualities(o.seed, web.pageCount);
    web.quality = (id) => q[id]!;
  }
  return web;
}

function buildRevision1(o: ResolvedSpec): GeneratedWeb {
  const sizes = siteSizes(new Rng(hash(o.seed, 0x517e)), o.sites, o.pages, o.cap);
  largestFirst(sizes);
  const L = makeLayout(o, REV1_SALT, sizes, null);
  return new GeneratedWeb(1, L, buildLinks(L), siteInfos(o, L));
}


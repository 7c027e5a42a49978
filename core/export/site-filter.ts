import type { ExportContext } from './context.js';
import type { ExportFilters } from './options.js';

/** The ids of the sites the filter names, or null for no site filter. */
export function siteFilter(ctx: ExportContext, f: ExportFilters): Set<number> | null {
  if (!f.sites.length) return null;
  const wanted = new Set(f.sites);
  const ids = new Set<number>();
  const found = new Set<string>();
  for (const s of ctx.reader.sites(['host'])) {
    if (wanted.has(s.host)) {
      ids.add(s.id);
      found.add(s.host);
    }
  }
  const unknown = f.sites.filter((s) => !found.has(s));
  if (unknown.length) ctx.warnings.push(`no site named ${unknown.join(', ')} in this crawl`);
  return ids;
}

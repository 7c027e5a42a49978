/**
 * Which worker of a parallel crawl reads an origin's sitemaps (--sitemaps, engine/sitemaps.ts),
 * so that they are read once, as a crawl of one process reads them. A site assignment gives the
 * site one owner, the only worker with connections to it: it reads them, and no claim is
 * needed. A page assignment spreads a site's pages over several workers, any of which may open
 * its first connection: the first to plan the origin's sitemaps claims them in the crawl's
 * bucket (create-if-absent of `sitemaps.ORIGIN`, valued with its part), and the others leave
 * them to it. A claimer killed before its plan was committed finds its own claim on restart and
 * plans them again. The URLs a sitemap lists for other parts go to their owners through the
 * exchange as a page's links do.
 */
import type { KV } from '@nats-io/kv';

export class SitemapClaims {
  /** Origins asked this run: whether this part reads them. */
  private readonly known = new Map<string, boolean>();

  constructor(
    private readonly kv: KV,
    private readonly part: number,
  ) {}

  /** Whether this part reads the origin's sitemaps; false (asked again next time) while the broker does not answer. */
  async reads(origin: string): Promise<boolean> {
    const known = this.known.get(origin);
    if (known !== undefined) return known;
    const key = `sitemaps.${Buffer.from(origin).toString('base64url')}`;
    let mine: boolean;
    try {
      try {
        await this.kv.create(key, String(this.part));
        mine = true;
      } catch {
        const e = await this.kv.get(key);
        if (!e || e.operation !== 'PUT') return false; // neither created nor there: the broker is away
        mine = e.string() === String(this.part);
      }
    } catch {
      return false;
    }
    this.known.set(origin, mine);
    return mine;
  }
}

/**
 * PEM certificates as text: what a --ca file or a CA file given in New crawl must hold.
 * In config/ so that the settings can check theirs (fetch/trust.ts reads files with it).
 */
import { X509Certificate } from 'node:crypto';

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The certificates in a PEM text, each checked by Node's X.509 parser; empty when there is none or one is not a certificate. */
export function pemCertificates(text: string): string[] {
  const blocks = text.match(PEM_BLOCK) ?? [];
  try {
    for (const b of blocks) new X509Certificate(b);
  } catch {
    return [];
  }
  return blocks;
}

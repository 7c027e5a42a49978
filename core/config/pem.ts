/**
 * PEM certificates as text: what a --ca file or a CA file given in New crawl must hold.
 * In config/ so that the settings can check theirs (fetch/trust.ts reads files with it).
 */
import { X509Certificate } from 'node:crypto';
import { pemBlocks } from './pem-blocks.js';

/** The certificates in a PEM text, each checked by Node's X.509 parser; empty when there is none or one is not a certificate. */
export function pemCertificates(text: string): string[] {
  const blocks = pemBlocks(text);
  try {
    for (const b of blocks) new X509Certificate(b);
  } catch {
    return [];
  }
  return blocks;
}

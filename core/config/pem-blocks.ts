/**
 * The PEM certificate blocks of a text (-----BEGIN CERTIFICATE----- ... -----END CERTIFICATE-----),
 * found by their markers only. Browser-safe, with no imports: the New crawl form checks a CA
 * file's text with it (api/create-request-schema.ts); the engine then parses each block with
 * Node's X.509 parser (pem.ts).
 */
const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The certificate blocks in a PEM text, in order (empty when there is none). */
export function pemBlocks(text: string): string[] {
  return text.match(PEM_BLOCK) ?? [];
}

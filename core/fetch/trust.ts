/**
 * What a crawl trusts over TLS, and how each way a TLS connection goes wrong is named.
 *
 * Trusted: Node's bundled roots (tls.rootCertificates), the operating system's bundle, read
 * here since Node 20 does not use it by itself (the first of the usual places that exists),
 * the certificates of NODE_EXTRA_CA_CERTS (Node adds them to its default store only, and a
 * crawl gives its own list), and the crawl's own (--ca, kept with its settings). One secure
 * context is made of them all per crawl: parsing a few hundred roots per connection would
 * cost milliseconds each.
 */
import { existsSync, readFileSync } from 'node:fs';
import tls from 'node:tls';
import { pemCertificates } from '../config/pem.js';
import { badField, ErrorCodes, type ErrorCode } from '../errors.js';

/**
 * Where Linux distributions (and macOS, FreeBSD) keep the system's CA bundle, in order:
 * Debian and Ubuntu (ca-certificates), Fedora and RHEL (ca-trust), openSUSE, Alpine and
 * macOS's /etc/ssl/cert.pem, FreeBSD.
 */
export const SYSTEM_BUNDLES: readonly string[] = [
  '/etc/ssl/certs/ca-certificates.crt',
  '/etc/pki/tls/certs/ca-bundle.crt',
  '/etc/ssl/ca-bundle.pem',
  '/etc/ssl/cert.pem',
  '/usr/local/share/certs/ca-root-nss.crt',
];

export { pemCertificates };

/**
 * A --ca file's certificates as PEM, or CRAWL_BAD_OPTION naming the file: one that cannot be
 * read, or holds no certificate (a key, a DER file, anything else), or a broken one.
 */
export function readCaFile(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'latin1');
  } catch (err) {
    throw badField('ca', `${path}: cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  const certs = pemCertificates(text);
  if (certs.length === 0) throw badField('ca', `${path} is not a PEM certificate (expected -----BEGIN CERTIFICATE----- blocks)`);
  return certs.join('\n') + '\n';
}

/** The operating system's CA bundle as PEM blocks ([] where none of the usual places exists). */
function systemBundle(): string[] {
  for (const path of SYSTEM_BUNDLES) {
    if (!existsSync(path)) continue;
    try {
      return pemCertificates(readFileSync(path, 'latin1'));
    } catch {
      /* unreadable: try the next place */
    }
  }
  return [];
}

function extraCerts(): string[] {
  const file = process.env.NODE_EXTRA_CA_CERTS;
  if (!file) return [];
  try {
    return pemCertificates(readFileSync(file, 'latin1'));
  } catch {
    return [];
  }
}

let defaults: string[] | null = null;

/** Node's roots, the system's bundle and NODE_EXTRA_CA_CERTS, read once per process. */
export function defaultTrust(): string[] {
  defaults ??= [...new Set([...tls.rootCertificates, ...systemBundle(), ...extraCerts()])];
  return defaults;
}

/** The secure context a crawl's TLS connections verify with: the defaults and the crawl's own CAs. */
export function trustContext(ca: readonly string[]): tls.SecureContext {
  return tls.createSecureContext({ ca: [...defaultTrust(), ...ca.flatMap((pem) => pemCertificates(pem))] });
}

/** OpenSSL's verify results and Node's name check, as the crawl's codes. */
const CERT_CODES: Readonly<Record<string, ErrorCode>> = {
  CERT_HAS_EXPIRED: ErrorCodes.TLS_EXPIRED,
  CERT_NOT_YET_VALID: ErrorCodes.TLS_EXPIRED,
  ERR_TLS_CERT_ALTNAME_INVALID: ErrorCodes.TLS_WRONG_NAME,
  HOSTNAME_MISMATCH: ErrorCodes.TLS_WRONG_NAME,
};
const UNTRUSTED = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_CHAIN_TOO_LONG',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_REVOKED',
  'CERT_SIGNATURE_FAILURE',
  'INVALID_CA',
  'INVALID_PURPOSE',
  'PATH_LENGTH_EXCEEDED',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
  'ERROR_IN_CERT_NOT_BEFORE_FIELD',
  'ERROR_IN_CERT_NOT_AFTER_FIELD',
]);

/** The code of a certificate verify error (OpenSSL's, or Node's name check), or null when it is none. */
export function certificateCode(code: string | null | undefined): ErrorCode | null {
  if (!code) return null;
  return CERT_CODES[code] ?? (UNTRUSTED.has(code) ? ErrorCodes.TLS_UNTRUSTED : null);
}

/**
 * What went wrong with a TLS connection that never became usable, as the crawl's code: a
 * certificate's verify error, a timeout once the TCP connection was up (the handshake's), or
 * any other failure after it (an alert, a reset, a protocol error). Null when the TCP
 * connection itself failed: that is a connection's error, mapped as for http.
 */
export function tlsFailureCode(err: { code?: string }, tcpUp: boolean): ErrorCode | null {
  const cert = certificateCode(err.code);
  if (cert) return cert;
  if (!tcpUp) return null;
  if (err.code === 'UND_ERR_CONNECT_TIMEOUT' || err.code === 'ETIMEDOUT') return ErrorCodes.TLS_HANDSHAKE_TIMEOUT;
  return ErrorCodes.TLS_HANDSHAKE_FAILED;
}

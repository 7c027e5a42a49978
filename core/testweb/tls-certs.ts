/**
 * The test web's certificates: a test certificate authority made when a TLS test web starts
 * (or read back from where an earlier run kept it), and per-host leaf certificates issued by
 * it on first use, with the broken ones the TLS fault sites serve. EC P-256 keys through
 * Node's webcrypto and @peculiar/x509 for the X.509 structures: a leaf costs ~3 ms.
 *
 * Every leaf shares one key pair (a test web needs no key per site, and generating one per
 * site would double the cost); each leaf's subjectAltName holds its host name, or its address
 * for a site whose host is an IP literal.
 */
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { webcrypto } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import tls from 'node:tls';
import type { TlsFaultKind } from './web.js';

x509.cryptoProvider.set(webcrypto as never);

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY = 86_400_000;

/** Intermediates of the tls-long-chain site: more than OpenSSL's default verify depth (100). */
export const LONG_CHAIN = 110;
/** Bytes of padding in the tls-huge-chain site's chain: past OpenSSL's 100 KiB certificate-list cap. */
export const HUGE_CHAIN_BYTES = 160 * 1024;

/** A certificate (with its chain, leaf first) and its key, as PEM. */
export interface CertKey {
  cert: string;
  key: string;
}

let serial = 1;
function nextSerial(): string {
  // Unique within a process, and never the same across runs sharing a CA (time-based prefix).
  return (Date.now().toString(16) + (serial++).toString(16).padStart(6, '0')).padStart(16, '0');
}

async function exportKey(key: CryptoKey): Promise<string> {
  return x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', key), 'PRIVATE KEY');
}

async function importKey(pem: string): Promise<CryptoKey> {
  const der = x509.PemConverter.decode(pem)[0]!;
  return (await webcrypto.subtle.importKey('pkcs8', der, ALG, true, ['sign'])) as CryptoKey;
}

function san(host: string): x509.SubjectAlternativeNameExtension {
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  return new x509.SubjectAlternativeNameExtension([isIP(bare) ? { type: 'ip', value: bare } : { type: 'dns', value: bare }]);
}

interface Issuer {
  cert: x509.X509Certificate;
  key: CryptoKey;
}

export class TestCa {
  /** Secure contexts by host (and fault), made once each. */
  private readonly contexts = new Map<string, Promise<tls.SecureContext>>();
  /** The leaves' key pair and its private key as PEM, made once (a promise: leaves are made concurrently). */
  private leafKeys: Promise<{ pair: CryptoKeyPair; pem: string }> | null = null;

  private constructor(
    private readonly ca: Issuer,
    /** The CA's certificate, PEM: what a crawl trusts (--ca). */
    readonly certPem: string,
    private readonly keyPem: string,
  ) {}

  /** A new test CA, valid from a day ago for ten years. */
  static async create(name = 'crawlbench test CA'): Promise<TestCa> {
    const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as CryptoKeyPair;
    const cert = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: nextSerial(),
      name: `CN=${name}, O=crawlbench test web`,
      notBefore: new Date(Date.now() - DAY),
      notAfter: new Date(Date.now() + 3650 * DAY),
      keys,
      signingAlgorithm: ALG,
      extensions: [
        new x509.BasicConstraintsExtension(true, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      ],
    });
    return new TestCa({ cert, key: keys.privateKey }, cert.toString('pem'), await exportKey(keys.privateKey));
  }

  /** The CA kept by save() (certificate and key PEM), to serve the same web to a crawl that trusts it. */
  static async load(certPem: string, keyPem: string): Promise<TestCa> {
    const cert = new x509.X509Certificate(certPem);
    return new TestCa({ cert, key: await importKey(keyPem) }, cert.toString('pem'), keyPem);
  }

  /**
   * The CA kept at `certFile` (with its key at `keyFile`) when both exist, else a new one
   * written there: a test web restarted with the same files serves certificates a crawl
   * made against its first run still trusts.
   */
  static async atFiles(certFile: string, keyFile: string): Promise<TestCa> {
    if (existsSync(certFile) && existsSync(keyFile)) return TestCa.load(readFileSync(certFile, 'utf8'), readFileSync(keyFile, 'utf8'));
    const ca = await TestCa.create();
    writeFileSync(keyFile, ca.keyPem, { mode: 0o600 });
    writeFileSync(certFile, ca.certPem);
    return ca;
  }

  /** The CA's key, PEM (kept beside the CA's certificate by whoever must restart the same web). */
  get privateKeyPem(): string {
    return this.keyPem;
  }

  private leafKeyPair(): Promise<{ pair: CryptoKeyPair; pem: string }> {
    this.leafKeys ??= (async () => {
      const pair = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as CryptoKeyPair;
      return { pair, pem: await exportKey(pair.privateKey) };
    })();
    return this.leafKeys;
  }

  private async issue(opts: {
    subject: string;
    issuer: Issuer | null;
    publicKey: CryptoKey;
    signingKey: CryptoKey;
    ca: boolean;
    host?: string;
    notBefore?: Date;
    notAfter?: Date;
    padding?: number;
  }): Promise<x509.X509Certificate> {
    const extensions: x509.Extension[] = [new x509.BasicConstraintsExtension(opts.ca, undefined, true)];
    if (opts.ca) extensions.push(new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true));
    else extensions.push(new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true), new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]));
    if (opts.host) extensions.push(san(opts.host));
    // A private, non-critical extension of filler: how a chain grows past what a client takes.
    if (opts.padding) extensions.push(new x509.Extension('1.3.6.1.4.1.55555.1', false, new Uint8Array(padDer(opts.padding))));
    return x509.X509CertificateGenerator.create({
      serialNumber: nextSerial(),
      subject: opts.subject,
      issuer: opts.issuer ? opts.issuer.cert.subject : opts.subject,
      notBefore: opts.notBefore ?? new Date(Date.now() - DAY),
      notAfter: opts.notAfter ?? new Date(Date.now() + 365 * DAY),
      signingAlgorithm: ALG,
      publicKey: opts.publicKey,
      signingKey: opts.signingKey,
      extensions,
    });
  }

  /**
   * The certificate chain (leaf first) and key a host serves: issued by this CA, or broken
   * as its fault says (expired, self-signed, issued for another name, a chain deeper or
   * bigger than a client accepts).
   */
  async leaf(host: string, fault?: TlsFaultKind): Promise<CertKey> {
    const { pair: keys, pem } = await this.leafKeyPair();
    const base = { subject: `CN=${host}`, publicKey: keys.publicKey, ca: false, host };
    let chain: x509.X509Certificate[];
    switch (fault) {
      case 'tls-expired':
        chain = [await this.issue({ ...base, issuer: this.ca, signingKey: this.ca.key, notBefore: new Date(Date.now() - 400 * DAY), notAfter: new Date(Date.now() - 30 * DAY) })];
        break;
      case 'tls-self-signed':
        chain = [await this.issue({ ...base, issuer: null, signingKey: keys.privateKey })];
        break;
      case 'tls-wrong-name':
        chain = [await this.issue({ ...base, subject: 'CN=www.another-host.invalid', host: 'www.another-host.invalid', issuer: this.ca, signingKey: this.ca.key })];
        break;
      case 'tls-long-chain':
        chain = await this.chainOf(base, LONG_CHAIN, 0);
        break;
      case 'tls-huge-chain':
        chain = await this.chainOf(base, 8, Math.ceil(HUGE_CHAIN_BYTES / 8));
        break;
      default:
        chain = [await this.issue({ ...base, issuer: this.ca, signingKey: this.ca.key })];
    }
    return { cert: chain.map((c) => c.toString('pem')).join('\n'), key: pem };
  }

  /** A leaf under `depth` intermediates (each padded with `padding` bytes), leaf first. */
  private async chainOf(
    base: { subject: string; publicKey: CryptoKey; ca: boolean; host: string },
    depth: number,
    padding: number,
  ): Promise<x509.X509Certificate[]> {
    const keys = (await this.leafKeyPair()).pair;
    const inter: x509.X509Certificate[] = [];
    let issuer: Issuer = this.ca;
    for (let i = 0; i < depth; i++) {
      // The intermediates share the leaves' key: their signatures chain all the same.
      const cert = await this.issue({ subject: `CN=test intermediate ${i} for ${base.host}`, issuer, publicKey: keys.publicKey, signingKey: issuer.key, ca: true, padding });
      inter.push(cert);
      issuer = { cert, key: keys.privateKey };
    }
    const leaf = await this.issue({ ...base, issuer, signingKey: issuer.key });
    return [leaf, ...inter.reverse()];
  }

  /** The secure context a host's handshake uses, made on first use. */
  context(host: string, fault?: TlsFaultKind): Promise<tls.SecureContext> {
    const key = `${host}\n${fault ?? ''}`;
    let ctx = this.contexts.get(key);
    if (!ctx) {
      ctx = this.leaf(host, fault).then((ck) => tls.createSecureContext({ cert: ck.cert, key: ck.key }));
      this.contexts.set(key, ctx);
    }
    return ctx;
  }
}

/** DER of an OCTET STRING of `n` zero bytes (the value of the padding extension). */
function padDer(n: number): Buffer {
  const len = n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : n < 0x10000 ? Buffer.from([0x82, n >> 8, n & 0xff]) : Buffer.from([0x83, n >> 16, (n >> 8) & 0xff, n & 0xff]);
  return Buffer.concat([Buffer.from([0x04]), len, Buffer.alloc(n)]);
}

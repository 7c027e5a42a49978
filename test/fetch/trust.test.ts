/**
 * What a crawl trusts and how TLS failures are named (core/fetch/trust.ts), and the --ca and
 * --tls flags' refusals as the CLI says them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import tls from 'node:tls';
import { describe, expect, it } from 'vitest';
import { validateSettings } from '../../core/config/settings.js';
import { ErrorCodes } from '../../core/errors.js';
import { certificateCode, defaultTrust, pemCertificates, readCaFile, tlsFailureCode } from '../../core/fetch/trust.js';
import { TestCa } from '../../core/testweb/tls-certs.js';
import { crawlbench } from '../helpers/run.js';
import { tmpDir } from '../helpers/tmp.js';

const dir = tmpDir();

describe('trust', () => {
  it("names each certificate problem, and a handshake's failure by whether TCP was up", () => {
    expect(certificateCode('CERT_HAS_EXPIRED')).toBe(ErrorCodes.TLS_EXPIRED);
    expect(certificateCode('CERT_NOT_YET_VALID')).toBe(ErrorCodes.TLS_EXPIRED);
    for (const c of ['DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'CERT_CHAIN_TOO_LONG']) {
      expect(certificateCode(c), c).toBe(ErrorCodes.TLS_UNTRUSTED);
    }
    expect(certificateCode('ERR_TLS_CERT_ALTNAME_INVALID')).toBe(ErrorCodes.TLS_WRONG_NAME);
    expect(certificateCode('ECONNRESET')).toBeNull();
    expect(tlsFailureCode({ code: 'UND_ERR_CONNECT_TIMEOUT' }, true)).toBe(ErrorCodes.TLS_HANDSHAKE_TIMEOUT);
    expect(tlsFailureCode({ code: 'ECONNRESET' }, true)).toBe(ErrorCodes.TLS_HANDSHAKE_FAILED);
    expect(tlsFailureCode({ code: 'ERR_SSL_WRONG_VERSION_NUMBER' }, true)).toBe(ErrorCodes.TLS_HANDSHAKE_FAILED);
    // No TCP connection: a connection's error, named as for http.
    expect(tlsFailureCode({ code: 'UND_ERR_CONNECT_TIMEOUT' }, false)).toBeNull();
    expect(tlsFailureCode({ code: 'ECONNREFUSED' }, false)).toBeNull();
  });

  it("trusts Node's roots and the system's bundle at least", () => {
    const trusted = defaultTrust();
    expect(trusted.length).toBeGreaterThanOrEqual(tls.rootCertificates.length);
    for (const root of tls.rootCertificates.slice(0, 5)) expect(trusted).toContain(root);
  });

  it('reads a --ca file of PEM certificates, and refuses anything else naming the file', async () => {
    const ca = await TestCa.create();
    const good = join(dir, 'ca.pem');
    writeFileSync(good, ca.certPem);
    expect(pemCertificates(readCaFile(good))).toHaveLength(1);
    const key = join(dir, 'key.pem');
    writeFileSync(key, ca.privateKeyPem);
    expect(() => readCaFile(key)).toThrow(`${key} is not a PEM certificate`);
    const broken = join(dir, 'broken.pem');
    writeFileSync(broken, '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n');
    expect(() => readCaFile(broken)).toThrow(`${broken} is not a PEM certificate`);
    expect(() => readCaFile(join(dir, 'absent.pem'))).toThrow(/absent\.pem: cannot be read/);
    // The settings hold PEM text (kept with the crawl), checked there too.
    expect(() => validateSettings({ seeds: ['http://a.test/'], ca: ['hello'] })).toThrow(/^ca\.0: must be PEM certificates/);
    expect(() => validateSettings({ seeds: ['http://a.test/'], tls: 'maybe' as never })).toThrow(/^tls: must be 'verify' or 'record'/);
    expect(validateSettings({ seeds: ['http://a.test/'] }).tls).toBe('record');
  });

  it('the CLI refuses a --ca file that is not a certificate, naming it, and a --tls mode it does not know (exit 2)', async () => {
    const notCert = join(dir, 'seeds.txt');
    writeFileSync(notCert, 'http://a.test/\n');
    const bad = await crawlbench(['crawl', '--db', join(dir, 'x.db'), '--seed', 'http://a.test/', '--ca', notCert]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`--ca: ${notCert} is not a PEM certificate`);
    const mode = await crawlbench(['crawl', '--db', join(dir, 'y.db'), '--seed', 'http://a.test/', '--tls', 'maybe']);
    expect(mode.code).toBe(2);
    expect(mode.stderr).toMatch(/--tls: "maybe" \(use verify or record\)/);
  });
});

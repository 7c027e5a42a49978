/**
 * The layering rules, checked: core never imports UI or Electron; the renderer reaches core
 * only through core/api's browser-safe modules (types, and the one RPC client); those
 * modules import nothing from Node or the engine.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const BROWSER_SAFE = ['core/config/limits.ts', 'core/api/contract.ts', 'core/api/rpc.ts', 'core/api/rpc-client.ts', 'core/api/ws-client.ts', 'core/api/ipc.ts', 'core/api/rpc-server.ts'];

function files(dir: string, exts: string[]): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((f) => {
    const p = join(dir, f);
    return statSync(join(ROOT, p)).isDirectory() ? files(p, exts) : exts.some((e) => f.endsWith(e)) ? [p] : [];
  });
}

function imports(file: string): Array<{ spec: string; typeOnly: boolean }> {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(/^\s*import\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => ({ spec: m[2]!, typeOnly: !!m[1] }));
}

describe('layers', () => {
  it('core imports no UI framework and no Electron', () => {
    for (const f of files('core', ['.ts'])) {
      for (const { spec } of imports(f)) expect(`${f}: ${spec}`).not.toMatch(/: (electron|vue|pinia|echarts)(\/|$)/);
    }
  });

  it('the renderer imports from core only the browser-safe API modules', () => {
    for (const f of files('renderer', ['.ts', '.vue'])) {
      for (const { spec } of imports(f)) {
        if (!spec.includes('core/')) continue;
        const target = relative(ROOT, join(ROOT, f, '..', spec)).replace(/\.js$/, '.ts');
        expect(BROWSER_SAFE, `${f} imports ${spec}`).toContain(target);
      }
    }
  });

  it('the browser-safe API modules import nothing from Node or the engine', () => {
    for (const f of BROWSER_SAFE) {
      for (const { spec } of imports(f)) expect(`${f}: ${spec}`).toMatch(/: \.\/(contract|rpc|rpc-client|rpc-server)\.js$/);
    }
  });
});

/**
 * Tables as CSV and charts as PNG, saved by the browser (or Electron) as a download: a Blob
 * or data URL behind a temporary <a download>. Nothing is sent anywhere.
 */

export type Cell = string | number | boolean | null | undefined;

function field(v: Cell): string {
  if (v === null || v === undefined || (typeof v === 'number' && !Number.isFinite(v))) return '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** RFC 4180, as `crawlbench compare --out` writes its tables: a header row, CRLF, fields quoted when needed. */
export function toCsv(header: readonly string[], rows: readonly Cell[][]): string {
  return [header, ...rows].map((r) => r.map(field).join(',')).join('\r\n') + '\r\n';
}

function save(href: string, fileName: string): void {
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
}

export function downloadCsv(fileName: string, header: readonly string[], rows: readonly Cell[][]): void {
  const url = URL.createObjectURL(new Blob([toCsv(header, rows)], { type: 'text/csv;charset=utf-8' }));
  save(url, fileName);
  // The click has handed the Blob to the download; the URL can go once it has been read.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function downloadDataUrl(fileName: string, dataUrl: string): void {
  save(dataUrl, fileName);
}

/** A file name from crawl ids and a table or chart name: letters, digits, . _ - only. */
export function fileName(...parts: string[]): string {
  return parts.join('-').replace(/[^A-Za-z0-9._-]+/g, '_');
}

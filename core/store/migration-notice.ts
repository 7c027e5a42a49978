/**
 * Who is told before a crawl file of an earlier schema is brought up to date in this thread
 * (database.ts migrate): the CLI says so on stderr, as it can take minutes for a large crawl.
 * A module of its own, without SQLite, so the CLI's entry sets it without loading the store.
 */
let notice: ((path: string, from: number, to: number) => void) | null = null;

export function onMigration(fn: ((path: string, from: number, to: number) => void) | null): void {
  notice = fn;
}

export function migrationNotice(path: string, from: number, to: number): void {
  notice?.(path, from, to);
}

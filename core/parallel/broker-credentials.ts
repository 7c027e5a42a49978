/**
 * A parallel crawl's broker credentials and the environment variables that carry them to a
 * worker process (issue 25). Apart from broker.ts, which loads the NATS client: `crawlbench
 * crawl` reads these for its --parts flags, and a crawl without --parts should not load the
 * client's fifty modules (about 4 MiB of a crawl process's peak RSS, bench/throughput).
 */
export interface BrokerCredentials {
  user?: string;
  password?: string;
  token?: string;
  /** A file holding an nkey seed (SU...). */
  nkeyFile?: string;
}

/** Where the credentials travel to a worker process: its environment, never its command line. */
export const CREDENTIAL_ENV = { user: 'CRAWLBENCH_NATS_USER', password: 'CRAWLBENCH_NATS_PASSWORD', token: 'CRAWLBENCH_NATS_TOKEN', nkeyFile: 'CRAWLBENCH_NATS_NKEY_FILE' } as const;

export function credentialsFromEnv(env: NodeJS.ProcessEnv = process.env): BrokerCredentials {
  const c: BrokerCredentials = {};
  for (const [k, name] of Object.entries(CREDENTIAL_ENV)) if (env[name]) c[k as keyof BrokerCredentials] = env[name];
  return c;
}

export function credentialsEnv(c: BrokerCredentials): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, name] of Object.entries(CREDENTIAL_ENV)) {
    const v = c[k as keyof BrokerCredentials];
    if (v !== undefined) env[name] = v;
  }
  return env;
}

/**
 * A NATS cluster on loopback for the parallel crawl's tests: N nats-server processes with
 * JetStream, each with its own storage, joined by cluster routes on 127.0.0.1. Debian's
 * nats-server 2.9.10 takes all of it on its command line (--name, --cluster_name, --cluster,
 * --routes), so no configuration file is written.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { freePort } from '../../core/parallel/broker.js';
import { sleep } from './parallel.js';

interface Node {
  name: string;
  port: number;
  child: ChildProcess;
}

export class NatsCluster {
  private constructor(readonly nodes: Node[]) {}

  /** Starts `size` servers and waits until the cluster answers JetStream requests (a meta leader is elected). */
  static async start(program: string, dir: string, size = 3): Promise<NatsCluster> {
    const ports = await distinctPorts(2 * size);
    const routes = Array.from({ length: size }, (_, i) => `nats://127.0.0.1:${ports[size + i]}`).join(',');
    const nodes = Array.from({ length: size }, (_, i): Node => {
      const store = join(dir, `n${i}`);
      mkdirSync(store, { recursive: true });
      const args = ['-js', '-sd', store, '-n', `n${i}`, '-a', '127.0.0.1', '-p', String(ports[i]), '--cluster_name', 'crawlbench-test', '--cluster', `nats://127.0.0.1:${ports[size + i]}`, '--routes', routes];
      return { name: `n${i}`, port: ports[i]!, child: spawn(program, args, { stdio: 'ignore' }) };
    });
    const cluster = new NatsCluster(nodes);
    await cluster.ready();
    return cluster;
  }

  /** Every server's client URL, separated by commas, as --broker takes a cluster. */
  get urls(): string {
    return this.nodes.map((n) => `nats://127.0.0.1:${n.port}`).join(',');
  }

  private async ready(): Promise<void> {
    for (let i = 0; i < 300; i++) {
      try {
        const nc = await connect({ servers: `127.0.0.1:${this.nodes[0]!.port}`, timeout: 1000, reconnect: false });
        try {
          const jsm = await jetstreamManager(nc, { timeout: 1000 });
          await jsm.getAccountInfo();
          if ((nc.info?.connect_urls ?? []).length >= this.nodes.length) return;
        } finally {
          await nc.close();
        }
      } catch {
        // not up yet, or no meta leader yet
      }
      await sleep(100);
    }
    throw new Error('the NATS cluster did not form within 30 s');
  }

  /** A stream's configuration and where its copies are, asked of any live server. */
  async stream(name: string): Promise<{ replicas: number; leader: string; followers: string[] }> {
    const live = this.nodes.filter((n) => n.child.exitCode === null && n.child.signalCode === null);
    const nc = await connect({ servers: live.map((n) => `127.0.0.1:${n.port}`) });
    try {
      const info = await (await jetstreamManager(nc)).streams.info(name);
      return { replicas: info.config.num_replicas, leader: info.cluster?.leader ?? '', followers: (info.cluster?.replicas ?? []).map((r) => r.name) };
    } finally {
      await nc.close();
    }
  }

  kill(name: string): void {
    this.nodes.find((n) => n.name === name)!.child.kill('SIGKILL');
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.nodes.map(async (n) => {
        if (n.child.exitCode !== null || n.child.signalCode !== null) return;
        const gone = new Promise((r) => n.child.once('exit', r));
        n.child.kill('SIGTERM');
        await Promise.race([gone, sleep(5000).then(() => n.child.kill('SIGKILL'))]);
      }),
    );
  }
}

async function distinctPorts(n: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < n) ports.add(await freePort());
  return [...ports];
}

/**
 * The client side of simFleet.ts: starts the simulated servers in a process of their own and talks to it over its
 * stdin and stdout (pool and stall benches).
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';

/** The simulated servers' process (simFleet.ts): their CPU is theirs, not the client's. */
export class Fleet {
  private readonly lines: AsyncIterator<string>;
  private constructor(private readonly child: ChildProcessByStdio<Writable, Readable, null>) {
    this.lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  }

  static async start(config: object): Promise<{ fleet: Fleet; urls: { ollama: string[]; openai: string[] } }> {
    // tsx itself, not npx: npx's own start-up would be CPU on the client's side of the machine.
    const child = spawn(join(import.meta.dirname, '../../node_modules/.bin/tsx'), [join(import.meta.dirname, 'simFleet.ts'), JSON.stringify(config)], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const fleet = new Fleet(child);
    return { fleet, urls: JSON.parse(await fleet.next()) as { ollama: string[]; openai: string[] } };
  }

  async ask<T>(command: string): Promise<T> {
    this.child.stdin.write(`${command}\n`);
    return JSON.parse(await this.next()) as T;
  }

  async stop(): Promise<void> {
    this.child.stdin.write('quit\n');
    await new Promise((resolve) => this.child.once('exit', resolve));
  }

  private async next(): Promise<string> {
    const line = await this.lines.next();
    if (line.done) throw new Error('the simulated servers stopped');
    return line.value;
  }
}

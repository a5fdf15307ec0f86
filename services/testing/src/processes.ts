import { fork, type ChildProcess } from 'node:child_process';
import type { Config } from '@onco/platform';

/**
 * Child processes for the kill tests (a worker or consumer really SIGKILLed midway, then a fresh one resumes):
 * each runs a script under tsx against the test system's database, Redis, topics, queues and file store, and
 * reports over IPC (`{ ready: true }`, and whatever the script adds). Test support only.
 */
export interface TestProcess<M> {
  child: ChildProcess;
  /** every message the child has sent so far */
  messages: M[];
  /** resolves with the signal (e.g. 'SIGKILL') or the exit code */
  exited: Promise<NodeJS.Signals | number | null>;
  /** throws when the child has exited (a test waiting on it fails with that, not with a timeout) */
  alive(): void;
  /** wait for a message matching `pred`; fails at once if the child exits first */
  until(pred: (m: M) => boolean, what: string, timeoutMs?: number): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function testProcesses(config: Config) {
  const children: ChildProcess[] = [];

  function start<M>(script: string, env: Record<string, string> = {}): TestProcess<M> {
    const child = fork(script, [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: {
        ...process.env,
        NODE_ENV: 'test',
        MONGO_URL: config.MONGO_URL,
        REDIS_URL: config.REDIS_URL,
        QUEUE_PREFIX: config.QUEUE_PREFIX,
        TOPIC_PREFIX: config.TOPIC_PREFIX,
        KAFKA_CLIENT_ID: `${config.KAFKA_CLIENT_ID}-child-${children.length}`,
        FILE_STORE_DIR: config.FILE_STORE_DIR,
        MAILBOX_DIR: config.MAILBOX_DIR,
        CHROMIUM_PATH: config.CHROMIUM_PATH,
        BILLING_DOCUMENTS: String(config.BILLING_DOCUMENTS),
        LOG_LEVEL: 'warn',
        ...env,
      },
    });
    children.push(child);
    const messages: M[] = [];
    child.on('message', (m) => messages.push(m as M));
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
      child.once('exit', (code, signal) => resolve(signal ?? code)),
    );
    const alive = () => {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`the child process exited (${child.exitCode ?? child.signalCode})`);
    };
    const until = async (pred: (m: M) => boolean, what: string, timeoutMs = 90_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`the child process exited while waiting for ${what}`);
        if (messages.some(pred)) return;
        if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
        await sleep(100);
      }
    };
    return { child, messages, exited, alive, until };
  }

  /** ask every child still running to stop, SIGKILL it after 15 s */
  async function stopAll() {
    for (const c of children)
      if (c.exitCode === null && c.signalCode === null) {
        c.send?.({ stop: true });
        await Promise.race([new Promise((r) => c.once('exit', r)), sleep(15_000)]);
        if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
      }
  }

  return { start, stopAll, children };
}

/** What every child sends its parent once it runs (runTestChild); a child's message type adds its own. */
export type TestChildReady = { ready: true; pid: number };

/** The child's side: a message to the parent (none when the process has no parent). */
export const sendToParent = (msg: Record<string, unknown>) => process.send?.(msg);

/** The child's side: never settles (a stall the parent kills the child in). */
export const forever = () => new Promise<never>(() => undefined);

/**
 * The child's side: run `main` (which starts the worker or consumer and returns how to stop it), report
 * `{ ready: true, pid }`, stop on the parent's `{ stop: true }` or SIGTERM; a failed start exits 1.
 */
export function runTestChild(main: () => Promise<() => Promise<void>>): void {
  main()
    .then((stop) => {
      process.send?.({ ready: true, pid: process.pid });
      const quit = () =>
        void stop().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      process.on('message', (m: unknown) => {
        if ((m as { stop?: boolean })?.stop) quit();
      });
      process.on('SIGTERM', quit);
    })
    .catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
}

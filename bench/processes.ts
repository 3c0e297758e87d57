import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** A server under benchmark, running in its own process so the load generator does not share its core. */
export interface BenchProcess {
  readonly url: string;
  readonly pid: number;
  /** Milliseconds from spawn to the first successful answer. */
  readonly startupMs: number;
  stop(): Promise<void>;
}

/**
 * Spawns `command`, waits for `readyPattern` (whose first group is the base URL) on its stdout, then
 * for a first answer to `probe`, and returns it running. Gives up after `timeoutMs`.
 */
export async function startProcess(
  command: string,
  args: readonly string[],
  readyPattern: RegExp,
  probe: (url: string) => Promise<boolean>,
  env: Record<string, string> = {},
  timeoutMs = 30_000,
): Promise<BenchProcess> {
  const started = performance.now();
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await waitForUrl(child, readyPattern, timeoutMs);
  while (!(await probe(url).catch(() => false))) {
    if (performance.now() - started > timeoutMs) throw new Error(`${command} never answered at ${url}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const startupMs = performance.now() - started;
  return {
    url,
    pid: child.pid ?? 0,
    startupMs,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
      }),
  };
}

function waitForUrl(child: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`no ready line after ${timeoutMs} ms: ${output.slice(-500)}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = pattern.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output.slice(-500)}`)));
  });
}

/** Resident set size of a process in MiB, read from /proc (Linux). */
export function residentMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kib / 1024;
}

/** CPU time (user + system) a process has used so far, in milliseconds, read from /proc (Linux). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may itself contain spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / 100;
}

/** What one whole process cost, from spawn to exit. */
export interface ProcessTiming {
  readonly wallMs: number;
  /** User + system CPU of the process (and anything it waited for), in milliseconds. */
  readonly cpuMs: number;
  readonly exitCode: number | null;
}

/**
 * Runs `command` to its exit and times it: wall time, and CPU time from the growth of this process's
 * waited-for children's times in /proc (Linux), so only one measured process may run at a time.
 */
export async function timeProcess(
  command: string,
  args: readonly string[],
  options: { env?: Record<string, string>; cwd?: string; timeoutMs?: number } = {},
): Promise<ProcessTiming> {
  const cpuBefore = childrenCpuMs();
  const started = performance.now();
  const child = spawn(command, args, {
    env: { ...process.env, ...options.env },
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-1000)));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 300_000);
  const exitCode = await new Promise<number | null>((resolve) => child.once('close', resolve));
  clearTimeout(timer);
  const wallMs = performance.now() - started;
  if (exitCode === null) throw new Error(`${command} ${args.join(' ')} was killed: ${stderr}`);
  return { wallMs: Math.round(wallMs), cpuMs: Math.round(childrenCpuMs() - cpuBefore), exitCode };
}

/** CPU time (user + system) of this process's children that have been waited for, in milliseconds. */
function childrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
}

/** The median of some figures (the mean of the middle two for an even count; figures that are not numbers left out, NaN when none is). */
export function median(values: readonly number[]): number {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? NaN)
    : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

/** A figure to one decimal, or `null` when it is not a number. */
export function round1(value: number): number | null {
  return Number.isFinite(value) ? Math.round(value * 10) / 10 : null;
}

import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 may grow the old generation past what survived the last full collection, in percent.
 *
 * On a machine with a few GiB to spare V8 lets the heap grow up to 4x its live size before it collects
 * again. plantstore's processes keep little alive (the runner 20–30 MB, the mock about 45 MB) but
 * allocate fast, so that headroom is nearly all garbage: the runner's resident memory drifted from
 * 120 to 200 MiB over 100,000 cases, the mock's from 145 to 180 MiB over a minute of load. At 25% it
 * stays flat, at the cost of more frequent (mostly concurrent) full collections that the benchmarks
 * do not notice.
 */
export const HEAP_GROWING_PERCENT = 25;

const USER_SETTING = /--heap[-_]growing[-_]percent\b/;

/**
 * Caps V8's heap growth for this process (see {@link HEAP_GROWING_PERCENT}) unless the user chose a
 * value themselves, in `node` flags or `NODE_OPTIONS`. V8 reads this flag at every collection, so
 * setting it after startup takes effect; the bin does it once the command has loaded its modules
 * (`CliIo.commandLoaded`), since built-in modules loaded after a flag changes lose Node's code cache.
 * Returns whether it did.
 */
export function limitHeapGrowth(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string = process.env.NODE_OPTIONS ?? '',
): boolean {
  if ([...execArgv, nodeOptions].some((flags) => USER_SETTING.test(flags))) return false;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}

/** How long a log line may wait for the lines after it before they are written together. */
export const LOG_BATCH_MS = 10;

/** A batch this long is written at once, without waiting. */
const LOG_BATCH_CHARS = 64 * 1024;

/**
 * Log lines gathered and written together, at most {@link LOG_BATCH_MS} after the first of them:
 * under load, one write per request costs more than answering the request, and so did one write
 * per turn of the event loop (a turn answers a few requests: the mock spent about 4% of its CPU in
 * those writes). The same lines in the same order; `flush` writes what is waiting at once.
 */
export function batchedWriter(stream: NodeJS.WritableStream): { write(text: string): void; flush(): void } {
  let pending = '';
  let timer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (pending === '') return;
    stream.write(pending);
    pending = '';
  };
  return {
    write(text) {
      if (pending === '') timer = setTimeout(flush, LOG_BATCH_MS);
      pending += text;
      if (pending.length >= LOG_BATCH_CHARS) flush();
    },
    flush,
  };
}

/**
 * Log lines gathered and written once per turn of the event loop: under load, one write per
 * request to a pipe costs more than answering the request.
 */
export function batchedWriter(stream: NodeJS.WritableStream): { write(text: string): void; flush(): void } {
  let pending = '';
  const flush = (): void => {
    if (pending === '') return;
    stream.write(pending);
    pending = '';
  };
  return {
    write(text) {
      if (pending === '') setImmediate(flush);
      pending += text;
    },
    flush,
  };
}

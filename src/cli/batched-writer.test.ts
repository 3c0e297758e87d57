import { afterEach, describe, expect, it, vi } from 'vitest';
import { batchedWriter, LOG_BATCH_MS } from './batched-writer.js';

function recordingStream(): { stream: NodeJS.WritableStream; writes: string[] } {
  const writes: string[] = [];
  const stream = { write: (text: string) => writes.push(text) } as unknown as NodeJS.WritableStream;
  return { stream, writes };
}

describe('batchedWriter', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes the lines of a batch together, in order, once the batch time has passed', () => {
    vi.useFakeTimers();
    const { stream, writes } = recordingStream();
    const log = batchedWriter(stream);
    log.write('a\n');
    log.write('b\n');
    vi.advanceTimersByTime(LOG_BATCH_MS - 1);
    expect(writes).toEqual([]);
    log.write('c\n');
    vi.advanceTimersByTime(1);
    expect(writes).toEqual(['a\nb\nc\n']);
    log.write('d\n');
    vi.advanceTimersByTime(LOG_BATCH_MS);
    expect(writes).toEqual(['a\nb\nc\n', 'd\n']);
  });

  it('writes what is waiting at once on flush, and nothing when nothing waits', () => {
    vi.useFakeTimers();
    const { stream, writes } = recordingStream();
    const log = batchedWriter(stream);
    log.flush();
    log.write('a\n');
    log.flush();
    expect(writes).toEqual(['a\n']);
    vi.advanceTimersByTime(LOG_BATCH_MS * 2);
    expect(writes).toEqual(['a\n']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('writes a long batch without waiting', () => {
    vi.useFakeTimers();
    const { stream, writes } = recordingStream();
    const log = batchedWriter(stream);
    const line = `${'x'.repeat(1023)}\n`;
    for (let i = 0; i < 64; i++) log.write(line);
    expect(writes).toEqual([line.repeat(64)]);
    expect(vi.getTimerCount()).toBe(0);
  });
});

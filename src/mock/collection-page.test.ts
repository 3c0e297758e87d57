import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { consistentPage } from './collection-page.js';
import { DEV_TOKEN } from './dev-token.js';
import { createMockServer } from './mock-server.js';

const anything = (): boolean => true;

describe('a generated collection answer agrees with itself', () => {
  it('counts the items in every member named as a count, exact integers elsewhere kept', () => {
    const page = consistentPage('{"items":[{"id":9223372036854775807},{"id":1}],"total":7,"totalCount":0}', anything);
    expect(page).toEqual({
      items: 2,
      text: '{"items":[{"id":9223372036854775807},{"id":1}],"total":2,"totalCount":2}',
    });
    const spring = consistentPage(
      '{"content":[],"totalElements":41,"numberOfElements":3,"totalPages":9,"size":20}',
      anything,
    );
    expect(spring?.text).toBe('{"content":[],"totalElements":0,"numberOfElements":0,"totalPages":0,"size":20}');
  });

  it('makes the page the whole collection: a next cursor null, or left out where null is refused; hasMore false', () => {
    const refusesNull = (text: string): boolean => !text.includes('"next":null');
    expect(consistentPage('{"items":[1],"total":5,"next":"abc"}', anything)?.text).toBe(
      '{"items":[1],"total":1,"next":null}',
    );
    expect(consistentPage('{"items":[1],"total":5,"next":"abc"}', refusesNull)?.text).toBe('{"items":[1],"total":1}');
    expect(consistentPage('{"data":[1,2],"count":0,"has_more":true}', anything)?.text).toBe(
      '{"data":[1,2],"count":2,"has_more":false}',
    );
  });

  it('keeps a change only where the schema takes it (a total with minimum 1 and no items stays)', () => {
    const minimumOne = (text: string): boolean => !text.includes('"total":0');
    expect(consistentPage('{"items":[],"total":4}', minimumOne)?.text).toBe('{"items":[],"total":4}');
  });

  it('leaves alone what it cannot read as one collection: two arrays, no count, a count that is not an integer', () => {
    expect(consistentPage('{"items":[1],"tags":[],"total":9}', anything)).toBeUndefined();
    expect(consistentPage('{"items":[1],"limit":9}', anything)).toBeUndefined();
    expect(consistentPage('{"items":[1],"total":"9"}', anything)).toBeUndefined();
    expect(consistentPage('{"name":"Fern"}', anything)).toBeUndefined();
    expect(consistentPage('[1,2,3]', anything)).toEqual({ items: 3, text: '[1,2,3]' });
  });
});

describe("the mock's list operation", () => {
  it('answers total and X-Total-Count equal to the items it lists, static and generated', async () => {
    // Before: {"items":[3 plants],"total":2747661871337024,"next":"pigs…"} with X-Total-Count: 7.
    const spec = fileURLToPath(new URL('./test-documents/plant-shop-3.1.yaml', import.meta.url));
    const mock = await createMockServer({ spec, seed: 7 });
    try {
      for (const prefer of [undefined, 'dynamic=true', 'dynamic=true', 'dynamic=true']) {
        const response = await fetch(`${mock.url}/api/v2/plants`, {
          headers: { authorization: `Bearer ${DEV_TOKEN}`, ...(prefer ? { prefer } : {}) },
          signal: AbortSignal.timeout(10_000),
        });
        const page = (await response.json()) as { items: unknown[]; total: number; next?: unknown };
        expect(response.status).toBe(200);
        expect(page.total).toBe(page.items.length);
        expect(page.next ?? null).toBeNull();
        expect(response.headers.get('x-total-count')).toBe(String(page.items.length));
      }
    } finally {
      await mock.close();
    }
  });
});

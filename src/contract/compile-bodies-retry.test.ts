import { describe, expect, it, vi } from 'vitest';
import { UnsupportedSchemaError } from './schema/compiled-schema.js';

const compileSchema = vi.hoisted(() => vi.fn());
vi.mock('./schema/index.js', () => ({ compileSchema }));
const { compileBody } = await import('./compile-bodies.js');

const body = {
  schema: { type: 'object', if: {} },
  dialect: 'openapi-3.1' as const,
  subject: 'a NewPlant',
  name: 'NewPlant',
  locate: (pointer: string) => `/components/schemas/NewPlant${pointer}`,
};

describe('compileBody when the compiler fails for another reason', () => {
  it('keeps the refusals found so far once a copy without a refused keyword breaks the compiler', () => {
    compileSchema.mockReset();
    compileSchema
      .mockImplementationOnce(() => {
        throw new UnsupportedSchemaError('if', '/if', 'if/then/else is not supported');
      })
      .mockImplementationOnce(() => {
        throw new TypeError('a bug met on the copy');
      });
    const result = compileBody(body);
    expect(result.problems.map((problem) => problem.pointer)).toEqual(['/components/schemas/NewPlant/if']);
    expect(compileSchema).toHaveBeenCalledTimes(2);
  });

  it('lets a compiler bug through when nothing was refused first', () => {
    compileSchema.mockReset();
    compileSchema.mockImplementationOnce(() => {
      throw new TypeError('a bug');
    });
    expect(() => compileBody(body)).toThrow(TypeError);
  });
});

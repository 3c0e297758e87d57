import fc from 'fast-check';
import { compileSchemaCheck } from '../schemas.js';
import type { Canonical, Schema } from './canonicalise.js';
import { UnsupportedSchemaError, type CompileOptions, type ExactJson } from './compiled-schema.js';
import { asParsed } from './json.js';
import { boundedFilter } from './bounded-filter.js';
import { foreignRegexHint } from './foreign-regex.js';

/** Draws a filter may take per value, for a predicate that passes every time in the sample; more for rarer ones. */
const FILTER_DRAWS = 20;

/** Where a generator sits: its schema's pointer (canonical) and the instance location it fills. */
export interface Place {
  readonly schemaPointer: string;
  readonly pointer: string;
  /** The `$defs` expanded on the way here, outermost first. */
  readonly refs: readonly string[];
}

/** What every generator of one compilation shares: the canonical schema, options and caches. */
export class Context {
  readonly maxRecursion: number;
  readonly memo = new Map<string, fc.Arbitrary<ExactJson> | null>();
  private readonly checks = new WeakMap<object, (value: ExactJson) => boolean>();
  private readonly regexes = new Map<string, RegExp>();

  constructor(
    readonly canonical: Canonical,
    readonly options: CompileOptions,
  ) {
    this.maxRecursion = options.maxRecursion ?? 3;
  }

  /** A branch as a schema object, a lone local `$ref` read through to its definition; else `undefined`. */
  dereferenced(branch: unknown): Record<string, unknown> | undefined {
    if (typeof branch !== 'object' || branch === null || Array.isArray(branch)) return undefined;
    const node = branch as Record<string, unknown>;
    if (typeof node.$ref !== 'string') return node;
    if (Object.keys(node).length > 1) return undefined;
    const { target } = this.definition(node.$ref);
    return typeof target === 'object' ? target : undefined;
  }

  /**
   * The `$defs` name a canonical `$ref` (`#/$defs/<name>`, percent-encoded) points at, and its definition
   * (`undefined` when there is none by that name).
   */
  definition(ref: string): { name: string; target: Schema | undefined } {
    const name = decodeURIComponent(ref.replace(/^#\/\$defs\//, ''));
    return { name, target: Object.hasOwn(this.canonical.defs, name) ? this.canonical.defs[name] : undefined };
  }

  /** Whether a generated value satisfies a subschema (judged as the whole check judges it). */
  accepts(schema: Schema, value: ExactJson): boolean {
    if (typeof schema === 'boolean') return schema;
    let check = this.checks.get(schema);
    if (check === undefined) {
      const defs = this.canonical.schema.$defs;
      // Judged as a member: a number a double cannot carry keeps its digits only as a member of a parsed object.
      const wrapped = { type: 'object', properties: { value: schema }, ...(defs === undefined ? {} : { $defs: defs }) };
      const compiled = compileSchemaCheck(wrapped, this.options.subject);
      check = (candidate) => compiled(asParsed({ value: candidate })).length === 0;
      this.checks.set(schema, check);
    }
    return check(value);
  }

  /** A schema's `pattern` as ajv reads it (Unicode mode); refuses one that is not a valid regex. */
  regex(pattern: unknown, schemaPointer: string): RegExp {
    if (typeof pattern !== 'string') throw this.refuse('pattern', schemaPointer, 'pattern must be a string');
    let regex = this.regexes.get(pattern);
    if (regex === undefined) {
      try {
        regex = new RegExp(pattern, 'u');
      } catch (error) {
        const hint = foreignRegexHint(pattern);
        const reason = `not a valid regular expression: ${(error as Error).message}`;
        throw this.refuse('pattern', schemaPointer, hint === undefined ? reason : `${reason}; ${hint}`);
      }
      this.regexes.set(pattern, regex);
    }
    return regex;
  }

  /** Where a canonical schema object came from in the schema given (for refusals). */
  originOf(node: object, fallback: string): string {
    return this.canonical.origin.get(node) ?? fallback;
  }

  /** The error for a construct that cannot be honoured at a canonical pointer. */
  refuse(keyword: string, schemaPointer: string, reason: string): UnsupportedSchemaError {
    return new UnsupportedSchemaError(keyword, schemaPointer, `${reason} (in ${this.options.subject})`);
  }

  /**
   * `arbitrary.filter(predicate)`, once a sample shows the filter lets values through, and bounded:
   * fast-check retries a filter without end, so a filter that (almost) never passes is refused at
   * compile time, and one that passes rarely gives up after a number of draws the sample's pass rate
   * sets, answering a value of the sample that passed. `sample` is `fc.sample(arbitrary, { numRuns:
   * tries, seed: 42 })`, given when the caller can draw it for less.
   */
  filtered<T>(
    arbitrary: fc.Arbitrary<T>,
    predicate: (value: T) => boolean,
    refusal: { keyword: string; schemaPointer: string; reason: string },
    tries = 100,
    least = 3,
    sample: readonly T[] = sampleOf(arbitrary, tries),
  ): fc.Arbitrary<T> {
    const passing = sample.filter(predicate);
    const [fallback] = passing;
    if (passing.length < least || fallback === undefined)
      throw this.refuse(refusal.keyword, refusal.schemaPointer, refusal.reason);
    return boundedFilter(arbitrary, predicate, fallback, Math.ceil((FILTER_DRAWS * tries) / passing.length));
  }
}

/** Samples by arbitrary and size: an arbitrary holds no state, so its sample at seed 42 is always the same. */
const samples = new WeakMap<fc.Arbitrary<unknown>, Map<number, readonly unknown[]>>();

function sampleOf<T>(arbitrary: fc.Arbitrary<T>, tries: number): readonly T[] {
  let bySize = samples.get(arbitrary);
  if (bySize === undefined) {
    bySize = new Map();
    samples.set(arbitrary, bySize);
  }
  let sample = bySize.get(tries) as readonly T[] | undefined;
  if (sample === undefined) {
    sample = fc.sample(arbitrary, { numRuns: tries, seed: 42 });
    bySize.set(tries, sample);
  }
  return sample;
}

import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadContract, parameterCheck } from '../../contract/index.js';
import { isValidNewPlant } from '../generate/new-plant.js';
import { caseCount } from '../cases.js';
import { invalidParameters } from './invalid-parameters.js';

const WITH_PARAMETERS = fileURLToPath(new URL('../../http/test-documents/parameters-3.1.yaml', import.meta.url));
const contract = await loadContract(WITH_PARAMETERS);
const NUMBERS = fileURLToPath(new URL('../../http/test-documents/parameters-numbers-3.0.yaml', import.meta.url));
const fresh = { nonce: 'test', bits: () => 7n, claim: () => true, claimed: () => false };

/** The requests of case `index`, drawn as the runner draws them (variant `index % variants`). */
function planOf(index: number, document = contract) {
  const variants = invalidParameters.variants?.(document) ?? 1;
  const [value] = fc.sample(invalidParameters.arbitrary(document, index % variants), { seed: index, numRuns: 1 });
  if (value === undefined) throw new Error('no value');
  const [plan] = invalidParameters.plan(value, { contract: document, fresh, salt: `invalid-parameter:${index}:` });
  if (plan === undefined) throw new Error('no plan');
  return plan;
}

describe('the invalid-parameter probe', () => {
  it('sends nothing for a document without parameters (its other cases stay as they are)', async () => {
    const seed = await loadContract();
    expect(invalidParameters.variants?.(seed)).toBe(0);
    expect(caseCount(invalidParameters, 100, seed)).toBe(0);
  });

  it('leaves out each required parameter, then breaks each parameter one keyword at a time', () => {
    const variants = invalidParameters.variants?.(contract) ?? 0;
    const labels = Array.from({ length: variants }, (_, index) => {
      const { intent } = planOf(index);
      return intent.kind === 'invalid-parameter' ? intent.what.replace(/ holding ".*":/, ' holding …:') : '';
    });
    expect(labels).toEqual([
      'required header "X-Request-ID" left out',
      'required query "api-version" left out',
      'required cookie "tenant" left out',
      'header "X-Request-ID" holding …: not a valid uuid (keyword format)',
      'query "api-version" holding …: not one of enum ["2024-01-01","2025-06-01"] (keyword enum)',
      'query "dryRun" holding …: not of type boolean: a number (keyword type)',
      'query "dryRun" holding …: not of type boolean: a string (keyword type)',
      'cookie "tenant" holding …: not matching pattern ^[a-z]{3,8}$ (keyword pattern)',
      'cookie "tenant" holding …: a match of pattern ^[a-z]{3,8}$ with one character out of its class (keyword pattern)',
    ]);
  });

  it('every case is refused by the servers for the parameter it names, with a valid body and the rest valid', () => {
    const check = parameterCheck(contract);
    for (let index = 0; index < 200; index++) {
      const plan = planOf(index);
      if (plan.intent.kind !== 'invalid-parameter') throw new Error('not a parameter case');
      const [place = '', name = ''] = plan.intent.parameter.split(' ');
      const problem = check?.({ headers: plan.headers ?? {}, url: plan.path });
      expect(problem?.message, plan.intent.what).toContain(`${place} parameter ${name}`);
      expect(isValidNewPlant(contract, plan.body ?? '')).toBe(true);
      // HTTP carries it as written: visible ASCII in every header.
      for (const value of Object.values(plan.headers ?? {}))
        expect(value).toMatch(/^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/);
    }
  });

  it('reads a number where the schema takes no string: page=0 breaks minimum 1, and null, [] and {} are one empty value', async () => {
    const numbers = await loadContract(NUMBERS);
    const variants = invalidParameters.variants?.(numbers) ?? 0;
    const sent = Array.from({ length: variants }, (_, index) => {
      const plan = planOf(index, numbers);
      return plan.intent.kind === 'invalid-parameter' ? plan.intent.what : '';
    });
    expect(sent).toEqual([
      'required query "page" left out',
      'required cookie "lang" left out',
      'query "page" holding "": an empty value (keyword type)',
      'query "page" holding "true": not of type integer: a boolean (keyword type)',
      'query "page" holding "text": not of type integer: a string (keyword type)',
      'query "page" holding "0": 0, just outside minimum 1 (keyword minimum)',
      'query "page" holding "101": 101, just outside maximum 100 (keyword maximum)',
      'query "page" holding "1.5": not of type integer: a number with a fraction (keyword type)',
      'header "X-Dry-Run" holding "1.5": not of type boolean: a number (keyword type)',
      'header "X-Dry-Run" holding "text": not of type boolean: a string (keyword type)',
      'cookie "lang" holding "d": not one of enum ["en","de"] (keyword enum)',
    ]);
  });

  it('never sends an enum member in another letter case (DE for de), which .NET binds, nor a value with edge whitespace', async () => {
    const numbers = await loadContract(NUMBERS);
    const variants = invalidParameters.variants?.(numbers) ?? 0;
    const enumBreak = variants - 1;
    const cookies = Array.from(
      { length: 60 },
      (_, round) => planOf(round * variants + enumBreak, numbers).headers?.cookie,
    );
    for (const cookie of cookies) {
      expect(cookie).toMatch(/^lang=\S+$/);
      expect(['lang=en', 'lang=de']).not.toContain(cookie?.toLowerCase());
    }
  });

  it('never leaves out a header every request carries (User-Agent): such a case would send it anyway', async () => {
    const agent = await loadContract(
      fileURLToPath(new URL('../../http/test-documents/parameters-user-agent-3.1.yaml', import.meta.url)),
    );
    const variants = invalidParameters.variants?.(agent) ?? 0;
    const sent = Array.from({ length: variants }, (_, index) => {
      const plan = planOf(index, agent);
      return plan.intent.kind === 'invalid-parameter' ? plan.intent.what : '';
    });
    const agentCases = sent.filter((what) => what.includes('User-Agent'));
    expect(agentCases.length).toBeGreaterThan(0);
    expect(agentCases.filter((what) => what.includes('left out'))).toEqual([]);
    expect(sent).toContain('required query "api-version" left out');
  });

  it('sends no empty value for a query parameter that allows one (allowEmptyValue), and the servers take it', async () => {
    const allowing = await loadContract(
      fileURLToPath(new URL('../../http/test-documents/parameters-allow-empty-3.0.yaml', import.meta.url)),
    );
    const variants = invalidParameters.variants?.(allowing) ?? 0;
    const sent = Array.from({ length: variants }, (_, index) => planOf(index, allowing).path);
    expect(sent.filter((path) => path.includes('page=&') || path.endsWith('page='))).toEqual([]);
    expect(sent).toContain('/plants?page=0');
    expect(parameterCheck(allowing)?.({ headers: { cookie: 'lang=en' }, url: '/plants?page=' })).toBeUndefined();
    expect(parameterCheck(allowing)?.({ headers: { cookie: 'lang=en' }, url: '/plants' })?.message).toContain(
      'missing',
    );
  });
});

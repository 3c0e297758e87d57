import { describe, expect, it } from 'vitest';
import {
  contentKeyFor,
  isJsonContentKey,
  isJsonEssence,
  isJsonRange,
  mediaTypeEssence,
  meetsMediaType,
} from './media-types.js';

describe('the JSON media type family', () => {
  it('reads a content key in any case and with parameters', () => {
    expect(mediaTypeEssence(' Application/Problem+JSON ; charset=utf-8')).toBe('application/problem+json');
    for (const key of ['application/json', 'Application/JSON; charset=utf-8', 'application/vnd.plants+json'])
      expect(isJsonContentKey(key)).toBe(true);
    for (const key of ['*/*', 'application/*', 'application/*+json', '*/*; q=0.5'])
      expect(isJsonContentKey(key)).toBe(true);
    for (const key of ['text/plain', 'text/json', 'application/xml', 'text/*', 'application/json-seq', '+json', 'json'])
      expect(isJsonContentKey(key)).toBe(false);
  });

  it('tells a JSON type from a range a JSON body meets', () => {
    expect(isJsonEssence('application/problem+json')).toBe(true);
    expect(isJsonEssence('application/*+json')).toBe(false);
    expect(isJsonRange('application/*+json')).toBe(true);
    expect(isJsonRange('application/json')).toBe(false);
  });

  it('meets a key by its type, its +json range, its type range or any', () => {
    const keys = ['application/*+json'];
    expect(meetsMediaType('application/problem+json; charset=utf-8', keys)).toBe(true);
    expect(meetsMediaType('application/json', keys)).toBe(false);
    expect(meetsMediaType('text/plain', ['Text/Plain; charset=utf-8'])).toBe(true);
    expect(meetsMediaType('text/html', ['application/*'])).toBe(false);
    expect(meetsMediaType('text/html', ['*/*'])).toBe(true);
  });
});

describe('contentKeyFor', () => {
  const keys = [
    '*/*',
    'application/*',
    'application/*+json',
    'application/problem+json',
    'application/json; charset=utf-8',
  ];

  it('takes the key a label meets most closely, whatever the keys order', () => {
    expect(contentKeyFor(keys, 'application/problem+json')).toBe('application/problem+json');
    expect(contentKeyFor(keys, 'Application/JSON')).toBe('application/json; charset=utf-8');
    expect(contentKeyFor(keys, 'application/vnd.plants+json')).toBe('application/*+json');
    expect(contentKeyFor(keys, 'application/xml')).toBe('application/*');
    expect(contentKeyFor(keys, 'text/plain')).toBe('*/*');
    expect(contentKeyFor(['text/plain', 'application/json'], 'text/plain')).toBe('text/plain');
  });

  it('without a label, or one no key meets, takes the first JSON type, else the first JSON range', () => {
    expect(contentKeyFor(keys)).toBe('application/problem+json');
    expect(contentKeyFor(['text/plain', 'application/json'], 'application/xml')).toBe('application/json');
    expect(contentKeyFor(['text/plain', '*/*'])).toBe('*/*');
    expect(contentKeyFor(['text/plain', 'application/xml'])).toBeUndefined();
  });
});

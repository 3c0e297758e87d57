/**
 * The member, written into each schema that has a `discriminator` beside a `oneOf` (or `anyOf`) of
 * `$ref`s, that lists for each branch (in order) the values of the discriminating property that pick it.
 */
export const DISCRIMINATOR_VALUES = 'x-plantstore-discriminator-values';

const COMPONENT = '#/components/schemas/';

/**
 * Writes {@link DISCRIMINATOR_VALUES} into every schema of a parsed document (before its `$ref`s are
 * resolved, while a branch still names the schema it is) whose `discriminator` says which branch each
 * value picks: the `mapping` keys whose target is the branch's `$ref` (a bare name counts as that
 * component), else the branch's own component name (OpenAPI's implicit mapping). A schema with a branch
 * that is not a `$ref`, or that no value picks, is left as it is.
 */
export function markDiscriminatorValues(document: unknown, seen = new Set<object>()): void {
  if (document === null || typeof document !== 'object' || seen.has(document)) return;
  seen.add(document);
  if (!Array.isArray(document)) {
    const values = discriminatorValues(document as Record<string, unknown>);
    if (values !== undefined) (document as Record<string, unknown>)[DISCRIMINATOR_VALUES] = values;
  }
  for (const child of Object.values(document)) markDiscriminatorValues(child, seen);
}

function discriminatorValues(schema: Record<string, unknown>): string[][] | undefined {
  const { discriminator } = schema;
  if (discriminator === null || typeof discriminator !== 'object') return undefined;
  const { propertyName, mapping } = discriminator as Record<string, unknown>;
  if (typeof propertyName !== 'string') return undefined;
  const branches = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (branches === undefined || (Array.isArray(schema.oneOf) && Array.isArray(schema.anyOf))) return undefined;
  const targets = Object.entries(mapping !== null && typeof mapping === 'object' ? mapping : {}).flatMap(
    ([value, target]) => (typeof target === 'string' ? [[value, asReference(target)] as const] : []),
  );
  const values = branches.map((branch: unknown) => {
    const ref = branch !== null && typeof branch === 'object' ? (branch as Record<string, unknown>).$ref : undefined;
    if (typeof ref !== 'string') return [];
    const mapped = targets.filter(([, target]) => target === ref).map(([value]) => value);
    if (mapped.length > 0 || !ref.startsWith(COMPONENT) || ref.slice(COMPONENT.length).includes('/')) return mapped;
    return [ref.slice(COMPONENT.length).replace(/~1/g, '/').replace(/~0/g, '~')];
  });
  return values.every((names) => names.length > 0) ? values : undefined;
}

/** A mapping target as a `$ref`: a bare schema name (`Tree`) names that component. */
function asReference(target: string): string {
  return target.includes('/') || target.startsWith('#') ? target : `${COMPONENT}${target}`;
}

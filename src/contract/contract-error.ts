/** One reason a document cannot be used, with where in the document it was found. */
export interface DocumentProblem {
  /** JSON pointer into the document (`/paths/~1plants/post`); `` for the whole document. */
  readonly pointer: string;
  /** A sentence a person can act on. */
  readonly message: string;
}

/** Raised when an OpenAPI document cannot be read, is invalid, or lacks what plantstore needs. */
export class ContractError extends Error {
  override readonly name = 'ContractError';
  /** Every problem found, when the document was read far enough to find them. */
  readonly problems: readonly DocumentProblem[];

  constructor(message: string, problems: readonly DocumentProblem[] = []) {
    super(message);
    this.problems = problems;
  }
}

/** The problems as lines: `  at /pointer: sentence`, or just the sentence for the whole document. */
export function describeProblems(problems: readonly DocumentProblem[]): string {
  return problems
    .map(({ pointer, message }) => (pointer === '' ? `  ${message}` : `  at ${pointer}: ${message}`))
    .join('\n');
}

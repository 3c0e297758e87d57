import { describe, expect, it } from 'vitest';
import { ContractError, UnsupportedSchemaError } from '../contract/index.js';
import { describeFailure, EXIT, UsageError } from './cli-errors.js';

describe('describeFailure', () => {
  it('passes the message of a usage or document error through, with exit 2', () => {
    expect(describeFailure(new UsageError('give --base-url'))).toEqual({ message: 'give --base-url', exitCode: 2 });
    const problems = [{ pointer: '/paths', message: 'The document has no POST /plants operation.' }];
    expect(describeFailure(new ContractError('x.yaml cannot be used (a problem):', problems))).toEqual({
      message: 'x.yaml cannot be used (a problem):',
      exitCode: EXIT.cannotRun,
    });
  });

  it('names the keyword and place of a schema construct that cannot be honoured, with exit 2', () => {
    const error = new UnsupportedSchemaError('if', '/properties/a/if', 'if/then/else is not supported; use oneOf');
    expect(describeFailure(error)).toEqual({
      message:
        'the document\'s "if" at /properties/a/if of a schema cannot be honoured: if/then/else is not supported; use oneOf',
      exitCode: EXIT.cannotRun,
    });
  });

  it('calls anything else a bug to report, on one line', () => {
    expect(describeFailure(new TypeError('x is undefined\n    at y'))).toEqual({
      message: 'unexpected error: x is undefined (please report this)',
      exitCode: EXIT.cannotRun,
    });
  });
});

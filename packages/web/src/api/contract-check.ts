import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';

/** An answer of the API that is not the shape its contract promises: a bug, never a user error. */
export class ContractMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContractMismatchError';
  }
}

/** The first fields where `value` differs from `schema`, or null when it matches. */
export function contractDifferences(schema: TSchema, value: unknown): string | null {
  if (Value.Check(schema, value)) return null;
  return Value.Errors(schema, value)
    .slice(0, 3)
    .map((e) => `${e.instancePath || '(root)'} ${e.message}`)
    .join('; ');
}

/**
 * Throws when `value` does not match `schema`, naming the call and the first fields that differ,
 * so that a server or a test fixture drifting from the contract fails loudly where it happens
 * instead of as an odd blank cell later.
 */
export function assertContract(schema: TSchema, value: unknown, what: string): void {
  const differences = contractDifferences(schema, value);
  if (differences) throw new ContractMismatchError(`${what} answered a value that breaks its contract: ${differences}`);
}

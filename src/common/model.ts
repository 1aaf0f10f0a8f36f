import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { ValueErrorType, type ValueError } from "@sinclair/typebox/errors";
import { Value } from "@sinclair/typebox/value";
import { badRequest, invalidField } from "./errors.ts";

/**
 * What the input models of the capabilities share (docs/architecture.md "Input models"): the words
 * of a refused input, and the schema of a query parameter that holds a whole number.
 *
 * A limit is refused in the same words whether a route's schema refuses it (Elysia's validation,
 * described by `whyInvalid`) or a service that also serves callers outside HTTP does (an import's
 * file entries, the command line): `invalid field "key": at most 512 characters`.
 */

export const atMostCharacters = (max: number) => `at most ${max} characters`;
export const atLeastCharacters = (min: number) => (min === 1 ? "must not be empty" : `must be at least ${min} characters`);
export const atMostItems = (max: number) => `at most ${max} items`;
export const atLeastItems = (min: number) => `at least ${min} ${min === 1 ? "item" : "items"}`;

/**
 * A page number, a page size or a count in a query string: text, which `parsePositiveInt`
 * (common/paging.ts) reads so that its 400 names the parameter in its own words. 9 digits are the
 * most it takes; the room beyond is for leading zeros.
 */
export const WHOLE_NUMBER_PARAM_MAX_LENGTH = 20;
export const WholeNumberParam = Type.String({ maxLength: WHOLE_NUMBER_PARAM_MAX_LENGTH });

const LIMIT_KINDS = new Set([ValueErrorType.StringMaxLength, ValueErrorType.StringMinLength, ValueErrorType.ArrayMaxItems, ValueErrorType.ArrayMinItems]);

/** The error of a union's variant that refused the value for a limit (a string too long for `string | null`), if any. */
function limitInUnion(error: ValueError): ValueError | undefined {
  for (const variant of error.errors ?? []) {
    const first = variant.First();
    if (first && LIMIT_KINDS.has(first.type)) return first;
  }
  return undefined;
}

/** What is wrong with a value, in the words a service uses for the same limit. */
export function whyInvalid(error: ValueError | undefined): string {
  if (!error) return "is invalid";
  if (error.value === undefined) return "required";
  const schema = error.schema as { maxLength?: number; minLength?: number; maxItems?: number; minItems?: number };
  switch (error.type) {
    case ValueErrorType.StringMaxLength:
      return atMostCharacters(schema.maxLength!);
    case ValueErrorType.StringMinLength:
      return atLeastCharacters(schema.minLength!);
    case ValueErrorType.ArrayMaxItems:
      return atMostItems(schema.maxItems!);
    case ValueErrorType.ArrayMinItems:
      return atLeastItems(schema.minItems!);
    case ValueErrorType.Union: {
      const limit = limitInUnion(error);
      if (limit) return whyInvalid(limit);
    }
  }
  return error.message.replace(/^Expected/, "expected");
}

/** The field a TypeBox error is about, as a message names it: `/languages/0` is `languages.0`. */
export function fieldOf(error: ValueError | undefined): string {
  return (error?.path ?? "").replace(/^\//, "").replace(/\//g, ".");
}

/**
 * Checks an input that reaches a service from outside HTTP (the command line, the bootstrap
 * settings) against the model a route would check it with: the same 400, in the same words.
 */
export function checkInput<T extends TSchema>(schema: T, value: unknown): asserts value is Static<T> {
  const error = Value.Errors(schema, value).First();
  if (!error) return;
  const field = fieldOf(error);
  throw field ? invalidField(field, whyInvalid(error)) : badRequest(`invalid input: ${whyInvalid(error)}`);
}

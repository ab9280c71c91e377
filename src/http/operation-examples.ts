// The shape of one operation's OpenAPI examples, apart from the examples themselves: openapi-examples.ts
// gathers them, nixtla/examples.ts among them, so the type living in either made an import circle.
export interface OperationExamples {
  /** name → request body, for operations with a body */
  request?: Record<string, { summary: string; value: unknown }>;
  /** status → an example body of that success response */
  response?: Record<number, unknown>;
  /** status → request example name → its answer, where it differs in shape from `response`'s (the document then lists
   * `examples`: `default` and these) */
  responseExamples?: Record<number, Record<string, unknown>>;
}

// The shape of one operation's OpenAPI examples, apart from the examples themselves: openapi-examples.ts
// gathers them, nixtla/examples.ts among them, so the type living in either made an import circle.
export interface OperationExamples {
  /** name → request body, for operations with a body */
  request?: Record<string, { summary: string; value: unknown }>;
  /** status → an example body of that success response */
  response?: Record<number, unknown>;
}

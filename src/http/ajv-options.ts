// The request validator's options, shared by the app (app.ts) and the forecast threads, which validate
// large bodies with the same compiler (forecast-thread.ts): strict JSON-schema validation, unknown fields
// are errors, nothing is coerced or defaulted; verbose: errors carry the offending value and schema, for
// one clear reason per field (validation-errors.ts).
export const AJV_OPTIONS = { removeAdditional: false, allErrors: true, coerceTypes: false, useDefaults: false, verbose: true } as const;

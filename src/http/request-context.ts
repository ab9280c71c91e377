// The request context lives in src/contract (forecasting and runtime read it too); the http layer
// keeps importing it from here.
export * from '../contract/request-context.ts';

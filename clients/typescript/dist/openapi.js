// Generated from the server's /v1/openapi.json by openapi-typescript (clients/typescript/scripts/generate.ts).
// Do not edit: regenerate with `node scripts/update-sdk-types.ts`.
export {};

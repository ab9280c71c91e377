// A route's body validator compiled as Fastify compiles it for the app (@fastify/ajv-compiler, the shared
// schemas, AJV_OPTIONS): the forecast threads validate large bodies with it (forecast-thread.ts,
// nixtla/thread.ts), so their 400s and 422s are the event loop's.
import AjvCompiler from '@fastify/ajv-compiler';
import { AJV_OPTIONS } from './ajv-options.ts';
import { SHARED_SCHEMAS } from './schemas.ts';
import type { AjvError } from './validation-errors.ts';

export type BodyValidator = ((data: unknown) => boolean) & { errors?: AjvError[] };

export function bodyValidator(schema: object): BodyValidator {
  const shared = Object.fromEntries(SHARED_SCHEMAS.map((s) => [(s as { $id?: string }).$id, s]));
  return AjvCompiler()(shared, { customOptions: { ...AJV_OPTIONS }, plugins: [] } as never)({ schema } as never) as BodyValidator;
}

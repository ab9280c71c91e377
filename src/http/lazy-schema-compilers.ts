// Fastify's own schema compilers (@fastify/ajv-compiler, @fastify/fast-json-stringify-compiler), each route's validator
// and serializer compiled at its first use instead of at start. Fastify compiles every route's schemas when the app is
// ready: ~1-3 s of CPU for this API's ~100 routes, on every start (the tests start over a hundred servers), mostly for
// routes a process never serves. A route's first request pays its own compile once (milliseconds); what is compiled,
// and how, is unchanged.
import AjvCompiler from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type Validate = ((data: unknown, context?: unknown) => unknown) & { errors?: unknown; schemaEnv?: unknown };
type RouteCompiler<F> = (route: unknown) => F;
type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

function lazyValidator(compile: () => Validate): Validate {
  let validate: Validate | undefined;
  const lazy: Validate = (data, context) => {
    validate ??= compile();
    const result = validate(data, context);
    lazy.errors = validate.errors;
    return result;
  };
  // Fastify passes the parent object (needed by Ajv to coerce or default a root value) only to a validator with
  // schemaEnv, which an Ajv function has; the wrapper always takes it and hands it on
  lazy.schemaEnv = true;
  return lazy;
}

function lazySerializer(compile: () => (data: unknown) => string): (data: unknown) => string {
  let serialize: ((data: unknown) => string) | undefined;
  return (data) => (serialize ??= compile())(data);
}

// one pool for the process (Fastify makes one per app): every plugin context of every app with the same shared schemas
// and options gets the same Ajv instance
const validatorPool = AjvCompiler() as unknown as (schemas: unknown, options: unknown) => RouteCompiler<Validate>;
const serializerFactory = SerializerSelector() as unknown as (schemas: unknown, options: unknown) => RouteCompiler<(data: unknown) => string>;

/** For Fastify's `schemaController.compilersFactory`. */
export const lazySchemaCompilers = {
  buildValidator(externalSchemas: unknown, options: unknown): RouteCompiler<Validate> {
    const compile = validatorPool(externalSchemas, options);
    return (route) => lazyValidator(() => compile(route));
  },
  buildSerializer(externalSchemas: unknown, options: unknown): RouteCompiler<(data: unknown) => string> {
    const compile = serializerFactory(externalSchemas, options);
    return (route) => lazySerializer(() => compile(route));
  },
} as unknown as CompilersFactory;

import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifyInstance, FastifySchemaCompiler, FastifyServerOptions } from 'fastify';

/**
 * Route schemas compiled on first use instead of all at start-up.
 *
 * Fastify compiles every route's validators (Ajv) and response serializers (fast-json-stringify)
 * while the app boots: with the portal's few hundred schemas that was the largest part of a warm
 * start (about 0.6 s of CPU on a 2-core machine), paid before the first request even for routes an
 * instance never serves. Here each compiled function is built on the first request that needs it,
 * once, and kept; it then behaves exactly as the eagerly compiled one would (same compiler, same
 * options, same result and error reporting).
 *
 * What start-up compilation also gave, a schema that does not compile fails loudly and early, is
 * kept by `compilePending`, which builds everything still pending: the test suite calls it on the
 * whole app, so a broken schema fails the tests instead of a first request.
 */
export interface LazyCompilation {
  /** Builds every function not yet built; throws the first compile error, naming the route. */
  compilePending(): number;
  /** Functions registered so far, and how many of them have been built. */
  counts(): { registered: number; compiled: number };
  /** Wraps a compile step so that it runs on first use (see `lazyValidator`, `lazySerializer`). */
  defer<F>(describe: string, compile: () => F): () => F;
}

export function createLazyCompilation(): LazyCompilation {
  const pending = new Map<() => unknown, string>();
  let registered = 0;
  return {
    compilePending() {
      let built = 0;
      for (const [get, describe] of [...pending]) {
        try {
          get();
        } catch (err) {
          throw new Error(`${describe}: ${(err as Error).message}`, { cause: err });
        }
        built++;
      }
      return built;
    },
    counts: () => ({ registered, compiled: registered - pending.size }),
    defer<F>(describe: string, compile: () => F) {
      registered++;
      let compiled: F | undefined;
      const get = (): F => {
        if (compiled === undefined) {
          compiled = compile();
          pending.delete(get);
        }
        return compiled;
      };
      pending.set(get, describe);
      return get;
    },
  };
}

/** What Fastify calls a compiled validator: a function, with the failed call's reasons on it. */
export type Validator = ReturnType<FastifySchemaCompiler<unknown>>;

/**
 * A validator built on its first call. Fastify reads two properties of the function it is given:
 * `errors` after a failed check, and `schemaEnv` (an Ajv function's) to decide whether to pass the
 * parent object so the root value can be replaced by coercion. Both are read through to the built
 * function, so Fastify treats the wrapper exactly as it would the function itself.
 */
export function lazyValidator(lazy: LazyCompilation, describe: string, compile: () => Validator): Validator {
  const get = lazy.defer(describe, compile);
  // Fastify passes a second argument (the parent object) only to a function with `schemaEnv`.
  const validator = (data: unknown, context?: unknown) =>
    context === undefined ? get()(data) : (get() as (data: unknown, context: unknown) => ReturnType<Validator>)(data, context);
  Object.defineProperties(validator, {
    errors: { get: () => get().errors, enumerable: true },
    schemaEnv: { get: () => (get() as { schemaEnv?: unknown }).schemaEnv },
  });
  return validator;
}

type SerializerFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer'];

/**
 * Fastify's own serializer factory (the one it uses when given none), with each route's
 * serializer built on the first answer that needs it.
 */
export function lazySerializers(lazy: LazyCompilation): NonNullable<SerializerFactory> {
  const buildSerializer = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = buildSerializer(externalSchemas, options);
    return (route) => {
      const get = lazy.defer(`response ${route.httpStatus} of ${route.method} ${route.url}`, () => compile(route));
      return (doc: unknown) => get()(doc);
    };
  };
}

const ofApp = new WeakMap<FastifyInstance, LazyCompilation>();

/** Remembers an app's lazy compilation, for `lazyCompilationOf`. */
export function attachLazyCompilation(app: FastifyInstance, lazy: LazyCompilation): void {
  ofApp.set(app, lazy);
}

/** The lazy compilation of an app built by `buildApp` (tests compile everything through it). */
export function lazyCompilationOf(app: FastifyInstance): LazyCompilation | undefined {
  return ofApp.get(app);
}

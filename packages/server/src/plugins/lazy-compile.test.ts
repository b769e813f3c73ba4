import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createLazyCompilation, lazySerializers, type LazyCompilation } from './lazy-compile.ts';
import { installValidators } from './validation.ts';

let app: FastifyInstance | undefined;
afterEach(async () => app?.close());

function build(): { app: FastifyInstance; lazy: LazyCompilation } {
  const lazy = createLazyCompilation();
  app = Fastify({ schemaController: { compilersFactory: { buildSerializer: lazySerializers(lazy) } } });
  installValidators(app, lazy);
  return { app, lazy };
}

describe('lazily compiled route schemas', () => {
  it('builds nothing at ready(), then each function once, on the first request that needs it', async () => {
    const { app, lazy } = build();
    app.post(
      '/items/:id',
      {
        schema: {
          params: {
            type: 'object',
            properties: { id: { type: 'integer', minimum: 1, maximum: 99 } },
            required: ['id'],
          },
          body: {
            type: 'object',
            properties: { n: { type: 'integer', minimum: 0, maximum: 9 } },
            required: ['n'],
            additionalProperties: false,
          },
          response: { 200: { type: 'object', properties: { id: { type: 'integer' }, n: { type: 'integer' } } } },
        },
      },
      // A field the response schema does not name: the serializer must drop it.
      async (request) => ({ ...(request.params as object), ...(request.body as object), secret: 'x' }),
    );
    await app.ready();
    expect(lazy.counts()).toEqual({ registered: 3, compiled: 0 });

    // Refused by the params validator (the decimal guard), built by this request.
    const hex = await app.inject({ method: 'POST', url: '/items/0x10', payload: { n: 1 } });
    expect(hex.statusCode).toBe(400);
    expect(hex.json().message).toMatch(/params\/id must be a whole number written in digits/);

    // Refused by the body validator with Ajv's reasons, read through the wrapper.
    const text = await app.inject({ method: 'POST', url: '/items/7', payload: { n: '1' } });
    expect(text.statusCode).toBe(400);
    expect(text.json().message).toBe('body/n must be integer');

    const ok = await app.inject({ method: 'POST', url: '/items/7', payload: { n: 2 } });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('{"id":7,"n":2}');
    expect(lazy.counts()).toEqual({ registered: 3, compiled: 3 });
    expect(lazy.compilePending()).toBe(0);
  });

  it('coerces query strings as the eagerly built validator did', async () => {
    const { app } = build();
    // Without an integer property the coercing validator is Ajv's own function, called with the
    // parent object as Fastify calls it (it asks the wrapper for `schemaEnv`).
    app.get(
      '/tags',
      { schema: { querystring: { type: 'object', properties: { tag: { type: 'array', items: { type: 'string' } } } } } },
      async (request) => request.query,
    );
    const res = await app.inject({ method: 'GET', url: '/tags?tag=a' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ tag: ['a'] });
  });

  it('reports a schema that does not compile when everything pending is built, naming the route', async () => {
    const { app, lazy } = build();
    app.post('/broken', { schema: { body: { type: 'object', properties: { a: { $ref: '#/definitions/missing' } } } } }, async () => ({}));
    await app.ready();
    expect(() => lazy.compilePending()).toThrow(/body of POST \/broken/);
  });
});

describe('numbers in request schemas', () => {
  it('must have both bounds, wherever they sit, or the route is refused at start-up', () => {
    const { app } = build();
    const refused = (schema: object) => {
      try {
        app.post(`/r${Math.random()}`, { schema }, async () => ({}));
        return null;
      } catch (error) {
        return (error as Error).message;
      }
    };
    const bounded = { type: 'integer', minimum: 1, maximum: 9 };
    expect(
      refused({ body: { type: 'object', properties: { a: bounded, b: { type: 'number', minimum: 0 } } } }),
    ).toMatch(/body\/b is a number without both bounds/);
    expect(refused({ querystring: { type: 'object', properties: { a: { type: 'integer', maximum: 9 } } } })).toMatch(
      /querystring\/a is a number/,
    );
    expect(
      refused({ body: { type: 'object', properties: { ids: { type: 'array', items: { type: 'integer' } } } } }),
    ).toMatch(/body\/ids\/\* is a number/);
    expect(
      refused({
        body: { type: 'object', properties: { x: { anyOf: [{ type: 'null' }, { type: ['integer', 'null'] }] } } },
      }),
    ).toMatch(/body\/x is a number/);
    expect(
      refused({ body: { type: 'object', additionalProperties: { type: 'number', exclusiveMinimum: 0 } } }),
    ).toMatch(/body\/\* is a number/);
    // Bounded, or not a request part: accepted.
    expect(refused({ params: { type: 'object', properties: { id: bounded } } })).toBeNull();
    expect(
      refused({
        body: { type: 'object', patternProperties: { '^a$': { type: 'number', exclusiveMinimum: 0, maximum: 1 } } },
      }),
    ).toBeNull();
    expect(refused({ response: { 200: { type: 'object', properties: { n: { type: 'integer' } } } } })).toBeNull();
  });
});

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Type, defineAddon } from '@pipewright/sdk';
import { bootTestCore, type TestCore } from '../src/testing.js';

// /openapi.json documents fields the server fills in (a default) as optional, as AYON's document does, while the
// validation still fills them in.

const probe = defineAddon({
  name: 'openapi-probe',
  version: '1.0.0',
  title: 'OpenAPI probe',
  setup(ctx) {
    ctx.app.post(
      '/echo',
      {
        schema: {
          security: [],
          querystring: Type.Object({ limit: Type.Integer({ default: 10 }), name: Type.String() }),
          body: Type.Object({
            force: Type.Boolean({ default: false }),
            label: Type.String(),
            nested: Type.Object({ keep: Type.Boolean({ default: true }), id: Type.String() }),
          }),
        },
      },
      async (request) => ({ query: request.query, body: request.body }),
    );
  },
});

let core: TestCore;
beforeAll(async () => {
  core = await bootTestCore({ addons: [], extraAddons: [probe] });
});
afterAll(() => core?.close());

describe('/openapi.json', () => {
  it('lists request fields and query parameters with a default as optional, at every depth', async () => {
    const document = (await core.request('GET', '/openapi.json')).body;
    const operation = document.paths['/api/addons/openapi-probe/1.0.0/echo'].post;
    const body = operation.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(['label', 'nested']);
    expect(body.properties.nested.required).toEqual(['id']);
    const parameters = Object.fromEntries(
      operation.parameters.map((p: { name: string; required: boolean }) => [p.name, p.required]),
    );
    expect(parameters).toEqual({ limit: false, name: true });
  });

  it('still fills the defaults in when the request leaves them out', async () => {
    const res = await core.request('POST', '/api/addons/openapi-probe/1.0.0/echo?name=x', {
      body: { label: 'a', nested: { id: 'b' } },
    });
    expect(res.body).toEqual({
      query: { limit: 10, name: 'x' },
      body: { force: false, label: 'a', nested: { keep: true, id: 'b' } },
    });
  });
});

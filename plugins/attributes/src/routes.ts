import { NoContent, ValidationFailed, type AddonApp, type Problem } from '@pipewright/sdk';
import type { AttributeData } from './api.js';
import type { AttributeService } from './library.js';
import {
  AttributeDefinition,
  AttributeList,
  AttributeListPut,
  AttributeParams,
  AttributePut,
} from './schemas.js';
import type { AttributeInput } from './store.js';
import { checkDefinition } from './value-checks.js';

// What the schemas cannot catch; all problems of a request are reported together, as the core does for schemas.
function refuseBadDefinitions(items: { input: AttributeInput; loc: (string | number)[] }[]): void {
  const problems: Problem[] = [];
  const seen = new Set<string>();
  for (const { input, loc } of items) {
    if (seen.has(input.name))
      problems.push({
        loc: [...loc, 'name'],
        msg: `attribute ${input.name} is listed more than once`,
        type: 'duplicate',
      });
    seen.add(input.name);
    problems.push(...checkDefinition(input.data as unknown as AttributeData, [...loc, 'data']));
  }
  if (problems.length) throw new ValidationFailed(problems, 'Invalid attribute definition');
}

export function attributeRoutes(library: AttributeService) {
  return async (app: AddonApp) => {
    app.get(
      '/api/attributes',
      {
        schema: { summary: 'The attribute definitions, in position order', response: { 200: AttributeList } },
      },
      async () => ({ attributes: await library.read() }),
    );

    app.put(
      '/api/attributes',
      {
        config: { access: 'admin' },
        schema: {
          summary: 'Create or replace several attribute definitions at once (administrators)',
          description:
            'With deleteMissing, attributes made by the studio that are not listed are deleted; built-in ones always stay.',
          body: AttributeListPut,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        const inputs = request.body.attributes.map(({ name, position, scope, data }) => ({
          name,
          position,
          scope,
          data,
        }));
        await library.refuseBuiltinRetype(inputs);
        refuseBadDefinitions(inputs.map((input, index) => ({ input, loc: ['body', 'attributes', index] })));
        await library.save(inputs, {
          deleteMissing: request.body.deleteMissing,
          actor: request.caller.name,
        });
      },
    );

    app.get(
      '/api/attributes/:attribute_name',
      {
        schema: {
          summary: 'One attribute definition',
          params: AttributeParams,
          response: { 200: AttributeDefinition },
        },
      },
      async (request) => library.require(request.params.attribute_name),
    );

    app.put(
      '/api/attributes/:attribute_name',
      {
        config: { access: 'admin' },
        schema: {
          summary: 'Create or replace an attribute definition (administrators)',
          description:
            'The type of a built-in attribute cannot change (409); builtin in the body is ignored.',
          params: AttributeParams,
          body: AttributePut,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        const { name, position, scope, data } = request.body;
        const input = { name: request.params.attribute_name, position, scope, data };
        // A client may send back a definition as it read it, name included; a different name is a mistake.
        if (name !== undefined && name !== input.name) {
          throw new ValidationFailed([
            {
              loc: ['body', 'name'],
              msg: `must be the name in the path (${input.name})`,
              type: 'value_error',
            },
          ]);
        }
        await library.refuseBuiltinRetype([input]);
        refuseBadDefinitions([{ input, loc: ['body'] }]);
        await library.save([input], { actor: request.caller.name });
      },
    );

    app.delete(
      '/api/attributes/:attribute_name',
      {
        config: { access: 'admin' },
        schema: {
          summary: 'Delete an attribute made by the studio (built-in ones answer 409)',
          params: AttributeParams,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        await library.remove(request.params.attribute_name, request.caller.name);
      },
    );
  };
}

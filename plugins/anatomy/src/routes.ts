import { JsonObject, NoContent, type AddonApp } from '@pipewright/sdk';
import { requireStoredName, type AnatomyPresetService } from './presets.js';
import { AnatomyDocument, PresetList, PresetParams, RenamePreset, anatomyJsonSchema } from './schemas.js';

/** The version of the anatomy model, as AYON 1.11 names it in its preset list. */
const ANATOMY_MODEL_VERSION = '1.0.0';

/** The preset a path names; "_" is refused: it addresses the anatomy in force, not a stored preset. */
function storedPreset(params: { preset_name: string }): string {
  requireStoredName(params.preset_name, ['path', 'preset_name']);
  return params.preset_name;
}

export function anatomyRoutes(presets: AnatomyPresetService) {
  return async (app: AddonApp) => {
    app.get(
      '/api/anatomy/schema',
      { schema: { summary: 'The JSON schema of an anatomy document', response: { 200: JsonObject } } },
      async () => anatomyJsonSchema(),
    );

    app.get(
      '/api/anatomy/presets',
      {
        schema: {
          summary: 'Anatomy presets: "_" (the built-in) first, primary when no stored preset is',
          response: { 200: PresetList },
        },
      },
      async () => {
        const list = await presets.list();
        const version = ANATOMY_MODEL_VERSION;
        return { version, presets: list.map((preset) => ({ ...preset, version })) };
      },
    );

    app.get(
      '/api/anatomy/presets/:preset_name',
      {
        schema: {
          summary: 'One anatomy preset; "_" is the primary preset, or the built-in when none is',
          params: PresetParams,
          response: { 200: AnatomyDocument },
        },
      },
      async (request) => {
        // The sdk types scope and entity types as plain strings; stored anatomies passed this schema on the way in.
        return (await presets.get(request.params.preset_name)) as AnatomyDocument;
      },
    );

    app.put(
      '/api/anatomy/presets/:preset_name',
      {
        config: { access: 'manager' },
        schema: {
          summary: 'Create or replace an anatomy preset (parts left out come from the built-in)',
          params: PresetParams,
          body: AnatomyDocument,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        const name = storedPreset(request.params);
        await presets.put(name, presets.require(request.body, ['body']), request.caller.name);
      },
    );

    app.delete(
      '/api/anatomy/presets/:preset_name',
      {
        config: { access: 'manager' },
        schema: { summary: 'Delete an anatomy preset', params: PresetParams, response: { 204: NoContent } },
      },
      async (request) => {
        await presets.remove(storedPreset(request.params), request.caller.name);
      },
    );

    app.post(
      '/api/anatomy/presets/:preset_name/primary',
      {
        config: { access: 'manager' },
        schema: {
          summary:
            'Make a preset primary (served as "_" and offered first for new projects); "_" makes the built-in primary',
          params: PresetParams,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        await presets.setPrimary(request.params.preset_name, request.caller.name);
      },
    );

    app.delete(
      '/api/anatomy/presets/:preset_name/primary',
      {
        config: { access: 'manager' },
        schema: {
          summary: 'Stop a preset being primary; "_" then serves the built-in',
          params: PresetParams,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        await presets.unsetPrimary(request.params.preset_name, request.caller.name);
      },
    );

    app.post(
      '/api/anatomy/presets/:preset_name/rename',
      {
        config: { access: 'manager' },
        schema: {
          summary: 'Rename an anatomy preset',
          params: PresetParams,
          body: RenamePreset,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        const name = storedPreset(request.params);
        requireStoredName(request.body.name, ['body', 'name']);
        await presets.rename(name, request.body.name, request.caller.name);
      },
    );
  };
}

import {
  JsonObject,
  NoContent,
  requireManager,
  requireUser,
  type AddonApp,
  type EventBus,
  type RequestUser,
  type Sender,
} from '@pipewright/sdk';
import { requireStoredName, type AnatomyPresetService } from './presets.js';
import { AnatomyDocument, PresetList, PresetParams, RenamePreset, anatomyJsonSchema } from './schemas.js';

const TOPIC = 'anatomy.preset.changed';

/** The version of the anatomy model, as AYON 1.11 names it in its preset list. */
const ANATOMY_MODEL_VERSION = '1.0.0';

export function anatomyRoutes(presets: AnatomyPresetService, events: EventBus) {
  // Clients cache anatomies (the web app's status pickers, the launcher's templates): one topic tells them to reload.
  const changed = (
    caller: RequestUser,
    sender: Sender,
    presetName: string,
    action: string,
    summary: Record<string, unknown> = {},
  ) =>
    events.emit({
      topic: TOPIC,
      user: caller.name,
      sender: sender.sender,
      senderType: sender.senderType,
      description: `Anatomy preset ${presetName}: ${action}`,
      summary: { presetName, action, ...summary },
    });

  return async (app: AddonApp) => {
    app.get(
      '/api/anatomy/schema',
      { schema: { summary: 'The JSON schema of an anatomy document', response: { 200: JsonObject } } },
      async (request) => {
        requireUser(request);
        return anatomyJsonSchema();
      },
    );

    app.get(
      '/api/anatomy/presets',
      {
        schema: {
          summary: 'Anatomy presets: "_" (the built-in) first, primary when no stored preset is',
          response: { 200: PresetList },
        },
      },
      async (request) => {
        requireUser(request);
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
        requireUser(request);
        // The sdk types scope and entity types as plain strings; stored anatomies passed this schema on the way in.
        return (await presets.get(request.params.preset_name)) as AnatomyDocument;
      },
    );

    app.put(
      '/api/anatomy/presets/:preset_name',
      {
        schema: {
          summary: 'Create or replace an anatomy preset (parts left out come from the built-in)',
          params: PresetParams,
          body: AnatomyDocument,
          response: { 204: NoContent },
        },
      },
      async (request, reply) => {
        const caller = requireManager(request);
        const name = request.params.preset_name;
        requireStoredName(name, ['path', 'preset_name']);
        const replaced = await presets.put(name, presets.require(request.body, ['body']));
        await changed(caller, request.sender, name, replaced ? 'updated' : 'created');
        return reply.code(204).send(null);
      },
    );

    app.delete(
      '/api/anatomy/presets/:preset_name',
      { schema: { summary: 'Delete an anatomy preset', params: PresetParams, response: { 204: NoContent } } },
      async (request, reply) => {
        const caller = requireManager(request);
        const name = request.params.preset_name;
        requireStoredName(name, ['path', 'preset_name']);
        await presets.remove(name);
        await changed(caller, request.sender, name, 'deleted');
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/api/anatomy/presets/:preset_name/primary',
      {
        schema: {
          summary:
            'Make a preset primary (served as "_" and offered first for new projects); "_" makes the built-in primary',
          params: PresetParams,
          response: { 204: NoContent },
        },
      },
      async (request, reply) => {
        const caller = requireManager(request);
        await presets.setPrimary(request.params.preset_name);
        await changed(caller, request.sender, request.params.preset_name, 'primary-set');
        return reply.code(204).send(null);
      },
    );

    app.delete(
      '/api/anatomy/presets/:preset_name/primary',
      {
        schema: {
          summary: 'Stop a preset being primary; "_" then serves the built-in',
          params: PresetParams,
          response: { 204: NoContent },
        },
      },
      async (request, reply) => {
        const caller = requireManager(request);
        await presets.unsetPrimary(request.params.preset_name);
        await changed(caller, request.sender, request.params.preset_name, 'primary-unset');
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/api/anatomy/presets/:preset_name/rename',
      {
        schema: {
          summary: 'Rename an anatomy preset',
          params: PresetParams,
          body: RenamePreset,
          response: { 204: NoContent },
        },
      },
      async (request, reply) => {
        const caller = requireManager(request);
        const name = request.params.preset_name;
        requireStoredName(name, ['path', 'preset_name']);
        requireStoredName(request.body.name, ['body', 'name']);
        await presets.rename(name, request.body.name);
        await changed(caller, request.sender, request.body.name, 'renamed', { oldName: name });
        return reply.code(204).send(null);
      },
    );
  };
}

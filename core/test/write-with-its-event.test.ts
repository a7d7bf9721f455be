import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, type TestCore } from '../src/testing.js';
import { usersRef } from '@pipewright/plugin-users/api';

// A change and its event are one unit: when the event cannot be stored, the change is not made either. The event
// log refuses one topic at a time here (a trigger standing in for a full disk or a failure at that moment), and each
// addon's write must then answer an error and leave its data as it was. Emitting after the service committed, as
// route files used to, fails this: the change stays while its event is lost.

let core: TestCore;
let admin: string;
const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  core = await bootTestCore({ addons: ['users', 'teams', 'anatomy', 'attributes', 'secrets', 'system'] });
  await core.services.get(usersRef).create({
    name: 'root',
    password: PASSWORD,
    data: { isAdmin: true },
  });
  admin = (await core.request('POST', '/api/auth/login', { body: { name: 'root', password: PASSWORD } })).body
    .token;
  expect(
    (await core.request('POST', '/api/projects', { token: admin, body: { name: 'demo', code: 'demo' } }))
      .status,
  ).toBe(201);
  await sql`CREATE TABLE public.refused_topics (topic text PRIMARY KEY)`.execute(core.db);
  await sql`
    CREATE FUNCTION public.refuse_topic() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF EXISTS (SELECT 1 FROM public.refused_topics WHERE topic = NEW.topic) THEN
        RAISE EXCEPTION 'the event log refuses %', NEW.topic;
      END IF;
      RETURN NEW;
    END $$`.execute(core.db);
  await sql`CREATE TRIGGER refuse_topic BEFORE INSERT ON public.events
    FOR EACH ROW EXECUTE FUNCTION public.refuse_topic()`.execute(core.db);
}, 120_000);
afterAll(() => core?.close());

/** Refuse events of this topic from now on; null takes them all again. */
async function refuse(topic: string | null) {
  await sql`DELETE FROM public.refused_topics`.execute(core.db);
  if (topic) await sql`INSERT INTO public.refused_topics VALUES (${topic})`.execute(core.db);
}
afterEach(() => refuse(null));

const call = (method: string, path: string, body?: unknown) =>
  core.request(method, path, { token: admin, ...(body === undefined ? {} : { body }) });

describe('a write whose event cannot be stored changes nothing', () => {
  it('teams', async () => {
    await refuse('team.changed');
    expect((await call('PUT', '/api/projects/demo/teams/comp', { members: [] })).status).toBe(500);
    await refuse(null);
    expect((await call('GET', '/api/projects/demo/teams')).body).toEqual([]);
  });

  it('anatomy presets', async () => {
    await refuse('anatomy.preset.changed');
    expect((await call('PUT', '/api/anatomy/presets/film', {})).status).toBe(500);
    await refuse(null);
    expect((await call('GET', '/api/anatomy/presets/film')).status).toBe(404);
  });

  it('attribute definitions', async () => {
    await refuse('attribute.updated');
    const definition = { position: 99, scope: ['folder'], data: { type: 'string' } };
    expect((await call('PUT', '/api/attributes/shotCode', definition)).status).toBe(500);
    await refuse(null);
    expect((await call('GET', '/api/attributes/shotCode')).status).toBe(404);
  });

  it('secrets', async () => {
    await refuse('secret.updated');
    expect((await call('PUT', '/api/secrets/farm_key', { value: 'x' })).status).toBe(500);
    await refuse(null);
    expect((await call('GET', '/api/secrets/farm_key')).status).toBe(404);
  });

  it('the restart-required flag', async () => {
    await refuse('server.restart_required');
    expect((await call('POST', '/api/system/restartRequired', { required: true, reason: 'x' })).status).toBe(
      500,
    );
    await refuse(null);
    expect((await call('GET', '/api/system/restartRequired')).body).toMatchObject({ required: false });
  });

  it('and makes it, with its event, once the log takes it', async () => {
    expect((await call('PUT', '/api/projects/demo/teams/comp', { members: [] })).status).toBe(204);
    const events = await core.db
      .selectFrom('public.events')
      .select('topic')
      .where('topic', '=', 'team.changed')
      .execute();
    expect(events).toHaveLength(1);
  });
});

import pg from 'pg';
import { newId } from '@pipewright/sdk';
const client = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:55432/postgres' });
await client.connect();
const N = 180000;
async function setup() {
  await client.query(`DROP TABLE IF EXISTS pev; CREATE TABLE pev (
          id uuid PRIMARY KEY, hash text NOT NULL UNIQUE, topic text NOT NULL, sender text, sender_type text,
          project_name text, user_name text, depends_on uuid REFERENCES pev(id) ON DELETE SET NULL,
          status text NOT NULL DEFAULT 'finished' CHECK (status IN ('pending', 'in_progress', 'finished', 'failed', 'aborted', 'restarted')),
          retries integer NOT NULL DEFAULT 0, description text NOT NULL DEFAULT '', summary jsonb NOT NULL DEFAULT '{}',
          payload jsonb NOT NULL DEFAULT '{}', created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now(),
          creation_order bigserial);
   CREATE INDEX pev_topic_idx ON pev (topic text_pattern_ops);
   CREATE INDEX pev_depends_on_idx ON pev (depends_on) WHERE depends_on IS NOT NULL;
   CREATE INDEX pev_updated_at_idx ON pev (updated_at);
   CREATE INDEX pev_project_idx ON pev (project_name);`);
}
async function run(label: string, mk: (id: string) => any, sqlText: string, baseObj: any, ddl = '') {
  await setup();
  if (ddl) await client.query(ddl);
  const rowsAll = Array.from({ length: N }, () => mk(newId()));
  const t = process.hrtime.bigint();
  const b0 = process.cpuUsage();
  for (let i = 0; i < N; i += 1000) {
    await client.query('BEGIN');
    await client.query(sqlText, [JSON.stringify(baseObj), JSON.stringify(rowsAll.slice(i, i + 1000))]);
    await client.query('COMMIT');
  }
  const c = process.cpuUsage(b0);
  console.log(label, Number(process.hrtime.bigint() - t) / 1e9, 'node cpu', (c.user + c.system) / 1e6);
}
const base = { topic: 'entity.folder.created', sender: 'x', sender_type: 'y', project_name: 'bench', user_name: 'admin', status: 'finished', payload: {}, created_at: new Date().toISOString(), updated_at: new Date().toISOString() };
const cols = 'id,hash,topic,sender,sender_type,project_name,user_name,status,description,summary,payload,created_at,updated_at';
const q = `INSERT INTO pev (${cols}) SELECT ${cols} FROM jsonb_populate_recordset(jsonb_populate_record(NULL::pev, $1::jsonb), $2::jsonb) ON CONFLICT (hash) DO NOTHING`;
const full = (id: string) => ({ id, hash: id, description: `folder ${id} created`, summary: { entityId: id, parentId: newId() } });

const plain = q.replace(' ON CONFLICT (hash) DO NOTHING', '');
const v7 = () => { const t = Date.now().toString(16).padStart(12, '0'); const r = newId(); return t + '7' + r.slice(13); };
const full7 = () => { const id = v7(); return { id, hash: id, description: `folder ${id} created`, summary: { entityId: newId(), parentId: newId() } }; };
const jsonq = plain.replace('jsonb_populate_recordset(jsonb_populate_record(NULL::pev, $1::jsonb), $2::jsonb)', 'json_populate_recordset(json_populate_record(NULL::pev, $1::json), $2::json)');
for (let k = 0; k < 2; k++) {
  await run('jsonb v7', full7 as any, plain, base);
  await run('json v7', full7 as any, jsonq, base);
}
await client.query('DROP TABLE pev');
await client.end();

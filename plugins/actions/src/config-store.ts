import { sql } from 'kysely';
import type { Database } from '@pipewright/sdk';

// Each user's settings of an action (action_config), per addon, action and project ('' outside any project).

/** Who and where the settings are for. */
export interface ConfigKey {
  addonName: string;
  identifier: string;
  userName: string;
  projectName: string | null;
}

/** The stored settings, or {} when there are none. */
export async function readConfig(db: Database, key: ConfigKey): Promise<Record<string, unknown>> {
  const row = await db
    .selectFrom('action_config')
    .select('data')
    .where('addon_name', '=', key.addonName)
    .where('identifier', '=', key.identifier)
    .where('user_name', '=', key.userName)
    .where('project_name', '=', key.projectName ?? '')
    .executeTakeFirst();
  return (row?.data ?? {}) as Record<string, unknown>;
}

/** Store the settings, replacing any, with the addon version that saved them. */
export async function saveConfig(
  db: Database,
  key: ConfigKey,
  addonVersion: string,
  value: Record<string, unknown>,
): Promise<void> {
  const data = JSON.stringify(value);
  await db
    .insertInto('action_config')
    .values({
      addon_name: key.addonName,
      identifier: key.identifier,
      user_name: key.userName,
      project_name: key.projectName ?? '',
      addon_version: addonVersion,
      data,
    })
    .onConflict((conflict) =>
      conflict
        .columns(['addon_name', 'identifier', 'user_name', 'project_name'])
        .doUpdateSet({ data, addon_version: addonVersion, updated_at: sql`now()` }),
    )
    .execute();
}

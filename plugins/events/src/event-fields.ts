import { sql, type RawBuilder } from 'kysely';
import { compileFilter, type FieldKind, type FieldMap } from '@pipewright/sdk';

/** The filterable keys of an event (wire names) for a table alias such as "e"; project and user are stored as *_name. */
export function eventFields(alias: string): FieldMap {
  const col = (name: string, kind: FieldKind) => ({ expr: sql.ref(`${alias}.${name}`), kind });
  return {
    id: col('id', 'uuid'),
    hash: col('hash', 'text'),
    topic: col('topic', 'text'),
    sender: col('sender', 'text'),
    senderType: col('sender_type', 'text'),
    project: col('project_name', 'text'),
    projectName: col('project_name', 'text'),
    user: col('user_name', 'text'),
    userName: col('user_name', 'text'),
    dependsOn: col('depends_on', 'uuid'),
    status: col('status', 'text'),
    retries: col('retries', 'integer'),
    description: col('description', 'text'),
    summary: col('summary', 'json'),
    payload: col('payload', 'json'),
    createdAt: col('created_at', 'timestamp'),
    updatedAt: col('updated_at', 'timestamp'),
  };
}

/** A QueryFilter over events (table alias given), as one SQL condition; 422 problems under loc. */
export function compileEventFilter(filter: unknown, alias: string, loc: (string | number)[] = ['body', 'filter']): RawBuilder<boolean> {
  return compileFilter(filter, eventFields(alias), loc);
}

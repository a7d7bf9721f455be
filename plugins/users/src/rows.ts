import type { UserRecord } from '@pipewright/sdk';

// A user as the users table holds it, and an API key as its owner sees it.

export interface ApiKey {
  id: string;
  label: string;
  preview: string;
  created: string;
  expires: string | null;
}

/** A users row as the directory hands it out. */
export function toRecord(row: Record<string, any>): UserRecord {
  return {
    name: row.name,
    active: row.active,
    attrib: row.attrib,
    data: row.data,
    hasPassword: row.password_hash !== null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

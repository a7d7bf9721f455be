import { sql, type RawBuilder } from 'kysely';
import type { Database } from '@pipewright/sdk';
import type { ListedUser, UserListing } from './api.js';

function listingConditions(listing: UserListing): RawBuilder<boolean>[] {
  const where: RawBuilder<boolean>[] = [];
  if (listing.onlyUser !== undefined)
    where.push(sql<boolean>`lower(u.name) = ${listing.onlyUser.toLowerCase()}`);
  if (listing.namePattern !== undefined) where.push(sql<boolean>`u.name ILIKE ${listing.namePattern}`);
  if (listing.names) where.push(sql<boolean>`u.name = ANY(${listing.names}::text[])`);
  if (listing.emails) {
    const emails = listing.emails.map((email) => email.toLowerCase());
    where.push(sql<boolean>`lower(u.attrib->>'email') = ANY(${emails}::text[])`);
  }
  // Managers and admins belong to every project; others to those they hold access groups in.
  if (listing.projects?.length)
    where.push(sql<boolean>`(u.data->>'isAdmin' = 'true' OR u.data->>'isManager' = 'true'
      OR (jsonb_typeof(u.data->'accessGroups') = 'object' AND u.data->'accessGroups' ?| ${listing.projects}::text[]))`);
  if (listing.after !== undefined) where.push(sql<boolean>`u.name > ${listing.after}`);
  if (listing.before !== undefined) where.push(sql<boolean>`u.name < ${listing.before}`);
  return where;
}

/** A page of users by name, filtered in SQL, each with the preview of their newest API key. */
export async function listUsersPage(db: Database, listing: UserListing): Promise<ListedUser[]> {
  const where = listingConditions(listing);
  const direction = sql.raw(listing.descending ? 'DESC' : 'ASC');
  const { rows } = await sql<Record<string, any>>`
    SELECT u.name, u.active, u.attrib, u.data, u.password_hash IS NOT NULL AS has_password,
      u.created_at, u.updated_at,
      (SELECT k.preview FROM api_keys k WHERE k.user_name = u.name ORDER BY k.created_at DESC LIMIT 1) AS key_preview
    FROM users u
    ${where.length ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``}
    ORDER BY u.name ${direction}
    LIMIT ${listing.limit}`.execute(db);
  return rows.map((row) => ({
    name: row.name,
    active: row.active,
    attrib: row.attrib ?? {},
    data: row.data ?? {},
    hasPassword: row.has_password,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    apiKeyPreview:
      row.key_preview ?? (typeof row.data?.apiKeyPreview === 'string' ? row.data.apiKeyPreview : null),
  }));
}

import { ProjectName, Type, UserName, type Static } from '@pipewright/sdk';

/**
 * 2 to 64 characters; no slash, which could never be addressed in a URL path, and no control characters
 * (PostgreSQL refuses NUL in text, and the rest only make trouble in a UI).
 */
export const TeamName = Type.String({
  minLength: 2,
  maxLength: 64,
  pattern: '^[^/\\x00-\\x1f\\x7f]+$',
  examples: ['lighting'],
});

// jsonb cannot hold NUL either; a role is a label, so control characters are refused as in team names.
const Role = Type.String({ minLength: 1, maxLength: 128, pattern: '^[^\\x00-\\x1f\\x7f]+$' });
const Roles = Type.Array(Role, { maxItems: 64, default: [] });

export const TeamMember = Type.Object(
  {
    name: UserName,
    leader: Type.Boolean({ default: false }),
    roles: Roles,
  },
  { additionalProperties: false },
);
export type TeamMember = Static<typeof TeamMember>;

const Members = Type.Array(TeamMember, { maxItems: 10000 });

/** An item of the PATCH list: a team with all its members. */
export const TeamInput = Type.Object(
  { name: TeamName, members: Type.Array(TeamMember, { maxItems: 10000, default: [] }) },
  { additionalProperties: false },
);
export type TeamInput = Static<typeof TeamInput>;

export const TeamList = Type.Array(TeamInput, { maxItems: 1000 });

// The team's name comes from the path; AYON's own clients send only members, others may echo the name.
export const TeamPut = Type.Object(
  { members: Members, name: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

// The member's name comes from the path; a missing flag or role list keeps the member's current one.
export const MemberPut = Type.Object(
  {
    leader: Type.Optional(Type.Boolean()),
    roles: Type.Optional(Type.Array(Role, { maxItems: 64 })),
    name: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const ProjectParams = Type.Object({ project_name: ProjectName });
export const TeamParams = Type.Object({ project_name: ProjectName, team_name: TeamName });
export const MemberParams = Type.Object({
  project_name: ProjectName,
  team_name: TeamName,
  member_name: UserName,
});

export const TeamsQuery = Type.Object({ show_members: Type.Boolean({ default: false }) });

export const TeamListItem = Type.Object({
  name: Type.String(),
  memberCount: Type.Integer(),
  members: Type.Optional(Type.Array(TeamMember)),
  leaders: Type.Array(TeamMember),
});

/** A bare list, as AYON answers it. */
export const TeamsResponse = Type.Array(TeamListItem);

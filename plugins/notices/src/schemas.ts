import { Id, Type } from '@pipewright/sdk';

export const NoticeQuery = Type.Object({
  includeArchived: Type.Boolean({ default: false, description: 'The archived notices too' }),
  unreadOnly: Type.Boolean({ default: false }),
  limit: Type.Integer({ minimum: 1, maximum: 500, default: 100 }),
});

export const NoticeList = Type.Object({
  notices: Type.Array(
    Type.Object({
      id: Type.String(),
      topic: Type.String({ description: 'What kind of notice: webhook.paused, ...' }),
      title: Type.String(),
      body: Type.String(),
      link: Type.Union([Type.String({ description: 'A path of the web app' }), Type.Null()]),
      read: Type.Boolean(),
      active: Type.Boolean(),
      createdAt: Type.String({ format: 'date-time' }),
    }),
  ),
  unread: Type.Integer({ description: 'Unread active notices of the caller, in all' }),
});

export const MarkNotices = Type.Object({
  ids: Type.Array(Id, { minItems: 1, maxItems: 500 }),
  status: Type.Union([Type.Literal('read'), Type.Literal('unread'), Type.Literal('inactive')], {
    description: 'inactive archives them (and marks them read)',
  }),
});

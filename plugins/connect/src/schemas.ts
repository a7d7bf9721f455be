import { JsonObject, Type, type TSchema } from '@pipewright/sdk';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const CloudSubscription = Type.Object({
  name: Type.String({ description: 'Name of the subscription' }),
  productType: Type.String({ description: 'Type of the subscription' }),
  trialEnd: Nullable(Type.String({ description: 'End date of the trial' })),
});

/** AYON's YnputCloudInfoModel, with detail saying why connected is false. */
export const CloudInfo = Type.Object({
  instanceId: Type.String({ description: "This server's id towards Ynput Cloud" }),
  instanceName: Nullable(Type.String({ examples: ['ayon-staging'] })),
  orgId: Nullable(Type.String()),
  orgName: Nullable(Type.String({ examples: ['ynput'] })),
  orgTitle: Nullable(Type.String({ examples: ['Ynput'] })),
  managed: Type.Boolean({ description: 'Is the instance managed by Ynput Cloud?' }),
  collectSaturatedMetrics: Type.Boolean(),
  subscriptions: Type.Array(CloudSubscription),
  connected: Type.Boolean({
    description: 'A key is stored and the cloud confirmed it (within the last 10 minutes)',
  }),
  detail: Type.Optional(
    Type.String({
      description: 'Why connected is false: no key, cloud unreachable, key refused, not verified yet',
    }),
  ),
});

export const ConnectRequest = Type.Object(
  {
    key: Type.String({ description: 'Ynput Cloud key' }),
  },
  { additionalProperties: false },
);

export const AuthorizeQuery = Type.Object({
  origin_url: Type.String({
    description:
      'Where the cloud sends the browser back to, with the key, once the studio authorised this server',
    examples: ['https://pipeline.studio.example/settings/connect'],
  }),
});

export const FeedbackQuery = Type.Object({
  force: Type.Optional(
    Type.Boolean({ default: false, description: 'Ask the cloud again instead of reusing a verification' }),
  ),
});

export const FeedbackAnswer = Type.Object({
  available: Type.Boolean(),
  detail: Type.Union([Type.String(), Type.Null()], { description: 'Why feedback is not available' }),
  data: Type.Union([JsonObject, Type.Null()], {
    description: "The cloud's verification data for the feedback widget",
  }),
});

import { createServiceRef } from '@pipewright/sdk';

/** What the server tells a user: a line, what to do about it, and where in the web app to do it. */
export interface NoticeInput {
  /** What kind of notice, for filters and tests: webhook.paused. */
  topic: string;
  title: string;
  body?: string;
  /** A path of the web app: /settings/webhooks. */
  link?: string | null;
}

/** Provided by the notices addon: notices from the server to users, shown in their inbox. */
export interface Notices {
  /**
   * Tell users something, with an inbox.message event so open inboxes show it at once: in the caller's unit of work
   * when there is one, so the notice commits with what it tells of.
   */
  send(recipients: string[], notice: NoticeInput): Promise<void>;
}

/** The notices service of the notices addon. */
export const noticesRef = createServiceRef<Notices>({ addon: 'notices', id: 'notices' });

import { createServiceRef } from '@pipewright/sdk';

/** What other addons may use: a secret's value by name (null when missing or unreadable), and storing one. */
export interface SecretStore {
  /** Every secret's name, sorted. */
  names(): Promise<string[]>;
  get(name: string): Promise<string | null>;
  /** Create or replace a value, recording who did (secret.updated); answers whether it already existed. */
  set(name: string, value: string, actor: string): Promise<boolean>;
  /** Forget a secret, recording who did (secret.deleted); NotFound when there is none. */
  remove(name: string, actor: string): Promise<void>;
}

/** The secrets service of the secrets addon. */
export const secretsRef = createServiceRef<SecretStore>({ addon: 'secrets', id: 'secrets' });

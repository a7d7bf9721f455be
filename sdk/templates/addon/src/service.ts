import type { AddonInfo } from '@pipewright/sdk';
import type { AddonSettings } from '@pipewright/plugin-settings/api';
import type { Greetings } from './api.js';
import type { VisitStore } from './store.js';

/** What the addon decides: the greeting in the studio's words, and the visit counted. */
export class GreetingService implements Greetings {
  constructor(
    private readonly visits: VisitStore,
    private readonly settings: AddonSettings,
    private readonly addon: Pick<AddonInfo, 'name' | 'version'>,
  ) {}

  async greet(userName: string): Promise<{ message: string; visits: number }> {
    const values = await this.settings.values(this.addon.name, this.addon.version);
    const visits = await this.visits.visit(userName);
    return { message: `${values?.greeting ?? 'Hello'}, ${userName}`, visits };
  }
}

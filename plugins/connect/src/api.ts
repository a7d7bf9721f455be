import { createServiceRef } from '@pipewright/sdk';

/** What other addons may use: calls to Ynput Cloud with this server's credentials. */
export interface YnputCloud {
  /** The cloud base URL calls go to now (YNPUT_CLOUD_URL, default https://im.ayon.cloud). */
  baseUrl(): string;
  /**
   * Call the cloud API as this server and answer its JSON object. Errors, each with a sentence for the operator:
   * 403 when no key is stored or the cloud refuses it, 502 when the cloud cannot be reached or answers nonsense.
   */
  request(
    method: 'GET' | 'POST',
    path: string,
    options?: { query?: Record<string, string>; body?: unknown },
  ): Promise<Record<string, unknown>>;
}

/** The ynputCloud service of the connect addon. */
export const ynputCloudRef = createServiceRef<YnputCloud>({ addon: 'connect', id: 'ynputCloud' });

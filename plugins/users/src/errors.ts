import { PipewrightError } from '@pipewright/sdk';

// Answers only this area gives. They extend the sdk's base error, so the core shapes them like every other error
// ({"code", "detail"}) without knowing about them.

/** 413: an upload or a value bigger than the server keeps. */
export class PayloadTooLarge extends PipewrightError {
  constructor(what: string, limit: number, size?: number) {
    const measured = size === undefined ? '' : ` (${size} bytes)`;
    super(413, `The ${what} is larger than the limit of ${limit} bytes${measured}`, 'payload-too-large');
  }
}

import { PipewrightError } from '@pipewright/sdk';

// Answers only this area gives. They extend the sdk's base error, so the core shapes them like every other error
// ({"code", "detail"}) without knowing about them.

/** 413: the upload is bigger than the server accepts. */
export class PayloadTooLarge extends PipewrightError {
  constructor(limit: number) {
    super(413, `The file is larger than the upload limit of ${limit} bytes`, 'payload-too-large');
  }
}

/** 415: a preview was asked of a file that is neither an image nor a video. */
export class UnsupportedMedia extends PipewrightError {
  constructor(message: string) {
    super(415, message, 'unsupported-media');
  }
}

/** 416: a Range header that lies outside the file. */
export class RangeNotSatisfiable extends PipewrightError {
  constructor(
    readonly size: number,
    message: string,
  ) {
    super(416, message, 'range-not-satisfiable');
  }
}

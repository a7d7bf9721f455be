import { PipewrightError } from '@pipewright/sdk';

// Answers only this area gives. They extend the sdk's base error, so the core shapes them like every other error
// ({"code", "detail"}) without knowing about them.

/** 413: the upload is bigger than the files addon stores. */
export class PayloadTooLarge extends PipewrightError {
  constructor(limit: number) {
    super(413, `The file is larger than the upload limit of ${limit} bytes`, 'payload-too-large');
  }
}

/** 415: the upload is neither a video nor an image. */
export class UnsupportedMediaType extends PipewrightError {
  constructor(contentType: string) {
    super(
      415,
      `Reviewables are videos (video/*, application/mxf) or images (image/*), not ${contentType}`,
      'unsupported-media-type',
    );
  }
}

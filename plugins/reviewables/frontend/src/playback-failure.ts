/** Why a browser could not play a video, for people. */
export function playbackFailure(error: MediaError | null): string {
  switch (error?.code) {
    case MediaError.MEDIA_ERR_NETWORK:
      return 'The video could not be read from the server. Check the connection and choose it again.';
    case MediaError.MEDIA_ERR_DECODE:
      return 'This browser could not decode the video. A conversion to H.264 (8-bit 4:2:0, MP4) plays everywhere.';
    case MediaError.MEDIA_ERR_SRC_NOT_SUPPORTED:
      return 'This browser cannot play this file as it is. A conversion to H.264 (8-bit 4:2:0, MP4) plays everywhere.';
    default:
      return 'The video stopped with an error. Choose it again to retry.';
  }
}

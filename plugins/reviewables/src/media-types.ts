/** Video, MXF (the one video container sent as application/) or image: what a reviewable may be. */
export const isReviewableType = (contentType: string) =>
  /^(video\/|image\/|application\/mxf\s*(;|$))/i.test(contentType.trim());

import { createContext, useContext } from 'react';
import type { ReviewSession } from './use-review-session';

/** The synced review session the screen takes part in, for the parts that follow or drive it; null outside one. */
export const ReviewSessionContext = createContext<ReviewSession | null>(null);

export const useSessionContext = () => useContext(ReviewSessionContext);

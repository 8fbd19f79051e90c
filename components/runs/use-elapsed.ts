'use client';

import { useSyncExternalStore } from 'react';

/** A one-second clock as an external store: the snapshot is the current second. */
const subscribe = (tick: () => void) => {
  const timer = setInterval(tick, 1000);
  return () => clearInterval(timer);
};
const currentSecond = () => Math.floor(Date.now() / 1000);
const noClockOnServer = () => null;

/**
 * Milliseconds since `since` (an ISO time), ticking every second while `live`;
 * null when there is no start time or not live. The server renders none, so
 * its HTML and the hydrating render agree.
 */
export function useElapsedMs(since: string | null, live: boolean): number | null {
  const second = useSyncExternalStore(live ? subscribe : noSubscription, currentSecond, noClockOnServer);
  if (!live || !since || second === null) return null;
  return Math.max(0, second * 1000 - Date.parse(since));
}

const noSubscription = () => () => {};

import { SESSION_BROADCAST_CHANNEL } from '@rpm/contracts';

/** What one tab tells the others about the shared session. */
export type SessionMessage =
  | { type: 'activity'; at: number }
  | { type: 'expired' }
  | { type: 'logout' };

export interface SessionChannel {
  post(message: SessionMessage): void;
  close(): void;
}

const STORAGE_KEY = `${SESSION_BROADCAST_CHANNEL}.message`;

function isSessionMessage(value: unknown): value is SessionMessage {
  if (!value || typeof value !== 'object' || !('type' in value)) return false;
  const { type } = value as { type: unknown };
  return type === 'activity' || type === 'expired' || type === 'logout';
}

/**
 * A channel between the portal's tabs: BroadcastChannel where the browser has it, else the
 * `storage` event of localStorage (which fires in every other tab of the same origin).
 */
export function openSessionChannel(onMessage: (message: SessionMessage) => void): SessionChannel {
  if (typeof BroadcastChannel === 'function') {
    const channel = new BroadcastChannel(SESSION_BROADCAST_CHANNEL);
    channel.onmessage = (e: MessageEvent) => {
      if (isSessionMessage(e.data)) onMessage(e.data);
    };
    return {
      post: (message) => channel.postMessage(message),
      close: () => channel.close(),
    };
  }
  const onStorage = (e: StorageEvent) => {
    if (e.key !== STORAGE_KEY || !e.newValue) return;
    try {
      const parsed = JSON.parse(e.newValue) as { message?: unknown };
      if (isSessionMessage(parsed.message)) onMessage(parsed.message);
    } catch {
      /* not ours */
    }
  };
  window.addEventListener('storage', onStorage);
  return {
    post(message) {
      try {
        // A nonce makes every post a change, so that repeating a message still fires the event.
        localStorage.setItem(STORAGE_KEY, JSON.stringify({ message, nonce: Math.random() }));
      } catch {
        /* storage blocked: tabs cannot talk */
      }
    },
    close: () => window.removeEventListener('storage', onStorage),
  };
}

import { describe, expect, it, vi } from 'vitest';
import { loadEarly } from './load-early.ts';

describe('loadEarly', () => {
  it('starts the download at once and hands that same download to the first render', async () => {
    const load = vi.fn(() => Promise.resolve({ default: 'module' }));
    const loader = loadEarly(load);
    expect(load).toHaveBeenCalledTimes(1);
    await expect(loader()).resolves.toEqual({ default: 'module' });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('retries when the early download failed, and an early failure is never unhandled', async () => {
    const load = vi
      .fn<() => Promise<string>>()
      .mockImplementationOnce(() => Promise.reject(new Error('offline')))
      .mockImplementationOnce(() => Promise.resolve('module'));
    const loader = loadEarly(load);
    await expect(loader()).resolves.toBe('module');
    expect(load).toHaveBeenCalledTimes(2);
  });
});

/**
 * The storage the SMART client (fhirclient) keeps its launch state in: the state key, the EHR's
 * endpoints and the PKCE verifier. It is held in memory for one request and saved by the service
 * in the launch's row (ehr_launch_states.data), keyed by the browser's launch cookie, so that no
 * state lives in this process between the launch and the callback (any instance can answer).
 */
export class SmartStorage {
  private readonly values: Map<string, unknown>;

  constructor(initial: Record<string, unknown> = {}) {
    this.values = new Map(Object.entries(initial));
  }

  async get(key: string): Promise<unknown> {
    return this.values.get(key);
  }

  async set(key: string, value: unknown): Promise<unknown> {
    this.values.set(key, value);
    return value;
  }

  async unset(key: string): Promise<boolean> {
    return this.values.delete(key);
  }

  toJSON(): Record<string, unknown> {
    return Object.fromEntries(this.values);
  }
}

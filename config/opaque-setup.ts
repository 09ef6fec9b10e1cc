import * as opaque from '@serenity-kit/opaque';

/**
 * The OPAQUE server setup holds the server's long-term key pair. Every registered password
 * is bound to it, so it is generated once and must survive restarts unchanged.
 */
export async function createOpaqueServerSetup(): Promise<string> {
  await opaque.ready;
  return opaque.server.createSetup();
}

/** Whether the value deserialises as a server setup (the library rejects it otherwise). */
export async function isValidOpaqueServerSetup(value: string): Promise<boolean> {
  await opaque.ready;
  try {
    opaque.server.getPublicKey(value);
    return true;
  } catch {
    return false;
  }
}

import { loadConfig, requireValid } from '../config/index.js';
import { resolveManagementEndpoint } from '../config/index.js';
import { ManagementClient } from '../gateways/management/client.js';

/**
 * The management client a CLI command uses, configured exactly as the server is (same
 * --config file, same SVC_MANAGEMENT_* variables) so both sides agree on the endpoint.
 * Only the management keys must be valid: the CLI needs none of the server's secrets.
 */
export async function managementClientFor(configFile: string | undefined): Promise<ManagementClient> {
  const loaded = await loadConfig({ ...(configFile ? { file: configFile } : {}), env: process.env });
  const config = requireValid(loaded, 'client');
  return new ManagementClient(resolveManagementEndpoint(config));
}

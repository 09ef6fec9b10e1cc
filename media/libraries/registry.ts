/**
 * The library connectors this process knows, by kind: `builtinConnectors` registers WebDAV,
 * Alist, Jellyfin and Emby; another kind is one more `register` line there. The
 * routes and the `library` provider only ask by kind, so a connection whose kind is no longer
 * registered answers `not_found` naming it rather than failing.
 */
import { AppError } from '../../errors/index.js';
import type { UpstreamClient } from '../proxy/upstream-client.js';
import { AlistConnector } from './alist.js';
import { embyConnector } from './emby.js';
import { jellyfinConnector } from './jellyfin.js';
import type { LibraryConnector } from './connector.js';
import { WebDavConnector } from './webdav.js';

const KIND = /^[a-z][a-z0-9_-]{0,31}$/;

export interface ConnectorSummary {
  kind: string;
  label: string;
}

export class ConnectorRegistry {
  private readonly connectors = new Map<string, LibraryConnector>();

  register(connector: LibraryConnector): this {
    if (!KIND.test(connector.kind)) throw new Error(`library kind "${connector.kind}" must match ${KIND.source}`);
    if (this.connectors.has(connector.kind)) throw new Error(`library kind "${connector.kind}" is registered twice`);
    this.connectors.set(connector.kind, connector);
    return this;
  }

  has(kind: string): boolean {
    return this.connectors.has(kind);
  }

  require(kind: string): LibraryConnector {
    const connector = this.connectors.get(kind);
    if (!connector) throw new AppError('not_found', `libraries of kind "${kind}" are not available on this server`);
    return connector;
  }

  list(): ConnectorSummary[] {
    return [...this.connectors.values()].map(({ kind, label }) => ({ kind, label }));
  }
}

/** Every connector this server has, reaching servers only through `http` (SSRF rules, timeouts). */
export function builtinConnectors(http: UpstreamClient): ConnectorRegistry {
  return new ConnectorRegistry().register(new WebDavConnector(http)).register(new AlistConnector(http)).register(jellyfinConnector(http)).register(embyConnector(http));
}
